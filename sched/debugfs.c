// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/ctxsched/<disk>/: counters and the busy queues of each
 * disk that runs ctxsched.  debugfs failures are not fatal: the scheduler
 * works without these files.
 */
#include <linux/debugfs.h>
#include <linux/ktime.h>
#include <linux/seq_file.h>

#include "ctxsched.h"

static struct dentry *cs_debugfs_root;

static int cs_stats_show(struct seq_file *m, void *unused)
{
	struct cs_data *cd = m->private;
	struct cs_stats *st = &cd->stats;

	spin_lock_irq(&cd->lock);
	seq_printf(m, "queued %u\n", cd->nr_queued);
	seq_printf(m, "in_driver %u\n", cd->in_driver[0] + cd->in_driver[1]);
	seq_printf(m, "in_driver_sync %u\n", cd->in_driver[1]);
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
	seq_printf(m, "idle_credit %llu\n", st->idle_credit);
	seq_printf(m, "cap_refused %llu\n", st->cap_refused);
	seq_printf(m, "async_depth %u\n", cd->async_depth);
	spin_unlock_irq(&cd->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cs_stats);

static void cs_show_queue(struct seq_file *m, struct cs_data *cd,
			  struct cs_queue *cq, u64 now)
{
	u64 left = cq->slice_end > now ? cq->slice_end - now : 0;

	seq_printf(m, "%7d %c %c%u %6u %6u %8llu %8lld %5s %7u %-6s%s%s%s\n",
		   cq->pid, cs_queue_sync(cq) ? 'S' : 'A', cs_class_char(cq),
		   cq->level, cq->queued, cq->dispatched,
		   div_u64(left, NSEC_PER_USEC),
		   cs_ttime_valid(&cq->ttime) ?
			(s64)div_u64(cq->ttime.mean, NSEC_PER_USEC) : -1LL,
		   cs_seeky(&cq->seek) ? "yes" : "no", cq->nr_members,
		   cd->active == cq ? "active" : "",
		   cq->flags & CSQ_MERGED ? " merged" : "",
		   cq->flags & CSQ_SPLIT ? " splitting" : "",
		   cq->flags & CSQ_KEYED ? " process" : "");
}

static int cs_queues_show(struct seq_file *m, void *unused)
{
	static const char * const idling[] = { "no", "slice", "group" };
	struct cs_data *cd = m->private;
	enum cs_prio_class pclass;
	struct cs_queue *cq;
	u64 now = ktime_get_ns();

	spin_lock_irq(&cd->lock);
	seq_printf(m, "idling: %s\n", idling[cd->idling]);
	seq_puts(m, "    pid t prio queued driver slice_us ttime_us seeky members state\n");
	if (cd->active)
		cs_show_queue(m, cd, cd->active, now);
	for (pclass = CS_CLASS_RT; pclass < CS_NR_CLASSES; pclass++)
		list_for_each_entry(cq, &cd->rr[pclass], rr)
			cs_show_queue(m, cd, cq, now);
	spin_unlock_irq(&cd->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cs_queues);

/**
 * cs_debugfs_add_queue() - create the debugfs directory of a queue
 * @cd: the queue's scheduler data
 */
void cs_debugfs_add_queue(struct cs_data *cd)
{
	struct gendisk *disk = cd->q->disk;

	if (!cs_debugfs_root || !disk)
		return;
	cd->debugfs_dir = debugfs_create_dir(disk->disk_name, cs_debugfs_root);
	if (IS_ERR(cd->debugfs_dir)) {
		cd->debugfs_dir = NULL;
		return;
	}
	debugfs_create_file("stats", 0400, cd->debugfs_dir, cd,
			    &cs_stats_fops);
	debugfs_create_file("queues", 0400, cd->debugfs_dir, cd,
			    &cs_queues_fops);
}

/**
 * cs_debugfs_remove_queue() - remove the debugfs directory of a queue
 * @cd: the queue's scheduler data
 */
void cs_debugfs_remove_queue(struct cs_data *cd)
{
	debugfs_remove_recursive(cd->debugfs_dir);
	cd->debugfs_dir = NULL;
}

/**
 * cs_debugfs_init() - create /sys/kernel/debug/ctxsched
 *
 * Return: 0; a missing debugfs only costs the debug files.
 */
int cs_debugfs_init(void)
{
	cs_debugfs_root = debugfs_create_dir("ctxsched", NULL);
	if (IS_ERR(cs_debugfs_root))
		cs_debugfs_root = NULL;
	return 0;
}

/**
 * cs_debugfs_exit() - remove /sys/kernel/debug/ctxsched
 */
void cs_debugfs_exit(void)
{
	debugfs_remove_recursive(cs_debugfs_root);
	cs_debugfs_root = NULL;
}
