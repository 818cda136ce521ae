// SPDX-License-Identifier: GPL-2.0
/*
 * ctxsched: a blk-mq I/O scheduler with CFQ-style per-context time slices.
 *
 * This file is the glue between the blk-mq elevator interface and the
 * scheduling core (core.c): it takes cs_data.lock, reads the clock, does
 * what only blk-mq can (bio and insert merges, running the hardware queue)
 * and hands each request to the core.
 *
 * Every request the core gets is in exactly one place (rq.h): unknown,
 * queued in a context's queue, on the at-head dispatch list, or owned by
 * the driver.  The counts of the last three must be zero when a queue
 * switches away, which is how lost or duplicated requests show up.
 */
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/iocontext.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <trace/events/block.h>

#include "ctxsched.h"
#include "rq.h"

/* Run the hardware queue from outside the lock: work waits and may go. */
static void cs_kick(struct cs_data *cd)
{
	blk_mq_run_hw_queues(cd->q, true);
}

static struct cs_ctx *cs_rq_ctx(struct request *rq)
{
	return rq->elv.icq ? &icq_to_cic(rq->elv.icq)->ctx : NULL;
}

static void cs_insert_requests(struct blk_mq_hw_ctx *hctx,
			       struct list_head *list, CS_INSERT_FLAGS flags)
{
	struct request_queue *q = hctx->queue;
	bool at_head = cs_insert_at_head(flags);
	struct cs_data *cd = cs_of(q);
	struct request *rq, *next;
	u64 now = cs_now();
	LIST_HEAD(free);

	spin_lock_irq(&cd->lock);
	list_for_each_entry_safe(rq, next, list, queuelist) {
		list_del_init(&rq->queuelist);
		if (!at_head && cs_core_may_insert_merge(&cd->core, rq) &&
		    blk_mq_sched_try_insert_merge(q, rq, &free)) {
			cd->core.stats.rq_merged++;
			continue;
		}
		if (!at_head)
			trace_block_rq_insert(rq);
		cs_core_insert(&cd->core, rq, cs_rq_ctx(rq), at_head, now);
	}
	spin_unlock_irq(&cd->lock);

	list_for_each_entry_safe(rq, next, &free, queuelist) {
		list_del_init(&rq->queuelist);
		blk_mq_free_request(rq);
	}
}

static struct request *cs_dispatch_request(struct blk_mq_hw_ctx *hctx)
{
	struct cs_data *cd = cs_of(hctx->queue);
	u64 now = cs_now();	/* outside the lock: it is held short */
	struct request *rq;

	spin_lock_irq(&cd->lock);
	rq = cs_core_dispatch(&cd->core, now);
	/* Nothing may merge into a request the driver owns. */
	if (rq)
		rq->rq_flags |= RQF_STARTED;
	spin_unlock_irq(&cd->lock);
	return rq;
}

static bool cs_has_work(struct blk_mq_hw_ctx *hctx)
{
	return cs_core_has_work(&cs_of(hctx->queue)->core);
}

/*
 * The submitter's icq on @q with a reference on its io_context, as
 * ioc_find_get_icq() gives it, but found through the task's hint without
 * q->queue_lock, which 6.1 to 7.2 take for every request: one lock every
 * submitter shares.  In the issue path the task and the queue stay valid,
 * and an icq is unlinked only with the queue frozen (elevator exit) or
 * once no task uses its io_context, so an icq the hint names for @q is
 * live (7.3's ioc_lookup_icq() rests on the same).  The hint misses on a
 * task's first request and when it alternates between queues: then the
 * kernel's way, which also creates the icq.
 */
static struct io_cq *cs_get_icq(struct request_queue *q)
{
	struct io_context *ioc = current->io_context;
	struct io_cq *icq;

	if (ioc) {
		rcu_read_lock();
		icq = rcu_dereference(ioc->icq_hint);
		if (icq && icq->q == q) {
			/* get_io_context(), which is not exported */
			atomic_long_inc(&ioc->refcount);
			rcu_read_unlock();
			return icq;
		}
		rcu_read_unlock();
	}
	return ioc_find_get_icq(q);
}

static void cs_prepare_request(struct request *rq)
{
	/* Takes a reference on the submitter's io_context, if any. */
	rq->elv.icq = cs_get_icq(rq->q);
	rq->elv.priv[0] = NULL;
	rq->elv.priv[1] = NULL;
}

