// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduling core: the way of a request through ctxsched, from insert
 * to dispatch to completion, and the decisions on that way.
 *
 * Every sync request belongs to the queue of the I/O context that issued
 * it (members.c says which); async requests (write-back) share one queue
 * per class and level.  A queue with requests waits on its class's round
 * robin; the first queue of the highest class with work becomes active
 * and owns the disk for a time slice whose length depends on its level
 * (policy.c).  The active queue dispatches its requests in sector order,
 * an expired one first (once per slice).
 *
 * How much the active queue owns the disk depends on the device model's
 * mode (model.c).  In SERIAL mode, as CFQ on a single spindle: up to
 * quantum requests in the driver while others wait, and when a sync queue
 * runs dry before its slice ends it may keep the disk for slice_idle in
 * the hope that its context issues the next request.  In PARALLEL mode the
 * core is work-conserving: a queue that has nothing queued gives way at
 * once, a queue with a backlog gives way after a request budget that
 * grows with its priority, and nothing caps how many requests the driver
 * holds.
 *
 * Requests inserted at head (requeues, flush sequences) go first,
 * unscheduled.  All of it runs under the lock of the core's owner; times
 * are passed in.
 */
#include <linux/kernel.h>
#include <linux/minmax.h>

#include "core.h"
#include "rq.h"

/**
 * cs_prio_of() - class and level of an I/O priority
 * @ioprio: the priority (IOPRIO_PRIO_VALUE)
 * @pclass: the class it maps to
 * @level: the level it maps to
 */
void cs_prio_of(unsigned short ioprio, enum cs_prio_class *pclass,
		unsigned int *level)
{
	switch (IOPRIO_PRIO_CLASS(ioprio)) {
	case IOPRIO_CLASS_RT:
		*pclass = CS_CLASS_RT;
		*level = IOPRIO_PRIO_DATA(ioprio) & (CS_NR_LEVELS - 1);
		break;
	case IOPRIO_CLASS_IDLE:
		*pclass = CS_CLASS_IDLE;
		*level = CS_NR_LEVELS - 1;
		break;
	case IOPRIO_CLASS_BE:
		*pclass = CS_CLASS_BE;
		*level = IOPRIO_PRIO_DATA(ioprio) & (CS_NR_LEVELS - 1);
		break;
	default:
		/* Unset: the block layer normally resolves this at submit. */
		*pclass = CS_CLASS_BE;
		*level = CS_DEFAULT_LEVEL;
		break;
	}
}

static void cs_queue_setup(struct cs_core *core, struct cs_queue *cq,
			   bool sync, enum cs_prio_class pclass,
			   unsigned int level)
{
	cq->core = core;
	cq->flags = sync ? CSQ_SYNC : 0;
	cq->prio_class = pclass;
	cq->level = level;
	cq->sort = RB_ROOT;
	INIT_LIST_HEAD(&cq->fifo);
	INIT_LIST_HEAD(&cq->rr);
	INIT_LIST_HEAD(&cq->members);
	INIT_HLIST_NODE(&cq->key_node);
	cq->pid = cs_env_pid();
}

/**
 * cs_alloc_queue() - allocate a queue, without references
 * @core: the scheduler
 * @sync: a sync queue
 * @pclass: its class
 * @level: its level
 *
 * Return: the queue, or NULL when out of memory.
 */
struct cs_queue *cs_alloc_queue(struct cs_core *core, bool sync,
				enum cs_prio_class pclass, unsigned int level)
{
	struct cs_queue *cq = cs_env_alloc_queue(core);

	if (!cq) {
		core->stats.alloc_failed++;
		return NULL;
	}
	cs_queue_setup(core, cq, sync, pclass, level);
	return cq;
}

/**
 * cs_put_queue() - drop a reference to a queue, freeing it with the last
 * @core: the scheduler
 * @cq: the queue
 *
 * The built-in fallback queue is never freed, even if its count says so.
 */
void cs_put_queue(struct cs_core *core, struct cs_queue *cq)
{
	unsigned int i;

	if (cs_env_warn_on(core, cq->ref <= 0))
		return;
	if (--cq->ref)
		return;
	if (cs_env_warn_on(core, cq->flags & CSQ_FALLBACK)) {
		cq->ref = 1;
		return;
	}
	cs_env_warn_on(core, cq->queued || cq->dispatched ||
		       !list_empty(&cq->rr) || !list_empty(&cq->members) ||
		       core->active == cq);
	cs_unkey(core, cq);
	if (core->head_q == cq)
		core->head_q = NULL;
	for (i = 0; i < CS_RECENT_ENDS; i++)
		if (core->ends_q[i] == cq)
			core->ends_q[i] = NULL;
	cs_env_free_queue(core, cq);
}

/**
 * cs_rr_del() - take a queue off its class's round robin
 * @core: the scheduler
 * @cq: the queue
 */
void cs_rr_del(struct cs_core *core, struct cs_queue *cq)
{
	if (cq->flags & CSQ_ON_RR) {
		list_del_init(&cq->rr);
		cq->flags &= ~CSQ_ON_RR;
	}
}

/**
 * cs_rr_add() - put a queue on its class's round robin
 * @core: the scheduler
 * @cq: the queue
 * @front: first in line (a preempted queue) rather than last
 */
void cs_rr_add(struct cs_core *core, struct cs_queue *cq, bool front)
{
	if (cq->flags & CSQ_ON_RR)
		list_del(&cq->rr);
	if (front)
		list_add(&cq->rr, &core->rr[cq->prio_class]);
	else
		list_add_tail(&cq->rr, &core->rr[cq->prio_class]);
	cq->flags |= CSQ_ON_RR;
}

/**
 * cs_busy_account() - count a queue in or out of its class's busy queues
 * @core: the scheduler
 * @cq: the queue, which gained its first or lost its last queued request
 * @d: +1 or -1
 */
void cs_busy_account(struct cs_core *core, struct cs_queue *cq, int d)
{
	core->nr_busy[cq->prio_class] += d;
	core->nr_busy_level[cq->prio_class][cq->level] += d;
	if (cs_queue_sync(cq))
		core->nr_busy_sync[cq->prio_class] += d;
	else
		core->nr_busy_async += d;
	if (cq->flags & CSQ_BOOST)
		core->nr_busy_boost += d;
}

/*
 * How long after its last completion a level with nothing queued or in
 * the driver is live: a reader that keeps a read in flight on a disk that
 * serves in parallel comes back within microseconds.  A quarter of
 * slice_idle: the levels below wait while it is live, and a disk that
 * serves in parallel idles meanwhile, so a reader that thinks longer
 * leaves its share to them.
 */
static u64 cs_level_window(const struct cs_core *core)
{
	return cs_tun(core, CS_T_SLICE_IDLE) / 4;
}

/*
 * The levels of @pclass that are live at @now (cs_core.lvl_live), after
 * dropping those that went quiet.
 */
static unsigned long cs_levels_live(struct cs_core *core,
				    enum cs_prio_class pclass, u64 now)
{
	u64 window = cs_level_window(core);
	struct cs_level_share *ls;
	unsigned int level;

	for (level = 0; level < CS_NR_LEVELS; level++) {
		ls = &core->lvl[pclass][level];
		if ((core->lvl_live[pclass] & BIT(level)) && !ls->present &&
		    cs_since(now, ls->last_done) >= window)
			core->lvl_live[pclass] &= ~BIT(level);
	}
	return core->lvl_live[pclass];
}

/*
 * @cq's level gains a present sync queue (@d 1) or loses one (-1).  A level
 * that comes back to life starts even with the least served live level of
 * its class: the share it left unused while quiet is not owed to it.
 */
static void cs_level_present(struct cs_core *core, struct cs_queue *cq,
			     int d)
{
	enum cs_prio_class pclass = cq->prio_class;
	struct cs_level_share *ls = &core->lvl[pclass][cq->level];
	unsigned long live;
	unsigned int level;
	u64 least = U64_MAX;

	/* Writers' levels do not count: see cs_mark_reader(). */
	if (!(cq->flags & CSQ_READER))
		return;
	ls->present += d;
	if (d < 0 || (core->lvl_live[pclass] & BIT(cq->level)))
		return;
	live = cs_levels_live(core, pclass, core->clock);
	for (level = 0; level < CS_NR_LEVELS; level++)
		if (live & BIT(level))
			least = min(least, core->lvl[pclass][level].served);
	if (least != U64_MAX)
		ls->served = max(ls->served, least);
	core->lvl_live[pclass] |= BIT(cq->level);
}

/**
 * cs_mark_reader() - count a sync queue in its level's share of a parallel
 *	disk from now on, as one that reads
 * @core: the scheduler
 * @cq: the sync queue, before its counts change for the read it gets
 *
 * Only readers take part in the levels' shares (cs_level_holds()): a
 * journal commits at a higher level than the default (ext4's
 * journal_ioprio, -n3), and counting its writes held every default-level
 * reader behind each commit (tools/bench/exp/fsync-levels.sh: 24-28 MB/s
 * against mq-deadline's 60-80).  A queue stays a reader for its life, so
 * that the counts never lose track of it.
 */
void cs_mark_reader(struct cs_core *core, struct cs_queue *cq)
{
	if ((cq->flags & CSQ_READER) || !cs_queue_sync(cq))
		return;
	cq->flags |= CSQ_READER;
	if (cq->queued + cq->dispatched)
		cs_level_present(core, cq, 1);
}

/**
 * cs_present_account() - count a sync queue in or out of the present ones
 * @core: the scheduler
 * @cq: the queue, which got its first request queued or in the driver, or
 *	lost its last
 * @d: +1 or -1
 */
void cs_present_account(struct cs_core *core, struct cs_queue *cq, int d)
{
	core->nr_present_sync += d;
	cs_level_present(core, cq, d);
}

/*
 * A sync queue is present while it has requests queued or in the driver;
 * two present sync queues are what the device model measures under.
 * cs_present_inc() counts @cq in once it has one request more there,
 * cs_present_dec() out once it has one less.  A request that goes from
 * @cq's sort tree to the driver leaves the count as it is.
 */
static void cs_present_inc(struct cs_core *core, struct cs_queue *cq)
{
	if (cq->queued + cq->dispatched == 1 && cs_queue_sync(cq))
		cs_present_account(core, cq, 1);
}

static void cs_present_dec(struct cs_core *core, struct cs_queue *cq)
{
	if (!cq->queued && !cq->dispatched && cs_queue_sync(cq))
		cs_present_account(core, cq, -1);
}

static bool cs_prio_higher(enum cs_prio_class c1, unsigned int l1,
			   enum cs_prio_class c2, unsigned int l2)
{
	return c1 != c2 ? c1 < c2 : l1 < l2;
}

/*
 * A new request may change a sync queue's class or level (ionice, or a
 * per-request priority from io_uring, aio or blk-ioprio).  An idle queue
 * takes the new priority; a busy one only a higher one, and keeps its place
 * on the round robin unless its class changes: a context that alternates
 * priorities per request must not be sent to the back of the line at each
 * request, nor take a low priority while requests of a high one wait.
 * A context whose priority differs from its merged queue's leaves it
 * instead (members.c).  @pclass and @level: the request's priority.
 */
static void cs_update_prio(struct cs_core *core, struct cs_queue *cq,
			   enum cs_prio_class pclass, unsigned int level)
{
	bool idle;

