// SPDX-License-Identifier: GPL-2.0
/*
 * Readahead policy: pattern classification and window autotuning.
 *
 * The kernel's readahead code (mm/readahead.c) does not say which branch it
 * took.  ctxsched sees the file's window before and after each call and
 * tells the branches apart from that, the same way on 6.1's
 * ondemand_readahead() and on the page_cache_sync_ra() of later kernels:
 * only the branches that read exactly what was asked leave the window as it
 * was.
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/time64.h>

#include "policy.h"

static const char * const cs_ra_names[CS_RA_NR_PATTERNS] = {
	[CS_RA_INITIAL] = "initial",
	[CS_RA_SEQUENTIAL] = "sequential",
	[CS_RA_ASYNC] = "async",
	[CS_RA_CONTEXT] = "context",
	[CS_RA_RANDOM] = "random",
	[CS_RA_OVERSIZE] = "oversize",
	[CS_RA_FORCED] = "forced",
	[CS_RA_MMAP] = "mmap",
};

/**
 * cs_ra_pattern_name() - name of a readahead pattern
 * @p: the pattern
 *
 * Return: its name in readahead/stats and in the trace event.
 */
const char *cs_ra_pattern_name(enum cs_ra_pattern p)
{
	return p < CS_RA_NR_PATTERNS ? cs_ra_names[p] : "?";
}

static bool cs_ra_window_moved(const struct cs_ra_call *c)
{
	return c->before.start != c->after.start ||
	       c->before.size != c->after.size ||
	       c->before.async_size != c->after.async_size;
}

/**
 * cs_ra_classify() - the pattern of one readahead call
 * @c: the call
 *
 * Return: the pattern it counts under in readahead/stats.
 */
enum cs_ra_pattern cs_ra_classify(const struct cs_ra_call *c)
{
	const struct cs_ra_window *b = &c->before;

	if (c->entry == CS_RA_E_FORCE)
		return CS_RA_FORCED;
	if (c->fault || c->entry == CS_RA_E_AROUND)
		return CS_RA_MMAP;
	if (c->entry == CS_RA_E_ASYNC) {
		/*
		 * A stream hits the mark inside its own window; a mark set by
		 * another stream on the same file lies outside it.
		 */
		if (c->index >= b->start && c->index <= b->start + b->size)
			return CS_RA_ASYNC;
		return CS_RA_CONTEXT;
	}
	if (c->forced_mode)
		return CS_RA_FORCED;
	if (!c->index)
		return CS_RA_INITIAL;
	if (c->req > c->ra_pages)
		return CS_RA_OVERSIZE;
	/* Only a standalone random read is read as asked, window untouched. */
	if (!cs_ra_window_moved(c))
		return CS_RA_RANDOM;
	if (c->index - c->prev_index <= 1UL ||
	    c->index == b->start + b->size - b->async_size ||
	    c->index == b->start + b->size)
		return CS_RA_SEQUENTIAL;
	return CS_RA_CONTEXT;
}

/**
 * cs_ra_hits_eof() - whether a readahead call reached the end of the file
 * @c: the call
 *
 * Return: true if the window it set up, or the pages it read when it left
 * the window alone, reach the file's last page.
 */
bool cs_ra_hits_eof(const struct cs_ra_call *c)
{
	unsigned long end;

	if (!c->eof_pages)
		return false;
	if (cs_ra_window_moved(c))
		end = c->after.start + c->after.size;
	else
		end = c->index + c->req;
	return end >= c->eof_pages;
}

/**
 * cs_ra_read_size() - how much a readahead call set out to read
 * @c: the call
 * @size: pages: the new window, or what was asked for when the call left
 *	the window alone (random, forced, read-around)
 * @async_size: pages of @size read ahead of need (0 without a new window)
 */
void cs_ra_read_size(const struct cs_ra_call *c, unsigned long *size,
		     unsigned long *async_size)
{
	if (cs_ra_window_moved(c)) {
		*size = c->after.size;
		*async_size = c->after.async_size;
	} else {
		*size = c->req;
		*async_size = c->entry == CS_RA_E_AROUND ? c->after.async_size : 0;
	}
}

/**
 * cs_ra_tune() - the next readahead window of a device
 * @cur: its window now, pages
 * @e: what the epoch that just ended saw
 * @min: smallest window allowed (ra_min_kb), pages
 * @max: largest window allowed (ra_max_kb), pages
 *
 * Streams get a window that holds CS_RA_HORIZON_MS of the rate readahead
 * delivered: on a disk shared by streams every switch costs a seek, and a
 * window of 100 ms keeps seeks of 5-15 ms to a small share.  A reader that
 * catches up with its readahead (sync misses on a sequential file) asks for
 * twice the window.  Mostly random or mmap readahead halves the window, as
 * large windows only read pages nobody asked for.  Growth goes straight to
 * the target, shrinking halves at most once per epoch so that a short
 * random burst does not undo a stream's window.
 *
 * Return: the new window, pages, within @min..@max.
 */
unsigned int cs_ra_tune(unsigned int cur, const struct cs_ra_epoch *e,
			unsigned int min, unsigned int max)
{
	const unsigned int *n = e->calls;
	unsigned int stream, rnd;
	u64 target;

	cur = clamp(cur, min, max);
	stream = n[CS_RA_INITIAL] + n[CS_RA_SEQUENTIAL] + n[CS_RA_ASYNC] +
		 n[CS_RA_CONTEXT] + n[CS_RA_OVERSIZE];
	rnd = n[CS_RA_RANDOM] + n[CS_RA_MMAP];
	if (stream + rnd < CS_RA_TUNE_MIN_CALLS || !e->ns)
		return cur;
	if (rnd > stream)
		return max(cur / 2, min);

	target = div64_u64(e->stream_pages * CS_RA_HORIZON_MS * NSEC_PER_MSEC,
			   e->ns);
	if (n[CS_RA_SEQUENTIAL] * 4 > stream)
		target = max_t(u64, target, (u64)cur * 2);
	if (target > cur)
		return min_t(u64, target, max);
	if (target * 4 < cur)
		return max(cur / 2, min);
	return cur;
}
