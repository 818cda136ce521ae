// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/ctxsched/<disk>/: counters, the busy queues and the
 * device model of each disk that runs ctxsched.  debugfs failures are not
 * fatal: the scheduler works without these files.
 *
 * The files are created and removed from a workqueue, not from
 * ->init_sched() and ->exit_sched(): those run with the queue frozen and
 * (since 7.0) under q->elevator_lock, and debugfs takes inode locks that
 * memory reclaim can wait behind the frozen queue for (lockdep on 7.3).
 * So the files hang off a small holder that outlives the scheduler data;
 * the scheduler detaches itself from the holder under cs_dbg_lock when it
 * goes, and a file read after that shows nothing.
 */
#include <linux/debugfs.h>
#include <linux/ktime.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "ctxsched.h"

/**
 * struct cs_dbg - a disk's debugfs directory, which may outlive its cs_data
 * @cd: the scheduler, NULL once it is gone; under cs_dbg_lock
 * @dir: the directory; set and cleared by the work items only
 * @name: the disk's name
 * @create: makes the directory and files
 * @remove: removes them and frees the holder
 */
struct cs_dbg {
	struct cs_data *cd;
	struct dentry *dir;
	char name[DISK_NAME_LEN];
	struct work_struct create;
	struct work_struct remove;
};

static struct dentry *cs_debugfs_root;
/* Runs the create and remove items of every disk in order. */
static struct workqueue_struct *cs_dbg_wq;
/* Protects cs_dbg.cd; taken before a cs_data's lock. */
static DEFINE_SPINLOCK(cs_dbg_lock);

/* The scheduler behind a file, locked; NULL (unlocked) once it left. */
static struct cs_data *cs_dbg_get(struct seq_file *m)
{
	struct cs_dbg *dbg = m->private;

	spin_lock_irq(&cs_dbg_lock);
	if (!dbg->cd) {
		spin_unlock_irq(&cs_dbg_lock);
		return NULL;
	}
	spin_lock(&dbg->cd->lock);
	return dbg->cd;
}

static void cs_dbg_put(struct cs_data *cd)
{
	spin_unlock(&cd->lock);
	spin_unlock_irq(&cs_dbg_lock);
}

static int cs_stats_show(struct seq_file *m, void *unused)
{
	struct cs_data *cd = cs_dbg_get(m);
	struct cs_core *core;
	struct cs_stats *st;

	if (!cd)
		return 0;
	core = &cd->core;
	st = &core->stats;
	seq_printf(m, "queued %u\n", core->nr_queued);
	seq_printf(m, "in_driver %u\n", core->in_driver[0] + core->in_driver[1]);
	seq_printf(m, "in_driver_sync %u\n", core->in_driver[1]);
	seq_printf(m, "present_sync %u\n", core->nr_present_sync);
	seq_printf(m, "inserted %llu\n", st->inserted);
	seq_printf(m, "head_inserted %llu\n", st->head_inserted);
	seq_printf(m, "bio_merged %llu\n", st->bio_merged);
	seq_printf(m, "rq_merged %llu\n", st->rq_merged);
	seq_printf(m, "dispatched %llu\n", st->dispatched);
	seq_printf(m, "fifo_expired %llu\n", st->fifo_expired);
	seq_printf(m, "completed %llu\n", st->completed);
	seq_printf(m, "requeued %llu\n", st->requeued);
	seq_printf(m, "slices %llu\n", st->slices);
	seq_printf(m, "preempted %llu\n", st->preempted);
	seq_printf(m, "idle_armed %llu\n", st->idle_armed);
	seq_printf(m, "idle_hit %llu\n", st->idle_hit);
	seq_printf(m, "idle_expired %llu\n", st->idle_expired);
	seq_printf(m, "alloc_failed %llu\n", st->alloc_failed);
	seq_printf(m, "coop_merged %llu\n", st->coop_merged);
	seq_printf(m, "coop_split %llu\n", st->coop_split);
	seq_printf(m, "stream_moved %llu\n", st->stream_moved);
	seq_printf(m, "idle_credit %llu\n", st->idle_credit);
	seq_printf(m, "cap_refused %llu\n", st->cap_refused);
	seq_printf(m, "kicks %llu\n", st->kicks);
	seq_printf(m, "dispatch_empty %llu\n", st->dispatch_empty);
	seq_printf(m, "repaired %llu\n", st->repaired);
	seq_printf(m, "boosted %llu\n", st->boosted);
	seq_printf(m, "boost_preempted %llu\n", st->boost_preempted);
	seq_printf(m, "boost_lead_us %llu\n",
		   div_u64(core->boost_lead, NSEC_PER_USEC));
	seq_printf(m, "boost_held %d\n", core->boost_held);
	seq_printf(m, "boost_alone_us %llu %u\n",
		   div_u64(core->boost_alone, NSEC_PER_USEC),
		   core->boost_alone_n);
	seq_printf(m, "boost_beside_us %llu %u\n",
		   div_u64(core->boost_beside, NSEC_PER_USEC),
		   core->boost_beside_n);
	seq_printf(m, "level_held %llu\n", st->level_held);
	seq_printf(m, "levels_live_rt %#lx\n", core->lvl_live[CS_CLASS_RT]);
	seq_printf(m, "levels_live_be %#lx\n", core->lvl_live[CS_CLASS_BE]);
	seq_printf(m, "async_depth %u\n", READ_ONCE(cd->async_depth));
	cs_dbg_put(cd);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cs_stats);

