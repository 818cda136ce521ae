// SPDX-License-Identifier: GPL-2.0
/*
 * Tunables under /sys/block/<disk>/queue/iosched/.
 *
 * Every knob takes a decimal integer in a documented range.  Anything else
 * (text, a sign, overflow, a value out of range) is refused with -EINVAL and
 * the knob keeps its value.
 */
#include <linux/kernel.h>
#include <linux/sysfs.h>

#include "ctxsched.h"

const struct cs_knob cs_knobs[CS_NR_KNOBS] = {
	[CS_FIFO_EXPIRE_SYNC]	= { "fifo_expire_sync",	1, 60000, 125 },
	[CS_FIFO_EXPIRE_ASYNC]	= { "fifo_expire_async", 1, 60000, 250 },
	[CS_BACK_SEEK_MAX]	= { "back_seek_max",	0, 1U << 30, 16384 },
	[CS_BACK_SEEK_PENALTY]	= { "back_seek_penalty", 1, 1000, 2 },
};

/**
 * cs_knobs_init() - give a new queue the default tunables
 * @cd: the queue's scheduler data
 */
void cs_knobs_init(struct cs_data *cd)
{
	int i;

	for (i = 0; i < CS_NR_KNOBS; i++)
		cd->knob[i] = cs_knobs[i].def;
}

static ssize_t cs_knob_show(struct elevator_queue *eq, char *page,
			    enum cs_knob_id id)
{
	struct cs_data *cd = eq->elevator_data;

	return sysfs_emit(page, "%u\n", cs_knob(cd, id));
}

static ssize_t cs_knob_store(struct elevator_queue *eq, const char *page,
			     size_t count, enum cs_knob_id id)
{
	struct cs_data *cd = eq->elevator_data;
	unsigned int val;

	if (kstrtouint(page, 10, &val) ||
	    val < cs_knobs[id].min || val > cs_knobs[id].max)
		return -EINVAL;
	WRITE_ONCE(cd->knob[id], val);
	return count;
}

/* One show/store pair per knob: the callbacks are not told which file. */
#define CS_KNOB_ATTR(name, id)						\
static const enum cs_knob_id cs_##name##_id = id;			\
static ssize_t cs_##name##_show(struct elevator_queue *eq, char *page)	\
{									\
	return cs_knob_show(eq, page, cs_##name##_id);			\
}									\
static ssize_t cs_##name##_store(struct elevator_queue *eq,		\
				 const char *page, size_t count)	\
{									\
	return cs_knob_store(eq, page, count, cs_##name##_id);		\
}

CS_KNOB_ATTR(fifo_expire_sync, CS_FIFO_EXPIRE_SYNC)
CS_KNOB_ATTR(fifo_expire_async, CS_FIFO_EXPIRE_ASYNC)
CS_KNOB_ATTR(back_seek_max, CS_BACK_SEEK_MAX)
CS_KNOB_ATTR(back_seek_penalty, CS_BACK_SEEK_PENALTY)

#define CS_ATTR(name) __ATTR(name, 0644, cs_##name##_show, cs_##name##_store)

struct elv_fs_entry cs_sysfs_attrs[] = {
	CS_ATTR(fifo_expire_sync),
	CS_ATTR(fifo_expire_async),
	CS_ATTR(back_seek_max),
	CS_ATTR(back_seek_penalty),
	__ATTR_NULL
};