/* A new context on this queue, created by the task that submits through it. */
static void cs_init_icq(struct io_cq *icq)
{
	struct cs_ctx *ctx = &icq_to_cic(icq)->ctx;

	INIT_LIST_HEAD(&ctx->member);
	ctx->tgid = current->tgid;
	ctx->pool = cs_pool_key(current->flags & PF_KTHREAD, current->tgid,
				current->comm, sizeof(current->comm));
	ctx->id = (unsigned long)icq->ioc;
}

/* The driver is done with @rq, or @rq never got to a ctxsched list. */
static void cs_finish_request(struct request *rq)
{
	struct cs_data *cd;
	unsigned long flags;
	bool kick;
	u64 now;

	if (cs_rq_queue(rq) || (cs_rq_state(rq) & CS_RQ_WHERE)) {
		cd = cs_of(rq->q);
		now = cs_now();
		spin_lock_irqsave(&cd->lock, flags);
		kick = cs_core_finish(&cd->core, rq, now);
		spin_unlock_irqrestore(&cd->lock, flags);
		if (kick)
			cs_kick(cd);
	}
	rq->elv.priv[0] = NULL;
	rq->elv.priv[1] = NULL;
	if (rq->elv.icq) {
		put_io_context(rq->elv.icq->ioc);
		rq->elv.icq = NULL;
	}
}

/* @rq goes back from the driver and will be inserted again. */
static void cs_requeue_request(struct request *rq)
{
	struct cs_data *cd = cs_of(rq->q);
	unsigned long flags;

	if (!(cs_rq_state(rq) & CS_RQ_DRIVER))
		return;
	spin_lock_irqsave(&cd->lock, flags);
	cs_core_requeue(&cd->core, rq);
	spin_unlock_irqrestore(&cd->lock, flags);
}

/*
 * The submitting task's part of this queue, looked up without creating it.
 * Called under rcu_read_lock(): an icq found through the hint without
 * queue_lock may be on its way out, but its memory lasts until a grace
 * period has passed (icqs are freed by RCU), and by then ->exit_icq() has
 * cleared its queue under cd->lock, which the caller takes to read it.
 */
static struct cs_ctx *cs_current_ctx(struct request_queue *q)
{
	struct io_context *ioc = current->io_context;
	struct io_cq *icq;
	unsigned long flags;

	if (!ioc)
		return NULL;
	icq = rcu_dereference(ioc->icq_hint);
	if (!icq || icq->q != q) {
		/* ioc_lookup_icq() wants queue_lock (6.1 to 7.3). */
		spin_lock_irqsave(&q->queue_lock, flags);
		icq = ioc_lookup_icq(q);
		spin_unlock_irqrestore(&q->queue_lock, flags);
	}
	return icq ? &icq_to_cic(icq)->ctx : NULL;
}

static bool cs_bio_merge(struct request_queue *q, struct bio *bio,
			 unsigned int nr_segs)
{
	struct cs_data *cd = cs_of(q);
	struct request *free = NULL;
	struct cs_ctx *ctx = NULL;
	bool merged;

	/*
	 * Nothing queued, or nothing queued where the bio begins or ends:
	 * nothing to merge with, so no lock and no lookup (4 KiB random
	 * reads never merge).  Discards may merge without touching.
	 */
	if (!cs_core_has_work(&cd->core))
		return false;
	if (bio_op(bio) != REQ_OP_DISCARD &&
	    !cs_merge_hint_may(&cd->merge_hint, bio->bi_iter.bi_sector,
			       bio_end_sector(bio)))
		return false;
	rcu_read_lock();
	if (op_is_sync(bio->bi_opf))
		ctx = cs_current_ctx(q);

	spin_lock_irq(&cd->lock);
	cd->bio_q = cs_core_bio_queue(&cd->core, ctx, op_is_sync(bio->bi_opf),
				      bio->bi_ioprio);
	merged = cd->bio_q && blk_mq_sched_try_merge(q, bio, nr_segs, &free);
	cd->bio_q = NULL;
	spin_unlock_irq(&cd->lock);
	rcu_read_unlock();

	if (free)
		blk_mq_free_request(free);
	return merged;
}

/*
 * Bios merge only with queued requests of their own queue, and only while
 * the request stays within max_request_kb.
 */
static bool cs_allow_merge(struct request_queue *q, struct request *rq,
			   struct bio *bio)
{
	struct cs_data *cd = cs_of(q);

	lockdep_assert_held(&cd->lock);

	if (!(cs_rq_state(rq) & CS_RQ_QUEUED) || cs_rq_queue(rq) != cd->bio_q)
		return false;
	/* A sync bio must not wait in an async request. */
	if (op_is_sync(bio->bi_opf) && !rq_is_sync(rq))
		return false;
	if (!cs_cap_allows(cs_tun(&cd->core, CS_T_MAX_REQUEST_KB),
			   blk_rq_bytes(rq), bio->bi_iter.bi_size)) {
		cd->core.stats.cap_refused++;
		return false;
	}
	return true;
}

