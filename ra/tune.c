// SPDX-License-Identifier: GPL-2.0
/*
 * ra_autotune: the readahead window of a disk run by ctxsched, sized from
 * the readahead the hooks (hooks.c) see on it.
 *
 * While autotune is on, the window lives in the disk's read_ahead_kb (new
 * opens start with it) and in the window limit of each file that reads
 * from the disk (set after each of its readahead calls: a file copies
 * read_ahead_kb only when it is opened).  Every CS_RA_EPOCH_MS, at the
 * next readahead call, cs_ra_tune() picks the next window within
 * ra_min_kb..ra_max_kb.  Turning autotune off, or switching the disk to
 * another scheduler, puts the user's read_ahead_kb back; a value written to
 * read_ahead_kb while autotune is on becomes the one put back, and tuning
 * goes on from it.  Files already open keep the window they had until they
 * are closed.
 */
#include <linux/backing-dev.h>
#include <linux/blktrace_api.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "ra.h"

#define CS_RA_EPOCH_MS	250

#define CS_KB_PER_PAGE	(PAGE_SIZE / 1024)

/**
 * struct cs_ra_dev - readahead tuning of one disk run by ctxsched
 * @node: entry on cs_ra_tuned while autotune is on
 * @disk: the disk
 * @lock: protects the fields below @lock, against the hooks
 * @on: autotune is on
 * @min: ra_min_kb, pages
 * @max: ra_max_kb, pages
 * @cur: the window ctxsched set, pages
 * @user: read_ahead_kb to put back, pages
 * @epoch: readahead seen since @epoch_start
 * @epoch_start: start of the epoch, ns
 * @rcu: for freeing after the hooks stop looking at it
 */
struct cs_ra_dev {
	struct list_head node;
	struct gendisk *disk;
	spinlock_t lock;	/* the hooks against knob writes */
	bool on;
	unsigned int min;
	unsigned int max;
	unsigned int cur;
	unsigned int user;
	struct cs_ra_epoch epoch;
	u64 epoch_start;
	struct rcu_head rcu;
};

/* Disks with autotune on, read by the hooks under RCU. */
static LIST_HEAD(cs_ra_tuned);
/* Serialises knob writes and detach against each other. */
static DEFINE_MUTEX(cs_ra_mutex);

static unsigned long *cs_ra_window(struct cs_ra_dev *rd)
{
	return &rd->disk->bdi->ra_pages;
}

static void cs_ra_set_window(struct cs_ra_dev *rd, unsigned int pages)
{
	rd->cur = pages;
	WRITE_ONCE(*cs_ra_window(rd), pages);
	blk_add_trace_msg(rd->disk->queue, "cs ra window %u KiB",
			  pages * (unsigned int)CS_KB_PER_PAGE);
}

static bool cs_ra_streaming(enum cs_ra_pattern p)
{
	return p != CS_RA_RANDOM && p != CS_RA_MMAP && p != CS_RA_FORCED;
}

/**
 * cs_ra_tune_account() - feed one readahead call to its disk's autotune
 * @disk: the disk the file reads from
 * @ra: the file's readahead state
 * @c: the call
 * @p: its pattern
 * @actual: pages it added to the page cache
 *
 * Called by the hooks after every readahead call; does nothing unless
 * autotune is on for @disk.
 */
void cs_ra_tune_account(struct gendisk *disk, struct file_ra_state *ra,
			const struct cs_ra_call *c, enum cs_ra_pattern p,
			unsigned long actual)
{
	struct cs_ra_dev *rd;
	unsigned long flags;
	u64 now;

	rcu_read_lock();
	list_for_each_entry_rcu(rd, &cs_ra_tuned, node) {
		if (rd->disk == disk)
			break;
	}
	if (list_entry_is_head(rd, &cs_ra_tuned, node))
		goto out;

	spin_lock_irqsave(&rd->lock, flags);
	if (!rd->on)
		goto unlock;
	rd->epoch.calls[p]++;
	if (cs_ra_streaming(p))
		rd->epoch.stream_pages += actual;
	now = ktime_get_ns();
	if (now - rd->epoch_start >= CS_RA_EPOCH_MS * NSEC_PER_MSEC) {
		unsigned long seen = READ_ONCE(*cs_ra_window(rd));
		unsigned int next;

		if (seen != rd->cur) {
			/* The user wrote read_ahead_kb: theirs to restore. */
			rd->user = seen;
			rd->cur = clamp_t(unsigned long, seen, 1, UINT_MAX);
		}
		rd->epoch.ns = now - rd->epoch_start;
		next = cs_ra_tune(rd->cur, &rd->epoch, rd->min, rd->max);
		if (next != seen)
			cs_ra_set_window(rd, next);
		memset(&rd->epoch, 0, sizeof(rd->epoch));
		rd->epoch_start = now;
	}
	/* The file's own limit: streams follow the disk, faults stay small. */
	if (c->fault)
		ra->ra_pages = min(ra->ra_pages, rd->min);
	else if (!c->forced_mode)
		ra->ra_pages = rd->cur;
unlock:
	spin_unlock_irqrestore(&rd->lock, flags);
out:
	rcu_read_unlock();
}

/**
 * cs_ra_attach() - readahead tuning state for a disk ctxsched now runs
 * @disk: the disk
 *
 * Return: the state, with autotune off and default limits, or NULL when
 * out of memory.
 */
