// SPDX-License-Identifier: GPL-2.0
/*
 * hddsim: an emulated rotating disk, for testing I/O schedulers.
 *
 * A blk-mq block driver that keeps its data in sparse memory and completes
 * every request at the time a model of a disk says it would have completed
 * (model.c): seeks, rotation, zoned transfer rates, an on-drive read cache
 * with read-ahead, command queueing with on-drive reordering, several
 * spindles striped as RAID-0, or flash.  Completions come from absolute
 * hrtimers and the model runs on model time, so a late timer (QEMU/TCG)
 * delays a completion but does not slow the emulated disk down; sysfs shows
 * modelled against achieved service times.
 *
 * Not part of ctxsched: a test tool.  See README.rst.
 */
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "blkdev-driver.h"
#include "hddsim.h"
#include "profile.h"

#define HS_MAX_DEVS	8
#define HS_MINORS	16

static char *devices = "sata";
module_param(devices, charp, 0444);
MODULE_PARM_DESC(devices,
		 "comma-separated device specifications, one disk hddsimN each: profile[:key=value]... (profiles: sata, array12, ssd; default: sata)");

static int hs_major;
static struct hs_dev *hs_devs[HS_MAX_DEVS];

static const struct block_device_operations hs_fops = {
	.owner = THIS_MODULE,
};

static void hs_note_completion(struct hs_dev *d, const struct hs_cmd *c,
			       u64 now)
{
	u64 late = now > c->done ? now - c->done : 0;
	s64 max = atomic64_read(&d->late_max_ns);

	atomic64_inc(&d->completed);
	atomic64_add(now - c->arrival, &d->achieved_ns);
	atomic64_add(late, &d->late_ns);
	while (late > max) {
		if (atomic64_try_cmpxchg(&d->late_max_ns, &max, late))
			break;
	}
}

static enum hrtimer_restart hs_rq_timer(struct hrtimer *timer)
{
	struct hs_rq *r = container_of(timer, struct hs_rq, timer);
	struct request *rq = blk_mq_rq_from_pdu(r);

	hs_note_completion(rq->q->queuedata, &r->cmd, ktime_get_ns());
	blk_mq_end_request(rq, r->status);
	return HRTIMER_NORESTART;
}

static void hs_arm_rq(struct hs_cmd *c)
{
	struct hs_rq *r = container_of(c, struct hs_rq, cmd);

	hrtimer_start(&r->timer, ns_to_ktime(c->done), HRTIMER_MODE_ABS);
}

/* The mechanism of a spindle is free: start its next queued command. */
static enum hrtimer_restart hs_spindle_timer(struct hrtimer *timer)
{
	struct hs_spindle *sp = container_of(timer, struct hs_spindle, timer);
	struct hs_dev *d = sp->dev;
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	struct hs_unit *u = &d->model->unit[sp->index];
	unsigned long flags;
	struct hs_cmd *c;

	spin_lock_irqsave(&d->lock, flags);
	c = hs_unit_run(d->model, sp->index);
	if (c)
		hs_arm_rq(c);
	if (u->busy) {
		hrtimer_set_expires(timer, ns_to_ktime(u->busy_until));
		ret = HRTIMER_RESTART;
	}
	spin_unlock_irqrestore(&d->lock, flags);
	return ret;
}

static blk_status_t hs_queue_rq(struct blk_mq_hw_ctx *hctx,
				const struct blk_mq_queue_data *bd)
{
	struct request *rq = bd->rq;
	struct hs_dev *d = hctx->queue->queuedata;
	struct hs_rq *r = blk_mq_rq_to_pdu(rq);
	unsigned long flags;
	enum hs_op op;
	int ret;

	might_sleep();
	switch (req_op(rq)) {
	case REQ_OP_READ:
		op = HS_READ;
		break;
	case REQ_OP_WRITE:
		op = HS_WRITE;
		break;
	case REQ_OP_DISCARD:
	case REQ_OP_FLUSH:
		op = HS_OTHER;
		break;
	default:
		return BLK_STS_NOTSUPP;
	}
	/* Data moves now; only the completion waits for the model. */
	r->status = BLK_STS_OK;
	if (op != HS_OTHER) {
		r->status = hs_store_rw(&d->pages, rq);
		if (r->status == BLK_STS_RESOURCE)
			return BLK_STS_RESOURCE;
	} else if (req_op(rq) == REQ_OP_DISCARD) {
		hs_store_discard(&d->pages, blk_rq_pos(rq),
				 blk_rq_sectors(rq));
	}
	blk_mq_start_request(rq);
	cs_hrtimer_setup(&r->timer, hs_rq_timer, CLOCK_MONOTONIC,
			 HRTIMER_MODE_ABS);

	spin_lock_irqsave(&d->lock, flags);
	ret = hs_submit(d->model, &r->cmd, blk_rq_pos(rq), blk_rq_sectors(rq),
			op, ktime_get_ns());
	if (ret & HS_ARM_UNIT)
		hrtimer_start(&d->spindle[r->cmd.unit].timer,
			      ns_to_ktime(d->model->unit[r->cmd.unit].busy_until),
			      HRTIMER_MODE_ABS);
	spin_unlock_irqrestore(&d->lock, flags);
	if (ret & HS_DONE)
		hs_arm_rq(&r->cmd);
	return BLK_STS_OK;
}