/*
 * The neighbours the core tries to merge a grown request with: none in
 * another queue, and none when the result would exceed max_request_kb.
 */
static struct request *cs_neighbour_ok(struct cs_data *cd,
				       struct request *rq,
				       struct request *other,
				       bool other_first)
{
	if (!other || cs_rq_queue(other) != cs_rq_queue(rq))
		return NULL;
	if (!cs_cap_allows(cs_tun(&cd->core, CS_T_MAX_REQUEST_KB),
			   blk_rq_bytes(other_first ? other : rq),
			   blk_rq_bytes(other_first ? rq : other))) {
		cd->core.stats.cap_refused++;
		return NULL;
	}
	return other;
}

static struct request *cs_former_request(struct request_queue *q,
					 struct request *rq)
{
	return cs_neighbour_ok(cs_of(q), rq, elv_rb_former_request(q, rq),
			       true);
}

static struct request *cs_next_request(struct request_queue *q,
				       struct request *rq)
{
	return cs_neighbour_ok(cs_of(q), rq, elv_rb_latter_request(q, rq),
			       false);
}

static int cs_request_merge(struct request_queue *q, struct request **rq,
			    struct bio *bio)
{
	struct cs_data *cd = cs_of(q);
	struct request *found;

	lockdep_assert_held(&cd->lock);

	if (!cd->bio_q)
		return ELEVATOR_NO_MERGE;
	found = elv_rb_find(&cd->bio_q->sort, bio_end_sector(bio));
	if (found && elv_bio_merge_ok(found, bio)) {
		*rq = found;
		return cs_discard_mergeable(found) ? ELEVATOR_DISCARD_MERGE :
						     ELEVATOR_FRONT_MERGE;
	}
	return ELEVATOR_NO_MERGE;
}

static void cs_request_merged(struct request_queue *q, struct request *rq,
			      enum elv_merge type)
{
	struct cs_data *cd = cs_of(q);

	cs_core_bio_merged(&cd->core, rq, type == ELEVATOR_FRONT_MERGE);
	cs_merge_hint_note(&cd->merge_hint, blk_rq_pos(rq),
			   blk_rq_pos(rq) + blk_rq_sectors(rq));
}

/* @next was merged into @rq and will be freed by the core. */
static void cs_requests_merged(struct request_queue *q, struct request *rq,
			       struct request *next)
{
	struct cs_data *cd = cs_of(q);

	cs_core_requests_merged(&cd->core, rq, next);
	cs_merge_hint_note(&cd->merge_hint, blk_rq_pos(rq),
			   blk_rq_pos(rq) + blk_rq_sectors(rq));
}

/* Async requests may not take the tags reserved for sync ones. */
static void cs_limit_depth(blk_opf_t opf, struct blk_mq_alloc_data *data)
{
	if (op_is_sync(opf))
		return;
	data->shallow_depth =
		cs_compat_async_depth(data->q,
				      READ_ONCE(cs_of(data->q)->async_depth));
}

static void cs_exit_icq(struct io_cq *icq)
{
	/* The context's queue may change under cd->lock: read it there. */
	struct cs_data *cd = cs_of(icq->q);
	unsigned long flags;
	bool kick;

	spin_lock_irqsave(&cd->lock, flags);
	kick = cs_core_ctx_exit(&cd->core, &icq_to_cic(icq)->ctx);
	spin_unlock_irqrestore(&cd->lock, flags);
	if (kick)
		cs_kick(cd);
}

static enum hrtimer_restart cs_idle_timer_fn(struct hrtimer *timer)
{
	struct cs_data *cd = container_of(timer, struct cs_data, idle_timer);
	unsigned long flags;
	bool kick;

	spin_lock_irqsave(&cd->lock, flags);
	kick = cs_core_idle_timer(&cd->core, cs_now());
	spin_unlock_irqrestore(&cd->lock, flags);
	if (kick)
		cs_kick(cd);
	return HRTIMER_NORESTART;
}

/**
 * cs_setup() - set up ctxsched for a request queue
 * @q: the queue
 * @eq: its elevator_queue, which gets the scheduler data
 *
 * Called by cs_elv_init_sched(), the kernel-specific ->init_sched().
 *
 * Return: 0 or -ENOMEM.
 */
