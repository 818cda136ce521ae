// SPDX-License-Identifier: GPL-2.0
/*
 * ctxsched: a blk-mq I/O scheduler.
 *
 * This file is the glue between the blk-mq elevator interface and the
 * scheduler: request bookkeeping, merging, insertion and dispatch.  Requests
 * are kept per class (sync, async) in sector order and in deadline order;
 * dispatch serves requests inserted at head first, then expired deadlines
 * (sync before async), then the next request in sector order with a bounded
 * backward seek, sync before async.
 *
 * Every request the core hands to ctxsched is in exactly one state, kept in
 * rq->elv.priv[1]: unknown to ctxsched, queued in ctxsched, or owned by the
 * driver.  The counters of the last two must be zero when a queue switches
 * away, which is how lost or duplicated requests show up.
 */
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/blktrace_api.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "ctxsched.h"

#define CS_RQ_QUEUED	0x1UL	/* on cs_data lists */
#define CS_RQ_DRIVER	0x2UL	/* dispatched, not finished */
#define CS_RQ_ASYNC	0x4UL	/* class is CS_ASYNC */

static inline unsigned long cs_rq_state(const struct request *rq)
{
	return (unsigned long)rq->elv.priv[1];
}

static inline void cs_rq_set_state(struct request *rq, unsigned long state)
{
	rq->elv.priv[1] = (void *)state;
}

static inline enum cs_class cs_rq_class(const struct request *rq)
{
	return (cs_rq_state(rq) & CS_RQ_ASYNC) ? CS_ASYNC : CS_SYNC;
}

static inline struct cs_data *cs_of(struct request_queue *q)
{
	return q->elevator->elevator_data;
}

/* Take a queued request off every ctxsched list. */
static void cs_unlink(struct cs_data *cd, struct request *rq)
{
	struct request_queue *q = cd->q;

	lockdep_assert_held(&cd->lock);

	list_del_init(&rq->queuelist);
	if (!RB_EMPTY_NODE(&rq->rb_node))
		elv_rb_del(&cd->sort[cs_rq_class(rq)], rq);
	elv_rqhash_del(q, rq);
	if (q->last_merge == rq)
		q->last_merge = NULL;
	cd->nr_queued--;
	cs_rq_set_state(rq, cs_rq_state(rq) & ~CS_RQ_QUEUED);
}

