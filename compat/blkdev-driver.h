/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Thin wrappers over the parts of the block-driver and hrtimer APIs that
 * changed between the kernels ctxsched supports, for the test-only block
 * driver tools/hddsim.  Checked against the 6.1, 6.12 and 7.3 trees; the
 * versions in between come from the upstream commits named below.
 *
 * 6.9   blk_mq_alloc_disk() takes the queue_limits ("block: pass a
 *       queue_limits argument to blk_mq_alloc_disk"); the blk_queue_*()
 *       setters used before are gone by 6.12.
 * 6.11  rotational is BLK_FEAT_ROTATIONAL in queue_limits.features instead
 *       of the queue flag QUEUE_FLAG_NONROT.
 * 6.13  hrtimer_setup() sets the callback; hrtimer_init() is gone in 6.15.
 * 6.14  BLK_MQ_F_SHOULD_MERGE is gone: blk-mq always tries to merge.
 */
#ifndef CTXSCHED_COMPAT_BLKDEV_DRIVER_H
#define CTXSCHED_COMPAT_BLKDEV_DRIVER_H

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/hrtimer.h>

#include "elevator-range.h"

#if CS_KERNEL_AT_LEAST(6, 14, 0)
#define CS_BLK_MQ_F_SHOULD_MERGE	0
#else
#define CS_BLK_MQ_F_SHOULD_MERGE	BLK_MQ_F_SHOULD_MERGE
#endif

static inline void
cs_hrtimer_setup(struct hrtimer *timer,
		 enum hrtimer_restart (*fn)(struct hrtimer *),
		 clockid_t clock, enum hrtimer_mode mode)
{
#if CS_KERNEL_AT_LEAST(6, 13, 0)
	hrtimer_setup(timer, fn, clock, mode);
#else
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
#endif
}

/*
 * Allocate a blk-mq disk with the limits in @lim.  Only the fields set below
 * are honoured on every kernel; a zero field keeps the block layer default.
 */
static inline struct gendisk *
cs_blk_mq_alloc_disk(struct blk_mq_tag_set *set, struct queue_limits *lim,
		     bool rotational, void *queuedata)
{
	struct gendisk *disk;

#if CS_KERNEL_AT_LEAST(6, 11, 0)
	if (rotational)
		lim->features |= BLK_FEAT_ROTATIONAL;
#endif
#if CS_KERNEL_AT_LEAST(6, 9, 0)
	disk = blk_mq_alloc_disk(set, lim, queuedata);
	if (IS_ERR(disk))
		return disk;
#else
	struct request_queue *q;

	disk = blk_mq_alloc_disk(set, queuedata);
	if (IS_ERR(disk))
		return disk;
	q = disk->queue;
	if (lim->logical_block_size)
		blk_queue_logical_block_size(q, lim->logical_block_size);
	if (lim->physical_block_size)
		blk_queue_physical_block_size(q, lim->physical_block_size);
	if (lim->max_hw_sectors)
		blk_queue_max_hw_sectors(q, lim->max_hw_sectors);
	if (lim->max_segments)
		blk_queue_max_segments(q, lim->max_segments);
	if (lim->chunk_sectors)
		blk_queue_chunk_sectors(q, lim->chunk_sectors);
	if (lim->io_min)
		blk_queue_io_min(q, lim->io_min);
	if (lim->io_opt)
		blk_queue_io_opt(q, lim->io_opt);
	if (lim->max_hw_discard_sectors) {
		blk_queue_max_discard_sectors(q, lim->max_hw_discard_sectors);
		q->limits.discard_granularity = lim->discard_granularity;
	}
#endif
#if !CS_KERNEL_AT_LEAST(6, 11, 0)
	if (!rotational)
		blk_queue_flag_set(QUEUE_FLAG_NONROT, disk->queue);
#endif
	return disk;
}

#endif