	/* The common case first: a request of the queue's own priority. */
	if (pclass == cq->prio_class && level == cq->level)
		return;
	if (!cs_queue_sync(cq) || (cq->flags & CSQ_FALLBACK))
		return;
	idle = !cq->queued && !cq->dispatched;
	if (!idle && !cs_prio_higher(pclass, level, cq->prio_class, cq->level))
		return;
	if (cq->queued)
		cs_busy_account(core, cq, -1);
	if (!idle)
		cs_level_present(core, cq, -1);
	if (pclass != cq->prio_class && (cq->flags & CSQ_ON_RR)) {
		cq->prio_class = pclass;
		cs_rr_add(core, cq, false);
	}
	cq->prio_class = pclass;
	cq->level = level;
	if (cq->queued)
		cs_busy_account(core, cq, 1);
	if (!idle)
		cs_level_present(core, cq, 1);
	cs_log_q(core, cq, "prio %c%u", cs_class_char(cq), level);
}

/*
 * The queue a new request of priority @pclass and @level belongs to, with
 * a reference for it.
 */
static struct cs_queue *cs_queue_for_rq(struct cs_core *core,
					struct request *rq,
					struct cs_ctx *ctx,
					enum cs_prio_class pclass,
					unsigned int level)
{
	struct cs_queue *cq, **slot;

	if (rq_is_sync(rq) && ctx) {
		cq = cs_sync_queue(core, ctx, pclass, level);
		if (!cq)
			goto fallback;
	} else {
		slot = &core->async_q[pclass][level];
		cq = *slot;
		if (!cq) {
			cq = cs_alloc_queue(core, false, pclass, level);
			if (!cq)
				goto fallback;
			cq->ref = 1;		/* the slot's */
			*slot = cq;
		}
	}
	cq->ref++;
	return cq;

fallback:
	cq = &core->fallback;
	cq->ref++;
	return cq;
}

/**
 * cs_core_bio_queue() - the queue a bio would join, without creating one
 * @core: the scheduler
 * @ctx: the submitting context's part, or NULL
 * @sync: the bio is sync
 * @ioprio: the bio's priority
 *
 * Return: the queue, or NULL if it does not exist yet.
 */
struct cs_queue *cs_core_bio_queue(struct cs_core *core, struct cs_ctx *ctx,
				   bool sync, unsigned short ioprio)
{
	enum cs_prio_class pclass;
	unsigned int level;

	cs_env_lock_held(core);

	if (sync)
		return ctx ? ctx->sync_q : NULL;
	cs_prio_of(ioprio, &pclass, &level);
	return core->async_q[pclass][level];
}

static unsigned int cs_busy_queues(const struct cs_core *core)
{
	return core->nr_busy[CS_CLASS_RT] + core->nr_busy[CS_CLASS_BE] +
	       core->nr_busy[CS_CLASS_IDLE];
}

/* Busy queues of @pclass and of the classes above it. */
static unsigned int cs_busy_up_to(const struct cs_core *core,
				  enum cs_prio_class pclass)
{
	unsigned int n = core->nr_busy[CS_CLASS_RT];

	/* Once per dispatch: no loop. */
	if (pclass >= CS_CLASS_BE)
		n += core->nr_busy[CS_CLASS_BE];
	if (pclass >= CS_CLASS_IDLE)
		n += core->nr_busy[CS_CLASS_IDLE];
	return n;
}

/*
 * Disks lie about rotating in one direction only (virtual disks, arrays
 * and LUNs say they rotate); feeding the model costs a fast disk CPU on
 * every request, so one that says it does not rotate is parallel without
 * measuring.
 */
static bool cs_learns(const struct cs_core *core)
{
	return core->model.rotational;
}

/* Entry points note the time, for what runs without it (cs_expire()). */
static void cs_tick(struct cs_core *core, u64 now)
{
	core->clock = max(core->clock, now);
}

static void cs_boost_end(struct cs_core *core, struct cs_queue *cq,
			 const char *why)
{
	if (cq->queued)
		core->nr_busy_boost--;
	cq->flags &= ~CSQ_BOOST;
	cs_log_q(core, cq, "boost ends (%s)", why);
}

static bool cs_queue_acts(const struct cs_queue *cq);

/*
 * Busy queues that act as boosted (cs_queue_acts()); boosted ones that
 * read like streams do not, and whether one does changes with each of its
 * requests, so they are counted when asked (only while boosts are about).
 */
static unsigned int cs_busy_acting(const struct cs_core *core)
{
	const struct cs_queue *cq = core->active;
	unsigned int n = 0;
	enum cs_prio_class c;

	if (!core->nr_busy_boost)
		return 0;
	if (cq && cq->queued && cs_queue_acts(cq))
		n++;
	for (c = CS_CLASS_RT; c < CS_NR_CLASSES; c++)
		list_for_each_entry(cq, &core->rr[c], rr)
			n += cq->queued && cs_queue_acts(cq);
	return n;
}

/*
 * The disk spent @dt on @cq's behalf (a request of it, or an idle window
 * kept for it): count that in the boosted queues' lead.  Callers skip it
 * when @boosted is false and there is no lead to take from.
 */
static void cs_boost_charge(struct cs_core *core, struct cs_queue *cq,
			    bool boosted, u64 dt)
{
	bool others = cs_busy_queues(core) > cs_busy_acting(core);

	if (boosted && cq)
		cq->boost_served += dt;
	core->boost_lead = cs_boost_lead_add(core->boost_lead, boosted,
					     others, dt);
	core->boost_held = !cs_boost_leads(core->boost_lead,
					   !core->boost_held);
}

/*
 * Boosts pay on a disk that says it rotates (the only kind that boosts)
 * where a far read may seek: in SERIAL mode, or in PARALLEL mode where the
 * disk's cache serves the streams side by side but what it misses still
 * seeks, or until enough reads were served alone to tell
 * (cs_model_may_seek()).  The
 * boosted reads' own times alone and beside others (boost_alone_us,
 * boost_beside_us) are not evidence enough: the virtio disk's reads beside
 * others were as much slower as a spindle's, and boosts there took S10's
 * sequential reader from 40.7 to 24.2 MB/s and its random reader from 635
 * to 366 IOPS.
 */
static bool cs_boost_pays(const struct cs_core *core)
{
	return cs_learns(core) &&
	       (core->mode == CS_MODE_SERIAL ||
		cs_model_may_seek(&core->model));
}

/*
 * Boosted queues may go ahead of others now: where boosts pay, within
 * their lead, and (cs_boost_may_lead()) not while the model compares the
 * modes (a boost costs the streams throughput by design, which the
 * comparison would count against the mode it ran in).
 */
static bool cs_boost_could_lead(const struct cs_core *core)
{
	return !core->boost_held && cs_boost_pays(core);
}

static bool cs_boost_may_lead(const struct cs_core *core)
{
	return cs_boost_could_lead(core) && !cs_model_measuring(&core->model);
}

/*
 * Somebody that boosted queues go ahead of: a queue with requests that does
 * not act as boosted, or write-back in the driver.  Where every queue with
 * requests acts (a thread pool's new threads, whose reads of several
 * streams look like programs starting), nobody goes ahead of anybody: each
 * was idled for in turn while the others waited, their lead never grew
 * (nobody it counts waited), and the model deferred for the boosts' 30 s
 * (tools/sim s8 4 2 on sata: 15.2 MB/s, 30.9 without boosts).
 */
static bool cs_boost_over_others(const struct cs_core *core)
{
	return core->in_driver[0] ||
	       cs_busy_queues(core) > cs_busy_acting(core);
}

/*
 * The model measures nothing while boosted queues could lead and one was
 * about in the last second (between a program's reads it thinks; a
 * measurement started then would keep it from leading at the next).  Not
 * where boosts lead only because too few reads were served alone to tell
 * (cs_model_may_seek()): a boosted reader that stays (S10's random reader)
 * would keep a virtual disk unmeasured, and led, for the boost's 30 s.
 */
static bool cs_boost_defers(const struct cs_core *core, u64 now)
{
	return core->boost_last &&
	       cs_since(now, core->boost_last) < CS_BOOST_GAP &&
	       cs_boost_could_lead(core) && cs_boost_over_others(core) &&
	       (core->mode == CS_MODE_SERIAL ||
		cs_model_far_seeks(&core->model));
}

/* Its recent requests show @cq a stream. */
static bool cs_queue_stream(const struct cs_queue *cq)
{
	return !cs_seeky(&cq->seek) &&
	       ((cq->flags & CSQ_SLICE_USED) || cq->seek.nr >= 32);
}

/* End @cq's boost if it is over (cs_boost_ends()). */
static void cs_boost_review(struct cs_core *core, struct cs_queue *cq,
			    u64 now)
{
	if (!cs_queue_boosted(cq) ||
	    !cs_boost_ends(cq->boost_served, cs_tun(core, CS_T_BOOST),
			   cq->boost_until, now))
		return;
	cs_boost_end(core, cq, now >= cq->boost_until ? "time" : "used");
}

/*
 * A boosted queue that reads like a program starting: not while it reads
 * sequentially (exec reads a binary and its libraries ahead before the
 * seeky reads of a start-up; streams that start are boosted too, and
 * gain nothing by it).
 */
static bool cs_queue_acts(const struct cs_queue *cq)
{
	return cs_queue_boosted(cq) && !cs_queue_stream(cq);
}

/* A boosted queue that may lead now. */
static bool cs_queue_leads(const struct cs_core *core,
			   const struct cs_queue *cq)
{
	return cs_queue_acts(cq) && cs_boost_may_lead(core);
}

/*
 * A seeky queue that shares its class's seeky window: one that is not
 * boosted, or whose boost may not lead now.
 */
static bool cs_queue_pooled(const struct cs_core *core,
			    const struct cs_queue *cq)
{
	return cs_queue_seeky(cq) && !cs_queue_leads(core, cq);
}

/* A boosted queue acts now: note when, and in which class. */
static void cs_boost_seen(struct cs_core *core, const struct cs_queue *cq,
			  u64 now)
{
	core->boost_last = now;
	core->boost_seen[cq->prio_class] = now;
}

/*
 * A boosted queue of @pclass or a higher class is about, where boosts pay
 * (cs_boost_pays()): it had a request queued, dispatched or completed in
 * the last 4 x slice_idle (most of a starting program's thinking between
 * reads: S9's python under TCG, 90% within 27 ms), or one of its reads is
 * in the driver and it was about in the last second (2 x slice_idle
 * before, after which a read stuck behind the streams' let more of theirs
 * go ahead of the next).  It holds while their lead is used up: the others
 * then get their turns, but what they leave in the driver is what the
 * program's next read waits behind (tools/sim with the readers'
 * readahead, -q 4 -w 4 s9 2: 18.6 s against 25.5; a boosted reader's read
 * behind a flood of writes, -w 16 s7 40: 93 ms at most against 290).  Not
 * while the model compares the modes: capped alike, they would not differ
 * (array12, 4 readers in tools/sim: 63.8 MB/s against 87.1).  Boosts go
 * ahead within their class only, so a boosted best-effort queue leaves a
 * real-time one its depth.
 */
static bool cs_boost_near(const struct cs_core *core,
			  enum cs_prio_class pclass, u64 now)
{
	u64 window = core->boost_in_driver ? CS_BOOST_GAP :
		     4 * cs_tun(core, CS_T_SLICE_IDLE);
	enum cs_prio_class c;

