// SPDX-License-Identifier: GPL-2.0
/*
 * Readahead accounting: kretprobes on the readahead entry points of
 * mm/readahead.c (compat/ra.h) see each call's request and the file's window
 * before and after it; ra/policy.c names the pattern.  Counts go to per-CPU
 * tables, one for all devices and one per block device (the first
 * CS_RA_SLOTS devices seen), shown in /sys/kernel/debug/ctxsched/readahead/
 * stats.  A call costs two probe hits and a few per-CPU additions; nothing
 * is summed until the file is read.
 */
#include <linux/debugfs.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "../compat/ra.h"
#include "ra.h"

#define CREATE_TRACE_POINTS
#include "ctxsched_ra_trace.h"

/* The user's ra_hooks; disks with ra_autotune=1 hold the hooks too. */
static bool ra_hooks;
static struct dentry *cs_ra_dir;

#if CS_RA_HOOKS

/*
 * The hooks are registered and removed by a work item, never by the
 * caller that wants them: ra_autotune's store runs under the elevator's
 * sysfs_lock, and a scheduler switch takes that lock with the queue
 * frozen, while registering a kprobe takes kprobe_mutex and the CPU
 * hotplug lock, under which memory reclaim is allowed to wait for the
 * frozen queue (lockdep on 7.3).  Callers only change cs_ra_hook_users,
 * under a spinlock, and queue the work.
 */
static DEFINE_SPINLOCK(cs_ra_users_lock);
static unsigned int cs_ra_hook_users;	/* under cs_ra_users_lock */
/* Serialises ra_hooks and cs_ra_ready (the module parameter's store). */
static DEFINE_MUTEX(cs_ra_hooks_mutex);
/* Serialises (un)registration; held only by cs_ra_sync_hooks(). */
static DEFINE_MUTEX(cs_ra_reg_mutex);
/* cs_ra_init() has run: ra_hooks given at load waits for it. */
static bool cs_ra_ready;
/* The sync and async entry points could be probed at load. */
static bool cs_ra_probe_ok;

/* Per-device tables; devices beyond these count in the total only. */
#define CS_RA_SLOTS	16
#define CS_RA_NAME_LEN	32

/**
 * struct cs_ra_count - one row of a readahead table
 * @count: readahead calls
 * @sync: calls the reader waited for (all but async)
 * @eof: calls whose window reached the end of the file
 * @size: pages in the windows, summed
 * @async_size: asynchronous parts of the windows, summed
 * @actual: pages the calls added to the page cache, summed
 */
struct cs_ra_count {
	u64 count;
	u64 sync;
	u64 eof;
	u64 size;
	u64 async_size;
	u64 actual;
};

/* Table 0 is the total; table i + 1 belongs to cs_ra_slot[i]. */
struct cs_ra_tables {
	struct cs_ra_count t[CS_RA_SLOTS + 1][CS_RA_NR_PATTERNS];
};

static struct cs_ra_tables __percpu *cs_ra_stats;

/* The hooks, in cs_ra_probes[]; cs_ra_registered[] says which are set. */
enum {
	CS_RA_P_SYNC,
	CS_RA_P_ASYNC,
	CS_RA_P_FORCE,
	CS_RA_P_AROUND,
	CS_RA_NR_PROBES,
};

static bool cs_ra_registered[CS_RA_NR_PROBES];

static struct {
	dev_t dev;		/* 0: free */
	char name[CS_RA_NAME_LEN];
} cs_ra_slot[CS_RA_SLOTS];

/* Where a probed function was called from. */
enum cs_ra_caller {
	CS_RA_FROM_OTHER,
	CS_RA_FROM_FAULT,	/* filemap_fault() and its mmap readahead */
};

#define CS_RA_CALLERS	32

/* Return addresses already named: a call site never changes its caller. */
static struct {
	unsigned long addr;
	enum cs_ra_caller kind;
} cs_ra_callers[CS_RA_CALLERS];
static DEFINE_SPINLOCK(cs_ra_callers_lock);

