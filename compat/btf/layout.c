// SPDX-License-Identifier: GPL-2.0
/*
 * ctxsched's declarations of the block layer's private structures, compiled
 * with debug information for compat/btf/check, which compares their layout
 * with the BTF of the kernel the module is built for.  Never linked into a
 * module: the object only carries the types.
 */
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/compiler.h>

#include "../elevator.h"

/* One object of each type keeps its complete definition in the DWARF. */
static struct {
	struct elevator_type type;
	struct elevator_queue queue;
	struct elevator_mq_ops ops;
	struct elv_fs_entry fs_entry;
	struct blk_mq_alloc_data alloc_data;
	enum elv_merge merge;
} cs_btf_layout __used;

/* "ctxsched-elevator-variant=G": the variant chosen, for check's messages. */
static const struct {
	char tag[26] __nonstring;
	char variant;
} cs_btf_variant __used = { "ctxsched-elevator-variant=", CS_ELV_VARIANT };
