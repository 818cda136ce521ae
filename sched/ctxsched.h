/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ctxsched: state shared by the elevator glue, queue management, sysfs
 * knobs and debugfs files.
 */
#ifndef CTXSCHED_H
#define CTXSCHED_H

#include <linux/blk-mq.h>
#include <linux/blktrace_api.h>
#include <linux/hrtimer.h>
#include <linux/iocontext.h>
#include <linux/rbtree.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include <linux/hashtable.h>

#include "../compat/compat.h"
#include "../ra/ra.h"
#include "coop.h"
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
	CS_NR_TUNABLES,
};

/* How long the disk must be free of other work before IDLE class runs. */
#define CS_IDLE_CLASS_GRACE	(200 * NSEC_PER_MSEC)

/* cs_queue.flags */
#define CSQ_SYNC	BIT(0)	/* serves one context's sync requests */
#define CSQ_ON_RR	BIT(1)	/* on its class's round robin */
#define CSQ_FIFO_USED	BIT(2)	/* served an expired request this slice */
#define CSQ_FALLBACK	BIT(3)	/* the built-in queue used when out of memory */
#define CSQ_MERGED	BIT(4)	/* serves cooperating contexts merged into it */
#define CSQ_SPLIT	BIT(5)	/* its contexts leave at their next request */
#define CSQ_KEYED	BIT(6)	/* on cs_data.keyed, as a process's queue */

/**
 * struct cs_queue - requests of one I/O context, of several that
 *	cooperate or of one process (sync), or of one priority level (async),
 *	scheduled as a unit with a time slice
 * @cd: the queue's scheduler
 * @ref: references: each member context, the async slot, each request,
 *	the active slot
 * @flags: CSQ_* flags
 * @prio_class: service class
 * @level: priority level within the class
 * @sort: queued requests by start sector
 * @fifo: queued requests by deadline
 * @queued: requests in @sort
 * @dispatched: requests of this queue owned by the driver
 * @rr: entry on the class's round robin while waiting for a slice
 * @slice_end: end of the current slice, ns; 0 until its first dispatch
 * @slice_dispatch: requests dispatched in the current slice
 * @slice_credit: slice time a merged queue is owed from an idle window that
 *	expired at a slow hand-over between its threads, ns; added to its
 *	next slice
 * @last_end: sector after its most recently queued request
 * @seek: recent seek history
 * @ttime: think time: from the completion of its last request to the
 *	arrival of the next, when nothing else of it was queued or in flight
 * @last_done: completion time of its last request, ns (0: none yet)
 * @members: the contexts (cs_icq.member) whose sync requests it serves
 * @nr_members: entries on @members
 * @key: the process it is keyed by, with CSQ_KEYED
 * @key_node: entry in cs_data.keyed, with CSQ_KEYED
 * @pid: process that created the queue, for traces
 */
struct cs_queue {
	struct cs_data *cd;
	int ref;
	unsigned int flags;
	enum cs_prio_class prio_class;
	unsigned int level;
	struct rb_root sort;
	struct list_head fifo;
	unsigned int queued;
	unsigned int dispatched;
	struct list_head rr;
	u64 slice_end;
	unsigned int slice_dispatch;
	u64 slice_credit;
	sector_t last_end;
	struct cs_seek seek;
	struct cs_ttime ttime;
	u64 last_done;
	struct list_head members;
	unsigned int nr_members;
	unsigned long key;
	struct hlist_node key_node;
	pid_t pid;
};

/**
 * struct cs_icq - ctxsched's part of an I/O context on one queue
 * @icq: the block layer's part; must come first (icq_size/icq_align)
 * @sync_q: the queue serving the context's sync requests, or NULL
 * @member: entry on @sync_q's members
 * @gen: cs_data.group_gen when the context joined @sync_q
 * @tgid: process of the task that owns the context
 */
struct cs_icq {
	struct io_cq icq;
	struct cs_queue *sync_q;
	struct list_head member;
	unsigned int gen;
	pid_t tgid;
};

static inline struct cs_icq *icq_to_cic(struct io_cq *icq)
{
	return container_of(icq, struct cs_icq, icq);
}

/* Counters shown in debugfs, under cs_data.lock. */
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
	u64 idle_credit;
	u64 cap_refused;
};

/**
 * struct cs_data - scheduler state of one request queue
 * @q: the queue
 * @lock: protects everything here and in its cs_queues and cs_icqs
 * @dispatch: requests inserted at head (requeues, flush sequences), served
 *	before anything else
 * @rr: per class, queues with requests waiting for a slice
 * @nr_busy: per class, queues with requests (on @rr or active)
 * @nr_busy_sync: per class, the sync ones among them
 * @active: queue owning the disk, or NULL
 * @idling: why the idle timer is armed (CS_IDLE_NONE: it is not)
 * @idle_timer: ends idling (or the IDLE class grace period)
 * @async_q: shared async queues by class and level
 * @fallback: queue for requests when allocating a queue fails
 * @head: sector following the last dispatched request
 * @nr_queued: requests in queues and on @dispatch
 * @in_driver: requests dispatched and not finished, [0] async, [1] sync
 * @last_delayed_sync: when a sync request last completed after its
 *	deadline, ns (0: never)
 * @last_busy: when a non-IDLE request was last dispatched or completed, ns
 * @async_depth: scheduler tags an async request may use (limit_depth)
 * @bio_q: during a bio merge, the queue the bio belongs to
 * @keyed: process queues by process (group_by=process)
 * @group_gen: bumped when group_by changes, so that contexts regroup
 * @stats: counters for debugfs
 * @tun: tunables, written by sysfs without @lock
 * @debugfs_dir: this queue's directory under debugfs ctxsched/
 */
