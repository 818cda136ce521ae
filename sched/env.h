/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the scheduling core needs from its surroundings.  The kernel module
 * uses env-kernel.h; the KUnit suites and the userspace simulator define
 * CS_ENV_HEADER to their own implementation, so that they drive the same
 * core code the kernel runs with a fake clock, timer and device.
 *
 * An environment provides, for a struct cs_core *core:
 *   cs_env_lock_held(core)          assert the core's lock is held
 *   cs_env_warn_on(core, cond)      report a broken invariant (WARN_ON_ONCE
 *                                   in the kernel); evaluates to @cond
 *   cs_env_log(core, fmt, ...)      a trace message (blktrace in the kernel)
 *   cs_env_timer_arm(core, when)    (re)arm the idle timer to fire at @when
 *                                   (absolute ns of the core's clock)
 *   cs_env_timer_cancel(core)       cancel it without waiting; a callback
 *                                   already running may still arrive, and
 *                                   the core ignores it (cs_core_idle_timer)
 *   cs_env_alloc_queue(core)        a zeroed cs_queue, without sleeping, or
 *                                   NULL
 *   cs_env_free_queue(core, cq)     free one
 *   cs_env_ctx_alive(ctx)           a task still uses the context
 *   cs_env_rq_listed(core, rq)      @rq can now be merged with (it went into
 *                                   a queue's sort tree)
 *   cs_env_rq_unlisted(core, rq)    @rq left the sort tree
 *   cs_env_pid()                    the submitting task, for traces
 *   cs_env_rq_ioprio(rq)            the request's I/O priority
 * and the request accessors of <linux/blk-mq.h> (blk_rq_pos(),
 * blk_rq_sectors(), blk_rq_bytes(), rq_is_sync(), rq->cmd_flags,
 * rq->rb_node, rq->queuelist, rq->fifo_time, rq->elv.priv).
 */
#ifndef CTXSCHED_ENV_H
#define CTXSCHED_ENV_H

#ifdef CS_ENV_HEADER
#include CS_ENV_HEADER
#else
#include "env-kernel.h"
#endif

#endif /* CTXSCHED_ENV_H */