static void cs_show_queue(struct seq_file *m, struct cs_core *core,
			  struct cs_queue *cq, u64 now)
{
	u64 left = cq->slice_end > now ? cq->slice_end - now : 0;

	seq_printf(m, "%7d %c %c%u %6u %6u %8llu %8lld %5s %7u %-6s%s%s%s%s%s\n",
		   cq->pid, cs_queue_sync(cq) ? 'S' : 'A', cs_class_char(cq),
		   cq->level, cq->queued, cq->dispatched,
		   div_u64(left, NSEC_PER_USEC),
		   cs_ttime_valid(&cq->ttime) ?
			(s64)div_u64(cq->ttime.mean, NSEC_PER_USEC) : -1LL,
		   cs_seeky(&cq->seek) ? "yes" : "no", cq->nr_members,
		   core->active == cq ? "active" : "",
		   cq->flags & CSQ_MERGED ? " merged" : "",
		   cq->flags & CSQ_STREAM ? " stream" : "",
		   cq->flags & CSQ_SPLIT ? " splitting" : "",
		   cq->flags & CSQ_KEYED ? " process" : "",
		   cq->flags & CSQ_BOOST ? " boosted" : "");
}

static int cs_queues_show(struct seq_file *m, void *unused)
{
	static const char * const idling[] = { "no", "slice", "group" };
	struct cs_data *cd = cs_dbg_get(m);
	enum cs_prio_class pclass;
	struct cs_core *core;
	struct cs_queue *cq;
	u64 now = cs_now();

	if (!cd)
		return 0;
	core = &cd->core;
	seq_printf(m, "idling: %s\n", idling[core->idling]);
	seq_puts(m, "    pid t prio queued driver slice_us ttime_us seeky members state\n");
	if (core->active)
		cs_show_queue(m, core, core->active, now);
	for (pclass = CS_CLASS_RT; pclass < CS_NR_CLASSES; pclass++)
		list_for_each_entry(cq, &core->rr[pclass], rr)
			cs_show_queue(m, core, cq, now);
	cs_dbg_put(cd);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cs_queues);

/* The device model: its mode and the figures it rests on. */
static int cs_model_show(struct seq_file *m, void *unused)
{
	static const char * const forced[] = { "auto", "serial", "parallel" };
	struct cs_data *cd = cs_dbg_get(m);
	const struct cs_model_learned *l;
	const struct cs_model *md;
	u64 now = cs_now();
	unsigned int i;

	if (!cd)
		return 0;
	md = &cd->core.model;
	l = &md->l;
	seq_printf(m, "mode %s\n", cs_model_mode(md) == CS_MODE_SERIAL ?
		   "serial" : "parallel");
	seq_printf(m, "why %s\n", cs_model_why_name(cs_model_why(md)));
	seq_printf(m, "device_mode %s\n", forced[md->force]);
	seq_printf(m, "rotational %d\n", md->rotational);
	seq_printf(m, "seek_known %d\n", l->seek_known);
	seq_printf(m, "seek_cost %d\n", cs_model_seek_cost(md));
	seq_printf(m, "seek_us %llu\n",
		   div_u64(cs_model_seek_ns(md), NSEC_PER_USEC));
	seq_printf(m, "near_excess_us %llu\n",
		   div_u64(l->near_excess, NSEC_PER_USEC));
	seq_printf(m, "far_excess_us %llu\n",
		   div_u64(l->far_excess, NSEC_PER_USEC));
	seq_printf(m, "near_samples %u\n", l->near_n);
	seq_printf(m, "far_samples %u\n", l->far_n);
	seq_printf(m, "near_slow_per_1024 %u\n", l->near_slow);
	seq_printf(m, "far_slow_per_1024 %u\n", l->far_slow);
	seq_printf(m, "far_seeks %d\n", cs_model_far_seeks(md));
	seq_printf(m, "best_ps_per_byte %llu\n", l->best_ps);
	seq_printf(m, "switch_us %llu\n",
		   div_u64(READ_ONCE(cd->core.switch_ns), NSEC_PER_USEC));
	seq_printf(m, "gain_known %d\n", l->gain_known);
	seq_printf(m, "gain_per_1024 %u\n", l->gain);
	seq_printf(m, "parallel %d\n", cs_model_parallel(md));
	seq_printf(m, "ab %s\n", md->ab == CS_AB_RUN ? "measuring" : "holding");
	seq_printf(m, "level %u\n", md->level);
	seq_printf(m, "present_avg_per_1024 %u\n", md->present_avg);
	seq_printf(m, "ab_ratio_per_1024 %u\n", cs_model_verdict(md)->ab_ratio);
	seq_puts(m, "ab_pairs");
	for (i = 0; i < md->ab_pairs && i < CS_AB_MAX_PAIRS; i++)
		seq_printf(m, " %u", md->ab_ratios[i]);
	seq_puts(m, "\n");
	/* Per contention level: 2, 3-4, 5-8, 9+ present sync queues. */
	for (i = 0; i < CS_MODEL_LEVELS; i++)
		seq_printf(m, "level%u %s %s ratio_per_1024 %u hold_ms %llu contended_ms %llu\n",
			   i, l->v[i].mode == CS_MODE_SERIAL ? "serial" : "parallel",
			   cs_model_why_name(l->v[i].why), l->v[i].ab_ratio,
			   div_u64(l->v[i].hold, NSEC_PER_MSEC),
			   div_u64(md->cont[i], NSEC_PER_MSEC));
	seq_printf(m, "changes %u\n", md->changes);
	seq_printf(m, "changed_ms_ago %llu\n",
		   div_u64(now > md->changed_at ? now - md->changed_at : 0,
			   NSEC_PER_MSEC));
	cs_dbg_put(cd);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cs_model);