static const struct blk_mq_ops hs_mq_ops = {
	.queue_rq = hs_queue_rq,
};

static void hs_free(struct hs_dev *d)
{
	unsigned int i;

	if (d->disk) {
		del_gendisk(d->disk);
		/* No request is left; a spindle may still be finishing. */
		for (i = 0; i < HS_MAX_UNITS; i++)
			hrtimer_cancel(&d->spindle[i].timer);
		put_disk(d->disk);
	}
	if (d->tag_set.ops)
		blk_mq_free_tag_set(&d->tag_set);
	hs_store_free(&d->pages);
	kvfree(d->model);
	kfree(d);
}

static int hs_add(int index, char *spec)
{
	struct queue_limits lim = { };
	struct gendisk *disk;
	struct hs_params p;
	struct hs_model *m;
	struct hs_dev *d;
	unsigned int i;
	int ret;

	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	d->index = index;
	spin_lock_init(&d->lock);
	xa_init(&d->pages);
	for (i = 0; i < HS_MAX_UNITS; i++) {
		d->spindle[i].dev = d;
		d->spindle[i].index = i;
		cs_hrtimer_setup(&d->spindle[i].timer, hs_spindle_timer,
				 CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	}
	ret = -ENOMEM;
	m = kvzalloc(sizeof(*m), GFP_KERNEL);
	d->model = m;
	if (!m)
		goto fail;
	ret = -EINVAL;
	d->profile = hs_parse(spec, &p);
	if (!d->profile || hs_model_init(m, &p)) {
		pr_err("hddsim: bad device specification for hddsim%d\n",
		       index);
		goto fail;
	}

	d->tag_set.ops = &hs_mq_ops;
	d->tag_set.nr_hw_queues = 1;
	d->tag_set.queue_depth = min(p.qdepth * max(m->nunits, 1U), 1024U);
	d->tag_set.numa_node = NUMA_NO_NODE;
	d->tag_set.cmd_size = sizeof(struct hs_rq);
	d->tag_set.flags = CS_BLK_MQ_F_SHOULD_MERGE | BLK_MQ_F_BLOCKING;
	d->tag_set.driver_data = d;
	ret = blk_mq_alloc_tag_set(&d->tag_set);
	if (ret) {
		d->tag_set.ops = NULL;
		goto fail;
	}

	lim.logical_block_size = SECTOR_SIZE;
	lim.physical_block_size = 4096;
	lim.max_hw_sectors = 2048;
	lim.max_segments = 256;
	if (m->chunk_sectors) {
		/* A request never spans two spindles. */
		lim.chunk_sectors = m->chunk_sectors;
		lim.io_min = m->chunk_sectors << SECTOR_SHIFT;
		lim.io_opt = lim.io_min * m->nunits;
	}
	if (m->flash) {
		lim.max_hw_discard_sectors = UINT_MAX >> SECTOR_SHIFT;
		lim.discard_granularity = 4096;
	}
	disk = cs_blk_mq_alloc_disk(&d->tag_set, &lim, !m->flash, d);
	if (IS_ERR(disk)) {
		ret = PTR_ERR(disk);
		goto fail;
	}
	disk->major = hs_major;
	disk->first_minor = index * HS_MINORS;
	disk->minors = HS_MINORS;
	disk->fops = &hs_fops;
	disk->private_data = d;
	snprintf(disk->disk_name, DISK_NAME_LEN, "hddsim%d", index);
	set_capacity(disk, m->capacity);
	ret = device_add_disk(NULL, disk, hs_attr_groups);
	if (ret) {
		put_disk(disk);
		goto fail;
	}
	d->disk = disk;
	hs_devs[index] = d;
	return 0;

fail:
	hs_free(d);
	return ret;
}

static void hs_remove_all(void)
{
	int i;

	for (i = 0; i < HS_MAX_DEVS; i++) {
		if (hs_devs[i])
			hs_free(hs_devs[i]);
		hs_devs[i] = NULL;
	}
}

static int __init hs_init(void)
{
	char *list, *cur, *spec;
	int ret, n = 0;

	hs_major = register_blkdev(0, "hddsim");
	if (hs_major < 0)
		return hs_major;
	list = kstrdup(devices ? devices : "", GFP_KERNEL);
	if (!list) {
		ret = -ENOMEM;
		goto fail;
	}
	cur = list;
	ret = 0;
	while ((spec = strsep(&cur, ",")) && !ret) {
		if (!*spec)
			continue;
		if (n == HS_MAX_DEVS) {
			pr_err("hddsim: at most %d devices\n", HS_MAX_DEVS);
			ret = -EINVAL;
			break;
		}
		ret = hs_add(n, spec);
		n++;
	}
	kfree(list);
	if (ret)
		goto fail;
	pr_info("hddsim: %d device(s)\n", n);
	return 0;

fail:
	hs_remove_all();
	unregister_blkdev(hs_major, "hddsim");
	return ret;
}

static void __exit hs_exit(void)
{
	hs_remove_all();
	unregister_blkdev(hs_major, "hddsim");
}

module_init(hs_init);
module_exit(hs_exit);
MODULE_DESCRIPTION("hddsim: emulated rotating disk for I/O scheduler tests");
MODULE_LICENSE("GPL");
