// SPDX-License-Identifier: GPL-2.0
/*
 * Cooperating contexts.  A file server, an iSCSI target or a database often
 * reads one sequential stream with a pool of threads, each thread its own
 * I/O context.  Scheduled per context, every thread's queue gets a slice
 * for a single request and then idles in vain for its next one, while the
 * next request of the stream waits in another queue.  ctxsched therefore
 * merges a queue into the active one when its request continues the active
 * queue's stream, and splits the merged queue again when its requests turn
 * into seeks (the contexts no longer read one stream).
 */
#include <linux/kernel.h>

#include "coop.h"

/**
 * cs_coop_close() - whether a request continues a stream
 * @ref: sector where the stream's last request ended
 * @pos: first sector of the new request
 *
 * Return: true when @pos lies within CS_COOP_CLOSE sectors of @ref, on
 * either side.
 */
bool cs_coop_close(sector_t ref, sector_t pos)
{
	return (pos >= ref ? pos - ref : ref - pos) <= CS_COOP_CLOSE;
}

/**
 * cs_stream_gap() - how far a request lies from a stream it may belong to
 * @end: sector where the stream's last request ended
 * @pos: first sector of the new request
 *
 * A stream read by a pool's threads goes on at @end, but its requests
 * arrive out of order by as much as the threads race: up to
 * CS_STREAM_BEHIND sectors behind @end, and CS_COOP_CLOSE ahead of it.
 *
 * Return: the distance in sectors, or U64_MAX when @pos is not part of the
 * stream.
 */
u64 cs_stream_gap(sector_t end, sector_t pos)
{
	if (pos >= end)
		return pos - end <= CS_COOP_CLOSE ? pos - end : U64_MAX;
	return end - pos <= CS_STREAM_BEHIND ? end - pos : U64_MAX;
}

/**
 * cs_should_merge() - whether a queue joins the active queue
 * @in: the two queues and the distance between their requests
 *
 * Only sync queues of the same class and level merge, only when neither is
 * seeky, and only once the joining queue has a history (CS_COOP_HISTORY
 * requests): async queues are shared already, a seeky queue has no stream
 * to continue, merging across priorities would let one context ride on
 * another's share, and a context's first request landing near a stream is
 * no sign that it reads that stream.
 *
 * Return: true to merge.
 */
bool cs_should_merge(const struct cs_coop_input *in)
{
	if (!in->active_sync || !in->new_sync)
		return false;
	if (in->active_class != in->new_class ||
	    in->active_level != in->new_level)
		return false;
	if (in->active_seeky || in->new_seeky)
		return false;
	if (in->new_history < CS_COOP_HISTORY)
		return false;
	return in->distance <= CS_COOP_CLOSE;
}

/**
 * cs_coop_ends_boost() - whether a boosted queue's request shows it a
 *	server's thread rather than a program starting
 * @sibling: the request it is compared with is another sync queue's of
 *	the same process (one dispatched lately, or the active queue's last)
 * @distance: sectors from where that request ended to the new one
 *
 * A request within CS_COOP_CLOSE of where another queue of its process
 * last read continues that queue's stream: a thread of a pool taking its
 * turn at a client's stream.  Its boost would put it ahead of the
 * stream's other threads with the disk idled for it (S8 on array12, T=8 S=2: the one
 * thread that kept its boost preempted the others 33 times in 4 s and the
 * pool got 46 MB/s against none's 85).  A program reading its own files
 * lands there only by chance.  Unlike cs_should_merge(), one request is
 * enough, seeky or not: a boost is a bet on a program starting, and this
 * is evidence against it.
 *
 * Return: true to end the boost.
 */
bool cs_coop_ends_boost(bool sibling, u64 distance)
{
	return sibling && distance <= CS_COOP_CLOSE;
}