	if (!core->boost_last || cs_since(now, core->boost_last) >= window ||
	    !cs_boost_pays(core) || cs_model_measuring(&core->model))
		return false;
	for (c = CS_CLASS_RT; c <= pclass; c++)
		if (core->boost_seen[c] &&
		    cs_since(now, core->boost_seen[c]) < window)
			return true;
	return false;
}

/* A boosted queue's timed read completed: the figures in debugfs. */
static void cs_boost_timed(struct cs_core *core, struct cs_queue *cq, u64 now)
{
	u64 t = cs_since(now, cq->boost_sent);

	cq->boost_sent = 0;
	if (cq->flags & CSQ_BOOST_BESIDE) {
		core->boost_beside = cs_boost_wait_avg(core->boost_beside,
						       core->boost_beside_n, t);
		core->boost_beside_n = min(core->boost_beside_n + 1, 8U);
	} else {
		core->boost_alone = cs_boost_wait_avg(core->boost_alone,
						      core->boost_alone_n, t);
		core->boost_alone_n = min(core->boost_alone_n + 1, 8U);
	}
}

/* An idle window ends: a boosted queue's counts as its disk time. */
static void cs_idle_ended(struct cs_core *core, u64 now)
{
	struct cs_queue *cq = core->active;

	if (cq && cs_queue_leads(core, cq))
		cs_boost_charge(core, cq, true,
				cs_since(min(now, core->idle_until),
					 core->idle_since));
}

static void cs_cancel_idle(struct cs_core *core)
{
	if (core->idling == CS_IDLE_NONE)
		return;
	/* A callback already running finds CS_IDLE_NONE and does nothing. */
	cs_env_timer_cancel(core);
	cs_idle_ended(core, core->clock);
	core->idling = CS_IDLE_NONE;
}

/* Arm the idle timer for @kind until @until. */
static void cs_start_idle(struct cs_core *core, enum cs_idle kind, u64 until)
{
	core->idling = kind;
	core->idle_since = core->clock;
	core->idle_until = until;
	cs_env_timer_arm(core, until);
}

/* End the active queue's slice; a preempted queue goes first next time. */
static void cs_expire(struct cs_core *core, bool preempted)
{
	struct cs_queue *cq = core->active;

	cs_cancel_idle(core);
	core->active = NULL;
	core->switch_at = 0;
	cs_boost_review(core, cq, core->clock);
	core->stream_served = !cs_queue_pooled(core, cq);
	cs_log_q(core, cq, "slice expired%s dispatched=%u lead=%llu us",
		 preempted ? " (preempted)" : "", cq->slice_dispatch,
		 (unsigned long long)(core->boost_lead / NSEC_PER_USEC));
	cq->slice_end = 0;
	cq->slice_dispatch = 0;
	cq->flags &= ~(CSQ_FIFO_USED | CSQ_SLICE_WAIT);
	if (cq->queued)
		cs_rr_add(core, cq, preempted);
	cs_put_queue(core, cq);
}

/**
 * cs_expire_active() - end the active queue's slice now
 * @core: the scheduler
 */
void cs_expire_active(struct cs_core *core)
{
	if (core->active)
		cs_expire(core, false);
}

static bool cs_should_preempt_active(struct cs_core *core,
				     struct cs_queue *cq, bool meta)
{
	struct cs_queue *active = core->active;
	struct cs_preempt_input in;

	if (!active || active == cq)
		return false;
	/*
	 * The common case, sync queues of a class taking turns: one takes
	 * the disk from another only for metadata or a boost that may lead
	 * (cs_should_preempt(), cs_test_preempt_sync_peers), so without
	 * either there is nothing to ask.
	 */
	if (!meta && !cs_queue_boosted(cq) &&
	    cq->prio_class == active->prio_class &&
	    cs_queue_sync(cq) && cs_queue_sync(active))
		return false;
	in.new_class = cq->prio_class;
	in.new_sync = cs_queue_sync(cq);
	in.new_meta = meta;
	in.new_boosted = cs_queue_leads(core, cq);
	in.active_class = active->prio_class;
	in.active_sync = cs_queue_sync(active);
	in.active_meta = active->meta_queued;
	in.active_boosted = cs_queue_acts(active);
	/* @cq has a request queued now, so it counts itself. */
	in.sync_waits = cs_queue_sync(cq) &&
			core->nr_busy_sync[cq->prio_class] > 1;
	/* It used up its slice just before the active queue's turn. */
	in.new_returns = (cq->flags & CSQ_SLICE_USED) &&
			 cq->turn + 1 == active->turn;
	in.active_dispatched = active->slice_dispatch;
	in.async_min = cs_tun(core, CS_T_SLICE_ASYNC_RQ);
	return cs_should_preempt(&in);
}

static u64 cs_deadline(struct cs_core *core, struct cs_queue *cq, u64 now)
{
	return now + cs_tun(core, cs_queue_sync(cq) ? CS_T_FIFO_EXPIRE_SYNC :
						      CS_T_FIFO_EXPIRE_ASYNC);
}

/**
 * cs_sort_add() - insert a request into a queue's sort tree
 * @cq: the queue
 * @rq: the request; it goes after requests with the same start sector
 */
void cs_sort_add(struct cs_queue *cq, struct request *rq)
{
	struct rb_node **p = &cq->sort.rb_node, *parent = NULL;
	struct request *cur;

	while (*p) {
		parent = *p;
		cur = rb_entry(parent, struct request, rb_node);
		if (blk_rq_pos(rq) < blk_rq_pos(cur))
			p = &parent->rb_left;
		else
			p = &parent->rb_right;
	}
	rb_link_node(&rq->rb_node, parent, p);
	rb_insert_color(&rq->rb_node, &cq->sort);
}

static void cs_sort_del(struct cs_queue *cq, struct request *rq)
{
	rb_erase(&rq->rb_node, &cq->sort);
	RB_CLEAR_NODE(&rq->rb_node);
}

/* Queue @rq in @cq: sort tree, FIFO, counts.  No policy. */
static void cs_enqueue(struct cs_core *core, struct cs_queue *cq,
		       struct request *rq)
{
	if (req_op(rq) == REQ_OP_READ)
		cs_mark_reader(core, cq);
	cs_sort_add(cq, rq);
	list_add_tail(&rq->queuelist, &cq->fifo);
	cs_rq_move(rq, CS_RQ_QUEUED);
	core->nr_queued++;
	cq->meta_queued += !!(cs_rq_state(rq) & CS_RQ_META);
	if (!cq->queued++) {
		cs_busy_account(core, cq, 1);
		if (core->active != cq)
			cs_rr_add(core, cq, false);
	}
	cs_present_inc(core, cq);
}

/*
 * Take queued @rq out of @cq.  The caller decides where it goes, and
 * counts @cq out of the present queues unless it goes to the driver.
 */
static void cs_dequeue(struct cs_core *core, struct cs_queue *cq,
		       struct request *rq)
{
	list_del_init(&rq->queuelist);
	cs_sort_del(cq, rq);
	cs_env_rq_unlisted(core, rq);
	core->nr_queued--;
	cq->meta_queued -= !!(cs_rq_state(rq) & CS_RQ_META);
	cs_rq_move(rq, 0);
	if (!--cq->queued) {
		cs_busy_account(core, cq, -1);
		cs_rr_del(core, cq);
	}
}

/* The first seeky sync queue of @pclass waiting for a slice, or NULL. */
static struct cs_queue *cs_seeky_waiting(const struct cs_core *core,
					 enum cs_prio_class pclass)
{
	struct cs_queue *cq;

	list_for_each_entry(cq, &core->rr[pclass], rr)
		if (cs_queue_pooled(core, cq))
			return cq;
	return NULL;
}

/*
 * The active queue ran dry and a context of it thinks: whether to wait
 * for it.
 */
static enum cs_idle cs_idle_for(struct cs_core *core, struct cs_queue *cq)
{
	struct cs_idle_input in;
	unsigned int other;

	if (!cs_queue_sync(cq) || (cq->flags & CSQ_FALLBACK))
		return CS_IDLE_NONE;
	in.idle_pays = core->mode == CS_MODE_SERIAL;
	in.keep_share = false;
	if (!in.idle_pays) {
		/* Busy queues of another weight than @cq's. */
		other = cs_busy_queues(core) -
			core->nr_busy_level[cq->prio_class][cq->level];
		in.keep_share = other && !cs_model_parallel(&core->model);
	}
	/* A boosted queue that leads is idled for in either mode. */
	in.boosted = cs_queue_leads(core, cq) && cs_boost_over_others(core);
	if (!in.idle_pays && !in.keep_share && !in.boosted)
		return CS_IDLE_NONE;
	in.sync = true;
	in.ctx_alive = cs_members_alive(cq);
	in.seeky = cs_seeky(&cq->seek);
	in.ttime_valid = cs_ttime_valid(&cq->ttime);
	in.ttime_mean = cq->ttime.mean;
	in.merged = cs_queue_coop(cq);
	in.slice_idle = cs_tun(core, CS_T_SLICE_IDLE);
	in.group_idle = cs_tun(core, CS_T_GROUP_IDLE);
	/* The active queue itself is counted as busy only if queued. */
	in.last_sync_in_class =
		core->nr_busy_sync[cq->prio_class] == (cq->queued ? 1 : 0);
	in.last_seeky_in_class = in.seeky && in.idle_pays &&
				 !cs_seeky_waiting(core, cq->prio_class);
	return cs_idle_decision(&in);
}

/* Keep the disk for the active queue's next request, if worth it. */
static bool cs_arm_idle(struct cs_core *core, struct cs_queue *cq, u64 now)
{
	enum cs_idle kind = cs_idle_for(core, cq);
	u64 wait, left, waited;

	if (kind == CS_IDLE_NONE)
		return false;
	wait = cs_idle_window(kind, cs_queue_coop(cq) || cs_queue_leads(core, cq),
			      cs_tun(core, CS_T_SLICE_IDLE),
			      cs_tun(core, CS_T_GROUP_IDLE));
	/*
	 * A queue that ran dry while nobody else wanted the disk has been
	 * waiting since its last completion: that counts.
	 */
	if (!cq->dispatched && cq->last_done) {
		waited = cs_since(now, cq->last_done);
		if (waited >= wait)
			return false;
		wait -= waited;
	}
	if (cq->slice_end) {
		left = cs_since(cq->slice_end, now);
		/* Not worth it if the context thinks longer than what is left. */
		if (!left || (cs_ttime_valid(&cq->ttime) &&
			      cq->ttime.mean > left))
			return false;
		wait = min(wait, left);
	}
	core->stats.idle_armed++;
	cs_start_idle(core, kind, now + wait);
	cs_log_q(core, cq, "arm %s idle %llu us",
		 kind == CS_IDLE_QUEUE ? "slice" : "group",
		 (unsigned long long)(wait / NSEC_PER_USEC));
	return true;
}

/**
 * cs_queue_coop() - whether a queue's contexts cooperate on one stream
 * @cq: the queue
 *
 * Return: true for a merged queue of several contexts that is not being
 * split, and for a queue that serves a pool's stream (cs_stream_queue()).
 */
bool cs_queue_coop(const struct cs_queue *cq)
{
	if (cq->flags & CSQ_SPLIT)
		return false;
	return ((cq->flags & CSQ_MERGED) && cq->nr_members > 1) ||
	       (cq->flags & CSQ_STREAM);
}

