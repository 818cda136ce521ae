// SPDX-License-Identifier: GPL-2.0
/*
 * Async depth: how many scheduler tags async requests may hold, so that
 * write-back cannot take every tag while reads wait for one.
 *
 * ->limit_depth() sets a shallow depth for the tag allocation.  Kernels
 * differ in what that number means: older ones apply it to each word of the
 * tag bitmap, newer ones (6.17, 6.16.2, and 6.12.y at some point) to the
 * whole bitmap.  Rather than guess from the version, ctxsched asks the
 * running kernel's sbitmap once at load time.
 */
#include <linux/blk-mq.h>
#include <linux/gfp.h>
#include <linux/numa.h>
#include <linux/printk.h>
#include <linux/sbitmap.h>

#include "ctxsched.h"

static bool cs_shallow_whole_bitmap;

/**
 * cs_depth_probe() - find out how the running kernel applies shallow depths
 *
 * Allocates from a 128-bit sbitmap of four 32-bit words with a shallow
 * depth of 8: a per-word limit lets 32 allocations through, a whole-bitmap
 * limit 8.
 *
 * Return: 0, or -ENOMEM.
 */
int cs_depth_probe(void)
{
	struct sbitmap_queue sbq;
	unsigned int got = 0;
	int ret;

	ret = sbitmap_queue_init_node(&sbq, 128, 5, false, GFP_KERNEL,
				      NUMA_NO_NODE);
	if (ret)
		return ret;
	sbitmap_queue_min_shallow_depth(&sbq, 1);
	while (got < 128 && sbitmap_queue_get_shallow(&sbq, 8) >= 0)
		got++;
	sbitmap_queue_free(&sbq);
	cs_shallow_whole_bitmap = got < 32;
	pr_debug("ctxsched: shallow depth applies to the %s (%u of 128 bits)\n",
		 cs_shallow_whole_bitmap ? "whole tag bitmap" : "bitmap words",
		 got);
	return 0;
}

/**
 * cs_update_depth() - compute the async depth for the queue's current depth
 * @cd: the scheduler
 * @init: the scheduler is being set up for the queue (rather than the
 *	queue's depth having changed)
 */
void cs_update_depth(struct cs_data *cd, bool init)
{
	struct request_queue *q = cd->q;
	struct blk_mq_hw_ctx *hctx;
	struct sbitmap *sb = NULL;
	unsigned long i;
	unsigned int depth;

	queue_for_each_hw_ctx(q, hctx, i) {
		if (hctx->sched_tags) {
			sb = &hctx->sched_tags->bitmap_tags.sb;
			break;
		}
	}
	if (!sb)
		return;
	depth = cs_async_depth(sb->depth, cs_shallow_whole_bitmap,
			       1U << sb->shift);
	if (init)
		cs_compat_init_async_depth(q, depth);
	depth = cs_compat_async_depth(q, depth);
	WRITE_ONCE(cd->async_depth, depth);
	queue_for_each_hw_ctx(q, hctx, i) {
		if (hctx->sched_tags)
			sbitmap_queue_min_shallow_depth(&hctx->sched_tags->bitmap_tags,
							depth);
	}
}
