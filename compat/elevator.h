/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private block-layer declarations that ctxsched needs and that distribution
 * header packages do not ship (block/elevator.h, parts of block/blk-mq.h and
 * block/blk.h).  They must match the running kernel member for member: the
 * core reads struct elevator_type and struct elevator_mq_ops from this module
 * and hands it struct elevator_queue and struct blk_mq_alloc_data.
 *
 * Each layout below is tied to the kernel range it was checked against.  The
 * ABI guard (compat/abi/) compiles these declarations next to the real
 * headers of Debian's linux-source trees and asserts sizes and offsets.
 * A kernel outside the checked range does not build.
 *
 * This file and compat/compat.h are the only places that test the kernel
 * version.
 */
#ifndef CTXSCHED_COMPAT_ELEVATOR_H
#define CTXSCHED_COMPAT_ELEVATOR_H

#include <linux/version.h>
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/hashtable.h>
#include <linux/kobject.h>
#include <linux/mutex.h>

#include "elevator-range.h"

#include "elevator-types.h"

#define rb_entry_rq(node)	rb_entry((node), struct request, rb_node)

/* block/elevator.c */
int elv_register(struct elevator_type *e);
void elv_unregister(struct elevator_type *e);
#ifndef CS_ELV_INIT_TAKES_EQ
struct elevator_queue *elevator_alloc(struct request_queue *q,
				      struct elevator_type *e);
#endif
bool elv_bio_merge_ok(struct request *rq, struct bio *bio);
void elv_rqhash_del(struct request_queue *q, struct request *rq);
void elv_rqhash_add(struct request_queue *q, struct request *rq);
void elv_rb_add(struct rb_root *root, struct request *rq);
void elv_rb_del(struct rb_root *root, struct request *rq);
struct request *elv_rb_find(struct rb_root *root, sector_t sector);
struct request *elv_rb_former_request(struct request_queue *q,
				      struct request *rq);
struct request *elv_rb_latter_request(struct request_queue *q,
				      struct request *rq);

/* block/blk-merge.c, block/blk-mq-sched.c */
bool blk_mq_sched_try_merge(struct request_queue *q, struct bio *bio,
			    unsigned int nr_segs,
			    struct request **merged_request);
bool blk_mq_sched_try_insert_merge(struct request_queue *q,
				   struct request *rq, struct list_head *free);

/* block/blk-ioc.c */
struct io_cq *ioc_find_get_icq(struct request_queue *q);
struct io_cq *ioc_lookup_icq(struct request_queue *q);

#endif /* CTXSCHED_COMPAT_ELEVATOR_H */
