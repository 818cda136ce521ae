// SPDX-License-Identifier: GPL-2.0
/*
 * Glue for elevator API differences that need a function body.
 */
#include <linux/blkdev.h>
#include <linux/kobject.h>

#include "compat.h"

#ifdef CS_ELV_INIT_TAKES_EQ
/**
 * cs_elv_init_sched() - ->init_sched() of kernels that allocate the
 *	elevator_queue themselves (6.16.4 and later)
 * @q: the request queue
 * @eq: its new elevator_queue; the core drops it if this fails
 *
 * Return: 0 or a negative errno.
 */
int cs_elv_init_sched(struct request_queue *q, struct elevator_queue *eq)
{
	int ret = cs_setup(q, eq);

	if (!ret)
		q->elevator = eq;
	return ret;
}
#else
/**
 * cs_elv_init_sched() - ->init_sched() of kernels where the scheduler
 *	allocates the elevator_queue
 * @q: the request queue
 * @e: the elevator type being set up
 *
 * Return: 0 or a negative errno.
 */
int cs_elv_init_sched(struct request_queue *q, struct elevator_type *e)
{
	struct elevator_queue *eq;
	int ret;

	eq = elevator_alloc(q, e);
	if (!eq)
		return -ENOMEM;
	ret = cs_setup(q, eq);
	if (ret) {
		kobject_put(&eq->kobj);
		return ret;
	}
	q->elevator = eq;
	return 0;
}
#endif

#ifdef CS_ELV_DEPTH_UPDATED_Q
/**
 * cs_elv_depth_updated() - ->depth_updated() of kernels that call it once
 *	per queue after setting q->nr_requests (6.17.3 and later)
 * @q: the request queue
 */
void cs_elv_depth_updated(struct request_queue *q)
{
	cs_depth_changed(q);
}
#else
/**
 * cs_elv_depth_updated() - ->depth_updated() of kernels that call it for
 *	each hardware queue after resizing its scheduler tags
 * @hctx: the hardware queue
 */
void cs_elv_depth_updated(struct blk_mq_hw_ctx *hctx)
{
	cs_depth_changed(hctx->queue);
}
#endif
