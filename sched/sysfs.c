// SPDX-License-Identifier: GPL-2.0
/*
 * Tunables under /sys/block/<disk>/queue/iosched/, with CFQ's names, units
 * and defaults.  Times are kept in ns; "slice_idle" shows and takes ms,
 * "slice_idle_us" the same value in us.
 *
 * Every file takes a decimal integer in its range.  Anything else (text, a
 * sign, a fraction, overflow, a value out of range) is refused with -EINVAL
 * and the tunable keeps its value.
 */
#include <linux/blk-mq.h>
#include <linux/kernel.h>
#include <linux/sysfs.h>
#include <linux/time64.h>

#include "ctxsched.h"

#define MS	NSEC_PER_MSEC
#define US	NSEC_PER_USEC

/**
 * struct cs_attr - a file under iosched/
 * @t: the tunable it shows
 * @unit: stored units per unit of the file (1, or ns per ms or per us)
 */
struct cs_attr {
	enum cs_tunable t;
	u64 unit;
};

static ssize_t cs_attr_show(struct elevator_queue *eq, char *page,
			    const struct cs_attr *a)
{
	struct cs_data *cd = eq->elevator_data;

	return sysfs_emit(page, "%llu\n",
			  div64_u64(cs_tun(&cd->core, a->t), a->unit));
}

static ssize_t cs_attr_store(struct elevator_queue *eq, const char *page,
			     size_t count, const struct cs_attr *a)
{
	const struct cs_tunable_desc *d = cs_tunable_desc(a->t);
	struct cs_data *cd = eq->elevator_data;
	unsigned int val;
	u64 v;

	if (kstrtouint(page, 10, &val))
		return -EINVAL;
	v = (u64)val * a->unit;
	if (v < d->min || v > d->max)
		return -EINVAL;
	/* A cap below a page would only make requests of single pages. */
	if (a->t == CS_T_MAX_REQUEST_KB && v && v < 4)
		return -EINVAL;
	WRITE_ONCE(cd->core.tun[a->t], v);
	return count;
}

static const char * const cs_group_names[] = {
	[CS_GROUP_THREAD] = "thread",
	[CS_GROUP_PROCESS] = "process",
};

static ssize_t cs_group_by_show(struct elevator_queue *eq, char *page)
{
	struct cs_data *cd = eq->elevator_data;

	return sysfs_emit(page, "%s\n",
			  cs_group_names[cs_tun(&cd->core, CS_T_GROUP_BY)]);
}

/* "thread" or "process"; contexts regroup at their next request. */
static ssize_t cs_group_by_store(struct elevator_queue *eq, const char *page,
				 size_t count)
{
	struct cs_data *cd = eq->elevator_data;
	int by = sysfs_match_string(cs_group_names, page);

	if (by < 0)
		return -EINVAL;
	/* The mode and its generation change together, under the lock. */
	spin_lock_irq(&cd->lock);
	cs_core_set_group_by(&cd->core, by);
	spin_unlock_irq(&cd->lock);
	return count;
}

static const char * const cs_mode_names[] = {
	[CS_FORCE_AUTO] = "auto",
	[CS_FORCE_SERIAL] = "serial",
	[CS_FORCE_PARALLEL] = "parallel",
};

/* "auto [serial]" etc.: the setting, and in brackets the mode in effect. */
static ssize_t cs_device_mode_show(struct elevator_queue *eq, char *page)
{
	struct cs_data *cd = eq->elevator_data;
	enum cs_mode mode;
	u64 force;

	spin_lock_irq(&cd->lock);
	force = cs_tun(&cd->core, CS_T_DEVICE_MODE);
	mode = cs_model_mode(&cd->core.model);
	spin_unlock_irq(&cd->lock);
	return sysfs_emit(page, "%s [%s]\n", cs_mode_names[force],
			  mode == CS_MODE_SERIAL ? "serial" : "parallel");
}

/*
 * "auto" learns the disk's behaviour (again, forgetting what was learned);
 * "serial" and "parallel" keep the mode.
 */
static ssize_t cs_device_mode_store(struct elevator_queue *eq,
				    const char *page, size_t count)
{
	struct cs_data *cd = eq->elevator_data;
	int force = sysfs_match_string(cs_mode_names, page);

	if (force < 0)
		return -EINVAL;
	spin_lock_irq(&cd->lock);
	cs_core_set_mode(&cd->core, force, cs_now());
	spin_unlock_irq(&cd->lock);
	/* An idle window may have ended: let waiting work go. */
	blk_mq_run_hw_queues(cd->q, true);
	return count;
}

