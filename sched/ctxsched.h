/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ctxsched: per-queue state shared by the elevator glue, its sysfs knobs and
 * its debugfs files.
 */
#ifndef CTXSCHED_H
#define CTXSCHED_H

#include <linux/atomic.h>
#include <linux/blk-mq.h>
#include <linux/rbtree.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "../compat/compat.h"
#include "seek.h"

/* Requests are sync (reads, O_DIRECT and flushing writes) or async. */
enum cs_class {
	CS_SYNC,
	CS_ASYNC,
	CS_NR_CLASSES,
};

/* Tunables under queue/iosched/, kept in the units the user writes. */
enum cs_knob_id {
	CS_FIFO_EXPIRE_SYNC,	/* ms */
	CS_FIFO_EXPIRE_ASYNC,	/* ms */
	CS_BACK_SEEK_MAX,	/* KiB */
	CS_BACK_SEEK_PENALTY,	/* multiplier */
	CS_NR_KNOBS,
};

/**
 * struct cs_knob - description of one tunable
 * @name: sysfs file name under queue/iosched/
 * @min: smallest accepted value
 * @max: largest accepted value
 * @def: value a new queue starts with
 */
struct cs_knob {
	const char *name;
	u32 min;
	u32 max;
	u32 def;
};

extern const struct cs_knob cs_knobs[CS_NR_KNOBS];

/* Counters shown in debugfs; the lock-free ones are atomics. */
struct cs_stats {
	u64 inserted;
	u64 bio_merged;
	u64 rq_merged;
	u64 dispatched;
	u64 fifo_expired;
	atomic64_t completed;
	atomic64_t requeued;
};

/**
 * struct cs_data - scheduler state of one request queue
 * @q: the queue
 * @lock: protects everything below but @in_driver and the atomic stats
 * @dispatch: requests inserted at head (requeues, flush sequences),
 *	served before anything else
 * @sort: queued requests of each class by start sector
 * @fifo: queued requests of each class by deadline
 * @head: sector following the last dispatched request
 * @nr_queued: requests on @dispatch, @sort and @fifo
 * @in_driver: requests dispatched and not yet finished
 * @stats: counters for debugfs
 * @knob: tunable values, written by sysfs without @lock
 * @debugfs_dir: this queue's directory under debugfs ctxsched/
 */
struct cs_data {
	struct request_queue *q;
	spinlock_t lock;	/* see above */
	struct list_head dispatch;
	struct rb_root sort[CS_NR_CLASSES];
	struct list_head fifo[CS_NR_CLASSES];
	sector_t head;
	unsigned int nr_queued;
	atomic_t in_driver;
	struct cs_stats stats;
	u32 knob[CS_NR_KNOBS];
	struct dentry *debugfs_dir;
};

static inline u32 cs_knob(const struct cs_data *cd, enum cs_knob_id id)
{
	return READ_ONCE(cd->knob[id]);
}

extern struct elv_fs_entry cs_sysfs_attrs[];
void cs_knobs_init(struct cs_data *cd);

int cs_debugfs_init(void);
void cs_debugfs_exit(void);
void cs_debugfs_add_queue(struct cs_data *cd);
void cs_debugfs_remove_queue(struct cs_data *cd);

#endif /* CTXSCHED_H */
