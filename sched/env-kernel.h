/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel environment of the scheduling core: the per-disk structure
 * that embeds struct cs_core with its lock, timer and request queue, and
 * the env hooks of sched/env.h over them.
 */
#ifndef CTXSCHED_ENV_KERNEL_H
#define CTXSCHED_ENV_KERNEL_H

#include <linux/blkdev.h>
#include <linux/blktrace_api.h>
#include <linux/hrtimer.h>
#include <linux/iocontext.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "../compat/compat.h"

struct cs_ra_dev;
struct cs_dbg;

/**
 * struct cs_data - ctxsched's state of one request queue
 * @core: the scheduling core, under @lock
 * @lock: protects @core; taken with interrupts off (completions)
 * @q: the request queue; set up once
 * @idle_timer: ends an idle window (cs_core.idle_until)
 * @bio_q: during a bio merge, under @lock, the queue the bio belongs to
 * @async_depth: scheduler tags an async request may use; written by
 *	depth.c, read locklessly by ->limit_depth() (READ_ONCE)
 * @merge_hint: where queued requests begin and end; written under @lock,
 *	read locklessly by ->bio_merge() (struct cs_merge_hint)
 * @dbg: this queue's debugfs directory (debugfs.c); set up once
 * @ra: the readahead companion's per-disk state
 */
struct cs_data {
	struct cs_core core;
	spinlock_t lock;	/* see above */
	struct request_queue *q;
	struct hrtimer idle_timer;
	struct cs_queue *bio_q;
	unsigned int async_depth;
	struct cs_dbg *dbg;
	struct cs_merge_hint merge_hint;
	struct cs_ra_dev *ra;
};

/**
 * struct cs_icq - ctxsched's part of an I/O context on one queue
 * @icq: the block layer's part; must come first (icq_size/icq_align)
 * @ctx: the core's part, under cs_data.lock
 */
struct cs_icq {
	struct io_cq icq;
	struct cs_ctx ctx;
};

static inline struct cs_data *cs_core_data(struct cs_core *core)
{
	return container_of(core, struct cs_data, core);
}

static inline struct cs_icq *icq_to_cic(struct io_cq *icq)
{
	return container_of(icq, struct cs_icq, icq);
}

#define cs_env_lock_held(core)	lockdep_assert_held(&cs_core_data(core)->lock)

/* One report per call site, as WARN_ON_ONCE() (@core: for the others). */
#define cs_env_warn_on(core, cond)	({ (void)(core); WARN_ON_ONCE(cond); })

#define cs_env_log(core, fmt, ...)					\
	blk_add_trace_msg(cs_core_data(core)->q, fmt, ##__VA_ARGS__)

static inline void cs_env_timer_arm(struct cs_core *core, u64 when)
{
	hrtimer_start(&cs_core_data(core)->idle_timer, ns_to_ktime(when),
		      HRTIMER_MODE_ABS);
}

static inline void cs_env_timer_cancel(struct cs_core *core)
{
	hrtimer_try_to_cancel(&cs_core_data(core)->idle_timer);
}

static inline struct cs_queue *cs_env_alloc_queue(struct cs_core *core)
{
	/* Called under the lock from the submission path: no sleeping. */
	return kzalloc_node(sizeof(struct cs_queue), GFP_NOWAIT | __GFP_NOWARN,
			    cs_core_data(core)->q->node);
}

static inline void cs_env_free_queue(struct cs_core *core,
				     struct cs_queue *cq)
{
	kfree(cq);
}

static inline bool cs_env_ctx_alive(const struct cs_ctx *ctx)
{
	const struct cs_icq *cic = container_of(ctx, struct cs_icq, ctx);

	return atomic_read(&cic->icq.ioc->active_ref) > 0;
}

static inline void cs_env_rq_listed(struct cs_core *core, struct request *rq)
{
	struct request_queue *q = cs_core_data(core)->q;

	/* The core's merge lookups skip requests that cannot merge. */
	elv_rqhash_add(q, rq);
	cs_merge_hint_note(&cs_core_data(core)->merge_hint, blk_rq_pos(rq),
			   blk_rq_pos(rq) + blk_rq_sectors(rq));
	if (!q->last_merge)
		q->last_merge = rq;
}

static inline void cs_env_rq_unlisted(struct cs_core *core,
				      struct request *rq)
{
	struct request_queue *q = cs_core_data(core)->q;

	elv_rqhash_del(q, rq);
	if (q->last_merge == rq)
		q->last_merge = NULL;
}

static inline unsigned short cs_env_rq_ioprio(struct request *rq)
{
	return req_get_ioprio(rq);
}

static inline pid_t cs_env_pid(void)
{
	return current->pid;
}

#endif /* CTXSCHED_ENV_KERNEL_H */
