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