static void cs_dbg_create(struct work_struct *work)
{
	struct cs_dbg *dbg = container_of(work, struct cs_dbg, create);
	struct dentry *dir;

	dir = debugfs_create_dir(dbg->name, cs_debugfs_root);
	if (IS_ERR(dir))
		return;
	debugfs_create_file("stats", 0400, dir, dbg, &cs_stats_fops);
	debugfs_create_file("queues", 0400, dir, dbg, &cs_queues_fops);
	debugfs_create_file("model", 0400, dir, dbg, &cs_model_fops);
	dbg->dir = dir;
}

static void cs_dbg_remove(struct work_struct *work)
{
	struct cs_dbg *dbg = container_of(work, struct cs_dbg, remove);

	/* Waits for readers of the files, which find dbg->cd NULL. */
	debugfs_remove_recursive(dbg->dir);
	kfree(dbg);
}

/**
 * cs_debugfs_add_queue() - give a disk its debugfs directory (soon)
 * @cd: the disk's scheduler data
 */
void cs_debugfs_add_queue(struct cs_data *cd)
{
	struct gendisk *disk = cd->q->disk;
	struct cs_dbg *dbg;

	if (!cs_debugfs_root || !cs_dbg_wq || !disk)
		return;
	dbg = kzalloc(sizeof(*dbg), GFP_KERNEL);
	if (!dbg)
		return;
	dbg->cd = cd;
	strscpy(dbg->name, disk->disk_name, sizeof(dbg->name));
	INIT_WORK(&dbg->create, cs_dbg_create);
	INIT_WORK(&dbg->remove, cs_dbg_remove);
	cd->dbg = dbg;
	queue_work(cs_dbg_wq, &dbg->create);
}

/**
 * cs_debugfs_remove_queue() - take a disk's debugfs directory away (soon)
 * @cd: the disk's scheduler data, about to be freed
 */
void cs_debugfs_remove_queue(struct cs_data *cd)
{
	struct cs_dbg *dbg = cd->dbg;

	if (!dbg)
		return;
	spin_lock_irq(&cs_dbg_lock);
	dbg->cd = NULL;
	spin_unlock_irq(&cs_dbg_lock);
	cd->dbg = NULL;
	/* After the create item: the workqueue is ordered. */
	queue_work(cs_dbg_wq, &dbg->remove);
}

/**
 * cs_debugfs_init() - create /sys/kernel/debug/ctxsched
 *
 * Return: 0; a missing debugfs only costs the debug files.
 */
int cs_debugfs_init(void)
{
	cs_dbg_wq = alloc_ordered_workqueue("ctxsched_debugfs", 0);
	cs_debugfs_root = debugfs_create_dir("ctxsched", NULL);
	if (IS_ERR(cs_debugfs_root))
		cs_debugfs_root = NULL;
	return 0;
}

/**
 * cs_debugfs_exit() - remove /sys/kernel/debug/ctxsched
 *
 * Every disk has left ctxsched by now; their remove items run first.
 */
void cs_debugfs_exit(void)
{
	if (cs_dbg_wq)
		destroy_workqueue(cs_dbg_wq);
	cs_dbg_wq = NULL;
	debugfs_remove_recursive(cs_debugfs_root);
	cs_debugfs_root = NULL;
}
