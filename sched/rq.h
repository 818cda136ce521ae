/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What ctxsched keeps in a request: rq->elv.priv[0] is its queue (holding a
 * reference), rq->elv.priv[1] its state.  A request the core hands to
 * ctxsched is in exactly one place at a time (CS_RQ_WHERE); the other bits
 * describe it.
 */
#ifndef CTXSCHED_RQ_H
#define CTXSCHED_RQ_H

#include "env-types.h"

struct cs_queue;

#define CS_RQ_QUEUED	0x01UL	/* in a cs_queue */
#define CS_RQ_HEAD	0x02UL	/* on cs_core.dispatch */
#define CS_RQ_DRIVER	0x04UL	/* dispatched, not finished */
#define CS_RQ_SYNC	0x08UL	/* counted as sync */
#define CS_RQ_TIMED	0x10UL	/* rq->fifo_time is a deadline ctxsched set */
#define CS_RQ_META	0x20UL	/* a sync metadata (REQ_META, REQ_PRIO) request */
#define CS_RQ_BOOST	0x40UL	/* dispatched from a boosted queue */
#define CS_RQ_RT	0x80UL	/* dispatched from a real-time queue */
#define CS_RQ_LEADS	0x100UL	/* ... from a boosted queue that led */
#define CS_RQ_WHERE	(CS_RQ_QUEUED | CS_RQ_HEAD | CS_RQ_DRIVER)
/*
 * Above the flags, the size the request had when it was dispatched, in
 * sectors: by the time it completes, the block layer has counted its bytes
 * down to zero.  For the device model, so only where it learns.
 */
#define CS_RQ_SIZE_SHIFT	9
#define CS_RQ_FLAGS		((1UL << CS_RQ_SIZE_SHIFT) - 1)
#define CS_RQ_SIZE_MAX		((1UL << 23) - 1)

static inline unsigned long cs_rq_state(const struct request *rq)
{
	return (unsigned long)rq->elv.priv[1];
}

static inline void cs_rq_set_state(struct request *rq, unsigned long state)
{
	rq->elv.priv[1] = (void *)state;
}

/* Move @rq to @where (one of CS_RQ_WHERE or 0), keeping the other bits. */
static inline void cs_rq_move(struct request *rq, unsigned long where)
{
	cs_rq_set_state(rq, (cs_rq_state(rq) & ~CS_RQ_WHERE) | where);
}

/* Record the size of @rq as it goes to the driver. */
static inline void cs_rq_set_size(struct request *rq, unsigned int sectors)
{
	unsigned long size = min_t(unsigned long, sectors, CS_RQ_SIZE_MAX);

	cs_rq_set_state(rq, (cs_rq_state(rq) & CS_RQ_FLAGS) |
			size << CS_RQ_SIZE_SHIFT);
}

/* Bytes @rq had when it was dispatched. */
static inline unsigned int cs_rq_dispatched_bytes(const struct request *rq)
{
	return (cs_rq_state(rq) >> CS_RQ_SIZE_SHIFT) << 9;
}

static inline bool cs_rq_sync(const struct request *rq)
{
	return cs_rq_state(rq) & CS_RQ_SYNC;
}

static inline struct cs_queue *cs_rq_queue(const struct request *rq)
{
	return rq->elv.priv[0];
}

static inline void cs_rq_set_queue(struct request *rq, struct cs_queue *cq)
{
	rq->elv.priv[0] = cq;
}

#endif /* CTXSCHED_RQ_H */
