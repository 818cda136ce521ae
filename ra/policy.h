/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Readahead policy of ctxsched: which pattern a readahead call was, and how
 * ra_autotune moves a device's window.  Pure functions of their arguments,
 * free of kprobes and block-layer calls, so that KUnit can test them.
 */
#ifndef CTXSCHED_RA_POLICY_H
#define CTXSCHED_RA_POLICY_H

#include <linux/types.h>

/* Patterns shown in readahead/stats, in this order. */
enum cs_ra_pattern {
	CS_RA_INITIAL,		/* start of file */
	CS_RA_SEQUENTIAL,	/* sync readahead on a contiguous read */
	CS_RA_ASYNC,		/* a readahead mark was hit where expected */
	CS_RA_CONTEXT,		/* interleaved or history-based */
	CS_RA_RANDOM,		/* standalone small read */
	CS_RA_OVERSIZE,		/* read larger than the window */
	CS_RA_FORCED,		/* FMODE_RANDOM, fadvise, readahead(2) */
	CS_RA_MMAP,		/* from a page fault */
	CS_RA_NR_PATTERNS,
};

/* The kernel function a readahead call went through. */
enum cs_ra_entry {
	CS_RA_E_SYNC,		/* page_cache_sync_ra() */
	CS_RA_E_ASYNC,		/* page_cache_async_ra() */
	CS_RA_E_FORCE,		/* force_page_cache_ra(), not via sync_ra */
	CS_RA_E_AROUND,		/* page_cache_ra_order() from a fault */
};

/**
 * struct cs_ra_window - a file's readahead state (struct file_ra_state)
 * @start: first page of the window
 * @size: pages in the window
 * @async_size: pages left when the next asynchronous readahead starts
 */
struct cs_ra_window {
	unsigned long start;
	unsigned int size;
	unsigned int async_size;
};

/**
 * struct cs_ra_call - what is known of one readahead call
 * @entry: the function it went through
 * @fault: it was made by the page-fault path (mmap)
 * @forced_mode: the file is FMODE_RANDOM or its readahead is off, so the
 *	kernel reads only what was asked
 * @index: first page asked for
 * @req: pages asked for
 * @ra_pages: the file's window limit at the call
 * @prev_index: page of the file's previous read position
 * @eof_pages: file size in pages
 * @before: the file's window before the call
 * @after: the file's window after it
 */
struct cs_ra_call {
	enum cs_ra_entry entry;
	bool fault;
	bool forced_mode;
	unsigned long index;
	unsigned long req;
	unsigned int ra_pages;
	unsigned long prev_index;
	unsigned long eof_pages;
	struct cs_ra_window before;
	struct cs_ra_window after;
};

enum cs_ra_pattern cs_ra_classify(const struct cs_ra_call *c);
bool cs_ra_hits_eof(const struct cs_ra_call *c);
void cs_ra_read_size(const struct cs_ra_call *c, unsigned long *size,
		     unsigned long *async_size);
const char *cs_ra_pattern_name(enum cs_ra_pattern p);

/**
 * struct cs_ra_epoch - readahead seen on one device during a tuning epoch
 * @calls: readahead calls per pattern
 * @stream_pages: pages read by calls of streaming patterns
 * @ns: length of the epoch
 */
struct cs_ra_epoch {
	unsigned int calls[CS_RA_NR_PATTERNS];
	u64 stream_pages;
	u64 ns;
};

/* Fewer calls than this in an epoch say too little to act on. */
#define CS_RA_TUNE_MIN_CALLS	8
/* A window should hold this much of the device's streaming rate. */
#define CS_RA_HORIZON_MS	100

unsigned int cs_ra_tune(unsigned int cur, const struct cs_ra_epoch *e,
			unsigned int min, unsigned int max);

#endif /* CTXSCHED_RA_POLICY_H */