int cs_setup(struct request_queue *q, struct elevator_queue *eq)
{
	struct cs_model_memory mem = { .valid = false };
	u64 tun[CS_NR_TUNABLES];
	struct cs_data *cd;

	cd = kzalloc_node(sizeof(*cd), GFP_KERNEL, q->node);
	if (!cd)
		return -ENOMEM;

	cd->ra = cs_ra_attach(q->disk);
	if (!cd->ra) {
		kfree(cd);
		return -ENOMEM;
	}
	cd->q = q;
	spin_lock_init(&cd->lock);
	cs_hrtimer_setup(&cd->idle_timer, cs_idle_timer_fn);
	cs_tunables_defaults(tun);
	if (q->disk)
		cs_devmem_load(disk_devt(q->disk), &mem);
	cs_core_init(&cd->core, tun, cs_queue_rotational(q), &mem, cs_now());
	cs_core_set_tags(&cd->core, q->tag_set->queue_depth);
	eq->elevator_data = cd;
	cs_set_single_dispatch(q);
	cs_update_depth(cd, true);
	cs_debugfs_add_queue(cd);
	cs_log(&cd->core, "init%s", mem.valid ? " (device model remembered)" :
						 "");
	return 0;
}

/**
 * cs_depth_changed() - the queue's nr_requests changed
 * @q: the queue
 *
 * Called by the kernel-specific ->depth_updated() in compat/compat.c.
 */
void cs_depth_changed(struct request_queue *q)
{
	cs_update_depth(cs_of(q), false);
}

static void cs_exit_sched(struct elevator_queue *eq)
{
	struct cs_data *cd = eq->elevator_data;
	struct cs_core *core = &cd->core;
	struct cs_model_learned learned;

	cs_debugfs_remove_queue(cd);
	cs_ra_detach(cd->ra);
	hrtimer_cancel(&cd->idle_timer);
	spin_lock_irq(&cd->lock);
	learned = core->model.l;
	cs_core_exit(core);
	spin_unlock_irq(&cd->lock);
	if (cd->q->disk)
		cs_devmem_save(disk_devt(cd->q->disk), &learned);
	/* The queue is frozen: nothing may be left in ctxsched or the driver. */
	WARN(core->nr_queued || core->in_driver[0] || core->in_driver[1],
	     "ctxsched: exit with %u queued and %u+%u in driver\n",
	     core->nr_queued, core->in_driver[0], core->in_driver[1]);
	kfree(cd);
}

static struct elevator_type ctxsched_elv = {
	.ops = {
		.init_sched		= cs_elv_init_sched,
		.exit_sched		= cs_exit_sched,
		.depth_updated		= cs_elv_depth_updated,
		.limit_depth		= cs_limit_depth,
		.allow_merge		= cs_allow_merge,
		.bio_merge		= cs_bio_merge,
		.request_merge		= cs_request_merge,
		.request_merged		= cs_request_merged,
		.requests_merged	= cs_requests_merged,
		.prepare_request	= cs_prepare_request,
		.finish_request		= cs_finish_request,
		.requeue_request	= cs_requeue_request,
		.insert_requests	= cs_insert_requests,
		.dispatch_request	= cs_dispatch_request,
		.has_work		= cs_has_work,
		.former_request		= cs_former_request,
		.next_request		= cs_next_request,
		.init_icq		= cs_init_icq,
		.exit_icq		= cs_exit_icq,
	},
	.icq_size = sizeof(struct cs_icq),
	.icq_align = __alignof__(struct cs_icq),
	.elevator_attrs = cs_sysfs_attrs,
	.elevator_name = "ctxsched",
	.elevator_owner = THIS_MODULE,
	CS_ELV_FEATURES_INIT
};

static int __init ctxsched_init(void)
{
	int ret;

	ret = cs_depth_probe();
	if (ret)
		return ret;
	ret = cs_debugfs_init();
	if (ret)
		return ret;
	ret = cs_ra_init();
	if (ret)
		goto out_debugfs;
	ret = elv_register(&ctxsched_elv);
	if (ret)
		goto out_ra;
	return 0;

out_ra:
	cs_ra_exit();
out_debugfs:
	cs_debugfs_exit();
	return ret;
}

static void __exit ctxsched_exit(void)
{
	elv_unregister(&ctxsched_elv);
	cs_ra_exit();
	cs_debugfs_exit();
	cs_devmem_exit();
}

module_init(ctxsched_init);
module_exit(ctxsched_exit);

MODULE_ALIAS("ctxsched-iosched");
MODULE_AUTHOR("ctxsched developers");
MODULE_DESCRIPTION("Context-aware blk-mq I/O scheduler");
MODULE_LICENSE("GPL");
MODULE_VERSION(CTXSCHED_VERSION);
