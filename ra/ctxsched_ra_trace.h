/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ctxsched:readahead, one event per readahead call, with the fields of the
 * readahead trace in the seed thread: who, which file, what was asked for,
 * the window the kernel set up and what it read.  Off unless enabled in
 * tracefs, as every trace event.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ctxsched

#if !defined(CTXSCHED_RA_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define CTXSCHED_RA_TRACE_H

#include <linux/kdev_t.h>
#include <linux/sched.h>
#include <linux/tracepoint.h>

#include "policy.h"

TRACE_EVENT(readahead,
	    TP_PROTO(dev_t dev, unsigned long ino, const struct cs_ra_call *c,
		     enum cs_ra_pattern pattern, unsigned long actual),
	    TP_ARGS(dev, ino, c, pattern, actual),
	    TP_STRUCT__entry(__field(dev_t, dev)
			     __field(unsigned long, ino)
			     __field(pid_t, pid)
			     __array(char, comm, TASK_COMM_LEN)
			     __field(unsigned long, index)
			     __field(unsigned long, req)
			     __field(unsigned long, ra_start)
			     __field(unsigned int, ra_size)
			     __field(unsigned int, ra_async)
			     __field(bool, async)
			     __field(unsigned long, actual)
			     __field(int, pattern)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->ino = ino;
			   __entry->pid = current->pid;
			   memcpy(__entry->comm, current->comm, TASK_COMM_LEN);
			   __entry->index = c->index;
			   __entry->req = c->req;
			   __entry->ra_start = c->after.start;
			   __entry->ra_size = c->after.size;
			   __entry->ra_async = c->after.async_size;
			   __entry->async = c->entry == CS_RA_E_ASYNC;
			   __entry->actual = actual;
			   __entry->pattern = pattern;),
	    TP_printk("dev %d:%d ino %lu pid %d comm %s req %lu+%lu ra %lu+%u-%u async %d actual %lu pattern %s",
		      MAJOR(__entry->dev), MINOR(__entry->dev), __entry->ino,
		      __entry->pid, __entry->comm, __entry->index, __entry->req,
		      __entry->ra_start, __entry->ra_size, __entry->ra_async,
		      __entry->async, __entry->actual,
		      __print_symbolic(__entry->pattern,
				       { CS_RA_INITIAL, "initial" },
				       { CS_RA_SEQUENTIAL, "sequential" },
				       { CS_RA_ASYNC, "async" },
				       { CS_RA_CONTEXT, "context" },
				       { CS_RA_RANDOM, "random" },
				       { CS_RA_OVERSIZE, "oversize" },
				       { CS_RA_FORCED, "forced" },
				       { CS_RA_MMAP, "mmap" })));

#endif /* CTXSCHED_RA_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ctxsched_ra_trace
#include <trace/define_trace.h>