struct cs_ra_dev *cs_ra_attach(struct gendisk *disk)
{
	struct cs_ra_dev *rd = kzalloc(sizeof(*rd), GFP_KERNEL);

	if (!rd)
		return NULL;
	INIT_LIST_HEAD(&rd->node);
	rd->disk = disk;
	spin_lock_init(&rd->lock);
	rd->min = CS_RA_MIN_KB_DEFAULT / CS_KB_PER_PAGE;
	rd->max = CS_RA_MAX_KB_DEFAULT / CS_KB_PER_PAGE;
	return rd;
}

/* Called with cs_ra_mutex held. */
static void cs_ra_autotune_off(struct cs_ra_dev *rd)
{
	if (!rd->on)
		return;
	spin_lock_irq(&rd->lock);
	rd->on = false;
	spin_unlock_irq(&rd->lock);
	list_del_rcu(&rd->node);
	/* No hook may set the window after it is given back. */
	synchronize_rcu();
	if (READ_ONCE(*cs_ra_window(rd)) == rd->cur)
		WRITE_ONCE(*cs_ra_window(rd), rd->user);
	cs_ra_hooks_put();
	blk_add_trace_msg(rd->disk->queue, "cs ra autotune off, window %lu KiB",
			  READ_ONCE(*cs_ra_window(rd)) * CS_KB_PER_PAGE);
}

static int cs_ra_autotune_on(struct cs_ra_dev *rd)
{
	unsigned long user = READ_ONCE(*cs_ra_window(rd));
	int ret;

	if (rd->on)
		return 0;
	/* Autotune sees the disk's readahead through the hooks. */
	ret = cs_ra_hooks_get();
	if (ret)
		return ret;
	spin_lock_irq(&rd->lock);
	rd->user = user;
	memset(&rd->epoch, 0, sizeof(rd->epoch));
	rd->epoch_start = ktime_get_ns();
	cs_ra_set_window(rd, clamp_t(unsigned long, user, rd->min, rd->max));
	rd->on = true;
	spin_unlock_irq(&rd->lock);
	list_add_rcu(&rd->node, &cs_ra_tuned);
	return 0;
}

/**
 * cs_ra_detach() - ctxsched leaves a disk: give its window back
 * @rd: the disk's state from cs_ra_attach(), or NULL
 */
void cs_ra_detach(struct cs_ra_dev *rd)
{
	if (!rd)
		return;
	mutex_lock(&cs_ra_mutex);
	cs_ra_autotune_off(rd);
	mutex_unlock(&cs_ra_mutex);
	kfree(rd);
}

/**
 * cs_ra_knob_show() - show ra_autotune, ra_min_kb or ra_max_kb
 * @rd: the disk's state
 * @k: which file
 * @page: sysfs buffer
 *
 * Return: bytes written to @page.
 */
ssize_t cs_ra_knob_show(struct cs_ra_dev *rd, enum cs_ra_knob k, char *page)
{
	unsigned long v;

	switch (k) {
	case CS_RA_K_AUTOTUNE:
		v = READ_ONCE(rd->on);
		break;
	case CS_RA_K_MIN_KB:
		v = READ_ONCE(rd->min) * CS_KB_PER_PAGE;
		break;
	default:
		v = READ_ONCE(rd->max) * CS_KB_PER_PAGE;
		break;
	}
	return sysfs_emit(page, "%lu\n", v);
}

/**
 * cs_ra_knob_store() - write ra_autotune, ra_min_kb or ra_max_kb
 * @rd: the disk's state
 * @k: which file
 * @page: what was written
 * @count: its length
 *
 * ra_autotune takes 0 or 1; 1 puts the readahead hooks in while it is on,
 * and is refused where they cannot be.  ra_min_kb and ra_max_kb take KiB,
 * rounded down to whole pages as read_ahead_kb is, with one page <=
 * ra_min_kb <= ra_max_kb <= CS_RA_MAX_KB_LIMIT.  Anything else is refused
 * and changes nothing.
 *
 * Return: @count, -EINVAL for bad input, -EOPNOTSUPP for ra_autotune=1
 * where the readahead entry points cannot be probed.
 */
ssize_t cs_ra_knob_store(struct cs_ra_dev *rd, enum cs_ra_knob k,
			 const char *page, size_t count)
{
	unsigned int val, pages;
	ssize_t ret = count;

	if (kstrtouint(page, 10, &val))
		return -EINVAL;
	pages = val / CS_KB_PER_PAGE;

	mutex_lock(&cs_ra_mutex);
	switch (k) {
	case CS_RA_K_AUTOTUNE:
		if (val > 1)
			ret = -EINVAL;
		else if (val && cs_ra_autotune_on(rd))
			ret = -EOPNOTSUPP;
		else if (!val)
			cs_ra_autotune_off(rd);
		break;
	case CS_RA_K_MIN_KB:
		/* Limits compare in KiB, as written, before rounding. */
		if (!pages || val > rd->max * CS_KB_PER_PAGE)
			ret = -EINVAL;
		else
			WRITE_ONCE(rd->min, pages);
		break;
	case CS_RA_K_MAX_KB:
		if (val > CS_RA_MAX_KB_LIMIT || val < rd->min * CS_KB_PER_PAGE)
			ret = -EINVAL;
		else
			WRITE_ONCE(rd->max, pages);
		break;
	}
	mutex_unlock(&cs_ra_mutex);
	return ret;
}