/**
 * struct cs_ra_inflight - a probed call between entry and return
 * @ractl: its readahead_control, valid until it returns
 * @call: what is known of it
 * @nrpages: pages of the file in the page cache at entry
 */
struct cs_ra_inflight {
	struct readahead_control *ractl;
	struct cs_ra_call call;
	unsigned long nrpages;
};

static enum cs_ra_caller cs_ra_caller_kind(unsigned long addr)
{
	enum cs_ra_caller kind;
	unsigned long flags;
	char name[40];
	int i;

	for (i = 0; i < CS_RA_CALLERS; i++) {
		/* Pairs with the release below: kind is set before addr. */
		if (smp_load_acquire(&cs_ra_callers[i].addr) == addr)
			return cs_ra_callers[i].kind;
	}
	/* Only the start of the name matters; a longer one is cut. */
	snprintf(name, sizeof(name), "%ps", (void *)addr);
	if (strstarts(name, "filemap_fault") || strstr(name, "mmap_readahead"))
		kind = CS_RA_FROM_FAULT;
	else
		kind = CS_RA_FROM_OTHER;

	spin_lock_irqsave(&cs_ra_callers_lock, flags);
	for (i = 0; i < CS_RA_CALLERS; i++) {
		if (cs_ra_callers[i].addr == addr)
			break;
		if (!cs_ra_callers[i].addr) {
			cs_ra_callers[i].kind = kind;
			/* Lock-free readers must see kind once addr matches. */
			smp_store_release(&cs_ra_callers[i].addr, addr);
			break;
		}
	}
	spin_unlock_irqrestore(&cs_ra_callers_lock, flags);
	return kind;
}

/* The block device a file's pages are read from, or NULL. */
static struct block_device *cs_ra_bdev(struct inode *host)
{
	/* A block device read through its page cache: the bdev inode. */
	if (S_ISBLK(host->i_mode))
		return I_BDEV(host);
	return host->i_sb ? host->i_sb->s_bdev : NULL;
}

static int cs_ra_slot_of(struct block_device *bdev)
{
	dev_t dev = bdev->bd_dev;
	int i;

	for (i = 0; i < CS_RA_SLOTS; i++) {
		dev_t d = READ_ONCE(cs_ra_slot[i].dev);

		if (d == dev)
			return i + 1;
		if (!d && !cmpxchg(&cs_ra_slot[i].dev, 0, dev)) {
			snprintf(cs_ra_slot[i].name, CS_RA_NAME_LEN, "%pg",
				 bdev);
			return i + 1;
		}
		if (!d && READ_ONCE(cs_ra_slot[i].dev) == dev)
			return i + 1;
	}
	return 0;
}

static void cs_ra_add(struct cs_ra_count *n, const struct cs_ra_call *c,
		      bool eof, unsigned long actual)
{
	unsigned long size, async_size;

	cs_ra_read_size(c, &size, &async_size);
	n->count++;
	n->sync += c->entry != CS_RA_E_ASYNC;
	n->eof += eof;
	n->size += size;
	n->async_size += async_size;
	n->actual += actual;
}

static void cs_ra_account(struct block_device *bdev,
			  const struct cs_ra_call *c, enum cs_ra_pattern p,
			  unsigned long actual)
{
	struct cs_ra_tables *tab;
	bool eof = cs_ra_hits_eof(c);
	int slot = bdev ? cs_ra_slot_of(bdev) : 0;

	tab = get_cpu_ptr(cs_ra_stats);
	cs_ra_add(&tab->t[0][p], c, eof, actual);
	if (slot)
		cs_ra_add(&tab->t[slot][p], c, eof, actual);
	put_cpu_ptr(cs_ra_stats);
}

static int cs_ra_enter(struct kretprobe_instance *ri, struct pt_regs *regs,
		       enum cs_ra_entry entry)
{
	struct cs_ra_inflight *in = (struct cs_ra_inflight *)ri->data;
	struct readahead_control *ractl;
	struct cs_ra_call *c = &in->call;
	struct file_ra_state *ra;

