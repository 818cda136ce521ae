/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The environment the KUnit suites run the scheduling core in: a fake
 * timer the test fires by hand, allocations that can be made to fail,
 * contexts whose liveness the test sets, and counted warnings (a repair
 * path is expected to warn, and a WARNING line would fail the VM run).
 * It builds in the kernel (ctxsched_kunit.ko) and on the host
 * (tools/sim/kunit-host).
 */
#ifndef CTXSCHED_ENV_KUNIT_H
#define CTXSCHED_ENV_KUNIT_H

#include <linux/kernel.h>
#include <linux/slab.h>

/**
 * struct cs_kenv - a core and its fake surroundings
 * @core: the core under test
 * @timer_at: when the armed timer fires, ns
 * @timer_armed: the timer is armed
 * @arms: times the timer was armed
 * @fail_allocs: the next this many queue allocations fail
 * @queues: queues allocated and not freed
 * @warnings: broken invariants the core reported
 * @listed: requests the core made mergeable and not taken back
 */
struct cs_kenv {
	struct cs_core core;
	u64 timer_at;
	bool timer_armed;
	unsigned int arms;
	unsigned int fail_allocs;
	int queues;
	unsigned int warnings;
	int listed;
};

/**
 * struct cs_kctx - a fake I/O context
 * @ctx: the core's part
 * @alive: a task still uses it
 */
struct cs_kctx {
	struct cs_ctx ctx;
	bool alive;
};

/**
 * struct cs_krq - a fake request
 * @rq: the request the core sees
 * @ioprio: its I/O priority (kernels keep it in different places)
 */
struct cs_krq {
	struct request rq;
	unsigned short ioprio;
};

static inline struct cs_kenv *cs_kenv_of(struct cs_core *core)
{
	return container_of(core, struct cs_kenv, core);
}

static inline void cs_env_lock_held(struct cs_core *core)
{
}

#define cs_env_warn_on(core, cond) ({					\
	bool __w = !!(cond);						\
	if (__w)							\
		cs_kenv_of(core)->warnings++;				\
	__w;								\
})

#ifdef CS_ENV_TRACE
/* The simulator's trace (tools/sim, -T). */
void cs_env_trace(struct cs_core *core, const char *fmt, va_list ap);
#endif

/* Checked like a printk; printed only by the simulator's trace. */
static inline __printf(2, 3) void cs_env_log(struct cs_core *core,
					     const char *fmt, ...)
{
#ifdef CS_ENV_TRACE
	va_list ap;

	va_start(ap, fmt);
	cs_env_trace(core, fmt, ap);
	va_end(ap);
#endif
}

static inline void cs_env_timer_arm(struct cs_core *core, u64 when)
{
	cs_kenv_of(core)->timer_at = when;
	cs_kenv_of(core)->timer_armed = true;
	cs_kenv_of(core)->arms++;
}

static inline void cs_env_timer_cancel(struct cs_core *core)
{
	cs_kenv_of(core)->timer_armed = false;
}

static inline struct cs_queue *cs_env_alloc_queue(struct cs_core *core)
{
	struct cs_kenv *env = cs_kenv_of(core);
	struct cs_queue *cq;

	if (env->fail_allocs) {
		env->fail_allocs--;
		return NULL;
	}
	cq = kzalloc(sizeof(*cq), GFP_ATOMIC);
	if (cq)
		env->queues++;
	return cq;
}

static inline void cs_env_free_queue(struct cs_core *core,
				     struct cs_queue *cq)
{
	cs_kenv_of(core)->queues--;
	kfree(cq);
}

static inline bool cs_env_ctx_alive(const struct cs_ctx *ctx)
{
	return container_of(ctx, struct cs_kctx, ctx)->alive;
}

static inline void cs_env_rq_listed(struct cs_core *core, struct request *rq)
{
	cs_kenv_of(core)->listed++;
}

static inline void cs_env_rq_unlisted(struct cs_core *core,
				      struct request *rq)
{
	cs_kenv_of(core)->listed--;
}

static inline unsigned short cs_env_rq_ioprio(struct request *rq)
{
	return container_of(rq, struct cs_krq, rq)->ioprio;
}

#ifdef CS_ENV_TRACE
/* The simulator names queues by the reader that created them. */
extern pid_t cs_env_sim_pid;
#define cs_env_pid()	cs_env_sim_pid
#else
static inline pid_t cs_env_pid(void)
{
	return 1;
}
#endif

#endif /* CTXSCHED_ENV_KUNIT_H */