/* The pool of @cq's first context: its process or kernel pool (0: none). */
static pid_t cs_queue_pool(const struct cs_queue *cq)
{
	if (list_empty(&cq->members))
		return 0;
	return list_first_entry(&cq->members, struct cs_ctx, member)->pool;
}

/*
 * A sync queue that gets a request: start its boost if it is new or was
 * quiet for long, end a boost that ran out of time, note a boosted one.
 * Not for the threads of a pool (cs_boost_end_pool()).
 */
static void cs_boost_check(struct cs_core *core, struct cs_queue *cq,
			   u64 now)
{
	bool quiet;

	/* Only where the model learns: the cheap test first. */
	if (!cs_learns(core) || !cs_queue_sync(cq) || (cq->flags & CSQ_FALLBACK))
		return;
	quiet = !cq->queued && !cq->dispatched;
	cs_boost_review(core, cq, now);
	if (cs_queue_boosted(cq) && core->pool &&
	    core->pool == cs_queue_pool(cq))
		cs_boost_end(core, cq, "its pool serves streams");
	if (!cs_queue_boosted(cq) && quiet &&
	    (!core->pool || core->pool != cs_queue_pool(cq)) &&
	    cs_boost_starts(cs_tun(core, CS_T_LOW_LATENCY),
			    cs_tun(core, CS_T_BOOST),
			    !cq->last_done && !cq->seek.nr,
			    cs_queue_stream(cq), cq->last_done, now)) {
		cq->flags |= CSQ_BOOST;
		cq->boost_until = now + CS_BOOST_TIME;
		cq->boost_served = 0;
		core->stats.boosted++;
		cs_log_q(core, cq, "boost");
	}
	if (cs_queue_acts(cq))
		cs_boost_seen(core, cq, now);
}

/*
 * @cq, a thread of a pool, continued a stream: so are the boosted queues of
 * its pool (process or kernel threads, cs_pool_key()) waiting for the
 * disk, and the queues it starts later.  Ended one by one, as each next
 * continues a stream, those still boosted would lead the others meanwhile
 * (tools/sim -d sata s8 16 1: 61.6 MB/s that way, 64.9 with all ended).
 * Once per boost that ends so.
 */
static void cs_boost_end_pool(struct cs_core *core, struct cs_queue *cq)
{
	pid_t pool = cs_queue_pool(cq);
	struct cs_queue *q;

	if (!pool)
		return;
	core->pool = pool;
	q = core->active;
	if (q && q != cq && cs_queue_boosted(q) && cs_queue_pool(q) == pool)
		cs_boost_end(core, q, "its pool serves streams");
	if (!core->nr_busy_boost)
		return;
	list_for_each_entry(q, &core->rr[cq->prio_class], rr)
		if (cs_queue_boosted(q) && cs_queue_pool(q) == pool)
			cs_boost_end(core, q, "its pool serves streams");
}

static u64 cs_sector_gap(sector_t a, sector_t b)
{
	return a >= b ? a - b : b - a;
}

/*
 * A boosted queue's request at @pos: end the boost if it continues the
 * stream of another sync queue of its pool, one of the last
 * CS_RECENT_ENDS sync requests dispatched or the active queue's last
 * (cs_coop_ends_boost()).  Of its pool: one program after another
 * reading neighbouring files (S3's cat processes) are programs starting
 * each.  Only boosted queues pay for it.
 */
static void cs_boost_stream_check(struct cs_core *core, struct cs_queue *cq,
				  sector_t pos)
{
	struct cs_queue *active = core->active;
	pid_t pool = cs_queue_pool(cq);
	u64 d = U64_MAX;
	unsigned int i;

	if (!pool)
		return;
	for (i = 0; i < CS_RECENT_ENDS; i++)
		if (core->ends_q[i] && core->ends_q[i] != cq &&
		    cs_queue_pool(core->ends_q[i]) == pool)
			d = min(d, cs_sector_gap(pos, core->ends[i]));
	if (active && active != cq && cs_queue_sync(active) &&
	    cs_queue_pool(active) == pool)
		d = min(d, cs_sector_gap(pos, active->last_end));
	if (!cs_coop_ends_boost(d != U64_MAX, d))
		return;
	cs_boost_end(core, cq, "continues a stream");
	cs_boost_end_pool(core, cq);
}

/* Note @q in *@best if its stream is the nearest one @pos continues. */
static void cs_stream_try(struct cs_queue *q, struct cs_queue *cq,
			  pid_t pool, sector_t pos, enum cs_prio_class pclass,
			  unsigned int level, struct cs_queue **best, u64 *best_d)
{
	u64 d;

	if (!q || q == cq || !cs_queue_sync(q) || q->prio_class != pclass ||
	    q->level != level || (q->flags & (CSQ_FALLBACK | CSQ_SPLIT)) ||
	    cs_queue_pool(q) != pool)
		return;
	d = cs_stream_gap(q->stream_end, pos);
	if (d < *best_d) {
		*best = q;
		*best_d = d;
	}
}

/*
 * Where slices own the disk, a sync request that does not continue its own
 * queue's stream but continues the stream of another sync queue of its
 * pool, class and level goes into that queue: a server's pool serves
 * each client's stream with whichever thread is free, so a stream's
 * requests come from every thread, and served per thread they would be
 * read out of order, with an idle window for each thread (each thread's
 * next chunk lies a pool's width ahead; S8 on sata in serial mode, 16
 * threads on one stream: 0.75-0.88 of none).  The thread's own queue keeps
 * its contexts; only the request moves.  Returns the queue @rq goes into,
 * with a reference for it; *@in_stream tells that @rq continues that
 * queue's stream out of order, which is no seek.
 */
static struct cs_queue *cs_stream_queue(struct cs_core *core,
					struct cs_queue *cq,
					struct request *rq,
					enum cs_prio_class pclass,
					unsigned int level, bool *in_stream)
{
	sector_t pos = blk_rq_pos(rq);
	struct cs_queue *q, *best = NULL;
	u64 best_d = U64_MAX;
	unsigned int i = 0;
	pid_t pool;

	*in_stream = false;
	if (core->mode != CS_MODE_SERIAL || !cs_queue_sync(cq) ||
	    (cq->flags & CSQ_FALLBACK))
		return cq;
	if ((cq->last_end || cq->seek.nr) &&
	    cs_sector_gap(pos, cq->last_end) <= CS_COOP_CLOSE)
		return cq;
	/*
	 * Its own pool stream, arriving out of order, unless another stream
	 * of the pool goes on nearer (streams that meet).
	 */
	if (cq->flags & CSQ_STREAM) {
		best_d = cs_stream_gap(cq->stream_end, pos);
		if (best_d != U64_MAX)
			best = cq;
	}
	pool = cs_queue_pool(cq);
	if (!pool || best_d == 0) {
		*in_stream = !!best;
		return cq;
	}
	/* The queues that serve a stream: active, waiting, lately served. */
	cs_stream_try(core->active, cq, pool, pos, pclass, level, &best,
		      &best_d);
	list_for_each_entry(q, &core->rr[pclass], rr) {
		if (++i > CS_STREAM_SCAN)
			break;
		cs_stream_try(q, cq, pool, pos, pclass, level, &best, &best_d);
	}
	for (i = 0; i < CS_RECENT_ENDS; i++)
		cs_stream_try(core->ends_q[i], cq, pool, pos, pclass, level,
			      &best, &best_d);
	if (!best || best == cq) {
		*in_stream = !!best;
		return cq;
	}
	core->stats.stream_moved++;
	best->flags |= CSQ_STREAM;
	*in_stream = true;
	/* A pool's threads, not programs starting (cs_boost_stream_check()). */
	if (cs_queue_boosted(cq) || cs_queue_boosted(best)) {
		if (cs_queue_boosted(cq))
			cs_boost_end(core, cq, "continues a stream");
		cs_boost_end_pool(core, cq);
	}
	best->ref++;
	cs_put_queue(core, cq);
	return best;
}

/* @rq of priority @pclass and @level goes into @cq. */
static void cs_add_request(struct cs_core *core, struct cs_queue *cq,
			   struct request *rq, enum cs_prio_class pclass,
			   unsigned int level, bool in_stream, u64 now)
{
	u64 dist;

	cs_update_prio(core, cq, pclass, level);
	cs_boost_check(core, cq, now);
	if (cs_queue_boosted(cq))
		cs_boost_stream_check(core, cq, blk_rq_pos(rq));
	/* It was thinking if nothing of it was queued or in flight. */
	if (cq->last_done && !cq->queued && !cq->dispatched &&
	    now > cq->last_done)
		cs_ttime_add(&cq->ttime, now - cq->last_done,
			     cs_tun(core, CS_T_SLICE_IDLE));
	/* Out of order within a pool's stream is no seek of the stream's. */
	dist = 0;
	if (!in_stream && (cq->last_end || cq->seek.nr))
		dist = blk_rq_pos(rq) >= cq->last_end ?
		       blk_rq_pos(rq) - cq->last_end :
		       cq->last_end - blk_rq_pos(rq);
	cs_seek_add(&cq->seek, dist);
	/* A seek of its own: it no longer serves the pool's stream. */
	if (dist > CS_COOP_CLOSE)
		cq->flags &= ~CSQ_STREAM;
	cq->last_end = blk_rq_pos(rq) + blk_rq_sectors(rq);
	if (cq->last_end > cq->stream_end ||
	    cs_stream_gap(cq->stream_end, blk_rq_pos(rq)) == U64_MAX)
		cq->stream_end = cq->last_end;

	rq->fifo_time = cs_deadline(core, cq, now);
	cs_rq_set_state(rq, (cs_queue_sync(cq) ? CS_RQ_SYNC : 0) |
			CS_RQ_TIMED |
			(cs_queue_sync(cq) && (rq->cmd_flags &
					       (REQ_META | REQ_PRIO)) ?
			 CS_RQ_META : 0));
	cs_enqueue(core, cq, rq);
	cs_env_rq_listed(core, rq);

	/* Only a merged queue splits (cs_should_split()). */
	if (cq->flags & CSQ_MERGED)
		cs_check_split(core, cq);
	/* Continuing the active queue's stream: join it (members.c). */
	if (core->active && core->active != cq)
		cq = cs_try_cooperate(core, cq, rq);

	if (core->active == cq) {
		if (core->idling != CS_IDLE_NONE) {
			cs_cancel_idle(core);
			core->stats.idle_hit++;
			cs_log_q(core, cq, "idle hit");
		}
	} else if (cs_should_preempt_active(core, cq,
					    cs_rq_state(rq) & CS_RQ_META)) {
		core->stats.preempted++;
		core->stats.boost_preempted += cs_queue_leads(core, cq);
		cs_log_q(core, cq, "preempts cs%d%c%c", core->active->pid,
			 cs_queue_sync(core->active) ? 'S' : 'A',
			 cs_class_char(core->active));
		cs_expire(core, true);
		cs_rr_add(core, cq, true);
	} else if (core->idling == CS_IDLE_GROUP && cs_queue_sync(cq) &&
		   core->active && cq->prio_class == core->active->prio_class) {
		/* The class waited for more sync work, and here it is. */
		cs_expire(core, false);
		core->stats.idle_hit++;
	}
}

