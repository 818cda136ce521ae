// SPDX-License-Identifier: GPL-2.0
/*
 * ABI guard: compiles ctxsched's copies of the private elevator declarations
 * (compat/elevator-types.h, under cs_abi_* tags) next to the kernel's own
 * block/elevator.h and block/blk-mq.h, and fails the build unless every
 * structure has the same size, every member the same offset and size, and
 * every callback the same type.  Nothing here is ever loaded.
 *
 * Built by compat/abi/check with -I<kernel source>/block; CS_ABI_NO_DEBUGFS
 * checks the layout a kernel without CONFIG_BLK_DEBUG_FS would have.  The
 * member-by-member assertions come from compat/abi/members.
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

/*
 * The two enums are different types: compare their values as integers, or
 * -Wenum-compare (in -Wall) turns into an error with CONFIG_WERROR=y.
 */
static_assert((int)cs_abi_ELEVATOR_NO_MERGE == (int)ELEVATOR_NO_MERGE,
	      "elv_merge");
static_assert((int)cs_abi_ELEVATOR_FRONT_MERGE == (int)ELEVATOR_FRONT_MERGE,
	      "elv_merge");
static_assert((int)cs_abi_ELEVATOR_BACK_MERGE == (int)ELEVATOR_BACK_MERGE,
	      "elv_merge");
static_assert((int)cs_abi_ELEVATOR_DISCARD_MERGE ==
	      (int)ELEVATOR_DISCARD_MERGE, "elv_merge");
static_assert(sizeof(enum cs_abi_elv_merge) == sizeof(enum elv_merge),
	      "size of enum elv_merge");

#ifndef CS_ELV_INSERT_BOOL
static_assert((__force unsigned int)CS_INSERT_AT_HEAD ==
	      (__force unsigned int)BLK_MQ_INSERT_AT_HEAD, "insert at head");
static_assert(sizeof(cs_blk_insert_t) == sizeof(blk_insert_t), "blk_insert_t");
#endif

/* offset of the request cache, whose type and name changed in 6.12.y */
#ifdef CS_ABI_RQ_LIST
static_assert(offsetof(struct cs_abi_blk_mq_alloc_data, cached_rqs) ==
	      offsetof(struct blk_mq_alloc_data, cached_rqs), "cached_rqs");
#else
static_assert(offsetof(struct cs_abi_blk_mq_alloc_data, cached_rqs) ==
	      offsetof(struct blk_mq_alloc_data, cached_rq), "cached_rq");
#endif

/* Generated from compat/abi/members by compat/abi/check. */
#include "members.h"

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ctxsched ABI guard (compile-time checks only)");