struct cs_data {
	struct request_queue *q;
	spinlock_t lock;	/* see above */
	struct list_head dispatch;
	struct list_head rr[CS_NR_CLASSES];
	unsigned int nr_busy[CS_NR_CLASSES];
	unsigned int nr_busy_sync[CS_NR_CLASSES];
	struct cs_queue *active;
	enum cs_idle idling;
	struct hrtimer idle_timer;
	struct cs_queue *async_q[CS_NR_CLASSES][CS_NR_LEVELS];
	struct cs_queue fallback;
	sector_t head;
	unsigned int nr_queued;
	unsigned int in_driver[2];
	u64 last_delayed_sync;
	u64 last_busy;
	unsigned int async_depth;
	struct cs_queue *bio_q;
	DECLARE_HASHTABLE(keyed, 6);
	unsigned int group_gen;
	struct cs_stats stats;
	u64 tun[CS_NR_TUNABLES];
	struct dentry *debugfs_dir;
	struct cs_ra_dev *ra;
};

static inline u64 cs_tun(const struct cs_data *cd, enum cs_tunable t)
{
	return READ_ONCE(cd->tun[t]);
}

static inline bool cs_queue_sync(const struct cs_queue *cq)
{
	return cq->flags & CSQ_SYNC;
}

static inline char cs_class_char(const struct cs_queue *cq)
{
	return "RBI"[cq->prio_class];
}

/*
 * blktrace messages, in the spirit of CFQ's "cfq<pid><S|A>" lines:
 * "cs<pid><S|A><R|B|I> ...".
 */
#define cs_log_q(cd, cq, fmt, ...)					\
do {									\
	const struct cs_queue *__cq = (cq);				\
									\
	blk_add_trace_msg((cd)->q, "cs%d%c%c " fmt, __cq->pid,		\
			  cs_queue_sync(__cq) ? 'S' : 'A',		\
			  cs_class_char(__cq), ##__VA_ARGS__);		\
} while (0)
#define cs_log(cd, fmt, ...)						\
	blk_add_trace_msg((cd)->q, "cs " fmt, ##__VA_ARGS__)

/* queue.c */
void cs_queue_init_data(struct cs_data *cd);
void cs_queue_exit_data(struct cs_data *cd);
struct cs_queue *cs_alloc_queue(struct cs_data *cd, bool sync,
				enum cs_prio_class pclass, unsigned int level);
void cs_put_queue(struct cs_queue *cq);
void cs_prio_of(unsigned short ioprio, enum cs_prio_class *pclass,
		unsigned int *level);
void cs_rr_add(struct cs_data *cd, struct cs_queue *cq, bool front);
void cs_rr_del(struct cs_data *cd, struct cs_queue *cq);
void cs_busy_account(struct cs_data *cd, struct cs_queue *cq, int d);
struct cs_queue *cs_queue_for_rq(struct cs_data *cd, struct request *rq);
struct cs_queue *cs_queue_for_bio(struct cs_data *cd, struct cs_icq *cic,
				  struct bio *bio);
void cs_add_request(struct cs_data *cd, struct cs_queue *cq,
		    struct request *rq, u64 now);
void cs_remove_request(struct cs_data *cd, struct cs_queue *cq,
		       struct request *rq);
void cs_reposition_request(struct cs_queue *cq, struct request *rq);
struct request *cs_dispatch_from_queues(struct cs_data *cd, u64 now);
void cs_request_done(struct cs_data *cd, struct cs_queue *cq,
		     struct request *rq, bool sync, u64 now);
void cs_expire_active(struct cs_data *cd);
enum hrtimer_restart cs_idle_timer_fn(struct hrtimer *timer);

/* members.c */
struct cs_queue *cs_sync_queue(struct cs_data *cd, struct cs_icq *cic,
			       enum cs_prio_class pclass, unsigned int level);
void cs_exit_cic(struct cs_data *cd, struct cs_icq *cic);
bool cs_members_alive(const struct cs_queue *cq);
void cs_unkey(struct cs_data *cd, struct cs_queue *cq);
struct cs_queue *cs_try_cooperate(struct cs_data *cd, struct cs_queue *cq,
				  struct request *rq);
void cs_check_split(struct cs_data *cd, struct cs_queue *cq);

/* depth.c */
int cs_depth_probe(void);
void cs_update_depth(struct cs_data *cd, bool init);

/* sysfs.c */
extern struct elv_fs_entry cs_sysfs_attrs[];
void cs_tunables_init(struct cs_data *cd);

/* debugfs.c */
int cs_debugfs_init(void);
void cs_debugfs_exit(void);
void cs_debugfs_add_queue(struct cs_data *cd);
void cs_debugfs_remove_queue(struct cs_data *cd);

#endif /* CTXSCHED_H */