	ractl = (struct readahead_control *)cs_ra_arg(regs, CS_RA_ARG_RACTL);
	if (!ractl || !ractl->mapping || !ractl->mapping->host || !ractl->ra)
		return 1;	/* nothing to account: skip the return */
	ra = ractl->ra;
	in->ractl = ractl;
	memset(c, 0, sizeof(*c));
	c->entry = entry;
	c->index = readahead_index(ractl);
	switch (entry) {
	case CS_RA_E_SYNC:
		c->req = cs_ra_arg(regs, CS_RA_ARG_SYNC_REQ);
		break;
	case CS_RA_E_ASYNC:
		c->req = cs_ra_arg(regs, CS_RA_ARG_ASYNC_REQ);
		break;
	case CS_RA_E_FORCE:
		c->req = cs_ra_arg(regs, CS_RA_ARG_FORCE_REQ);
		break;
	case CS_RA_E_AROUND:
		/* The fault path has set the window up already. */
		c->index = ra->start;
		c->req = ra->size;
		break;
	}
	c->ra_pages = ra->ra_pages;
	c->forced_mode = !ra->ra_pages ||
			 (ractl->file && (ractl->file->f_mode & FMODE_RANDOM));
	c->prev_index = (unsigned long long)ra->prev_pos >> PAGE_SHIFT;
	c->before.start = ra->start;
	c->before.size = ra->size;
	c->before.async_size = ra->async_size;
	in->nrpages = READ_ONCE(ractl->mapping->nrpages);
	return 0;
}

static int cs_ra_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct cs_ra_inflight *in = (struct cs_ra_inflight *)ri->data;
	struct readahead_control *ractl = in->ractl;
	struct file_ra_state *ra = ractl->ra;
	struct inode *host = ractl->mapping->host;
	struct cs_ra_call *c = &in->call;
	enum cs_ra_caller from = cs_ra_caller_kind(cs_ra_caller(ri));
	struct block_device *bdev;
	unsigned long nr, actual;
	enum cs_ra_pattern p;

	/*
	 * A forced page_cache_sync_ra() ends in force_page_cache_ra(), often
	 * as a tail call, whose hook counts it.
	 */
	if (c->entry == CS_RA_E_SYNC && c->forced_mode && cs_ra_registered[CS_RA_P_FORCE])
		return 0;
	/*
	 * page_cache_ra_order() counts only as the fault path's read-around;
	 * called by the other hooked functions, it returns to their return
	 * trampoline or to their caller, never to filemap_fault().
	 */
	if (c->entry == CS_RA_E_AROUND && from != CS_RA_FROM_FAULT)
		return 0;
	c->fault = from == CS_RA_FROM_FAULT;
	c->after.start = ra->start;
	c->after.size = ra->size;
	c->after.async_size = ra->async_size;
	c->eof_pages = DIV_ROUND_UP(i_size_read(host), PAGE_SIZE);
	nr = READ_ONCE(ractl->mapping->nrpages);
	actual = nr > in->nrpages ? nr - in->nrpages : 0;
	p = cs_ra_classify(c);
	bdev = cs_ra_bdev(host);

	cs_ra_account(bdev, c, p, actual);
	trace_readahead(bdev ? bdev->bd_dev : host->i_sb->s_dev, host->i_ino,
			c, p, actual);
	if (bdev && bdev->bd_disk)
		cs_ra_tune_account(bdev->bd_disk, ra, c, p, actual);
	return 0;
}

#define CS_RA_ENTRY(name, entry)					\
static int cs_ra_enter_##name(struct kretprobe_instance *ri,		\
			      struct pt_regs *regs)			\
{									\
	return cs_ra_enter(ri, regs, entry);				\
}

CS_RA_ENTRY(sync, CS_RA_E_SYNC)
CS_RA_ENTRY(async, CS_RA_E_ASYNC)
CS_RA_ENTRY(force, CS_RA_E_FORCE)
CS_RA_ENTRY(around, CS_RA_E_AROUND)

