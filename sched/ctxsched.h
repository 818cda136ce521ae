/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ctxsched: the elevator glue's view, shared by main.c, depth.c, sysfs.c,
 * debugfs.c and devmem.c.  The scheduling itself is in core.h.
 */
#ifndef CTXSCHED_H
#define CTXSCHED_H

#include <linux/blk-mq.h>

#include "../ra/ra.h"
#include "core.h"

static inline struct cs_data *cs_of(struct request_queue *q)
{
	return q->elevator->elevator_data;
}

/*
 * The clock of every decision: CLOCK_MONOTONIC, ns, read once per plug
 * where the kernel allows (the core keeps its own clock monotonic).
 */
static inline u64 cs_now(void)
{
	return cs_compat_time_ns();
}

/* depth.c */
int cs_depth_probe(void);
void cs_update_depth(struct cs_data *cd, bool init);

/* sysfs.c */
extern struct elv_fs_entry cs_sysfs_attrs[];

/* debugfs.c */
int cs_debugfs_init(void);
void cs_debugfs_exit(void);
void cs_debugfs_add_queue(struct cs_data *cd);
void cs_debugfs_remove_queue(struct cs_data *cd);

/* devmem.c */
void cs_devmem_load(dev_t dev, struct cs_model_memory *mem);
void cs_devmem_save(dev_t dev, const struct cs_model_learned *l);
void cs_devmem_exit(void);

#endif /* CTXSCHED_H */