/* Take @rq off wherever it is queued (a repair path). */
static void cs_unqueue(struct cs_core *core, struct request *rq)
{
	unsigned long state = cs_rq_state(rq);
	struct cs_queue *cq = cs_rq_queue(rq);

	if (state & CS_RQ_QUEUED) {
		cs_dequeue(core, cq, rq);
		cs_present_dec(core, cq);
	} else if (state & CS_RQ_HEAD) {
		list_del_init(&rq->queuelist);
		core->nr_queued--;
		cs_rq_move(rq, 0);
	}
}

/* A request leaves the driver without a completion to account. */
static void cs_leave_driver(struct cs_core *core, struct request *rq)
{
	struct cs_queue *cq = cs_rq_queue(rq);

	core->in_driver[cs_rq_sync(rq)]--;
	core->rt_in_driver -= !!(cs_rq_state(rq) & CS_RQ_RT);
	core->boost_in_driver -= !!(cs_rq_state(rq) & CS_RQ_BOOST);
	if (cq) {
		cq->dispatched--;
		cs_present_dec(core, cq);
	}
	if (cs_learns(core))
		cs_model_complete(&core->model, 0,
				  op_is_write(req_op(rq)) ? CS_MODEL_WRITE : 0,
				  core->model.last_tick);
	cs_rq_set_state(rq, 0);
}

/**
 * cs_core_may_insert_merge() - whether a new request may be merged into a
 *	queued one at insertion
 * @core: the scheduler
 * @rq: the new request
 *
 * Insert merges cannot be checked against the size cap, and the block
 * layer picks the request they go into by position alone: a sync write
 * could end up waiting inside an async one.  Reads are all sync, so they
 * only ever meet reads.
 *
 * Return: true to let the block layer try.
 */
bool cs_core_may_insert_merge(const struct cs_core *core,
			      struct request *rq)
{
	if (cs_tun(core, CS_T_MAX_REQUEST_KB))
		return false;
	return !(rq_is_sync(rq) && op_is_write(req_op(rq)));
}

/**
 * cs_core_insert() - a request enters the scheduler
 * @core: the scheduler
 * @rq: the request; rq->elv.priv[0] holds its queue if it had one before
 *	(a requeue), NULL otherwise
 * @ctx: the submitting context's part, or NULL
 * @at_head: insert before everything (a requeue, a flush sequence)
 * @now: current time, ns
 *
 * A request the core believes queued or in the driver is a bug in the
 * caller's bookkeeping: it is warned about and then moved where it was
 * asked to go, so that it is served rather than lost.
 */
void cs_core_insert(struct cs_core *core, struct request *rq,
		    struct cs_ctx *ctx, bool at_head, u64 now)
{
	unsigned long state = cs_rq_state(rq);
	enum cs_prio_class pclass;
	bool in_stream = false;
	struct cs_queue *cq;
	unsigned int level;

	cs_env_lock_held(core);

	cs_tick(core, now);
	if (cs_env_warn_on(core, state & (CS_RQ_QUEUED | CS_RQ_HEAD))) {
		cs_unqueue(core, rq);
		core->stats.repaired++;
	}
	if (cs_env_warn_on(core, state & CS_RQ_DRIVER)) {
		/* Requeued without ->requeue_request(): keep counts right. */
		cs_leave_driver(core, rq);
		core->stats.repaired++;
	}

	if (at_head) {
		/*
		 * Requeues and flush sequences go first, unscheduled.  They
		 * carry no deadline of ours: a requeue after a SCSI error is
		 * no sign that the scheduler let a read wait.
		 */
		list_add(&rq->queuelist, &core->dispatch);
		cs_rq_set_state(rq, CS_RQ_HEAD |
				(rq_is_sync(rq) ? CS_RQ_SYNC : 0));
		core->nr_queued++;
		core->stats.head_inserted++;
		return;
	}
	cs_prio_of(cs_env_rq_ioprio(rq), &pclass, &level);
	cq = cs_rq_queue(rq);
	if (!cq) {
		cq = cs_queue_for_rq(core, rq, ctx, pclass, level);
		cq = cs_stream_queue(core, cq, rq, pclass, level, &in_stream);
		cs_rq_set_queue(rq, cq);
	}
	core->stats.inserted++;
	cs_add_request(core, cq, rq, pclass, level, in_stream, now);
}

/*
 * First request at or after @pos in @root, or NULL; @prev: the one before
 * it in sector order (the last one if none is at or after @pos), or NULL.
 * Both lie on the way down: the last node left to the right is the
 * predecessor, so no second walk (rb_prev(), rb_last()) is needed.
 */
static struct request *cs_first_from(struct rb_root *root, sector_t pos,
				     struct request **prev)
{
	struct rb_node *node = root->rb_node;
	struct request *rq, *found = NULL;

	*prev = NULL;
	while (node) {
		rq = rb_entry(node, struct request, rb_node);
		if (blk_rq_pos(rq) >= pos) {
			found = rq;
			node = node->rb_left;
		} else {
			*prev = rq;
			node = node->rb_right;
		}
	}
	return found;
}

/* The queue's next request in sector order, allowing short back seeks. */
static struct request *cs_next_by_position(struct cs_core *core,
					   struct cs_queue *cq)
{
	struct request *cand[2], *prev;
	unsigned int nr = 0;
	sector_t pos[2];
	int pick;

	cand[0] = cs_first_from(&cq->sort, core->head, &prev);
	if (cand[0])
		pos[nr++] = blk_rq_pos(cand[0]);
	if (prev) {
		cand[nr] = prev;
		pos[nr] = blk_rq_pos(prev);
		nr++;
	}
	if (!nr)
		return NULL;
	pick = cs_seek_pick(core->head, pos, nr,
			    (sector_t)cs_tun(core, CS_T_BACK_SEEK_MAX) * 2,
			    cs_tun(core, CS_T_BACK_SEEK_PENALTY));
	if (pick >= 0)
		return cand[pick];
	/* Everything lies far behind the head: start a new sweep. */
	return rb_entry(rb_first(&cq->sort), struct request, rb_node);
}

static struct request *cs_choose_request(struct cs_core *core,
					 struct cs_queue *cq, u64 now)
{
	struct request *rq;

	/* Metadata first: its reader waits for it before anything else. */
	if (cq->meta_queued) {
		list_for_each_entry(rq, &cq->fifo, queuelist)
			if (cs_rq_state(rq) & CS_RQ_META)
				return rq;
	}

	/* One expired request per slice, so deadlines cannot cause a seek storm. */
	if (!(cq->flags & CSQ_FIFO_USED)) {
		rq = list_first_entry_or_null(&cq->fifo, struct request,
					      queuelist);
		if (rq && cs_fifo_expired(rq->fifo_time, now)) {
			cq->flags |= CSQ_FIFO_USED;
			core->stats.fifo_expired++;
			cs_log_q(core, cq, "fifo expired");
			return rq;
		}
	}
	return cs_next_by_position(core, cq);
}

static bool cs_parallel_mode(const struct cs_core *core)
{
	return core->mode == CS_MODE_PARALLEL;
}

/*
 * Readers are about: sync requests wait, or one completed within two idle
 * windows (its reader is likely thinking about the next).
 */
static bool cs_sync_near(struct cs_core *core, u64 now)
{
	enum cs_prio_class c;

	for (c = CS_CLASS_RT; c < CS_NR_CLASSES; c++)
		if (core->nr_busy_sync[c])
			return true;
	return core->last_sync_done &&
	       cs_since(now, core->last_sync_done) <
	       2 * cs_tun(core, CS_T_SLICE_IDLE);
}

/*
 * Whether write-back may go beside reads in the driver: in PARALLEL mode,
 * once the model knows it.  In the prior, in a measurement's PARALLEL
 * windows and where a measurement found no winner (PARALLEL only kept), a
 * disk that says it rotates may be a spindle whose queue then fills with
 * writes ahead of a read (S7: 270 ms reads while the model learned; sim
 * s7 40 -w 4 on sata, undecided: 266-270 ms, 71 ms with writes held); the
 * windows then differ in idling only.
 */
static bool cs_writes_beside_reads(const struct cs_core *core)
{
	const struct cs_model *m = &core->model;
	enum cs_mode_why why;

	if (!cs_parallel_mode(core))
		return false;
	if (!cs_learns(core))
		return true;
	/* The cheap test first: this runs for every async dispatch. */
	if (cs_model_measuring(m))
		return false;
	why = cs_model_why(m);
	return why != CS_WHY_PRIOR && why != CS_WHY_AB_UNDECIDED;
}

/* Requests in the driver of queues that did not act as boosted. */
static unsigned int cs_others_in_driver(const struct cs_core *core)
{
	return core->in_driver[0] + core->in_driver[1] - core->boost_in_driver;
}

/* Requests the active queue may have in the driver at once. */
static unsigned int cs_max_dispatch(struct cs_core *core, struct cs_queue *cq,
				    u64 now)
{
	unsigned int quantum = cs_tun(core, CS_T_QUANTUM);
	bool parallel = cs_parallel_mode(core), beside;
	u64 since;

	if (cq->prio_class == CS_CLASS_IDLE)
		return 1;
	/*
	 * A boosted queue's next read finds at most one request of the
	 * other queues ahead of it, in any mode: a rotating disk's own
	 * queue serves the nearest first, so a far read can wait behind
	 * all the streams' requests (S9 in the VM, two 1 MiB readers in
	 * PARALLEL mode: a program's read took 131 ms behind four of them,
	 * 4.5 ms behind none).  Write-back too: where writes go beside
	 * reads, a flood of them kept a boosted reader's read 290 ms in the
	 * disk's queue while its lead was used up (tools/sim -d sata -w 16
	 * s7 40; 93 ms at most so).
	 */
	if (core->boost_last && !cs_queue_acts(cq) &&
	    cs_boost_near(core, cq->prio_class, now))
		return cs_others_in_driver(core) ? 0 : 1;
	if (!cs_queue_sync(cq)) {
		since = core->last_delayed_sync ?
			cs_since(now, core->last_delayed_sync) : U64_MAX;
		/* Where the disk serves both at once, writes need not wait. */
		beside = cs_writes_beside_reads(core);
		return cs_async_max_dispatch(quantum,
					     cs_tun(core, CS_T_LOW_LATENCY),
					     beside ? 0 : core->in_driver[1],
					     !beside && cs_sync_near(core, now),
					     since,
					     cs_tun(core, CS_T_SLICE_SYNC),
					     cq->dispatched);
	}
	/* On a parallel disk, or alone, no cap but the device's. */
	if (parallel || cs_busy_queues(core) == 1)
		return UINT_MAX;
	return quantum;
}

/* The seek a slice switch costs, where slices own the disk. */
static u64 cs_seek_share(struct cs_core *core)
{
	if (core->mode != CS_MODE_SERIAL)
		return 0;
	return cs_model_seek_ns(&core->model);
}

static u64 cs_slice_for(struct cs_core *core, struct cs_queue *cq)
{
	u64 base = cs_tun(core, CS_T_SLICE_SYNC), slice, seek;

	seek = cs_seek_share(core);
	if (core->mode == CS_MODE_SERIAL) {
		seek = max(seek, core->switch_ns);
		base = cs_slice_base(base, core->switch_ns);
	}
	slice = cs_slice_len(cs_queue_sync(cq) ? base :
			     cs_tun(core, CS_T_SLICE_ASYNC), cq->level);
	if (cs_tun(core, CS_T_LOW_LATENCY))
		slice = cs_scaled_slice(slice, base,
					core->nr_busy[cq->prio_class],
					cs_tun(core, CS_T_TARGET_LATENCY),
					cs_slice_floor(cs_tun(core, CS_T_SLICE_IDLE),
						       seek));
	return slice;
}