/* One show/store pair per file: the callbacks are not told which file. */
#define CS_ATTR(name, tunable, unit)					\
static const struct cs_attr cs_attr_##name = { tunable, unit };	\
static ssize_t cs_##name##_show(struct elevator_queue *eq, char *page)	\
{									\
	return cs_attr_show(eq, page, &cs_attr_##name);			\
}									\
static ssize_t cs_##name##_store(struct elevator_queue *eq,		\
				 const char *page, size_t count)	\
{									\
	return cs_attr_store(eq, page, count, &cs_attr_##name);		\
}

CS_ATTR(quantum, CS_T_QUANTUM, 1)
CS_ATTR(fifo_expire_sync, CS_T_FIFO_EXPIRE_SYNC, MS)
CS_ATTR(fifo_expire_async, CS_T_FIFO_EXPIRE_ASYNC, MS)
CS_ATTR(back_seek_max, CS_T_BACK_SEEK_MAX, 1)
CS_ATTR(back_seek_penalty, CS_T_BACK_SEEK_PENALTY, 1)
CS_ATTR(slice_sync, CS_T_SLICE_SYNC, MS)
CS_ATTR(slice_sync_us, CS_T_SLICE_SYNC, US)
CS_ATTR(slice_async, CS_T_SLICE_ASYNC, MS)
CS_ATTR(slice_async_us, CS_T_SLICE_ASYNC, US)
CS_ATTR(slice_async_rq, CS_T_SLICE_ASYNC_RQ, 1)
CS_ATTR(slice_idle, CS_T_SLICE_IDLE, MS)
CS_ATTR(slice_idle_us, CS_T_SLICE_IDLE, US)
CS_ATTR(group_idle, CS_T_GROUP_IDLE, MS)
CS_ATTR(group_idle_us, CS_T_GROUP_IDLE, US)
CS_ATTR(low_latency, CS_T_LOW_LATENCY, 1)
CS_ATTR(target_latency, CS_T_TARGET_LATENCY, MS)
CS_ATTR(target_latency_us, CS_T_TARGET_LATENCY, US)
CS_ATTR(max_request_kb, CS_T_MAX_REQUEST_KB, 1)
CS_ATTR(boost, CS_T_BOOST, MS)
CS_ATTR(boost_us, CS_T_BOOST, US)

/* ra_autotune, ra_min_kb and ra_max_kb belong to ra/tune.c. */
#define CS_RA_ATTR(name, knob)						\
static const enum cs_ra_knob cs_knob_##name = knob;			\
static ssize_t cs_##name##_show(struct elevator_queue *eq, char *page)	\
{									\
	struct cs_data *cd = eq->elevator_data;				\
									\
	return cs_ra_knob_show(cd->ra, cs_knob_##name, page);		\
}									\
static ssize_t cs_##name##_store(struct elevator_queue *eq,		\
				 const char *page, size_t count)	\
{									\
	struct cs_data *cd = eq->elevator_data;				\
									\
	return cs_ra_knob_store(cd->ra, cs_knob_##name, page, count);	\
}

CS_RA_ATTR(ra_autotune, CS_RA_K_AUTOTUNE)
CS_RA_ATTR(ra_min_kb, CS_RA_K_MIN_KB)
CS_RA_ATTR(ra_max_kb, CS_RA_K_MAX_KB)

#define CS_FILE(name) __ATTR(name, 0644, cs_##name##_show, cs_##name##_store)

struct elv_fs_entry cs_sysfs_attrs[] = {
	CS_FILE(quantum),
	CS_FILE(fifo_expire_sync),
	CS_FILE(fifo_expire_async),
	CS_FILE(back_seek_max),
	CS_FILE(back_seek_penalty),
	CS_FILE(slice_sync),
	CS_FILE(slice_sync_us),
	CS_FILE(slice_async),
	CS_FILE(slice_async_us),
	CS_FILE(slice_async_rq),
	CS_FILE(slice_idle),
	CS_FILE(slice_idle_us),
	CS_FILE(group_idle),
	CS_FILE(group_idle_us),
	CS_FILE(low_latency),
	CS_FILE(target_latency),
	CS_FILE(target_latency_us),
	CS_FILE(group_by),
	CS_FILE(max_request_kb),
	CS_FILE(device_mode),
	CS_FILE(boost),
	CS_FILE(boost_us),
	CS_FILE(ra_autotune),
	CS_FILE(ra_min_kb),
	CS_FILE(ra_max_kb),
	__ATTR_NULL
};
