/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ctxsched's scheduling core: queues, slices, idling, cooperating contexts
 * and the device model, working on requests, contexts and a clock that the
 * caller hands in.  The core never calls into blk-mq; what it needs from
 * its surroundings (a timer, memory, traces, whether a context still has
 * tasks) comes through sched/env.h, which the kernel module, the KUnit
 * suites and the userspace simulator each implement.  All of the core runs
 * under one lock held by the caller (struct cs_core's owner).
 */
#ifndef CTXSCHED_CORE_H
#define CTXSCHED_CORE_H

#include "env-types.h"
#include "coop.h"
#include "model.h"
#include "policy.h"
#include "seek.h"

/* Tunables under queue/iosched/, stored in ns (times) or plain units. */
enum cs_tunable {
	CS_T_QUANTUM,
	CS_T_FIFO_EXPIRE_SYNC,
	CS_T_FIFO_EXPIRE_ASYNC,
	CS_T_BACK_SEEK_MAX,		/* KiB */
	CS_T_BACK_SEEK_PENALTY,
	CS_T_SLICE_SYNC,
	CS_T_SLICE_ASYNC,
	CS_T_SLICE_ASYNC_RQ,
	CS_T_SLICE_IDLE,
	CS_T_GROUP_IDLE,
	CS_T_LOW_LATENCY,
	CS_T_TARGET_LATENCY,
	CS_T_GROUP_BY,			/* enum cs_group_by */
	CS_T_MAX_REQUEST_KB,		/* 0: no cap */
	CS_T_DEVICE_MODE,		/* enum cs_mode_force */
	CS_T_BOOST,			/* 0: no boosts */
	CS_NR_TUNABLES,
};

/**
 * struct cs_tunable_desc - range and default of a tunable, in stored units
 * @min: smallest accepted value
 * @max: largest accepted value
 * @def: value a new queue starts with
 */
struct cs_tunable_desc {
	u64 min;
	u64 max;
	u64 def;
};

const struct cs_tunable_desc *cs_tunable_desc(enum cs_tunable t);
void cs_tunables_defaults(u64 *tun);

/* What a seeky request costs a disk whose seeks are not measured yet. */
#define CS_SEEKY_COST_NS	(8 * NSEC_PER_MSEC)

/* How long the disk must be free of other work before IDLE class runs. */
#define CS_IDLE_CLASS_GRACE	(200 * NSEC_PER_MSEC)

/* cs_queue.flags */
#define CSQ_SYNC	BIT(0)	/* serves one context's sync requests */
#define CSQ_ON_RR	BIT(1)	/* on its class's round robin */
#define CSQ_FIFO_USED	BIT(2)	/* served an expired request this slice */
#define CSQ_FALLBACK	BIT(3)	/* the built-in queue used when out of memory */
#define CSQ_MERGED	BIT(4)	/* serves cooperating contexts merged into it */
#define CSQ_SPLIT	BIT(5)	/* its contexts leave at their next request */
#define CSQ_KEYED	BIT(6)	/* on cs_core.keyed, as a process's queue */
#define CSQ_SLICE_WAIT	BIT(7)	/* its slice starts at its first completion */
#define CSQ_SLICE_USED	BIT(8)	/* its last slice ran to its end */
#define CSQ_BOOST	BIT(9)	/* boosted as a program starting */
#define CSQ_READER	BIT(10)	/* has queued a read: counts in its level's share */
#define CSQ_BOOST_BESIDE BIT(11) /* its timed boosted read went beside others' */
#define CSQ_STREAM	BIT(12)	/* serves a stream other contexts' requests joined */

/**
 * struct cs_level_share - one priority level's share of a disk that serves
 *	in parallel (cs_level_waits())
 *
 * Protected by the lock of the owning cs_core.
 *
 * @present: the level's readers (CSQ_READER) with requests queued or in
 *	the driver
 * @last_done: when a request of one of its readers last completed, ns (0:
 *	never)
 * @served: the cost (cs_level_cost()) of the requests its readers
 *	dispatched while another level of its class was live
 */
struct cs_level_share {
	unsigned int present;
	u64 last_done;
	u64 served;
};

/**
 * struct cs_queue - requests of one I/O context, of several that
 *	cooperate or of one process (sync), or of one priority level (async),
 *	scheduled as a unit with a time slice
 *
 * Every field is protected by the lock of the owning cs_core.
 *
 * @core: the queue's scheduler
 * @ref: references: each member context, the async slot, each request,
 *	the active slot
 * @flags: CSQ_* flags
 * @prio_class: service class
 * @level: priority level within the class
 * @sort: queued requests by start sector
 * @fifo: queued requests by deadline
 * @queued: requests in @sort
 * @meta_queued: those of them that are sync metadata requests (CS_RQ_META)
 * @dispatched: requests of this queue owned by the driver
 * @rr: entry on the class's round robin while waiting for a slice
 * @slice_end: end of the current slice, ns; 0 until its first dispatch
 * @slice_dispatch: requests dispatched in the current slice
 * @slice_credit: slice time a merged queue is owed from an idle window that
 *	expired at a slow hand-over between its threads, ns; added to its
 *	next slice
 * @last_end: sector after its most recently queued request
 * @stream_end: the farthest end of the requests queued since its requests
 *	last left the stream they read (cs_stream_gap()): where a pool's
 *	stream goes on when its requests arrive out of order
 * @seek: recent seek history
 * @ttime: think time: from the completion of its last request to the
 *	arrival of the next, when nothing else of it was queued or in flight
 * @last_done: completion time of its last request, ns (0: none yet)
 * @boost_until: with CSQ_BOOST, when the boost runs out, ns
 * @boost_served: with CSQ_BOOST, the disk's time its requests and idle
 *	windows took since its boost began, ns
 * @boost_sent: when its one request in the driver was dispatched while it
 *	acted as boosted, timed for debugfs, ns (0: none being timed)
 * @turn: cs_core.turns when it last became the active queue
 * @members: the contexts (cs_ctx.member) whose sync requests it serves
 * @nr_members: entries on @members
 * @key: the process it is keyed by, with CSQ_KEYED
 * @key_node: entry in cs_core.keyed, with CSQ_KEYED
 * @pid: process that created the queue, for traces
 */
struct cs_queue {
	struct cs_core *core;
	int ref;
	unsigned int flags;
	enum cs_prio_class prio_class;
	unsigned int level;
	struct rb_root sort;
	struct list_head fifo;
	unsigned int queued;
	unsigned int meta_queued;
	unsigned int dispatched;
	struct list_head rr;
	u64 slice_end;
	unsigned int slice_dispatch;
	u64 slice_credit;
	sector_t last_end;
	sector_t stream_end;
	struct cs_seek seek;
	struct cs_ttime ttime;
	u64 last_done;
	u64 boost_until;
	u64 boost_served;
	u64 boost_sent;
	unsigned int turn;
	struct list_head members;
	unsigned int nr_members;
	unsigned long key;
	struct hlist_node key_node;
	pid_t pid;
};

/**
 * struct cs_ctx - ctxsched's part of one I/O context on one disk
 *
 * @sync_q and @member are protected by the cs_core lock; @id, @tgid and
 * @pool are set once, when the context is first seen, before it is shared.
 *
 * @sync_q: the queue serving the context's sync requests, or NULL
 * @member: entry on @sync_q's members
 * @gen: cs_core.group_gen when the context joined @sync_q
 * @tgid: process of the task that owns the context
 * @pool: the threads it serves streams with: its process, or the kernel
 *	threads of its name (cs_pool_key())
 * @id: identity of the context (its io_context), for group_by=thread
 */
struct cs_ctx {
	struct cs_queue *sync_q;
	struct list_head member;
	unsigned int gen;
	pid_t tgid;
	pid_t pool;
	unsigned long id;
};

/* Counters shown in debugfs, under the cs_core lock. */
struct cs_stats {
	u64 inserted;
	u64 head_inserted;
	u64 bio_merged;
	u64 rq_merged;
	u64 dispatched;
	u64 fifo_expired;
	u64 completed;
	u64 requeued;
	u64 slices;
	u64 preempted;
	u64 idle_armed;
	u64 idle_hit;
	u64 idle_expired;
	u64 alloc_failed;
	u64 coop_merged;
	u64 coop_split;
	u64 stream_moved;
	u64 idle_credit;
	u64 cap_refused;
	u64 kicks;
	u64 dispatch_empty;
	u64 repaired;
	u64 boosted;
	u64 boost_preempted;
	u64 level_held;
};

/*
 * Sync requests dispatched whose ends a boosted queue's request is compared
 * with (cs_boost_stream_check()): a pool's thread continues a stream some
 * requests after another thread read its previous chunk, with the other
 * streams' chunks in between.
 */
#define CS_RECENT_ENDS	8
/* Waiting queues a request's stream is looked for in (cs_stream_queue()). */
#define CS_STREAM_SCAN	16

/**
 * struct cs_core - scheduling state of one disk
 *
 * Protected by the lock of the structure that embeds it (cs_data.lock in
 * the kernel), except @tun, which sysfs writes with WRITE_ONCE() and the
 * core reads with READ_ONCE() (cs_tun()): a tunable takes effect at the
 * next decision that reads it.  @group_by and @group_gen change together
 * under the lock (cs_core_set_group_by()).
 *
 * @dispatch: requests inserted at head (requeues, flush sequences), served
 *	before anything else
 * @rr: per class, queues with requests waiting for a slice
 * @nr_busy: per class, queues with requests queued in them (on @rr, or the
 *	active queue while it has requests queued)
 * @nr_busy_level: per class and level, the queues counted in @nr_busy
 * @nr_busy_sync: per class, the sync ones among them
 * @nr_busy_async: the async ones among them, all classes
 * @nr_present_sync: sync queues with requests queued or in the driver
 * @lvl: per class and level, the level's share of a parallel disk
 * @lvl_live: per class, a bit per level that is live: its readers'
 *	requests queued or in the driver, or one completed within a quarter
 *	of slice_idle (cs_level_window()); a bit is set when the level gets
 *	requests and cleared when it is next looked at after it went quiet
 *	(cs_levels_live())
 * @active: queue owning the disk, or NULL
 * @clock: the latest time an entry point was called with, ns
 * @svc_start: when the disk began serving the request that completes next
 *	(its dispatch to an idle disk, or the previous completion), ns; for
 *	boosts, so kept only where they run (the model learns)
 * @switch_at: in serial mode, when the active sync queue's slice sent its
 *	first request, with none of its own or write-back's in the driver;
 *	0 once that request completed or the slice ended
 * @switch_ns: in serial mode, what the first request of a slice took from
 *	dispatch to completion (a slice switch: the seek, and the other
 *	queue's request ahead of it), a moving average (cs_switch_avg()), ns
 * @idle_since: when the armed idle window began, ns
 * @nr_busy_boost: boosted queues with requests queued
 * @boost_lead: boosted queues' lead over waiting ones (cs_boost_lead_add()),
 *	ns
 * @boost_held: the lead reached CS_BOOST_LEAD and has not come down to
 *	a quarter of it yet (cs_boost_leads())
 * @boost_last: when a boosted queue last had a request queued or
 *	completed, ns (0: never)
 * @boost_seen: the same by the boosted queue's class, ns (0: never)
 * @boost_alone: average time of boosted reads that went to the driver with
 *	no other queue's request there, from dispatch to completion, ns
 * @boost_beside: the same for those that went beside others' requests, ns
 * @boost_alone_n: reads in @boost_alone (counted up to 8)
 * @boost_beside_n: reads in @boost_beside (counted up to 8)
 * @turns: queues that became active so far (wraps)
 * @idling: why the idle timer is armed (CS_IDLE_NONE: it is not)
 * @idle_until: when the armed idle window ends, ns
 * @async_q: shared async queues by class and level
 * @fallback: queue for requests when allocating a queue fails
 * @head: sector following the last dispatched request
 * @head_q: the queue that dispatched it (NULL once that queue is freed);
 *	compared, never followed: a request at @head continues the active
 *	queue's stream only if the active queue put the head there
 * @ends: where the last CS_RECENT_ENDS sync requests dispatched ended,
 *	recorded only where the model learns (where boosts run), for
 *	cs_boost_stream_check()
 * @ends_q: the queues that dispatched them, or NULL: cleared when a
 *	queue is freed
 * @ends_next: the slot of @ends written next
 * @pool: the pool (struct cs_ctx) whose boosted thread last continued
 *	another queue's stream (cs_boost_stream_check()): its new queues are
 *	not boosted (0: none)
 * @newcomer_pool: the pool of the last new sync queue's context, to tell
 *	the device model when a pool's threads arrive (0: none yet)
 * @nr_queued: requests in queues and on @dispatch
 * @in_driver: requests dispatched and not finished, [0] async, [1] sync
 * @rt_in_driver: the real-time queues' part of @in_driver
 * @boost_in_driver: the part of @in_driver dispatched from queues that
 *	acted as boosted (CS_RQ_BOOST)
 * @rt_last_done: when a real-time request last completed, ns (0: never)
 * @last_delayed_sync: when a sync request last completed after its
 *	deadline, ns (0: never)
 * @last_busy: when a non-IDLE request was last dispatched or completed, ns
 * @last_sync_done: when a sync request last completed, ns
 * @seeky_until: end of the slice that the seeky sync queues
 *	of @seeky_class share in this round, ns (SERIAL mode; 0: none yet)
 * @seeky_class: the class of that window
 * @seeky_capped: the window's requests must complete within it (a stream
 *	had the disk before it)
 * @stream_served: the last queue to end a slice was not a seeky sync one
 * @seeky_handover: a full window closed: a queue other than a seeky one
 *	is next
 * @stalled: the last dispatch found work it could not dispatch yet, so a
 *	completion that lifts the limit must run the queue
 * @keyed: process queues by process (group_by=process)
 * @group_by: how contexts group into queues, copied from the tunable
 * @group_gen: bumped when @group_by changes, so that contexts regroup
 * @model: the device model, which decides whether idling pays
 * @mode: the model's mode, as of its last tick (cs_model_mode() is not
 *	cheap enough for every decision)
 * @stats: counters for debugfs
 * @tun: tunables
 */
struct cs_core {
	struct list_head dispatch;
	struct list_head rr[CS_NR_CLASSES];
	unsigned int nr_busy[CS_NR_CLASSES];
	unsigned int nr_busy_level[CS_NR_CLASSES][CS_NR_LEVELS];
	unsigned int nr_busy_sync[CS_NR_CLASSES];
	unsigned int nr_busy_async;
	unsigned int nr_present_sync;
	struct cs_level_share lvl[CS_NR_CLASSES][CS_NR_LEVELS];
	unsigned long lvl_live[CS_NR_CLASSES];
	struct cs_queue *active;
	u64 clock;
	u64 svc_start;
	u64 switch_at;
	u64 switch_ns;
	u64 idle_since;
	unsigned int nr_busy_boost;
	u64 boost_lead;
	bool boost_held;
	u64 boost_last;
	u64 boost_seen[CS_NR_CLASSES];
	u64 boost_alone;
	u64 boost_beside;
	unsigned int boost_alone_n;
	unsigned int boost_beside_n;
	unsigned int turns;
	enum cs_idle idling;
	u64 idle_until;
	struct cs_queue *async_q[CS_NR_CLASSES][CS_NR_LEVELS];
	struct cs_queue fallback;
	sector_t head;
	const struct cs_queue *head_q;
	sector_t ends[CS_RECENT_ENDS];
	struct cs_queue *ends_q[CS_RECENT_ENDS];
	unsigned int ends_next;
	pid_t pool;
	pid_t newcomer_pool;
	unsigned int nr_queued;
	unsigned int in_driver[2];
	unsigned int rt_in_driver;
	unsigned int boost_in_driver;
	u64 rt_last_done;
	u64 last_delayed_sync;
	u64 last_busy;
	u64 last_sync_done;
	u64 seeky_until;
	enum cs_prio_class seeky_class;
	bool seeky_capped;
	bool stream_served;
	bool seeky_handover;
	bool stalled;
	DECLARE_HASHTABLE(keyed, 6);
	enum cs_group_by group_by;
	unsigned int group_gen;
	struct cs_model model;
	enum cs_mode mode;
	struct cs_stats stats;
	u64 tun[CS_NR_TUNABLES];
};

static inline u64 cs_tun(const struct cs_core *core, enum cs_tunable t)
{
	return READ_ONCE(core->tun[t]);
}

static inline bool cs_queue_sync(const struct cs_queue *cq)
{
	return cq->flags & CSQ_SYNC;
}

/* A sync queue whose recent requests were mostly seeks. */
static inline bool cs_queue_seeky(const struct cs_queue *cq)
{
	return cs_queue_sync(cq) && cs_seeky(&cq->seek);
}

static inline bool cs_queue_boosted(const struct cs_queue *cq)
{
	return cq->flags & CSQ_BOOST;
}

static inline char cs_class_char(const struct cs_queue *cq)
{
	return "RBI"[cq->prio_class];
}

#include "env.h"

/*
 * blktrace messages, in the spirit of CFQ's "cfq<pid><S|A>" lines:
 * "cs<pid><S|A><R|B|I> ...".
 */
#define cs_log_q(core, cq, fmt, ...)					\
do {									\
	const struct cs_queue *__cq = (cq);				\
									\
	cs_env_log(core, "cs%d%c%c " fmt, __cq->pid,			\
		   cs_queue_sync(__cq) ? 'S' : 'A',			\
		   cs_class_char(__cq), ##__VA_ARGS__);			\
} while (0)
#define cs_log(core, fmt, ...)	cs_env_log(core, "cs " fmt, ##__VA_ARGS__)

/* core.c: the way of a request through the scheduler */
void cs_core_init(struct cs_core *core, const u64 *tun, bool rotational,
		  const struct cs_model_memory *mem, u64 now);
void cs_core_exit(struct cs_core *core);
bool cs_core_may_insert_merge(const struct cs_core *core,
			      struct request *rq);
void cs_core_insert(struct cs_core *core, struct request *rq,
		    struct cs_ctx *ctx, bool at_head, u64 now);
struct request *cs_core_dispatch(struct cs_core *core, u64 now);
bool cs_core_finish(struct cs_core *core, struct request *rq, u64 now);
void cs_core_requeue(struct cs_core *core, struct request *rq);
void cs_core_requests_merged(struct cs_core *core, struct request *rq,
			     struct request *next);
void cs_core_bio_merged(struct cs_core *core, struct request *rq, bool front);
struct cs_queue *cs_core_bio_queue(struct cs_core *core, struct cs_ctx *ctx,
				   bool sync, unsigned short ioprio);
bool cs_core_idle_timer(struct cs_core *core, u64 now);
bool cs_core_ctx_exit(struct cs_core *core, struct cs_ctx *ctx);
void cs_core_set_group_by(struct cs_core *core, enum cs_group_by by);
void cs_core_set_mode(struct cs_core *core, enum cs_mode_force force,
		      u64 now);
void cs_core_set_tags(struct cs_core *core, unsigned int tags);
bool cs_core_has_work(const struct cs_core *core);
void cs_prio_of(unsigned short ioprio, enum cs_prio_class *pclass,
		unsigned int *level);

/* core.c, for members.c */
void cs_sort_add(struct cs_queue *cq, struct request *rq);
void cs_put_queue(struct cs_core *core, struct cs_queue *cq);
struct cs_queue *cs_alloc_queue(struct cs_core *core, bool sync,
				enum cs_prio_class pclass, unsigned int level);
void cs_rr_add(struct cs_core *core, struct cs_queue *cq, bool front);
void cs_rr_del(struct cs_core *core, struct cs_queue *cq);
void cs_busy_account(struct cs_core *core, struct cs_queue *cq, int d);
void cs_present_account(struct cs_core *core, struct cs_queue *cq, int d);
void cs_mark_reader(struct cs_core *core, struct cs_queue *cq);
void cs_expire_active(struct cs_core *core);
bool cs_queue_coop(const struct cs_queue *cq);

/* members.c: which queue serves a context */
struct cs_queue *cs_sync_queue(struct cs_core *core, struct cs_ctx *ctx,
			       enum cs_prio_class pclass, unsigned int level);
bool cs_exit_ctx(struct cs_core *core, struct cs_ctx *ctx);
bool cs_members_alive(const struct cs_queue *cq);
void cs_unkey(struct cs_core *core, struct cs_queue *cq);
struct cs_queue *cs_try_cooperate(struct cs_core *core, struct cs_queue *cq,
				  struct request *rq);
void cs_check_split(struct cs_core *core, struct cs_queue *cq);

#endif /* CTXSCHED_CORE_H */