/* Readahead may sleep (page allocation): allow many calls in flight. */
#define CS_RA_MAXACTIVE	256

#define CS_RA_PROBE(fn, name)						\
{									\
	.kp.symbol_name = fn,						\
	.entry_handler = cs_ra_enter_##name,				\
	.handler = cs_ra_return,					\
	.data_size = sizeof(struct cs_ra_inflight),			\
	.maxactive = CS_RA_MAXACTIVE,					\
}

static const struct kretprobe cs_ra_probe_tmpl[CS_RA_NR_PROBES] = {
	[CS_RA_P_SYNC] = CS_RA_PROBE("page_cache_sync_ra", sync),
	[CS_RA_P_ASYNC] = CS_RA_PROBE("page_cache_async_ra", async),
	[CS_RA_P_FORCE] = CS_RA_PROBE("force_page_cache_ra", force),
	[CS_RA_P_AROUND] = CS_RA_PROBE("page_cache_ra_order", around),
};

/* Live copies: a kretprobe is filled in by registering it. */
static struct kretprobe cs_ra_probes[CS_RA_NR_PROBES];

static void cs_ra_unregister(void)
{
	int i;

	for (i = 0; i < CS_RA_NR_PROBES; i++) {
		if (cs_ra_registered[i])
			unregister_kretprobe(&cs_ra_probes[i]);
		cs_ra_registered[i] = false;
	}
}

/* Register every hook; false unless the sync and async ones are set. */
static bool cs_ra_register(void)
{
	int i, ret;

	for (i = 0; i < CS_RA_NR_PROBES; i++) {
		cs_ra_probes[i] = cs_ra_probe_tmpl[i];
		ret = register_kretprobe(&cs_ra_probes[i]);
		if (ret)
			pr_warn("ctxsched: cannot probe %s (%d): its readahead calls are not counted\n",
				cs_ra_probes[i].kp.symbol_name, ret);
		cs_ra_registered[i] = !ret;
	}
	if (cs_ra_registered[CS_RA_P_SYNC] && cs_ra_registered[CS_RA_P_ASYNC])
		return true;
	cs_ra_unregister();
	return false;
}

/* Make the registered hooks match what their users want. */
static void cs_ra_sync_hooks(void)
{
	bool want, have;

	mutex_lock(&cs_ra_reg_mutex);
	spin_lock(&cs_ra_users_lock);
	want = cs_ra_hook_users;
	spin_unlock(&cs_ra_users_lock);
	have = cs_ra_registered[CS_RA_P_SYNC];
	if (want && !have)
		cs_ra_register();
	else if (!want && have)
		cs_ra_unregister();
	mutex_unlock(&cs_ra_reg_mutex);
}

static void cs_ra_sync_work_fn(struct work_struct *work)
{
	cs_ra_sync_hooks();
}

static DECLARE_WORK(cs_ra_sync_work, cs_ra_sync_work_fn);

/* Count one user more (@d = 1) or less (-1); the first and last move the hooks. */
static void cs_ra_users_add(int d)
{
	bool edge;

	spin_lock(&cs_ra_users_lock);
	if (d < 0 && WARN_ON(!cs_ra_hook_users))
		d = 0;
	cs_ra_hook_users += d;
	edge = d && cs_ra_hook_users == (d > 0 ? 1 : 0);
	spin_unlock(&cs_ra_users_lock);
	if (edge)
		schedule_work(&cs_ra_sync_work);
}

/**
 * cs_ra_hooks_get() - ask for the readahead hooks
 *
 * The first user's call has the hooks registered shortly after (by a work
 * item); it does not wait for them.
 *
 * Return: 0, or -EOPNOTSUPP when the kernel's sync and async readahead
 * entry points cannot be probed.
 */
int cs_ra_hooks_get(void)
{
	if (!READ_ONCE(cs_ra_probe_ok))
		return -EOPNOTSUPP;
	cs_ra_users_add(1);
	return 0;
}

