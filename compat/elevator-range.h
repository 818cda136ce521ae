/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel ranges whose private elevator ABI ctxsched has been checked
 * against, and what differs between them.  A kernel outside these ranges
 * stops the build here instead of running with a guessed layout.
 *
 * Variant  Kernels              Change from the previous variant
 * A        6.1.y                (baseline)
 * B        6.2 - 6.3            elevator_queue.flags replaces .registered:1
 *                               (same offsets on 64-bit)
 * C        6.4 - 6.9            ->insert_requests() takes blk_insert_t
 * D        6.10 - 6.16.3        elevator_type.elevator_features removed
 * E        6.16.4 - 6.17.2      ->init_sched(q, eq): the core allocates the
 *                               elevator_queue, which gains ->et
 * F        6.17.3 - 6.18.2      ->depth_updated(q) instead of (hctx)
 * G        6.18.3 - 7.3.y       ->alloc_sched_data/->free_sched_data added
 *                               after ->depth_updated
 *
 * How each was checked is in compat/README.rst; the ABI guard compiles the
 * declarations against the real headers of every source tree it is given.
 */
#ifndef CTXSCHED_COMPAT_ELEVATOR_RANGE_H
#define CTXSCHED_COMPAT_ELEVATOR_RANGE_H

#include <linux/version.h>

#define CS_KVER	KERNEL_VERSION(LINUX_VERSION_MAJOR, LINUX_VERSION_PATCHLEVEL, \
			       LINUX_VERSION_SUBLEVEL)
#define CS_KERNEL_AT_LEAST(major, minor, sub) \
	(KERNEL_VERSION(major, minor, sub) <= CS_KVER)

#if !CS_KERNEL_AT_LEAST(6, 1, 0)
#error "ctxsched: kernels older than 6.1 are not supported"
#elif CS_KERNEL_AT_LEAST(7, 4, 0)
#error "ctxsched: Linux 7.4 or newer: elevator ABI not checked (newest checked: 7.3.y)"
#endif

#if !CS_KERNEL_AT_LEAST(6, 2, 0)
#define CS_ELV_VARIANT 'A'
#elif !CS_KERNEL_AT_LEAST(6, 4, 0)
#define CS_ELV_VARIANT 'B'
#elif !CS_KERNEL_AT_LEAST(6, 10, 0)
#define CS_ELV_VARIANT 'C'
#elif !CS_KERNEL_AT_LEAST(6, 16, 4)
#define CS_ELV_VARIANT 'D'
#elif !CS_KERNEL_AT_LEAST(6, 17, 3)
#define CS_ELV_VARIANT 'E'
#elif !CS_KERNEL_AT_LEAST(6, 18, 3)
#define CS_ELV_VARIANT 'F'
#else
#define CS_ELV_VARIANT 'G'
#endif

/* elevator_queue has "unsigned int registered:1" instead of flags. */
#if CS_ELV_VARIANT == 'A'
#define CS_ELV_QUEUE_REGISTERED_BIT
#endif

/* ->insert_requests() takes "bool at_head". */
#if CS_ELV_VARIANT <= 'B'
#define CS_ELV_INSERT_BOOL
#endif

/* elevator_type has elevator_features (zoned write locking). */
#if CS_ELV_VARIANT <= 'C'
#define CS_ELV_HAS_FEATURES
#endif

/* The core allocates the elevator_queue and passes it to ->init_sched(). */
#if CS_ELV_VARIANT >= 'E'
#define CS_ELV_INIT_TAKES_EQ
#endif

/* ->depth_updated() takes the request_queue and runs once per queue. */
#if CS_ELV_VARIANT >= 'F'
#define CS_ELV_DEPTH_UPDATED_Q
#endif

/* elevator_mq_ops has ->alloc_sched_data() and ->free_sched_data(). */
#if CS_ELV_VARIANT >= 'G'
#define CS_ELV_HAS_SCHED_DATA_OPS
#endif

/*
 * request_queue.async_depth (7.0): the core keeps the async limit, exposes
 * it as queue/async_depth and expects the scheduler to apply it.
 */
#if CS_KERNEL_AT_LEAST(7, 0, 0)
#define CS_Q_HAS_ASYNC_DEPTH
#endif

#endif /* CTXSCHED_COMPAT_ELEVATOR_RANGE_H */
