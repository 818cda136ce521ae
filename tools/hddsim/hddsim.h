/* SPDX-License-Identifier: GPL-2.0 */
#ifndef HDDSIM_H
#define HDDSIM_H

#include <linux/atomic.h>
#include <linux/blk-mq.h>
#include <linux/hrtimer.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>

#include "model.h"

struct hs_dev;

/* The timer that fires when a spindle's mechanism finishes a transfer. */
struct hs_spindle {
	struct hrtimer timer;
	struct hs_dev *dev;
	unsigned int index;
};

struct hs_dev {
	int index;
	const char *profile;
	spinlock_t lock;	/* the model and the spindle timers */
	struct hs_model *model;
	struct hs_spindle spindle[HS_MAX_UNITS];
	struct xarray pages;	/* sparse backing store, by page index */
	struct blk_mq_tag_set tag_set;
	struct gendisk *disk;
	/* Completions as they happened, against the modelled times. */
	atomic64_t completed;
	atomic64_t achieved_ns;
	atomic64_t late_ns;
	atomic64_t late_max_ns;
};

/* Per-request driver data. */
struct hs_rq {
	struct hs_cmd cmd;
	struct hrtimer timer;
	blk_status_t status;
};

blk_status_t hs_store_rw(struct xarray *pages, struct request *rq);
void hs_store_discard(struct xarray *pages, sector_t sector, u32 nr);
void hs_store_free(struct xarray *pages);

extern const struct attribute_group *hs_attr_groups[];

#endif
