// SPDX-License-Identifier: GPL-2.0
/*
 * ABI guard: compiles ctxsched's copies of the private elevator declarations
 * (compat/elevator-types.h, under cs_abi_* tags) next to the kernel's own
 * block/elevator.h and block/blk-mq.h, and fails the build unless every
 * structure has the same size, every member the same offset and size, and
 * every callback the same type.  Nothing here is ever loaded.
 *
 * Built by compat/abi/check with -I<kernel source>/block; CS_ABI_NO_DEBUGFS
 * checks the layout a kernel without CONFIG_BLK_DEBUG_FS would have.
 */
#include <linux/build_bug.h>
#include <linux/module.h>
#include <linux/stddef.h>

#ifdef CS_ABI_NO_DEBUGFS
#undef CONFIG_BLK_DEBUG_FS
#endif

#include <linux/blk-mq.h>
#include "blk-mq.h"
#include "elevator.h"

#define CS_ABI_TAG(name) cs_abi_##name
#include "../elevator-types.h"

#define CS_SAME_SIZE(type)						\
	static_assert(sizeof(struct cs_abi_##type) == sizeof(struct type), \
		      "size of struct " #type)

#define CS_SAME_MEMBER(type, m)						\
	static_assert(offsetof(struct cs_abi_##type, m) ==		\
		      offsetof(struct type, m), "offset of " #type "." #m); \
	static_assert(sizeof_field(struct cs_abi_##type, m) ==		\
		      sizeof_field(struct type, m), "size of " #type "." #m)

#define CS_SAME_TYPE(type, m)						\
	CS_SAME_MEMBER(type, m);					\
	static_assert(__builtin_types_compatible_p(			\
			typeof(((struct cs_abi_##type *)0)->m),		\
			typeof(((struct type *)0)->m)),			\
		      "type of " #type "." #m)

static_assert(cs_abi_ELEVATOR_NO_MERGE == ELEVATOR_NO_MERGE, "elv_merge");
static_assert(cs_abi_ELEVATOR_FRONT_MERGE == ELEVATOR_FRONT_MERGE, "elv_merge");
static_assert(cs_abi_ELEVATOR_BACK_MERGE == ELEVATOR_BACK_MERGE, "elv_merge");
static_assert(cs_abi_ELEVATOR_DISCARD_MERGE == ELEVATOR_DISCARD_MERGE,
	      "elv_merge");

#ifndef CS_ELV_INSERT_BOOL
static_assert((__force unsigned int)CS_INSERT_AT_HEAD ==
	      (__force unsigned int)BLK_MQ_INSERT_AT_HEAD, "insert at head");
static_assert(sizeof(cs_blk_insert_t) == sizeof(blk_insert_t), "blk_insert_t");
#endif

CS_SAME_SIZE(blk_mq_alloc_data);
CS_SAME_TYPE(blk_mq_alloc_data, q);
CS_SAME_TYPE(blk_mq_alloc_data, flags);
CS_SAME_TYPE(blk_mq_alloc_data, shallow_depth);
CS_SAME_TYPE(blk_mq_alloc_data, cmd_flags);
CS_SAME_TYPE(blk_mq_alloc_data, rq_flags);
CS_SAME_TYPE(blk_mq_alloc_data, nr_tags);
#ifdef CS_ABI_RQ_LIST
static_assert(offsetof(struct cs_abi_blk_mq_alloc_data, cached_rqs) ==
	      offsetof(struct blk_mq_alloc_data, cached_rqs), "cached_rqs");
#else
static_assert(offsetof(struct cs_abi_blk_mq_alloc_data, cached_rqs) ==
	      offsetof(struct blk_mq_alloc_data, cached_rq), "cached_rq");
#endif
CS_SAME_TYPE(blk_mq_alloc_data, ctx);
CS_SAME_TYPE(blk_mq_alloc_data, hctx);

CS_SAME_SIZE(elevator_mq_ops);
CS_SAME_TYPE(elevator_mq_ops, init_sched);
CS_SAME_TYPE(elevator_mq_ops, exit_sched);
CS_SAME_TYPE(elevator_mq_ops, init_hctx);
CS_SAME_TYPE(elevator_mq_ops, exit_hctx);
CS_SAME_TYPE(elevator_mq_ops, depth_updated);
#ifdef CS_ELV_HAS_SCHED_DATA_OPS
CS_SAME_TYPE(elevator_mq_ops, alloc_sched_data);
CS_SAME_TYPE(elevator_mq_ops, free_sched_data);
#endif
CS_SAME_TYPE(elevator_mq_ops, allow_merge);
CS_SAME_TYPE(elevator_mq_ops, bio_merge);
CS_SAME_TYPE(elevator_mq_ops, request_merge);
CS_SAME_TYPE(elevator_mq_ops, request_merged);
CS_SAME_TYPE(elevator_mq_ops, requests_merged);
CS_SAME_TYPE(elevator_mq_ops, limit_depth);
CS_SAME_TYPE(elevator_mq_ops, prepare_request);
CS_SAME_TYPE(elevator_mq_ops, finish_request);
CS_SAME_TYPE(elevator_mq_ops, insert_requests);
CS_SAME_TYPE(elevator_mq_ops, dispatch_request);
CS_SAME_TYPE(elevator_mq_ops, has_work);
CS_SAME_TYPE(elevator_mq_ops, completed_request);
CS_SAME_TYPE(elevator_mq_ops, requeue_request);
CS_SAME_TYPE(elevator_mq_ops, former_request);
CS_SAME_TYPE(elevator_mq_ops, next_request);
CS_SAME_TYPE(elevator_mq_ops, init_icq);
CS_SAME_TYPE(elevator_mq_ops, exit_icq);

CS_SAME_SIZE(elv_fs_entry);
CS_SAME_TYPE(elv_fs_entry, attr);
CS_SAME_TYPE(elv_fs_entry, show);
CS_SAME_TYPE(elv_fs_entry, store);

CS_SAME_SIZE(elevator_type);
CS_SAME_TYPE(elevator_type, icq_cache);
CS_SAME_MEMBER(elevator_type, ops);
CS_SAME_TYPE(elevator_type, icq_size);
CS_SAME_TYPE(elevator_type, icq_align);
/* const in later kernels; ctxsched's array converts to either. */
CS_SAME_MEMBER(elevator_type, elevator_attrs);
CS_SAME_TYPE(elevator_type, elevator_name);
CS_SAME_TYPE(elevator_type, elevator_alias);
#ifdef CS_ELV_HAS_FEATURES
CS_SAME_TYPE(elevator_type, elevator_features);
#endif
CS_SAME_TYPE(elevator_type, elevator_owner);
#ifdef CONFIG_BLK_DEBUG_FS
CS_SAME_TYPE(elevator_type, queue_debugfs_attrs);
CS_SAME_TYPE(elevator_type, hctx_debugfs_attrs);
#endif
CS_SAME_TYPE(elevator_type, icq_cache_name);
CS_SAME_TYPE(elevator_type, list);

CS_SAME_SIZE(elevator_queue);
CS_SAME_TYPE(elevator_queue, type);
#ifdef CS_ELV_INIT_TAKES_EQ
CS_SAME_TYPE(elevator_queue, et);
#endif
CS_SAME_TYPE(elevator_queue, elevator_data);
CS_SAME_TYPE(elevator_queue, kobj);
CS_SAME_TYPE(elevator_queue, sysfs_lock);
#ifndef CS_ELV_QUEUE_REGISTERED_BIT
CS_SAME_TYPE(elevator_queue, flags);
#endif
CS_SAME_TYPE(elevator_queue, hash);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ctxsched ABI guard (compile-time checks only)");