/**
 * cs_ra_hooks_put() - drop a user of the hooks; the last one has them
 *	removed (by a work item, shortly after)
 */
void cs_ra_hooks_put(void)
{
	cs_ra_users_add(-1);
}

static int cs_ra_stats_show(struct seq_file *m, void *unused)
{
	struct cs_ra_count sum[CS_RA_NR_PATTERNS];
	unsigned long missed = 0;
	int slot, p, cpu;
	size_t i;

	seq_puts(m, "# ctxsched readahead accounting; write to this file to reset it\n");
	seq_puts(m, "# size, async_size, actual: average pages (4 KiB) per call\n");
	mutex_lock(&cs_ra_hooks_mutex);
	seq_puts(m, "hooks");
	for (i = 0; i < ARRAY_SIZE(cs_ra_probes); i++) {
		if (cs_ra_registered[i]) {
			seq_printf(m, " %s", cs_ra_probes[i].kp.symbol_name);
			missed += cs_ra_probes[i].nmissed;
		}
	}
	if (!cs_ra_hook_users)
		seq_puts(m, " none (counting is off: echo 1 > /sys/module/ctxsched/parameters/ra_hooks)");
	seq_printf(m, "\nmissed %lu\n", missed);
	mutex_unlock(&cs_ra_hooks_mutex);

	for (slot = 0; slot <= CS_RA_SLOTS; slot++) {
		dev_t dev = slot ? READ_ONCE(cs_ra_slot[slot - 1].dev) : 0;

		if (slot && !dev)
			continue;
		memset(sum, 0, sizeof(sum));
		for_each_possible_cpu(cpu) {
			struct cs_ra_tables *tab = per_cpu_ptr(cs_ra_stats, cpu);

			for (p = 0; p < CS_RA_NR_PATTERNS; p++) {
				struct cs_ra_count *n = &tab->t[slot][p];

				sum[p].count += n->count;
				sum[p].sync += n->sync;
				sum[p].eof += n->eof;
				sum[p].size += n->size;
				sum[p].async_size += n->async_size;
				sum[p].actual += n->actual;
			}
		}
		if (slot)
			seq_printf(m, "\n[%s %u:%u]\n", cs_ra_slot[slot - 1].name,
				   MAJOR(dev), MINOR(dev));
		else
			seq_puts(m, "\n[total]\n");
		seq_printf(m, "%-10s %10s %10s %10s %10s %10s %10s\n",
			   "pattern", "count", "sync_count", "eof_count",
			   "size", "async_size", "actual");
		for (p = 0; p < CS_RA_NR_PATTERNS; p++) {
			u64 n = max_t(u64, sum[p].count, 1);

			seq_printf(m, "%-10s %10llu %10llu %10llu %10llu %10llu %10llu\n",
				   cs_ra_pattern_name(p), sum[p].count,
				   sum[p].sync, sum[p].eof,
				   div64_u64(sum[p].size, n),
				   div64_u64(sum[p].async_size, n),
				   div64_u64(sum[p].actual, n));
		}
	}
	return 0;
}

static int cs_ra_stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, cs_ra_stats_show, inode->i_private);
}

/* Any write resets; counts of calls in flight meanwhile may be lost. */
static ssize_t cs_ra_stats_write(struct file *file, const char __user *buf,
				 size_t count, loff_t *ppos)
{
	int cpu, i;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(cs_ra_stats, cpu), 0,
		       sizeof(struct cs_ra_tables));
	for (i = 0; i < CS_RA_SLOTS; i++)
		WRITE_ONCE(cs_ra_slot[i].dev, 0);
	return count;
}

