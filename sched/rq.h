/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What ctxsched keeps in a request: rq->elv.priv[0] is its queue (holding a
 * reference), rq->elv.priv[1] its state.  A request the core hands to
 * ctxsched is in exactly one state at a time.
 */
#ifndef CTXSCHED_RQ_H
#define CTXSCHED_RQ_H

#include <linux/blk-mq.h>

#define CS_RQ_QUEUED	0x1UL	/* in a cs_queue */
#define CS_RQ_HEAD	0x2UL	/* on cs_data.dispatch */
#define CS_RQ_DRIVER	0x4UL	/* dispatched, not finished */
#define CS_RQ_SYNC	0x8UL	/* counted as sync */
#define CS_RQ_WHERE	(CS_RQ_QUEUED | CS_RQ_HEAD | CS_RQ_DRIVER)

static inline unsigned long cs_rq_state(const struct request *rq)
{
	return (unsigned long)rq->elv.priv[1];
}

static inline void cs_rq_set(struct request *rq, unsigned long where,
			     bool sync)
{
	rq->elv.priv[1] = (void *)(where | (sync ? CS_RQ_SYNC : 0));
}

static inline bool cs_rq_sync(const struct request *rq)
{
	return cs_rq_state(rq) & CS_RQ_SYNC;
}

static inline struct cs_queue *cs_rq_queue(const struct request *rq)
{
	return rq->elv.priv[0];
}

#endif /* CTXSCHED_RQ_H */
