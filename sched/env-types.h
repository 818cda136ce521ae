/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel types the scheduling core is written against.  The userspace
 * simulator provides the same headers (tools/sim/shim/linux/).
 */
#ifndef CTXSCHED_ENV_TYPES_H
#define CTXSCHED_ENV_TYPES_H

#include <linux/blk-mq.h>
#include <linux/hashtable.h>
#include <linux/ioprio.h>
#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/types.h>

#endif /* CTXSCHED_ENV_TYPES_H */
