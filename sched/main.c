// SPDX-License-Identifier: GPL-2.0
/*
 * ctxsched: a blk-mq I/O scheduler with CFQ-style per-context time slices.
 *
 * This file is the glue between the blk-mq elevator interface and the
 * scheduler: request bookkeeping, merging, insertion and dispatch.  Queue
 * management and the dispatch loop are in queue.c, the decisions in
 * policy.c.
 *
 * Every request the core hands to ctxsched is in exactly one state (rq.h):
 * unknown, queued in a context's queue, on the at-head dispatch list, or
 * owned by the driver.  The counts of the last three must be zero when a
 * queue switches away, which is how lost or duplicated requests show up.
 */
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/iocontext.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <trace/events/block.h>

#include "ctxsched.h"
#include "rq.h"

static inline struct cs_data *cs_of(struct request_queue *q)
{
	return q->elevator->elevator_data;
}

static void cs_insert_one(struct cs_data *cd, struct request *rq,
			  bool at_head, u64 now, struct list_head *free)
{
	struct request_queue *q = cd->q;
	unsigned long state = cs_rq_state(rq);
	struct cs_queue *cq = cs_rq_queue(rq);

	lockdep_assert_held(&cd->lock);

	if (WARN_ON_ONCE(state & (CS_RQ_QUEUED | CS_RQ_HEAD)))
		return;
	if (WARN_ON_ONCE(state & CS_RQ_DRIVER)) {
		/* Requeued without ->requeue_request(): keep counts right. */
		cd->in_driver[cs_rq_sync(rq)]--;
		if (cq)
			cq->dispatched--;
	}

	if (at_head) {
		/* Requeues and flush sequences go first, unscheduled. */
		list_add(&rq->queuelist, &cd->dispatch);
		cs_rq_set(rq, CS_RQ_HEAD, rq_is_sync(rq));
		rq->fifo_time = now;
		cd->nr_queued++;
		cd->stats.head_inserted++;
		return;
	}

	/* Insert merges cannot be checked against the size cap: skip them. */
	if (!cs_tun(cd, CS_T_MAX_REQUEST_KB) &&
	    blk_mq_sched_try_insert_merge(q, rq, free)) {
		cd->stats.rq_merged++;
		return;
	}
	trace_block_rq_insert(rq);
	if (!cq) {
		cq = cs_queue_for_rq(cd, rq);
		rq->elv.priv[0] = cq;
	}
	cd->stats.inserted++;
	cs_add_request(cd, cq, rq, now);
}

static void cs_insert_requests(struct blk_mq_hw_ctx *hctx,
			       struct list_head *list, CS_INSERT_FLAGS flags)
{
	struct cs_data *cd = cs_of(hctx->queue);
	bool at_head = cs_insert_at_head(flags);
	u64 now = ktime_get_ns();
	struct request *rq, *next;
	LIST_HEAD(free);