static void cs_set_active(struct cs_core *core, struct cs_queue *cq)
{
	/* A pending IDLE-class grace timer no longer applies. */
	cs_cancel_idle(core);
	cs_rr_del(core, cq);
	cq->ref++;
	cq->slice_end = 0;
	cq->slice_dispatch = 0;
	cq->flags &= ~(CSQ_FIFO_USED | CSQ_SLICE_WAIT | CSQ_SLICE_USED);
	core->active = cq;
	cq->turn = ++core->turns;
	core->stats.slices++;
	cs_log_q(core, cq, "set_active level=%u queued=%u", cq->level,
		 cq->queued);
}

/*
 * Where slices own the disk, the seeky sync queues of a class share one
 * slice per round, as CFQ's sync-noidle tree shared a workload slice: they
 * take turns in it without idling between them, and the last of them
 * idles (cs_idle_for()).  Without it each would get one request per round
 * of the streams' slices; with one slice for all of them, any number of
 * seeky readers leaves the streams of the class at least n/(n + 1) of the
 * disk's time for n streams.
 */
static bool cs_seeky_window(const struct cs_core *core,
			    enum cs_prio_class pclass, u64 now)
{
	return core->mode == CS_MODE_SERIAL && core->seeky_class == pclass &&
	       now < core->seeky_until;
}

/*
 * Whether the window has room for another seeky request.  Its requests
 * hold the disk after the window's end until they complete, each about a
 * seek, so where a stream had the disk before the window (and wants it
 * back after it), the window's time must include them.  Without streams,
 * seeky readers keep the depth the disk sorts best.
 */
static bool cs_seeky_room(const struct cs_core *core, u64 now)
{
	u64 cost = cs_model_seek_ns(&core->model) ?: CS_SEEKY_COST_NS;
	unsigned int n = core->in_driver[1];

	return !core->seeky_capped || !n ||
	       now + (n + 1) * cost <= core->seeky_until;
}

/* The first boosted queue of @pclass waiting, while boosts may lead. */
static struct cs_queue *cs_boost_waiting(const struct cs_core *core,
					 enum cs_prio_class pclass)
{
	struct cs_queue *cq;

	/* No walk of the round robin per dispatch when nothing is boosted. */
	if (!core->nr_busy_boost || !cs_boost_may_lead(core))
		return NULL;
	list_for_each_entry(cq, &core->rr[pclass], rr)
		if (cs_queue_acts(cq))
			return cq;
	return NULL;
}

/* The first queue of @pclass waiting that is not a seeky sync one. */
static struct cs_queue *cs_stream_waiting(const struct cs_core *core,
					  enum cs_prio_class pclass)
{
	struct cs_queue *cq;

	list_for_each_entry(cq, &core->rr[pclass], rr)
		if (!cs_queue_pooled(core, cq))
			return cq;
	return NULL;
}

static void cs_open_seeky_window(struct cs_core *core, struct cs_queue *cq,
				 u64 now)
{
	core->seeky_class = cq->prio_class;
	core->seeky_until = now + cs_slice_for(core, cq);
	core->seeky_capped = core->stream_served;
	cs_log(core, "seeky window %llu us%s",
	       (unsigned long long)((core->seeky_until - now) /
				    NSEC_PER_USEC),
	       core->seeky_capped ? " capped" : "");
}

/*
 * The queue of @pclass that takes the disk in the seeky window; NULL
 * outside of one.  @wait: the window is full and only seeky queues wait,
 * so the disk waits for a seeky request to complete.
 */
static struct cs_queue *cs_seeky_next(struct cs_core *core,
				      enum cs_prio_class pclass, u64 now,
				      bool *wait)
{
	struct cs_queue *cq;

	*wait = false;
	if (core->seeky_handover && core->seeky_class == pclass) {
		/* A full window just let its active queue go. */
		core->seeky_handover = false;
		return cs_stream_waiting(core, pclass);
	}
	if (!cs_seeky_window(core, pclass, now))
		return NULL;
	if (cs_seeky_room(core, now))
		return cs_seeky_waiting(core, pclass);
	cq = cs_stream_waiting(core, pclass);
	if (cq)
		core->seeky_until = now;	/* the streams' turn */
	else
		*wait = cs_seeky_waiting(core, pclass);
	return cq;
}

/* The active seeky queue has a request that the full window cannot take. */
static bool cs_seeky_full(struct cs_core *core, struct cs_queue *cq, u64 now)
{
	/* The window first: there is none in PARALLEL mode. */
	return cq->queued && cs_seeky_window(core, cq->prio_class, now) &&
	       cs_queue_pooled(core, cq) && !cs_seeky_room(core, now);
}

/* What the active queue does now. */
enum cs_keep {
	CS_KEEP_DISPATCH,	/* it has requests and slice left */
	CS_KEEP_WAIT,		/* it waits for its next request */
	CS_KEEP_RELEASE,	/* it gives up the disk */
};

static enum cs_keep cs_active_keeps(struct cs_core *core, struct cs_queue *cq,
				    u64 now)
{
	if (cs_slice_expired(cq->slice_end, now)) {
		cq->flags |= CSQ_SLICE_USED;
		return CS_KEEP_RELEASE;
	}
	if (cs_seeky_full(core, cq, now)) {
		if (!cs_stream_waiting(core, cq->prio_class))
			return CS_KEEP_WAIT;
		core->seeky_until = now;
		core->seeky_handover = true;
		return CS_KEEP_RELEASE;
	}
	if (cq->queued)
		return CS_KEEP_DISPATCH;
	if (core->idling != CS_IDLE_NONE)
		return CS_KEEP_WAIT;
	/* Nobody else wants the disk: keep the slice going. */
	if (!cs_busy_queues(core))
		return CS_KEEP_WAIT;
	/* With requests in the driver, decide when the last one completes. */
	if (cq->dispatched)
		return cs_idle_for(core, cq) != CS_IDLE_NONE ? CS_KEEP_WAIT :
							       CS_KEEP_RELEASE;
	return cs_arm_idle(core, cq, now) ? CS_KEEP_WAIT : CS_KEEP_RELEASE;
}

/*
 * @cq, of a lower class, waits for real time (cs_class_waits_rt()).  While
 * the real-time reader thinks, a timer ends the wait: no completion will.
 */
static bool cs_rt_holds(struct cs_core *core, struct cs_queue *cq, u64 now)
{
	u64 window = cs_tun(core, CS_T_SLICE_IDLE), quiet = U64_MAX;
	unsigned int in_driver = core->in_driver[0] + core->in_driver[1];
	struct request *oldest;

	if (core->rt_last_done)
		quiet = cs_since(now, core->rt_last_done);
	/* Every dispatch asks: the common answer without the rest. */
	if (!core->rt_in_driver && quiet >= window)
		return false;
	oldest = list_first_entry_or_null(&cq->fifo, struct request,
					  queuelist);
	if (!cs_class_waits_rt(cs_parallel_mode(core),
			       cq->prio_class == CS_CLASS_RT,
			       core->rt_in_driver, quiet,
			       window, in_driver - core->rt_in_driver,
			       oldest && cs_fifo_expired(oldest->fifo_time,
							  now)))
		return false;
	if (!core->rt_in_driver && core->idling == CS_IDLE_NONE)
		cs_start_idle(core, CS_IDLE_GROUP,
			      core->rt_last_done + window);
	return true;
}

/*
 * Sync queue @cq waits for the higher levels of its class on a parallel
 * disk (cs_level_waits()).  While none of them has requests queued or in
 * the driver (their readers think), a timer ends the wait: no completion
 * will.
 */
static bool cs_level_holds(struct cs_core *core, struct cs_queue *cq,
			   u64 now)
{
	enum cs_prio_class pclass = cq->prio_class;
	unsigned long above = BIT(cq->level) - 1;
	u64 least = U64_MAX, until = U64_MAX;
	struct cs_level_share *ls;
	struct request *oldest;
	bool busy = false;
	unsigned int level;

	/* Every dispatch asks: the common answer (no level above) first. */
	if (!(core->lvl_live[pclass] & above) || !(cq->flags & CSQ_READER) ||
	    pclass == CS_CLASS_IDLE || !cs_parallel_mode(core))
		return false;
	above &= cs_levels_live(core, pclass, now);
	for (level = 0; level < cq->level; level++) {
		if (!(above & BIT(level)))
			continue;
		ls = &core->lvl[pclass][level];
		least = min(least, ls->served);
		if (ls->present)
			busy = true;
		else
			until = min(until, ls->last_done +
					   cs_level_window(core));
	}
	if (!above)
		return false;
	oldest = list_first_entry_or_null(&cq->fifo, struct request,
					  queuelist);
	if (!cs_level_waits(core->lvl[pclass][cq->level].served, least,
			    cq->dispatched,
			    oldest && cs_fifo_expired(oldest->fifo_time, now)))
		return false;
	if (!busy && core->idling == CS_IDLE_NONE)
		cs_start_idle(core, CS_IDLE_GROUP, until);
	core->stats.level_held++;
	return true;
}

/* @cq waits for real time or for the higher levels of its class. */
static bool cs_held(struct cs_core *core, struct cs_queue *cq, u64 now)
{
	return cs_rt_holds(core, cq, now) || cs_level_holds(core, cq, now);
}

/*
 * @cq, or another queue of its class that is not held (cs_held()), or
 * NULL.  A held queue is not made active: the next real-time request would
 * preempt it at once (tools/sim s4 3 on ssd: 32,000 slices in 12 s, none
 * of them dispatching).
 */
static struct cs_queue *cs_lets(struct cs_core *core, struct cs_queue *cq,
				u64 now)
{
	struct cs_queue *other;

	if (!cs_held(core, cq, now))
		return cq;
	list_for_each_entry(other, &core->rr[cq->prio_class], rr)
		if (other != cq && !cs_held(core, other, now))
			return other;
	return NULL;
}

/* Pick the queue that may dispatch now; NULL if the disk should wait. */
static struct cs_queue *cs_select_queue(struct cs_core *core, u64 now)
{
	struct cs_queue *cq = core->active;
	enum cs_prio_class pclass;
	bool wait;

	if (cq) {
		switch (cs_active_keeps(core, cq, now)) {
		case CS_KEEP_DISPATCH:
			/* Held for a higher level, it gives way. */
			if (!cs_level_holds(core, cq, now))
				return cq;
			cs_expire(core, false);
			break;
		case CS_KEEP_WAIT:
			return NULL;
		case CS_KEEP_RELEASE:
			cs_expire(core, false);
			break;
		}
	}

