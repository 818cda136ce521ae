/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layouts of the private block-layer structures ctxsched shares with the
 * core, per checked kernel range (see elevator-range.h).  Types only, so that
 * the ABI guard can compile them next to the real headers: it defines
 * CS_ABI_TAG() to give the structures defined here other tags, while every
 * reference to a structure through a pointer keeps naming the real one, so
 * the guard can compare each callback's type with the kernel's.
 */
#ifndef CTXSCHED_COMPAT_ELEVATOR_TYPES_H
#define CTXSCHED_COMPAT_ELEVATOR_TYPES_H

#include "elevator-range.h"

#ifndef CS_ABI_TAG
#define CS_ABI_TAG(name) name
#endif

struct io_cq;
struct blk_mq_debugfs_attr;
struct elevator_type;
struct elevator_queue;
struct elevator_tags;

enum CS_ABI_TAG(elv_merge) {
	CS_ABI_TAG(ELEVATOR_NO_MERGE)		= 0,
	CS_ABI_TAG(ELEVATOR_FRONT_MERGE)	= 1,
	CS_ABI_TAG(ELEVATOR_BACK_MERGE)		= 2,
	CS_ABI_TAG(ELEVATOR_DISCARD_MERGE)	= 3,
};

/*
 * struct blk_mq_alloc_data (block/blk-mq.h).  ctxsched reads ->q and writes
 * ->shallow_depth from ->limit_depth().
 */
struct CS_ABI_TAG(blk_mq_alloc_data) {
	struct request_queue *q;
	blk_mq_req_flags_t flags;
	unsigned int shallow_depth;
	blk_opf_t cmd_flags;
	req_flags_t rq_flags;
	unsigned int nr_tags;
	/* struct request ** before 6.12.y, struct rq_list * since */
	void *cached_rqs;
	struct blk_mq_ctx *ctx;
	struct blk_mq_hw_ctx *hctx;
};

/* ->insert_requests() flags (blk_insert_t in block/blk-mq.h, 6.4 and later). */
#ifndef CS_ELV_INSERT_BOOL
typedef unsigned int __bitwise cs_blk_insert_t;
#define CS_INSERT_AT_HEAD	((__force cs_blk_insert_t)0x01)
#endif

struct CS_ABI_TAG(elevator_mq_ops) {
#ifdef CS_ELV_INIT_TAKES_EQ
	int (*init_sched)(struct request_queue *q, struct elevator_queue *eq);
#else
	int (*init_sched)(struct request_queue *q, struct elevator_type *e);
#endif
	void (*exit_sched)(struct elevator_queue *eq);
	int (*init_hctx)(struct blk_mq_hw_ctx *hctx, unsigned int idx);
	void (*exit_hctx)(struct blk_mq_hw_ctx *hctx, unsigned int idx);
#ifdef CS_ELV_DEPTH_UPDATED_Q
	void (*depth_updated)(struct request_queue *q);
#else
	void (*depth_updated)(struct blk_mq_hw_ctx *hctx);
#endif
#ifdef CS_ELV_HAS_SCHED_DATA_OPS
	void *(*alloc_sched_data)(struct request_queue *q);
	void (*free_sched_data)(void *data);
#endif

	bool (*allow_merge)(struct request_queue *q, struct request *rq,
			    struct bio *bio);
	bool (*bio_merge)(struct request_queue *q, struct bio *bio,
			  unsigned int nr_segs);
	int (*request_merge)(struct request_queue *q, struct request **rq,
			     struct bio *bio);
	void (*request_merged)(struct request_queue *q, struct request *rq,
			       enum elv_merge type);
	void (*requests_merged)(struct request_queue *q, struct request *rq,
				struct request *next);
	void (*limit_depth)(blk_opf_t opf, struct blk_mq_alloc_data *data);
	void (*prepare_request)(struct request *rq);
	void (*finish_request)(struct request *rq);
#ifdef CS_ELV_INSERT_BOOL
	void (*insert_requests)(struct blk_mq_hw_ctx *hctx,
				struct list_head *list, bool at_head);
#else
	void (*insert_requests)(struct blk_mq_hw_ctx *hctx,
				struct list_head *list, cs_blk_insert_t flags);
#endif
	struct request *(*dispatch_request)(struct blk_mq_hw_ctx *hctx);
	bool (*has_work)(struct blk_mq_hw_ctx *hctx);
	void (*completed_request)(struct request *rq, u64 now);
	void (*requeue_request)(struct request *rq);
	struct request *(*former_request)(struct request_queue *q,
					  struct request *rq);
	struct request *(*next_request)(struct request_queue *q,
					struct request *rq);
	void (*init_icq)(struct io_cq *icq);
	void (*exit_icq)(struct io_cq *icq);
};

#ifndef ELV_NAME_MAX
#define ELV_NAME_MAX	(16)
#endif

struct CS_ABI_TAG(elv_fs_entry) {
	struct attribute attr;
	ssize_t (*show)(struct elevator_queue *eq, char *page);
	ssize_t (*store)(struct elevator_queue *eq, const char *page,
			 size_t count);
};

struct CS_ABI_TAG(elevator_type) {
	struct kmem_cache *icq_cache;
	struct CS_ABI_TAG(elevator_mq_ops) ops;
	size_t icq_size;
	size_t icq_align;
	struct elv_fs_entry *elevator_attrs;
	const char *elevator_name;
	const char *elevator_alias;
#ifdef CS_ELV_HAS_FEATURES
	const unsigned int elevator_features;
#endif
	struct module *elevator_owner;
#ifdef CONFIG_BLK_DEBUG_FS
	const struct blk_mq_debugfs_attr *queue_debugfs_attrs;
	const struct blk_mq_debugfs_attr *hctx_debugfs_attrs;
#endif
	char icq_cache_name[ELV_NAME_MAX + 6];
	struct list_head list;
};

#ifndef ELV_HASH_BITS
#define ELV_HASH_BITS	6
#endif

struct CS_ABI_TAG(elevator_queue) {
	struct elevator_type *type;
#ifdef CS_ELV_INIT_TAKES_EQ
	struct elevator_tags *et;
#endif
	void *elevator_data;
	struct kobject kobj;
	struct mutex sysfs_lock;	/* the core's, for iosched/ attributes */
#ifdef CS_ELV_QUEUE_REGISTERED_BIT
	unsigned int registered:1;
#else
	unsigned long flags;
#endif
	DECLARE_HASHTABLE(hash, ELV_HASH_BITS);
};

#endif /* CTXSCHED_COMPAT_ELEVATOR_TYPES_H */
