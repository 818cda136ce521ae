/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Thin wrappers over elevator API differences between kernel releases, so
 * that the scheduler reads the same on every kernel.
 */
#ifndef CTXSCHED_COMPAT_H
#define CTXSCHED_COMPAT_H

#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/hrtimer.h>
#include <linux/sched.h>
#include "elevator.h"

/*
 * ->insert_requests() took a bool before 6.4 and blk_insert_t since:
 * CS_INSERT_FLAGS is the type of its last parameter.
 */
#ifdef CS_ELV_INSERT_BOOL
#define CS_INSERT_FLAGS	bool
static inline bool cs_insert_at_head(bool at_head)
{
	return at_head;
}
#else
#define CS_INSERT_FLAGS	cs_blk_insert_t
static inline bool cs_insert_at_head(cs_blk_insert_t flags)
{
	return flags & CS_INSERT_AT_HEAD;
}
#endif

/*
 * ->init_sched() in the form the kernel expects (compat/compat.c).  It calls
 * cs_setup(), which allocates the scheduler's data, stores it in
 * eq->elevator_data and frees it again if it fails.
 */
#ifdef CS_ELV_INIT_TAKES_EQ
int cs_elv_init_sched(struct request_queue *q, struct elevator_queue *eq);
#else
int cs_elv_init_sched(struct request_queue *q, struct elevator_type *e);
#endif
int cs_setup(struct request_queue *q, struct elevator_queue *eq);

/*
 * ->depth_updated() in the form the kernel expects (compat/compat.c); it
 * calls cs_depth_changed() once the queue's new depth is in place.
 */
#ifdef CS_ELV_DEPTH_UPDATED_Q
void cs_elv_depth_updated(struct request_queue *q);
#else
void cs_elv_depth_updated(struct blk_mq_hw_ctx *hctx);
#endif
void cs_depth_changed(struct request_queue *q);

/*
 * The async depth to apply: where the kernel keeps one per queue
 * (queue/async_depth, 7.0), that one, initialised from ctxsched's default;
 * elsewhere ctxsched's own.
 */
static inline unsigned int cs_compat_async_depth(struct request_queue *q,
						 unsigned int ours)
{
#ifdef CS_Q_HAS_ASYNC_DEPTH
	return q->async_depth;
#else
	return ours;
#endif
}

static inline void cs_compat_init_async_depth(struct request_queue *q,
					      unsigned int ours)
{
#ifdef CS_Q_HAS_ASYNC_DEPTH
	q->async_depth = ours;
#endif
}

/* hrtimer_setup() arrived in 6.13; hrtimer_init() left in 6.15. */
static inline void cs_hrtimer_setup(struct hrtimer *timer,
				    enum hrtimer_restart (*fn)(struct hrtimer *))
{
#if CS_KERNEL_AT_LEAST(6, 13, 0)
	hrtimer_setup(timer, fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
#else
	hrtimer_init(timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	timer->function = fn;
#endif
}

/* blk_queue_nonrot() became blk_queue_rot() in 7.x. */
#ifdef blk_queue_nonrot
#define cs_queue_rotational(q)	(!blk_queue_nonrot(q))
#else
#define cs_queue_rotational(q)	(!!blk_queue_rot(q))
#endif

/*
 * The clock, ns (CLOCK_MONOTONIC).  Since 6.9 a task that submits under a
 * plug reads it once until it sleeps or the plug ends, and the block layer
 * times requests with that (blk_time_get_ns() in block/blk.h, which a
 * module cannot include; rq->io_start_time_ns is taken so): insert,
 * dispatch and an inline completion then cost one clock read between them.
 * PF_BLOCK_TS came with plug->cur_ktime and tells the scheduler to clear
 * it when the task sleeps.
 */
static inline u64 cs_compat_time_ns(void)
{
#ifdef PF_BLOCK_TS
	struct blk_plug *plug = current->plug;
	u64 now;

	if (!plug || !in_task())
		return ktime_get_ns();
	/* 0 is taken for "not read yet": one more read if it is the time. */
	now = READ_ONCE(plug->cur_ktime);
	if (!now) {
		now = ktime_get_ns();
		WRITE_ONCE(plug->cur_ktime, now);
		/* The flag only once the time is there to clear. */
		barrier();
		current->flags |= PF_BLOCK_TS;
	}
	return now;
#else
	return ktime_get_ns();
#endif
}

/* One dispatch point for all hardware queues. */
static inline void cs_set_single_dispatch(struct request_queue *q)
{
	blk_queue_flag_set(QUEUE_FLAG_SQ_SCHED, q);
}

/* Same test as the core's blk_discard_mergable() (block/blk.h). */
static inline bool cs_discard_mergeable(struct request *rq)
{
	return req_op(rq) == REQ_OP_DISCARD &&
	       queue_max_discard_segments(rq->q) > 1;
}

/* Zoned devices: see README.rst "Zoned devices". */
#ifdef CS_ELV_HAS_FEATURES
/*
 * Before zone write plugging (6.10) the core kept host-managed zoned
 * devices to schedulers that declare ELEVATOR_F_ZBD_SEQ_WRITE and lock
 * zones themselves.  ctxsched does not, so it is not offered there.
 */
#define CS_ELV_FEATURES_INIT	.elevator_features = 0,
#else
#define CS_ELV_FEATURES_INIT
#endif

#endif /* CTXSCHED_COMPAT_H */
