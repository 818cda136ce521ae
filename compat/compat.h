/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Thin wrappers over elevator API differences between kernel releases, so
 * that the scheduler reads the same on every kernel.
 */
#ifndef CTXSCHED_COMPAT_H
#define CTXSCHED_COMPAT_H

#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include "elevator.h"

/* ->insert_requests() took a bool before 6.5 and blk_insert_t since. */
#ifdef CS_ELV_INSERT_BOOL
typedef bool cs_insert_t;
static inline bool cs_insert_at_head(cs_insert_t flags)
{
	return flags;
}
#else
typedef cs_blk_insert_t cs_insert_t;
static inline bool cs_insert_at_head(cs_insert_t flags)
{
	return flags & CS_INSERT_AT_HEAD;
}
#endif

/*
 * The scheduler's per-queue setup: allocate private data and store it in
 * eq->elevator_data, freeing it again on failure.  CS_DEFINE_INIT_SCHED()
 * wraps it in the ->init_sched() the kernel expects; in every variant the
 * scheduler publishes the elevator_queue in q->elevator itself.
 */
typedef int (*cs_setup_fn)(struct request_queue *q, struct elevator_queue *eq);

#ifdef CS_ELV_INIT_TAKES_EQ
/* The core allocated @eq and drops it if setup fails. */
static inline int cs_compat_init_sched(struct request_queue *q,
				       struct elevator_queue *eq,
				       cs_setup_fn setup)
{
	int ret = setup(q, eq);

	if (!ret)
		q->elevator = eq;
	return ret;
}

#define CS_DEFINE_INIT_SCHED(name, setup)				\
static int name(struct request_queue *q, struct elevator_queue *eq)	\
{									\
	return cs_compat_init_sched(q, eq, setup);			\
}
#else
/* The scheduler allocates the elevator_queue. */
static inline int cs_compat_init_sched(struct request_queue *q,
				       struct elevator_type *e,
				       cs_setup_fn setup)
{
	struct elevator_queue *eq;
	int ret;

	eq = elevator_alloc(q, e);
	if (!eq)
		return -ENOMEM;
	ret = setup(q, eq);
	if (ret) {
		kobject_put(&eq->kobj);
		return ret;
	}
	q->elevator = eq;
	return 0;
}

#define CS_DEFINE_INIT_SCHED(name, setup)				\
static int name(struct request_queue *q, struct elevator_type *e)	\
{									\
	return cs_compat_init_sched(q, e, setup);			\
}
#endif

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
