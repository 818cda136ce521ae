// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/ctxsched/<disk>/: counters and state of each queue that
 * runs ctxsched.  debugfs failures are not fatal: the scheduler works without.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "ctxsched.h"

static struct dentry *cs_debugfs_root;

static int cs_stats_show(struct seq_file *m, void *unused)
{
	struct cs_data *cd = m->private;
	struct cs_stats *st = &cd->stats;

	spin_lock_irq(&cd->lock);
	seq_printf(m, "queued %u\n", cd->nr_queued);
	seq_printf(m, "in_driver %d\n", atomic_read(&cd->in_driver));
	seq_printf(m, "inserted %llu\n", st->inserted);
	seq_printf(m, "bio_merged %llu\n", st->bio_merged);
	seq_printf(m, "rq_merged %llu\n", st->rq_merged);
	seq_printf(m, "dispatched %llu\n", st->dispatched);
	seq_printf(m, "fifo_expired %llu\n", st->fifo_expired);
	seq_printf(m, "completed %lld\n", atomic64_read(&st->completed));
	seq_printf(m, "requeued %lld\n", atomic64_read(&st->requeued));
	spin_unlock_irq(&cd->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cs_stats);

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