	spin_lock_irq(&cd->lock);
	list_for_each_entry_safe(rq, next, list, queuelist) {
		list_del_init(&rq->queuelist);
		cs_insert_one(cd, rq, at_head, now, &free);
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
	struct cs_queue *cq;
	struct request *rq;
	bool sync;

	spin_lock_irq(&cd->lock);
	rq = list_first_entry_or_null(&cd->dispatch, struct request,
				      queuelist);
	if (rq) {
		list_del_init(&rq->queuelist);
		cd->nr_queued--;
		cq = cs_rq_queue(rq);
		if (cq)
			cq->dispatched++;
	} else {
		rq = cs_dispatch_from_queues(cd, ktime_get_ns());
	}
	if (rq) {
		sync = rq_is_sync(rq);
		cs_rq_set(rq, CS_RQ_DRIVER, sync);
		cd->in_driver[sync]++;
		cd->head = blk_rq_pos(rq) + blk_rq_sectors(rq);
		cd->stats.dispatched++;
		/* Nothing may merge into a request the driver owns. */
		rq->rq_flags |= RQF_STARTED;
	}
	spin_unlock_irq(&cd->lock);
	return rq;
}

static bool cs_has_work(struct blk_mq_hw_ctx *hctx)
{
	return READ_ONCE(cs_of(hctx->queue)->nr_queued) != 0;
}

static void cs_prepare_request(struct request *rq)
{
	struct io_cq *icq;

	/* Takes a reference on the submitter's io_context, if any. */
	icq = ioc_find_get_icq(rq->q);
	rq->elv.icq = icq;
	rq->elv.priv[0] = NULL;
	rq->elv.priv[1] = NULL;
	/* The context belongs to the task that submits through it. */
	if (icq && !icq_to_cic(icq)->tgid)
		icq_to_cic(icq)->tgid = current->tgid;
}

/* The driver is done with @rq, or @rq never got to a ctxsched list. */
static void cs_finish_request(struct request *rq)
{
	struct cs_queue *cq = cs_rq_queue(rq);
	unsigned long state = cs_rq_state(rq);
	struct cs_data *cd;
	unsigned long flags;
	bool sync;

	if (cq || (state & CS_RQ_WHERE)) {
		cd = cs_of(rq->q);
		sync = cs_rq_sync(rq);
		spin_lock_irqsave(&cd->lock, flags);
		if (WARN_ON_ONCE(state & (CS_RQ_QUEUED | CS_RQ_HEAD))) {
			if (state & CS_RQ_QUEUED) {
				cs_remove_request(cd, cq, rq);
			} else {
				list_del_init(&rq->queuelist);
				cd->nr_queued--;
			}
		}
		if (state & CS_RQ_DRIVER) {
			cd->in_driver[sync]--;
			cd->stats.completed++;
			if (cq)
				cs_request_done(cd, cq, rq, sync,
						ktime_get_ns());
		}
		if (cq)
			cs_put_queue(cq);
		spin_unlock_irqrestore(&cd->lock, flags);
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
	struct cs_queue *cq = cs_rq_queue(rq);
	unsigned long state = cs_rq_state(rq);
	struct cs_data *cd = cs_of(rq->q);
	unsigned long flags;

	if (!(state & CS_RQ_DRIVER))
		return;
	spin_lock_irqsave(&cd->lock, flags);
	cd->in_driver[cs_rq_sync(rq)]--;
	cd->stats.requeued++;
	if (cq)
		cq->dispatched--;
	cs_rq_set(rq, 0, false);
	spin_unlock_irqrestore(&cd->lock, flags);
}

/* The submitting task's part of this queue, looked up without creating it. */
static struct cs_icq *cs_current_cic(struct request_queue *q)
{
	struct io_cq *icq;
	unsigned long flags;

	if (!current->io_context)
		return NULL;
	/* Some kernels require queue_lock here; it is harmless on others. */
	spin_lock_irqsave(&q->queue_lock, flags);
	icq = ioc_lookup_icq(q);
	spin_unlock_irqrestore(&q->queue_lock, flags);
	return icq ? icq_to_cic(icq) : NULL;
}

static bool cs_bio_merge(struct request_queue *q, struct bio *bio,
			 unsigned int nr_segs)
{
	struct cs_icq *cic = cs_current_cic(q);
	struct cs_data *cd = cs_of(q);
	struct request *free = NULL;
	bool merged;

	spin_lock_irq(&cd->lock);
	cd->bio_q = cs_queue_for_bio(cd, cic, bio);
	merged = blk_mq_sched_try_merge(q, bio, nr_segs, &free);
	cd->bio_q = NULL;
	spin_unlock_irq(&cd->lock);

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
	if (!cs_cap_allows(cs_tun(cd, CS_T_MAX_REQUEST_KB), blk_rq_bytes(rq),
			   bio->bi_iter.bi_size)) {
		cd->stats.cap_refused++;
		return false;
	}
	return true;
}

/*
 * The neighbours the core tries to merge a grown request with; none when
 * the result would exceed max_request_kb.
 */
static struct request *cs_former_request(struct request_queue *q,
					 struct request *rq)
{
	struct request *prev = elv_rb_former_request(q, rq);
	struct cs_data *cd = cs_of(q);

	if (prev && !cs_cap_allows(cs_tun(cd, CS_T_MAX_REQUEST_KB),
				   blk_rq_bytes(prev), blk_rq_bytes(rq))) {
		cd->stats.cap_refused++;
		return NULL;
	}
	return prev;
}

static struct request *cs_next_request(struct request_queue *q,
				       struct request *rq)
{
	struct request *next = elv_rb_latter_request(q, rq);
	struct cs_data *cd = cs_of(q);

	if (next && !cs_cap_allows(cs_tun(cd, CS_T_MAX_REQUEST_KB),
				   blk_rq_bytes(rq), blk_rq_bytes(next))) {
		cd->stats.cap_refused++;
		return NULL;
	}
	return next;
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

	lockdep_assert_held(&cd->lock);

	cd->stats.bio_merged++;
	/* A front merge moved the start sector: re-sort. */
	if (type == ELEVATOR_FRONT_MERGE && (cs_rq_state(rq) & CS_RQ_QUEUED))
		cs_reposition_request(cs_rq_queue(rq), rq);
}

/* @next was merged into @rq and will be freed by the core. */
static void cs_requests_merged(struct request_queue *q, struct request *rq,
			       struct request *next)
{
	struct cs_data *cd = cs_of(q);
	struct cs_queue *cq = cs_rq_queue(next);

	lockdep_assert_held(&cd->lock);

	if (!(cs_rq_state(next) & CS_RQ_QUEUED))
		return;
	/* @rq inherits the earlier deadline and its place in the FIFO. */
	if (cs_rq_queue(rq) == cq && (cs_rq_state(rq) & CS_RQ_QUEUED) &&
	    next->fifo_time < rq->fifo_time) {
		list_move(&rq->queuelist, &next->queuelist);
		rq->fifo_time = next->fifo_time;
	}
	cs_remove_request(cd, cq, next);
	cd->stats.rq_merged++;
}

/* Async requests may not take the tags reserved for sync ones. */
static void cs_limit_depth(blk_opf_t opf, struct blk_mq_alloc_data *data)
{
	if (op_is_sync(opf))
		return;
	data->shallow_depth = cs_compat_async_depth(data->q,
						    cs_of(data->q)->async_depth);
}

static void cs_exit_icq(struct io_cq *icq)
{
	struct cs_icq *cic = icq_to_cic(icq);
	struct cs_data *cd;
	unsigned long flags;

	if (!cic->sync_q)
		return;
	cd = cic->sync_q->cd;
	spin_lock_irqsave(&cd->lock, flags);
	cs_exit_cic(cd, cic);
	spin_unlock_irqrestore(&cd->lock, flags);
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
	INIT_LIST_HEAD(&cd->dispatch);
	cs_tunables_init(cd);
	cs_queue_init_data(cd);
	eq->elevator_data = cd;
	cs_set_single_dispatch(q);
	cs_update_depth(cd, true);
	cs_debugfs_add_queue(cd);
	cs_log(cd, "init");
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

	cs_debugfs_remove_queue(cd);
	cs_ra_detach(cd->ra);
	cs_queue_exit_data(cd);
	/* The queue is frozen: nothing may be left in ctxsched or the driver. */
	WARN(cd->nr_queued || cd->in_driver[0] || cd->in_driver[1],
	     "ctxsched: exit with %u queued and %u+%u in driver\n",
	     cd->nr_queued, cd->in_driver[0], cd->in_driver[1]);
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
}

module_init(ctxsched_init);
module_exit(ctxsched_exit);

MODULE_ALIAS("ctxsched-iosched");
MODULE_AUTHOR("ctxsched developers");
MODULE_DESCRIPTION("Context-aware blk-mq I/O scheduler");
MODULE_LICENSE("GPL");
MODULE_VERSION(CTXSCHED_VERSION);