	for (pclass = CS_CLASS_RT; pclass < CS_NR_CLASSES; pclass++) {
		cq = cs_boost_waiting(core, pclass);
		if (cq)
			goto found;
		cq = cs_seeky_next(core, pclass, now, &wait);
		if (wait)
			return NULL;
		if (!cq)
			cq = list_first_entry_or_null(&core->rr[pclass],
						      struct cs_queue, rr);
		if (!cq)
			continue;
		if (pclass == CS_CLASS_IDLE &&
		    !cs_idle_class_may_run(core->last_busy, now,
					   CS_IDLE_CLASS_GRACE)) {
			/* Let the disk stay free of other work for a while. */
			if (core->idling == CS_IDLE_NONE)
				cs_start_idle(core, CS_IDLE_GROUP,
					      core->last_busy +
					      CS_IDLE_CLASS_GRACE);
			return NULL;
		}
found:
		cq = cs_lets(core, cq, now);
		if (!cq)
			return NULL;
		cs_set_active(core, cq);
		if (core->mode == CS_MODE_SERIAL && cs_queue_pooled(core, cq) &&
		    !cs_seeky_window(core, pclass, now))
			cs_open_seeky_window(core, cq, now);
		return cq;
	}
	return NULL;
}

/*
 * The books say @cq has requests but its sort tree holds none: repair the
 * counts so that the disk does not poll for work that is not there.
 */
static void cs_repair_queue(struct cs_core *core, struct cs_queue *cq)
{
	unsigned int before = cq->queued + cq->dispatched;

	core->nr_queued -= min(core->nr_queued, cq->queued);
	cs_busy_account(core, cq, -1);
	cq->queued = 0;
	cq->meta_queued = 0;
	cs_rr_del(core, cq);
	if (before && !cq->dispatched && cs_queue_sync(cq))
		cs_present_account(core, cq, -1);
	core->stats.repaired++;
}

/* Whether the active queue gives way after dispatching a request. */
static bool cs_yield_after(struct cs_core *core, struct cs_queue *cq)
{
	unsigned int budget;

	/*
	 * Nobody else of its class or above waits: a turn handed to a lower
	 * class would only be taken back by preemption (a real-time reader
	 * beside a best-effort one lost every ninth read to it).
	 */
	if (cs_busy_up_to(core, cq->prio_class) <= (cq->queued ? 1 : 0))
		return false;
	if (cq->prio_class == CS_CLASS_IDLE)
		return cs_busy_queues(core) > 1;
	if (!cs_queue_sync(cq))
		budget = cs_async_slice_rq(cs_tun(core, CS_T_SLICE_ASYNC_RQ),
					   cq->level);
	else if (cs_queue_leads(core, cq))
		/*
		 * A program that leads keeps the disk between its reads in
		 * either mode: a turn handed on every quantum put a stream's
		 * read between two of its own, a seek away and back.
		 */
		return false;
	else if (cs_parallel_mode(core))
		budget = max_t(unsigned int, 1,
			       (unsigned int)cs_slice_len(cs_tun(core,
							CS_T_QUANTUM),
							cq->level));
	else
		return false;
	return cq->slice_dispatch >= budget;
}

static void cs_start_slice(struct cs_core *core, struct cs_queue *cq,
			   u64 now)
{
	cq->flags &= ~CSQ_SLICE_WAIT;
	cq->slice_end = now + cs_slice_for(core, cq) + cq->slice_credit;
	cq->slice_credit = 0;
	/* A seeky queue's turn ends with its class's window. */
	if (cs_queue_pooled(core, cq) && cs_seeky_window(core, cq->prio_class, now))
		cq->slice_end = min(cq->slice_end, core->seeky_until);
	cs_log_q(core, cq, "slice %llu us",
		 (unsigned long long)((cq->slice_end - now) / NSEC_PER_USEC));
}

/* The next request of the queues, taken off its queue; NULL to wait. */
static struct request *cs_dispatch_from_queues(struct cs_core *core, u64 now)
{
	struct request *rq = NULL;
	struct cs_queue *cq;
	unsigned int tries;

	for (tries = 0; tries < 4; tries++) {
		cq = cs_select_queue(core, now);
		if (!cq || cq->dispatched >= cs_max_dispatch(core, cq, now) ||
		    cs_rt_holds(core, cq, now))
			return NULL;
		rq = cs_choose_request(core, cq, now);
		if (!cs_env_warn_on(core, !rq))
			break;
		cs_repair_queue(core, cq);
	}
	if (!rq)
		return NULL;

	cs_dequeue(core, cq, rq);
	cq->dispatched++;
	cq->slice_dispatch++;
	/* Shares of levels count only while another level is live. */
	if ((core->lvl_live[cq->prio_class] & ~BIT(cq->level)) &&
	    (cq->flags & CSQ_READER) &&
	    (cs_levels_live(core, cq->prio_class, now) & ~BIT(cq->level)))
		core->lvl[cq->prio_class][cq->level].served +=
			cs_level_cost(blk_rq_sectors(rq), cq->level);
	if (cq->prio_class != CS_CLASS_IDLE)
		core->last_busy = now;
	if (!cq->slice_end && !(cq->flags & CSQ_SLICE_WAIT)) {
		/* What a switch costs: none of its own nor writes ahead. */
		if (core->mode == CS_MODE_SERIAL && cs_queue_sync(cq) &&
		    cq->dispatched == 1 && !core->in_driver[0])
			core->switch_at = now;
		/*
		 * Where slices own the disk, one that begins behind other
		 * queues' requests starts when the disk has served its
		 * first, as CFQ's did: the drain is not its time.
		 */
		if (core->mode == CS_MODE_SERIAL &&
		    core->in_driver[0] + core->in_driver[1] >= cq->dispatched)
			cq->flags |= CSQ_SLICE_WAIT;
		else
			cs_start_slice(core, cq, now);
	}
	if (cs_yield_after(core, cq))
		cs_expire(core, false);
	return rq;
}

/*
 * Who competes for the disk, as the model counts them: the sync queues
 * with requests, and write-back as one more while it has any.  A reader
 * beside a flusher is the case where idling matters most on a spindle
 * (seed 002), and a single reader would otherwise never be measured.
 */
static unsigned int cs_competitors(const struct cs_core *core)
{
	return core->nr_present_sync +
	       !!(core->in_driver[0] || core->nr_busy_async);
}

/*
 * Let the model's time pass; act on a change of mode.  Only where the
 * model learns (callers ask cs_learns() first, on every request).
 */
static void cs_model_step(struct cs_core *core, u64 now)
{
	struct cs_model *m = &core->model;
	unsigned int present = cs_competitors(core);

	if (!cs_model_tick_due(m, present, now)) {
		cs_model_count(m, present, now);
		return;
	}
	cs_model_defer(m, cs_boost_defers(core, now), now);
	if (!cs_model_tick(m, present, now))
		return;
	core->mode = cs_model_mode(m);
	cs_log(core, "mode %s (%s) seek %llu us gain %u/1024",
	       core->mode == CS_MODE_SERIAL ? "serial" : "parallel",
	       cs_model_why_name(cs_model_why(m)),
	       (unsigned long long)(cs_model_seek_ns(m) / NSEC_PER_USEC),
	       m->l.gain);
	/* An idle window of the old mode would only hold the disk back. */
	if (core->mode == CS_MODE_PARALLEL && core->idling == CS_IDLE_QUEUE) {
		cs_cancel_idle(core);
		core->stalled = core->nr_queued != 0;
	}
}

/**
 * cs_core_dispatch() - the next request for the driver
 * @core: the scheduler
 * @now: current time, ns
 *
 * Return: a request, now counted as in the driver, or NULL when nothing may
 * be dispatched now (no work, idling, or the active queue has as many
 * requests in the driver as it may).
 */
struct request *cs_core_dispatch(struct cs_core *core, u64 now)
{
	struct cs_queue *cq;
	struct request *rq;
	bool sync, rt, acts, leads;
	unsigned int i;

	cs_env_lock_held(core);

	cs_tick(core, now);
	if (cs_learns(core))
		cs_model_step(core, now);
	rq = list_first_entry_or_null(&core->dispatch, struct request,
				      queuelist);
	if (rq) {
		list_del_init(&rq->queuelist);
		core->nr_queued--;
		cq = cs_rq_queue(rq);
		if (cq) {
			cq->dispatched++;
			cs_present_inc(core, cq);
		}
	} else {
		rq = cs_dispatch_from_queues(core, now);
	}
	if (!rq) {
		/* An idle window ends in a timer or in the awaited request. */
		core->stalled = core->nr_queued && core->idling == CS_IDLE_NONE;
		/* blk-mq asked because requests wait: a lock round trip spent. */
		if (core->nr_queued)
			core->stats.dispatch_empty++;
		return NULL;
	}
	core->stalled = false;
	sync = rq_is_sync(rq);
	cq = cs_rq_queue(rq);
	rt = cq && cq->prio_class == CS_CLASS_RT;
	acts = cq && cs_queue_acts(cq);
	leads = acts && cs_boost_may_lead(core);
	cs_rq_set_state(rq, (cs_rq_state(rq) & CS_RQ_TIMED) | CS_RQ_DRIVER |
			(sync ? CS_RQ_SYNC : 0) | (acts ? CS_RQ_BOOST : 0) |
			(leads ? CS_RQ_LEADS : 0) | (rt ? CS_RQ_RT : 0));
	core->rt_in_driver += rt;
	if (acts) {
		/* Its only read in the driver is timed, alone or beside. */
		cq->boost_sent = cq->dispatched == 1 ? now : 0;
		if (cs_others_in_driver(core))
			cq->flags |= CSQ_BOOST_BESIDE;
		else
			cq->flags &= ~CSQ_BOOST_BESIDE;
		core->boost_in_driver++;
		cs_boost_seen(core, cq, now);
	}
	if (cs_learns(core)) {
		/*
		 * Only the model reads the size, only boosts the service
		 * start, and boosts run only where the model learns.
		 */
		if (!core->in_driver[0] && !core->in_driver[1])
			core->svc_start = now;
		cs_rq_set_size(rq, blk_rq_sectors(rq));
		if (sync && cq) {
			i = core->ends_next++ % CS_RECENT_ENDS;
			core->ends[i] = blk_rq_pos(rq) + blk_rq_sectors(rq);
			core->ends_q[i] = cq;
		}
		cs_model_dispatch(&core->model, blk_rq_pos(rq),
				  blk_rq_sectors(rq),
				  op_is_write(req_op(rq)), now);
	}
	core->in_driver[sync]++;
	core->head = blk_rq_pos(rq) + blk_rq_sectors(rq);
	core->head_q = cq;
	core->stats.dispatched++;
	return rq;
}

/*
 * The driver finished @rq of @cq.  When the active queue's last request
 * completes and it has nothing queued, this is where it starts idling for
 * its context's next request, or gives up the disk.  Return: the active
 * slice ended.
 */
static bool cs_request_done(struct cs_core *core, struct cs_queue *cq,
			    struct request *rq, u64 now)
{
	unsigned long state = cs_rq_state(rq);