static const struct file_operations cs_ra_stats_fops = {
	.owner = THIS_MODULE,
	.open = cs_ra_stats_open,
	.read = seq_read,
	.write = cs_ra_stats_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static int cs_ra_hooks_init(void)
{
	cs_ra_stats = alloc_percpu(struct cs_ra_tables);
	if (!cs_ra_stats)
		return -ENOMEM;
	if (cs_ra_dir)
		debugfs_create_file("stats", 0644, cs_ra_dir, NULL,
				    &cs_ra_stats_fops);
	/* Find out once, with no scheduler locks held, whether probing works. */
	mutex_lock(&cs_ra_reg_mutex);
	cs_ra_probe_ok = cs_ra_register();
	if (cs_ra_probe_ok)
		cs_ra_unregister();
	mutex_unlock(&cs_ra_reg_mutex);
	mutex_lock(&cs_ra_hooks_mutex);
	cs_ra_ready = true;
	/* ra_hooks=1 at load: a failure to probe is reported, not fatal. */
	if (ra_hooks && cs_ra_hooks_get())
		ra_hooks = false;
	mutex_unlock(&cs_ra_hooks_mutex);
	cs_ra_sync_hooks();
	return 0;
}

static void cs_ra_hooks_exit(void)
{
	mutex_lock(&cs_ra_hooks_mutex);
	if (ra_hooks)
		cs_ra_hooks_put();
	cs_ra_ready = false;
	mutex_unlock(&cs_ra_hooks_mutex);
	/* No disk runs ctxsched now, so ra_autotune holds no hooks. */
	flush_work(&cs_ra_sync_work);
	WARN_ON(cs_ra_hook_users);
	cs_ra_sync_hooks();
	free_percpu(cs_ra_stats);
	cs_ra_stats = NULL;
}

/* ra_hooks=0/1: no scheduler locks are held here, so wait for the hooks. */
static int cs_ra_hooks_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int ret = kstrtobool(val, &on);

	if (ret)
		return ret;
	mutex_lock(&cs_ra_hooks_mutex);
	if (cs_ra_ready && on != ra_hooks) {
		if (on)
			ret = cs_ra_hooks_get();
		else
			cs_ra_hooks_put();
	}
	if (!ret)
		ra_hooks = on;
	mutex_unlock(&cs_ra_hooks_mutex);
	if (!ret)
		flush_work(&cs_ra_sync_work);
	return ret;
}

#else /* !CS_RA_HOOKS */

int cs_ra_hooks_get(void)
{
	return -EOPNOTSUPP;
}

void cs_ra_hooks_put(void)
{
}

static int cs_ra_hooks_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int ret = kstrtobool(val, &on);

	if (ret)
		return ret;
	if (on)
		return -EOPNOTSUPP;
	ra_hooks = false;
	return 0;
}

static int cs_ra_hooks_init(void)
{
	pr_info("ctxsched: kernel without kretprobes: no readahead accounting or ra_autotune\n");
	return 0;
}

static void cs_ra_hooks_exit(void)
{
}

#endif /* CS_RA_HOOKS */

/**
 * cs_ra_init() - set up readahead accounting at module load
 *
 * Creates /sys/kernel/debug/ctxsched/readahead/ and, with ra_hooks=1,
 * probes the kernel's readahead entry points.  A probe that cannot be set
 * is reported and left out; debugfs failures are not fatal.
 *
 * Return: 0 or -ENOMEM.
 */
int cs_ra_init(void)
{
	struct dentry *top = debugfs_lookup("ctxsched", NULL);

	if (!IS_ERR_OR_NULL(top)) {
		cs_ra_dir = debugfs_create_dir("readahead", top);
		dput(top);
	}
	return cs_ra_hooks_init();
}

/**
 * cs_ra_exit() - remove the readahead hooks at module unload
 */
void cs_ra_exit(void)
{
	debugfs_remove_recursive(cs_ra_dir);
	cs_ra_dir = NULL;
	cs_ra_hooks_exit();
}

static const struct kernel_param_ops cs_ra_hooks_ops = {
	.set = cs_ra_hooks_set,
	.get = param_get_bool,
};
module_param_cb(ra_hooks, &cs_ra_hooks_ops, &ra_hooks, 0644);
MODULE_PARM_DESC(ra_hooks,
		 "Count readahead by probing mm/readahead.c (default 0; disks with ra_autotune=1 probe it too)");
