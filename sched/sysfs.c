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
#include <linux/kernel.h>
#include <linux/sysfs.h>
#include <linux/time64.h>

#include "ctxsched.h"

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

#define MS	NSEC_PER_MSEC
#define US	NSEC_PER_USEC

static const struct cs_tunable_desc cs_tunables[CS_NR_TUNABLES] = {
	[CS_T_QUANTUM]		= { 1, 4096, 8 },
	[CS_T_FIFO_EXPIRE_SYNC]	= { 1 * MS, 60000 * MS, 125 * MS },
	[CS_T_FIFO_EXPIRE_ASYNC] = { 1 * MS, 60000 * MS, 250 * MS },
	[CS_T_BACK_SEEK_MAX]	= { 0, 1ULL << 30, 16384 },
	[CS_T_BACK_SEEK_PENALTY] = { 1, 1000, 2 },
	[CS_T_SLICE_SYNC]	= { 1 * US, 60000 * MS, 100 * MS },
	[CS_T_SLICE_ASYNC]	= { 1 * US, 60000 * MS, 40 * MS },
	[CS_T_SLICE_ASYNC_RQ]	= { 1, 4096, 2 },
	[CS_T_SLICE_IDLE]	= { 0, 1000 * MS, 8 * MS },
	[CS_T_GROUP_IDLE]	= { 0, 1000 * MS, 8 * MS },
	[CS_T_LOW_LATENCY]	= { 0, 1, 1 },
	[CS_T_TARGET_LATENCY]	= { 1 * US, 60000 * MS, 300 * MS },
	[CS_T_GROUP_BY]		= { CS_GROUP_THREAD, CS_GROUP_PROCESS,
				    CS_GROUP_THREAD },
	[CS_T_MAX_REQUEST_KB]	= { 0, 1U << 20, 0 },
};

/**
 * cs_tunables_init() - give a new queue the default tunables
 * @cd: the queue's scheduler data
 */
void cs_tunables_init(struct cs_data *cd)
{
	int i;

	for (i = 0; i < CS_NR_TUNABLES; i++)
		cd->tun[i] = cs_tunables[i].def;
}

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

	return sysfs_emit(page, "%llu\n", div64_u64(cs_tun(cd, a->t), a->unit));
}

static ssize_t cs_attr_store(struct elevator_queue *eq, const char *page,
			     size_t count, const struct cs_attr *a)
{
	const struct cs_tunable_desc *d = &cs_tunables[a->t];
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
	WRITE_ONCE(cd->tun[a->t], v);
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
			  cs_group_names[cs_tun(cd, CS_T_GROUP_BY)]);
}

/* "thread" or "process"; contexts regroup at their next request. */
static ssize_t cs_group_by_store(struct elevator_queue *eq, const char *page,
				 size_t count)
{
	struct cs_data *cd = eq->elevator_data;
	int by = sysfs_match_string(cs_group_names, page);

	if (by < 0)
		return -EINVAL;
	if (by != cs_tun(cd, CS_T_GROUP_BY)) {
		WRITE_ONCE(cd->tun[CS_T_GROUP_BY], by);
		WRITE_ONCE(cd->group_gen, cd->group_gen + 1);
	}
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
	CS_FILE(ra_autotune),
	CS_FILE(ra_min_kb),
	CS_FILE(ra_max_kb),
	__ATTR_NULL
};