	cq->dispatched--;
	cs_present_dec(core, cq);
	cq->last_done = now;
	if (cs_queue_acts(cq))
		cs_boost_seen(core, cq, now);
	if (cq->prio_class != CS_CLASS_IDLE)
		core->last_busy = now;
	if ((state & (CS_RQ_SYNC | CS_RQ_TIMED)) ==
	    (CS_RQ_SYNC | CS_RQ_TIMED) && now > rq->fifo_time)
		core->last_delayed_sync = now;
	if (state & CS_RQ_SYNC)
		core->last_sync_done = now;
	if (core->active == cq && core->switch_at) {
		core->switch_ns = cs_switch_avg(core->switch_ns,
						cs_since(now, core->switch_at),
						cs_tun(core, CS_T_SLICE_SYNC));
		core->switch_at = 0;
	}
	if (core->active == cq && (cq->flags & CSQ_SLICE_WAIT))
		cs_start_slice(core, cq, now);
	if (core->active != cq || cq->queued || cq->dispatched ||
	    core->idling != CS_IDLE_NONE)
		return false;
	if (cs_slice_expired(cq->slice_end, now))
		cq->flags |= CSQ_SLICE_USED;
	if ((cq->flags & CSQ_SLICE_USED) ||
	    (cs_busy_queues(core) && !cs_arm_idle(core, cq, now))) {
		cs_expire(core, false);
		return true;
	}
	return false;
}

/**
 * cs_core_finish() - the scheduler lets go of a request
 * @core: the scheduler
 * @rq: the request: completed by the driver, or freed without having been
 *	dispatched
 * @now: current time, ns
 *
 * Drops the request's reference to its queue.
 *
 * Return: true when the caller must run the hardware queue: work waits
 * that the disk can take now, and nothing else will start it (an idle
 * window ends in its own timer).
 */
bool cs_core_finish(struct cs_core *core, struct request *rq, u64 now)
{
	struct cs_queue *cq = cs_rq_queue(rq);
	unsigned long state = cs_rq_state(rq);
	bool expired = false;
	u64 dt;

	cs_env_lock_held(core);

	cs_tick(core, now);
	if (cs_env_warn_on(core, state & (CS_RQ_QUEUED | CS_RQ_HEAD))) {
		cs_unqueue(core, rq);
		core->stats.repaired++;
	}
	if (state & CS_RQ_DRIVER) {
		core->in_driver[!!(state & CS_RQ_SYNC)]--;
		if (state & CS_RQ_RT) {
			core->rt_in_driver--;
			core->rt_last_done = now;
		}
		if (state & CS_RQ_BOOST) {
			core->boost_in_driver--;
			if (cq && cq->boost_sent && cq->dispatched == 1)
				cs_boost_timed(core, cq, now);
		}
		if (cq && (cq->flags & CSQ_READER))
			core->lvl[cq->prio_class][cq->level].last_done = now;
		core->stats.completed++;
		/* Boosts and the model, only where the model learns. */
		if (cs_learns(core)) {
			/*
			 * One at a time, as where boosts lead: its share of
			 * the disk.  A boosted queue's time counts in the
			 * lead only where it led; held back, it is served
			 * as any queue, and its time counts neither way
			 * (only in its boost's budget).  Nothing to count
			 * when no boost ran.
			 */
			dt = cs_since(now, core->svc_start);
			if (state & CS_RQ_LEADS)
				cs_boost_charge(core, cq, true, dt);
			else if ((state & CS_RQ_BOOST) && cq)
				cq->boost_served += dt;
			else if (core->boost_lead)
				cs_boost_charge(core, cq, false, dt);
			core->svc_start = now;
			cs_model_complete(&core->model,
					  cs_rq_dispatched_bytes(rq),
					  (state & CS_RQ_SYNC ? CS_MODEL_SYNC : 0) |
					  (op_is_write(req_op(rq)) ?
					   CS_MODEL_WRITE : 0), now);
		}
		if (cq)
			expired = cs_request_done(core, cq, rq, now);
		if (cs_learns(core))
			cs_model_step(core, now);
	}
	cs_rq_set_state(rq, 0);
	cs_rq_set_queue(rq, NULL);
	if (cq)
		cs_put_queue(core, cq);
	/* The common case first: neither a slice ended nor a dispatch stalled. */
	if (!(expired || core->stalled) || !core->nr_queued ||
	    core->idling != CS_IDLE_NONE)
		return false;
	core->stalled = false;
	core->stats.kicks++;
	return true;
}

/**
 * cs_core_requeue() - the driver gives a request back; it will be inserted
 *	again
 * @core: the scheduler
 * @rq: the request
 */
void cs_core_requeue(struct cs_core *core, struct request *rq)
{
	cs_env_lock_held(core);

	if (!(cs_rq_state(rq) & CS_RQ_DRIVER))
		return;
	core->stats.requeued++;
	cs_leave_driver(core, rq);
}

/**
 * cs_core_requests_merged() - a queued request was merged into another
 * @core: the scheduler
 * @rq: the request that grew
 * @next: the request merged into it, freed by the caller afterwards
 */
void cs_core_requests_merged(struct cs_core *core, struct request *rq,
			     struct request *next)
{
	struct cs_queue *cq = cs_rq_queue(next);

	cs_env_lock_held(core);

	if (!(cs_rq_state(next) & CS_RQ_QUEUED))
		return;
	/* @rq inherits the earlier deadline and its place in the FIFO. */
	if (cs_rq_queue(rq) == cq && (cs_rq_state(rq) & CS_RQ_QUEUED) &&
	    next->fifo_time < rq->fifo_time) {
		list_move(&rq->queuelist, &next->queuelist);
		rq->fifo_time = next->fifo_time;
	}
	cs_dequeue(core, cq, next);
	cs_present_dec(core, cq);
	core->stats.rq_merged++;
}

/**
 * cs_core_bio_merged() - a bio was merged into a queued request
 * @core: the scheduler
 * @rq: the request
 * @front: at its front, so that its start sector moved
 */
void cs_core_bio_merged(struct cs_core *core, struct request *rq, bool front)
{
	struct cs_queue *cq = cs_rq_queue(rq);

	cs_env_lock_held(core);

	core->stats.bio_merged++;
	if (front && cq && (cs_rq_state(rq) & CS_RQ_QUEUED)) {
		cs_sort_del(cq, rq);
		cs_sort_add(cq, rq);
	}
}

/**
 * cs_core_idle_timer() - the idle timer fired
 * @core: the scheduler
 * @now: current time, ns
 *
 * A callback that was already running when its window was cancelled, or
 * that fires for a window replaced since by a later one, finds the window
 * gone or not yet over and does nothing.
 *
 * Return: true when the caller must run the hardware queue.
 */
bool cs_core_idle_timer(struct cs_core *core, u64 now)
{
	struct cs_queue *cq = core->active;
	enum cs_idle kind = core->idling;
	u64 credit;

	cs_env_lock_held(core);

	cs_tick(core, now);
	if (kind == CS_IDLE_NONE || now < core->idle_until)
		return false;
	cs_idle_ended(core, now);
	core->idling = CS_IDLE_NONE;
	if (cq && !cq->queued) {
		core->stats.idle_expired++;
		credit = kind != CS_IDLE_QUEUE ? 0 :
			 cs_idle_credit(cs_queue_coop(cq), cq->slice_end, now,
					cs_slice_for(core, cq));
		if (credit) {
			cq->slice_credit = credit;
			core->stats.idle_credit++;
		}
		cs_log_q(core, cq, "idle expired credit=%llu us",
			 (unsigned long long)(credit / NSEC_PER_USEC));
		cs_expire(core, false);
	}
	return core->nr_queued != 0;
}

/**
 * cs_core_ctx_exit() - an I/O context leaves the disk
 * @core: the scheduler
 * @ctx: the context's part
 *
 * Return: true when the caller must run the hardware queue (the active
 * queue stopped waiting for the context).
 */
bool cs_core_ctx_exit(struct cs_core *core, struct cs_ctx *ctx)
{
	cs_env_lock_held(core);

	if (!cs_exit_ctx(core, ctx) || !core->nr_queued)
		return false;
	core->stats.kicks++;
	return true;
}

/**
 * cs_core_set_group_by() - change how contexts group into queues
 * @core: the scheduler
 * @by: the new grouping; contexts regroup at their next request
 */
void cs_core_set_group_by(struct cs_core *core, enum cs_group_by by)
{
	cs_env_lock_held(core);

	if (by == core->group_by)
		return;
	core->group_by = by;
	core->group_gen++;
	WRITE_ONCE(core->tun[CS_T_GROUP_BY], by);
}

/**
 * cs_core_set_mode() - apply the device_mode tunable
 * @core: the scheduler
 * @force: auto (learn again from scratch) or a mode to keep
 * @now: current time, ns
 */
void cs_core_set_mode(struct cs_core *core, enum cs_mode_force force,
		      u64 now)
{
	cs_env_lock_held(core);

	WRITE_ONCE(core->tun[CS_T_DEVICE_MODE], force);
	cs_model_force(&core->model, force, now);
	core->model.changed_at = now;
	core->mode = cs_model_mode(&core->model);
	if (cs_parallel_mode(core) && core->idling == CS_IDLE_QUEUE)
		cs_cancel_idle(core);
	cs_log(core, "device_mode %u", force);
}

/**
 * cs_core_set_tags() - tell the core how many commands the disk takes
 * @core: the scheduler
 * @tags: the driver's queue depth
 */
void cs_core_set_tags(struct cs_core *core, unsigned int tags)
{
	cs_model_set_tags(&core->model, tags);
}

/**
 * cs_core_has_work() - whether requests wait in the scheduler
 * @core: the scheduler
 *
 * Lockless: blk-mq asks before it takes any lock.
 *
 * Return: true when something is queued.
 */
bool cs_core_has_work(const struct cs_core *core)
{
	return READ_ONCE(core->nr_queued) != 0;
}

/**
 * cs_core_init() - set up the core for a disk
 * @core: the core, zeroed
 * @tun: the tunables to start with
 * @rotational: the disk says it rotates (the device model's prior)
 * @mem: what an earlier model of this disk learned, or NULL
 * @now: current time, ns
 */
void cs_core_init(struct cs_core *core, const u64 *tun, bool rotational,
		  const struct cs_model_memory *mem, u64 now)
{
	enum cs_prio_class pclass;

	INIT_LIST_HEAD(&core->dispatch);
	for (pclass = CS_CLASS_RT; pclass < CS_NR_CLASSES; pclass++)
		INIT_LIST_HEAD(&core->rr[pclass]);
	hash_init(core->keyed);
	memcpy(core->tun, tun, sizeof(core->tun));
	core->group_by = tun[CS_T_GROUP_BY];
	cs_queue_setup(core, &core->fallback, false, CS_CLASS_BE,
		       CS_DEFAULT_LEVEL);
	core->fallback.flags |= CSQ_FALLBACK;
	core->fallback.ref = 1;
	cs_model_init(&core->model, rotational, mem, now);
	if (tun[CS_T_DEVICE_MODE] != CS_FORCE_AUTO)
		cs_model_force(&core->model, tun[CS_T_DEVICE_MODE], now);
	core->mode = cs_model_mode(&core->model);
}

/**
 * cs_core_exit() - tear the core down
 * @core: the core, whose disk is frozen and empty; the idle timer is
 *	cancelled and will not fire again
 */
void cs_core_exit(struct cs_core *core)
{
	enum cs_prio_class pclass;
	unsigned int level;

	core->idling = CS_IDLE_NONE;
	if (core->active)
		cs_expire(core, false);
	for (pclass = CS_CLASS_RT; pclass < CS_NR_CLASSES; pclass++) {
		for (level = 0; level < CS_NR_LEVELS; level++) {
			if (core->async_q[pclass][level])
				cs_put_queue(core, core->async_q[pclass][level]);
			core->async_q[pclass][level] = NULL;
		}
	}
	cs_env_warn_on(core, core->fallback.ref != 1);
}
