/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cooperating contexts: when to serve several I/O contexts as one queue,
 * when to split them again, how contexts group into process queues, and
 * the request-size cap.  Pure functions, driven by KUnit.
 */
#ifndef CTXSCHED_COOP_H
#define CTXSCHED_COOP_H

#include <linux/bitops.h>
#include <linux/types.h>

#include "policy.h"

/*
 * Two queues serve one stream when a request of one starts within this
 * many sectors of where the other's last request ended: the distance that
 * counts as a seek (CS_SEEK_FAR_ROT, 400 KiB).  Serving them as one queue
 * then costs the disk no seek, while streams farther apart are better off
 * with their own slices.
 */
#define CS_COOP_CLOSE	CS_SEEK_FAR_ROT

/*
 * How far behind where a stream's last request ended a request may start
 * and still belong to it (cs_stream_gap()): a pool's threads race to
 * submit the chunks they took in turn, so a stream's requests arrive up to
 * a pool's width of chunks out of order (S8 in the VM, 16 threads, 256 KiB
 * chunks: 0.5-2.3 MiB behind).
 */
#define CS_STREAM_BEHIND	(8 << 10)	/* sectors: 4 MiB */

/*
 * Requests a queue must have seen before it may join another: one request
 * near a stream is chance, a second one after it is a stream.
 */
#define CS_COOP_HISTORY	2

/**
 * struct cs_coop_input - a queue that just got a request, and the active
 *	queue it might join
 * @active_sync: the active queue is sync
 * @new_sync: the other queue is sync
 * @active_class: class of the active queue
 * @new_class: class of the other queue
 * @active_level: level of the active queue
 * @new_level: level of the other queue
 * @new_history: requests the other queue has seen (its seek history)
 * @active_seeky: the active queue's recent requests were mostly seeks
 * @new_seeky: the other queue's recent requests were mostly seeks
 * @distance: sectors from where the active queue's last request ended (the
 *	nearer of its last dispatched and last queued request) to the new one
 */
struct cs_coop_input {
	bool active_sync;
	bool new_sync;
	enum cs_prio_class active_class;
	enum cs_prio_class new_class;
	unsigned int active_level;
	unsigned int new_level;
	unsigned int new_history;
	bool active_seeky;
	bool new_seeky;
	u64 distance;
};

/* How sync requests are grouped into queues (the group_by tunable). */
enum cs_group_by {
	CS_GROUP_THREAD,	/* one queue per I/O context, as CFQ */
	CS_GROUP_PROCESS,	/* one queue per process (thread group) */
};

/*
 * Where queued requests begin and end, for bio merges without the lock: a
 * bio can merge only where it starts at a request's end or ends at a
 * request's start.  One slot per hash of the sector, so an entry may be
 * overwritten (a merge then found no candidate and the bio becomes a
 * request of its own, which insertion may still merge) or stale (the lock
 * is taken for nothing).  A stream's entry outlives n other notes with
 * probability (1 - 1/1024)^n: 92% at 90, two notes each for 45 random
 * requests inserted between two of its bios.
 */
#define CS_MERGE_HINT_BITS	10
#define CS_MERGE_HINTS		BIT(CS_MERGE_HINT_BITS)

/**
 * struct cs_merge_hint - sectors where queued requests begin or end
 * @at: by a hash of the sector; written under the owner's lock
 *	(WRITE_ONCE), read without it (READ_ONCE): a stale or overwritten
 *	entry only costs a merge attempt or misses one
 */
struct cs_merge_hint {
	sector_t at[CS_MERGE_HINTS];
};

void cs_merge_hint_note(struct cs_merge_hint *h, sector_t start,
			sector_t end);
bool cs_merge_hint_may(const struct cs_merge_hint *h, sector_t start,
		       sector_t end);

bool cs_coop_close(sector_t ref, sector_t pos);
u64 cs_stream_gap(sector_t end, sector_t pos);
bool cs_should_merge(const struct cs_coop_input *in);
bool cs_coop_ends_boost(bool sibling, u64 distance);
bool cs_should_split(bool merged, unsigned int nr_members, bool seeky);
unsigned long cs_group_key(enum cs_group_by by, pid_t tgid,
			   unsigned long ctx_id);
pid_t cs_pool_key(bool kthread, pid_t tgid, const char *comm, size_t len);
bool cs_cap_allows(unsigned int cap_kb, u64 cur_bytes, u64 add_bytes);

#endif /* CTXSCHED_COOP_H */
