/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where ctxsched's readahead accounting hooks into mm/readahead.c.
 *
 * Every supported kernel (6.1 to 7.3) has page_cache_sync_ra(ractl,
 * req_count), page_cache_async_ra(ractl, folio, req_count),
 * force_page_cache_ra(ractl, nr_to_read) and page_cache_ra_order(ractl, ra,
 * ...), with the readahead_control first.  Kernels from 7.x also have
 * readahead tracepoints, but they fire on entry, before the kernel has
 * chosen the window, and are not exported to modules; a kretprobe sees the
 * window before and after the call on every kernel, so ctxsched uses
 * kretprobes everywhere.  Without CONFIG_KRETPROBES the accounting is left
 * out and the readahead files say so.
 */
#ifndef CTXSCHED_COMPAT_RA_H
#define CTXSCHED_COMPAT_RA_H

#include <linux/kprobes.h>
#include <linux/ptrace.h>

#if defined(CONFIG_KRETPROBES) && defined(CONFIG_HAVE_FUNCTION_ARG_ACCESS_API)
#define CS_RA_HOOKS	1

/* Arguments of the hooked functions, by position (0 is the first). */
#define CS_RA_ARG_RACTL		0
#define CS_RA_ARG_SYNC_REQ	1
#define CS_RA_ARG_ASYNC_REQ	2
#define CS_RA_ARG_FORCE_REQ	1

static inline unsigned long cs_ra_arg(struct pt_regs *regs, unsigned int n)
{
	return regs_get_kernel_argument(regs, n);
}

/* The address the probed function returns to, from its return handler. */
static inline unsigned long cs_ra_caller(struct kretprobe_instance *ri)
{
	return get_kretprobe_retaddr(ri);
}
#else
#define CS_RA_HOOKS	0
#endif

#endif /* CTXSCHED_COMPAT_RA_H */
