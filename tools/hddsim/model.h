/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hddsim timing model: when does a command complete on an emulated disk?
 *
 * Pure arithmetic on model time (nanoseconds of CLOCK_MONOTONIC), with no
 * locking, timers or allocation, so that the same code runs in the block
 * driver and in the userspace simulator (sim/).  The caller serialises all
 * calls for one model.
 */
#ifndef HDDSIM_MODEL_H
#define HDDSIM_MODEL_H

#include <linux/types.h>

#define HS_MAX_ZONES	64
#define HS_MAX_SEGS	64
#define HS_MAX_UNITS	32

/* Everything a profile sets; see profile.c for the meaning and units. */
struct hs_params {
	u32 rpm;
	u32 seek_t2t_us;
	u32 seek_avg_us;
	u32 seek_full_us;
	u32 write_settle_us;
	u32 heads;
	u32 zones;
	u32 outer_kbps;
	u32 inner_kbps;
	u32 cache_kb;
	u32 segments;
	u32 readahead_kb;
	u32 qdepth;
	u32 overhead_us;
	u32 max_age_ms;
	u32 link_kbps;
	u32 read_lat_us;
	u32 write_lat_us;
	u32 write_kbps;
	u32 spindles;
	u32 chunk_kb;
	u32 size_mb;
};

/* A band of cylinders with one media rate (zoned bit recording). */
struct hs_zone {
	u64 start;		/* first sector, spindle-local */
	u64 t0;			/* media time at which @start passes, ns */
	u32 ps_per_sector;	/* media time per sector, picoseconds */
	u32 cyl0;		/* first cylinder */
};

/* A run of sectors held in the on-drive read cache. */
struct hs_seg {
	u64 start;
	u64 end;
	u64 used;		/* LRU stamp */
};

struct hs_cmd;

/* One spindle: its head, its command queue and its read cache. */
struct hs_unit {
	/* Commands waiting for the mechanism, oldest first. */
	struct hs_cmd *head;
	struct hs_cmd **tail;
	struct hs_cmd *cur;	/* on the mechanism */
	bool busy;
	u64 busy_until;		/* end of the current media transfer */
	u32 cyl;		/* head position when idle */
	/* Read-ahead running while the mechanism is otherwise idle. */
	bool pf_on;
	int pf_seg;
	u64 pf_from;		/* sector under the head at @pf_t0 */
	u64 pf_t0;
	u64 pf_limit;		/* read-ahead stops before this sector */
	u64 stamp;
	struct hs_seg seg[HS_MAX_SEGS];
};

/* Modelled counters, updated by the model under the caller's lock. */
struct hs_mstats {
	u64 reads;
	u64 writes;
	u64 others;
	u64 read_bytes;
	u64 write_bytes;
	u64 seeks;
	u64 seek_ns;
	u64 rotate_ns;
	u64 media_ns;
	u64 cache_hits;
	u64 service_ns;
};

struct hs_model {
	struct hs_params p;
	bool flash;		/* no mechanics: rpm == 0 */
	u32 nunits;
	u64 capacity;		/* sectors, whole device */
	u64 unit_sectors;
	u64 chunk_sectors;	/* stripe unit; 0 for one spindle */
	u64 rot_ns;
	u32 cylinders;
	u32 nzones;
	struct hs_zone zone[HS_MAX_ZONES + 1];
	u64 seg_sectors;	/* size of one cache segment */
	u64 ra_sectors;
	u64 bus_free;		/* host link busy until */
	u64 prog_free;		/* flash programming busy until */
	struct hs_mstats st;
	struct hs_unit unit[HS_MAX_UNITS];
};

enum hs_op {
	HS_READ,
	HS_WRITE,
	HS_OTHER,		/* no data transfer: flush, discard */
};

/* A command as the model sees it; embedded in the driver's request data. */
struct hs_cmd {
	struct hs_cmd *next;	/* in hs_unit's queue */
	u64 sector;		/* spindle-local */
	u32 nr;			/* sectors */
	u16 unit;
	u8 op;
	bool hit;
	u64 arrival;
	u64 done;		/* modelled completion, once known */
};

/* hs_submit() result bits. */
#define HS_DONE		1	/* @done is known: arm the completion */
#define HS_ARM_UNIT	2	/* the spindle started it: arm the spindle */

int hs_model_init(struct hs_model *m, const struct hs_params *p);
int hs_submit(struct hs_model *m, struct hs_cmd *c, u64 sector, u32 nr,
	      enum hs_op op, u64 now);
struct hs_cmd *hs_unit_run(struct hs_model *m, unsigned int u);
u64 hs_seek_time(const struct hs_model *m, u32 dist);

#endif