static void cs_insert_one(struct cs_data *cd, struct request *rq,
			  bool at_head, u64 now, struct list_head *free)
{
	struct request_queue *q = cd->q;
	unsigned long state = cs_rq_state(rq);
	enum cs_class class;

	lockdep_assert_held(&cd->lock);

	if (WARN_ON_ONCE(state & CS_RQ_QUEUED))
		return;
	if (WARN_ON_ONCE(state & CS_RQ_DRIVER)) {
		/* Requeued without ->requeue_request(): keep counts right. */
		atomic_dec(&cd->in_driver);
	}

	if (!at_head && blk_mq_sched_try_insert_merge(q, rq, free)) {
		cd->stats.rq_merged++;
		return;
	}

	class = rq_is_sync(rq) ? CS_SYNC : CS_ASYNC;
	cs_rq_set_state(rq, CS_RQ_QUEUED |
			(class == CS_ASYNC ? CS_RQ_ASYNC : 0));
	cd->nr_queued++;
	cd->stats.inserted++;

	if (at_head) {
		list_add(&rq->queuelist, &cd->dispatch);
		rq->fifo_time = now;
		return;
	}

	elv_rb_add(&cd->sort[class], rq);
	/* The core's merge lookups skip requests that cannot merge. */
	elv_rqhash_add(q, rq);
	if (!q->last_merge)
		q->last_merge = rq;
	rq->fifo_time = now + (u64)cs_knob(cd, class == CS_SYNC ?
					   CS_FIFO_EXPIRE_SYNC :
					   CS_FIFO_EXPIRE_ASYNC) * NSEC_PER_MSEC;
	list_add_tail(&rq->queuelist, &cd->fifo[class]);
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

/* First request at or after @pos in @root, or NULL. */
static struct request *cs_first_from(struct rb_root *root, sector_t pos)
{
	struct rb_node *node = root->rb_node;
	struct request *rq, *found = NULL;

	while (node) {
		rq = rb_entry_rq(node);
		if (blk_rq_pos(rq) >= pos) {
			found = rq;
			node = node->rb_left;
		} else {
			node = node->rb_right;
		}
	}
	return found;
}

/* The next request of @class in sector order, allowing short back seeks. */
static struct request *cs_next_by_position(struct cs_data *cd,
					   enum cs_class class)
{
	struct rb_root *root = &cd->sort[class];
	struct request *cand[2];
	sector_t pos[2];
	struct rb_node *prev;
	unsigned int nr = 0;
	int pick;

	cand[0] = cs_first_from(root, cd->head);
	if (cand[0]) {
		pos[nr++] = blk_rq_pos(cand[0]);
		prev = rb_prev(&cand[0]->rb_node);
	} else {
		prev = rb_last(root);
	}
	if (prev) {
		cand[nr] = rb_entry_rq(prev);
		pos[nr] = blk_rq_pos(cand[nr]);
		nr++;
	}
	if (!nr)
		return NULL;

	pick = cs_seek_pick(cd->head, pos, nr,
			    (sector_t)cs_knob(cd, CS_BACK_SEEK_MAX) * 2,
			    cs_knob(cd, CS_BACK_SEEK_PENALTY));
	if (pick >= 0)
		return cand[pick];
	/* Everything is far behind the head: start a new sweep. */
	return rb_entry_rq(rb_first(root));
}

static struct request *cs_choose(struct cs_data *cd, u64 now)
{
	enum cs_class class;
	struct request *rq;

	if (!list_empty(&cd->dispatch))
		return list_first_entry(&cd->dispatch, struct request,
					queuelist);

	for (class = CS_SYNC; class < CS_NR_CLASSES; class++) {
		rq = list_first_entry_or_null(&cd->fifo[class], struct request,
					      queuelist);
		if (rq && rq->fifo_time <= now) {
			cd->stats.fifo_expired++;
			return rq;
		}
	}
	for (class = CS_SYNC; class < CS_NR_CLASSES; class++) {
		rq = cs_next_by_position(cd, class);
		if (rq)
			return rq;
	}
	return NULL;
}

static struct request *cs_dispatch_request(struct blk_mq_hw_ctx *hctx)
{
	struct cs_data *cd = cs_of(hctx->queue);
	struct request *rq;

	spin_lock_irq(&cd->lock);
	rq = cs_choose(cd, ktime_get_ns());
	if (rq) {
		cs_unlink(cd, rq);
		cs_rq_set_state(rq, cs_rq_state(rq) | CS_RQ_DRIVER);
		atomic_inc(&cd->in_driver);
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
	struct cs_data *cd = cs_of(hctx->queue);

	return READ_ONCE(cd->nr_queued) != 0;
}

static void cs_prepare_request(struct request *rq)
{
	rq->elv.priv[0] = NULL;
	cs_rq_set_state(rq, 0);
}

/* The driver is done with @rq, or @rq never reached ctxsched. */
static void cs_finish_request(struct request *rq)
{
	struct cs_data *cd = cs_of(rq->q);
	unsigned long state = cs_rq_state(rq);

	WARN_ON_ONCE(state & CS_RQ_QUEUED);
	if (state & CS_RQ_DRIVER) {
		atomic_dec(&cd->in_driver);
		atomic64_inc(&cd->stats.completed);
	}
	cs_rq_set_state(rq, 0);
}

/* @rq goes back from the driver and will be inserted again. */
static void cs_requeue_request(struct request *rq)
{
	struct cs_data *cd = cs_of(rq->q);
	unsigned long state = cs_rq_state(rq);

	if (state & CS_RQ_DRIVER) {
		atomic_dec(&cd->in_driver);
		atomic64_inc(&cd->stats.requeued);
	}
	cs_rq_set_state(rq, state & ~CS_RQ_DRIVER);
}

static int cs_request_merge(struct request_queue *q, struct request **rq,
			    struct bio *bio)
{
	struct cs_data *cd = cs_of(q);
	enum cs_class class = op_is_sync(bio->bi_opf) ? CS_SYNC : CS_ASYNC;
	struct request *found;

	lockdep_assert_held(&cd->lock);

	found = elv_rb_find(&cd->sort[class], bio_end_sector(bio));
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
	if (type == ELEVATOR_FRONT_MERGE && !RB_EMPTY_NODE(&rq->rb_node)) {
		elv_rb_del(&cd->sort[cs_rq_class(rq)], rq);
		elv_rb_add(&cd->sort[cs_rq_class(rq)], rq);
	}
}

/* @next was merged into @rq and will be freed by the core. */
static void cs_requests_merged(struct request_queue *q, struct request *rq,
			       struct request *next)
{
	struct cs_data *cd = cs_of(q);

	lockdep_assert_held(&cd->lock);

	if (!(cs_rq_state(next) & CS_RQ_QUEUED))
		return;
	/* @rq inherits the earlier deadline and its place in the FIFO. */
	if (next->fifo_time < rq->fifo_time &&
	    cs_rq_class(next) == cs_rq_class(rq) &&
	    !RB_EMPTY_NODE(&rq->rb_node) && !RB_EMPTY_NODE(&next->rb_node)) {
		list_move(&rq->queuelist, &next->queuelist);
		rq->fifo_time = next->fifo_time;
	}
	cs_unlink(cd, next);
	cd->stats.rq_merged++;
}

static bool cs_bio_merge(struct request_queue *q, struct bio *bio,
			 unsigned int nr_segs)
{
	struct cs_data *cd = cs_of(q);
	struct request *free = NULL;
	bool merged;

	spin_lock_irq(&cd->lock);
	merged = blk_mq_sched_try_merge(q, bio, nr_segs, &free);
	spin_unlock_irq(&cd->lock);

	if (free)
		blk_mq_free_request(free);
	return merged;
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
	enum cs_class class;

	cd = kzalloc_node(sizeof(*cd), GFP_KERNEL, q->node);
	if (!cd)
		return -ENOMEM;

	cd->q = q;
	spin_lock_init(&cd->lock);
	INIT_LIST_HEAD(&cd->dispatch);
	for (class = CS_SYNC; class < CS_NR_CLASSES; class++) {
		cd->sort[class] = RB_ROOT;
		INIT_LIST_HEAD(&cd->fifo[class]);
	}
	atomic_set(&cd->in_driver, 0);
	atomic64_set(&cd->stats.completed, 0);
	atomic64_set(&cd->stats.requeued, 0);
	cs_knobs_init(cd);

	eq->elevator_data = cd;
	cs_set_single_dispatch(q);
	cs_debugfs_add_queue(cd);
	blk_add_trace_msg(q, "ctxsched: init");
	return 0;
}

static void cs_exit_sched(struct elevator_queue *eq)
{
	struct cs_data *cd = eq->elevator_data;

	cs_debugfs_remove_queue(cd);
	/* The queue is frozen: nothing may be left in ctxsched or the driver. */
	WARN(cd->nr_queued || atomic_read(&cd->in_driver),
	     "ctxsched: exit with %u queued and %d in driver\n",
	     cd->nr_queued, atomic_read(&cd->in_driver));
	kfree(cd);
}

static struct elevator_type ctxsched_elv = {
	.ops = {
		.init_sched		= cs_elv_init_sched,
		.exit_sched		= cs_exit_sched,
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
		.former_request		= elv_rb_former_request,
		.next_request		= elv_rb_latter_request,
	},
	.elevator_attrs = cs_sysfs_attrs,
	.elevator_name = "ctxsched",
	.elevator_owner = THIS_MODULE,
	CS_ELV_FEATURES_INIT
};

static int __init ctxsched_init(void)
{
	int ret;

	ret = cs_debugfs_init();
	if (ret)
		return ret;
	ret = elv_register(&ctxsched_elv);
	if (ret)
		cs_debugfs_exit();
	return ret;
}

static void __exit ctxsched_exit(void)
{
	elv_unregister(&ctxsched_elv);
	cs_debugfs_exit();
}

module_init(ctxsched_init);
module_exit(ctxsched_exit);

MODULE_ALIAS("ctxsched-iosched");
MODULE_AUTHOR("ctxsched developers");
MODULE_DESCRIPTION("Context-aware blk-mq I/O scheduler");
MODULE_LICENSE("GPL");
MODULE_VERSION(CTXSCHED_VERSION);