/**
 * cs_should_split() - whether a queue's contexts go back to queues of
 *	their own
 * @merged: the queue was formed by merging cooperating contexts
 * @nr_members: contexts (or processes) the queue serves
 * @seeky: its recent requests were mostly seeks
 *
 * Return: true when a merged queue of several members has turned seeky.
 */
bool cs_should_split(bool merged, unsigned int nr_members, bool seeky)
{
	return merged && nr_members > 1 && seeky;
}

/**
 * cs_group_key() - the identity a context's sync queue is shared by
 * @by: the group_by tunable
 * @tgid: the context's process
 * @ctx_id: the context's own identity
 *
 * Return: @ctx_id per thread, @tgid per process.
 */
unsigned long cs_group_key(enum cs_group_by by, pid_t tgid,
			   unsigned long ctx_id)
{
	return by == CS_GROUP_PROCESS ? (unsigned long)tgid : ctx_id;
}

/**
 * cs_pool_key() - the pool a context's task serves streams in
 * @kthread: the task is a kernel thread
 * @tgid: the task's process
 * @comm: the task's name
 * @len: bytes of @comm to read at most (it may lack a NUL within them)
 *
 * A user process's threads are its pool.  A kernel server's threads (nfsd,
 * the kworkers that submit for LIO and loop devices) are a process each, so
 * kernel threads of one name are one pool: the name up to a '/' (kworker/0:1,
 * kworker/u8:2) without trailing digits.  Threads of other names (jbd2/sda1-8)
 * are other pools.
 *
 * Return: @tgid for a user task; for a kernel thread a negative key of its
 * name, never a process's and never 0.
 */
pid_t cs_pool_key(bool kthread, pid_t tgid, const char *comm, size_t len)
{
	size_t n = 0, i;
	u32 h = 2166136261u;

	if (!kthread)
		return tgid;
	while (n < len && comm[n] && comm[n] != '/')
		n++;
	while (n && comm[n - 1] >= '0' && comm[n - 1] <= '9')
		n--;
	/* FNV-1a: names differ in any byte. */
	for (i = 0; i < n; i++)
		h = (h ^ (u8)comm[i]) * 16777619u;
	return -(pid_t)((h & 0x3fffffff) | 1);
}

/**
 * cs_cap_allows() - whether a merge keeps a request within the size cap
 * @cap_kb: the max_request_kb tunable; 0 leaves the device limit alone
 * @cur_bytes: size of the request
 * @add_bytes: size of what would be merged into it
 *
 * Return: true when the merged request is at most @cap_kb KiB.
 */
bool cs_cap_allows(unsigned int cap_kb, u64 cur_bytes, u64 add_bytes)
{
	return !cap_kb || cur_bytes + add_bytes <= (u64)cap_kb * 1024;
}

static unsigned int cs_merge_slot(sector_t sector)
{
	/* Fibonacci hashing: neighbouring sectors land far apart. */
	return (unsigned int)(((u64)sector * 0x9e3779b97f4a7c15ULL) >>
			      (64 - CS_MERGE_HINT_BITS));
}

/**
 * cs_merge_hint_note() - a queued request now spans @start to @end
 * @h: the hint
 * @start: its first sector
 * @end: the sector after its last
 */
void cs_merge_hint_note(struct cs_merge_hint *h, sector_t start,
			sector_t end)
{
	WRITE_ONCE(h->at[cs_merge_slot(start)], start);
	WRITE_ONCE(h->at[cs_merge_slot(end)], end);
}

/**
 * cs_merge_hint_may() - whether a bio may find a request to merge with
 * @h: the hint
 * @start: the bio's first sector
 * @end: the sector after its last
 *
 * Return: false when no queued request was noted as ending at @start or
 * starting at @end (a back or a front merge).
 */
bool cs_merge_hint_may(const struct cs_merge_hint *h, sector_t start,
		       sector_t end)
{
	return READ_ONCE(h->at[cs_merge_slot(start)]) == start ||
	       READ_ONCE(h->at[cs_merge_slot(end)]) == end;
}
