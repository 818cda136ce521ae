/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ctxsched scheduling policy: pure functions over ctxsched's own state, with
 * the time passed in (nanoseconds).  Nothing here touches a request queue,
 * so KUnit (kunit/) drives it with a fake clock and no device.
 */
#ifndef CTXSCHED_POLICY_H
#define CTXSCHED_POLICY_H

#include <linux/types.h>

/* Service classes, served strictly in this order. */
enum cs_prio_class {
	CS_CLASS_RT,
	CS_CLASS_BE,
	CS_CLASS_IDLE,
	CS_NR_CLASSES,
};

/* Priority levels within RT and BE, 0 (highest) to 7 (lowest). */
#define CS_NR_LEVELS	8
#define CS_DEFAULT_LEVEL 4

/**
 * struct cs_ttime - think time of an I/O context: how long it takes, once a
 *	request of it completes, to issue the next one
 * @mean: decaying mean, ns
 * @samples: samples folded in so far (saturates)
 */
struct cs_ttime {
	u64 mean;
	u32 samples;
};

/**
 * struct cs_seek - recent head movement of a queue
 * @history: one bit per recent request, set when it was a seek
 * @nr: requests recorded so far (saturates at 32)
 */
struct cs_seek {
	u32 history;
	u32 nr;
};

/*
 * A slice lasts at least this many seeks: an eleventh of the time seeking
 * (seven, an eighth, left S1 sata at 0.84 / 0.82 of one reader with 2 / 4
 * readers; ten gave 0.87 / 0.84 in the boot beside it).
 */
#define CS_SLICE_PER_SEEK	10

/* Seek threshold, in 512-byte sectors. */
#define CS_SEEK_FAR_ROT		800	/* 400 KiB away: the head moves */

/* Why a queue may keep the disk while it has nothing queued. */
enum cs_idle {
	CS_IDLE_NONE,
	CS_IDLE_QUEUE,	/* wait slice_idle for this context's next request */
	CS_IDLE_GROUP,	/* wait group_idle before leaving the sync class */
};

/**
 * struct cs_idle_input - what the idle decision looks at
 * @sync: the queue is sync
 * @idle_pays: the device model is in SERIAL mode: serving another queue
 *	between two requests of a stream costs the disk a seek
 * @keep_share: a queue of another weight (class or level) waits and the
 *	disk serves one request at a time, so that serving it in between
 *	would shift the shares the slices set
 * @ctx_alive: the I/O context still has tasks that can issue I/O
 * @seeky: the queue's recent requests were mostly seeks
 * @ttime_valid: enough think-time samples to trust @ttime_mean
 * @ttime_mean: decaying mean think time, ns
 * @merged: the queue serves several cooperating contexts, so its next
 *	request may come from another thread that has to be woken first
 * @boosted: the queue is boosted as a program starting (cs_boost_starts())
 *	and may lead, which it does only where distance costs time: it is
 *	idled for, seeky or not, in either mode, for twice slice_idle
 * @slice_idle: per-queue idle time, ns (0 disables per-queue idling)
 * @group_idle: group idle time, ns (0 disables it)
 * @last_sync_in_class: no other sync queue of the class has requests
 * @last_seeky_in_class: no other seeky sync queue of the class waits for
 *	the disk
 */
struct cs_idle_input {
	bool sync;
	bool idle_pays;
	bool keep_share;
	bool ctx_alive;
	bool seeky;
	bool ttime_valid;
	u64 ttime_mean;
	bool merged;
	bool boosted;
	u64 slice_idle;
	u64 group_idle;
	bool last_sync_in_class;
	bool last_seeky_in_class;
};

/**
 * struct cs_preempt_input - a queue that just got a request, and the
 *	queue that owns the disk
 * @new_class: class of the queue with the new request
 * @new_sync: that queue is sync
 * @new_meta: the new request is file system metadata or marked REQ_PRIO
 * @new_boosted: the queue with the new request is boosted and boosts may
 *	lead now (cs_boost_leads())
 * @active_class: class of the active queue
 * @active_sync: the active queue is sync
 * @active_meta: the active queue has such requests queued itself
 * @active_boosted: the active queue is boosted
 * @sync_waits: other sync queues of the new queue's class wait for the
 *	disk
 * @new_returns: the new queue used up its slice just before the active
 *	one's turn
 * @active_dispatched: requests the active queue dispatched in this turn
 * @async_min: requests an async turn gets before a returning sync queue
 *	may preempt it (slice_async_rq)
 */
struct cs_preempt_input {
	enum cs_prio_class new_class;
	bool new_sync;
	bool new_meta;
	bool new_boosted;
	enum cs_prio_class active_class;
	bool active_sync;
	bool active_meta;
	bool active_boosted;
	bool sync_waits;
	bool new_returns;
	unsigned int active_dispatched;
	unsigned int async_min;
};

/*
 * A sync queue that is new, or comes back after CS_BOOST_GAP without
 * requests, is boosted (a program starting, a command, a scan) until it
 * has taken the boost tunable of the disk's time or CS_BOOST_TIME has
 * passed; while it reads like a stream it does not lead.  Boosted queues
 * lead only while their lead over waiting queues stays under
 * CS_BOOST_LEAD (cs_boost_leads()); the waiting queues' time pays the lead
 * back at CS_BOOST_PAYBACK times itself (cs_boost_lead_add()).
 */
#define CS_BOOST_GAP		(1000 * NSEC_PER_MSEC)
#define CS_BOOST_TIME		(30000 * NSEC_PER_MSEC)
#define CS_BOOST_LEAD		(500 * NSEC_PER_MSEC)
#define CS_BOOST_PAYBACK	2

/* Time from @t to @now, 0 if @now is earlier (clocks of other CPUs). */
static inline u64 cs_since(u64 now, u64 t)
{
	return now > t ? now - t : 0;
}

u64 cs_slice_len(u64 base, unsigned int level);
u64 cs_scaled_slice(u64 slice, u64 slice_sync, unsigned int nr_busy,
		    u64 target_latency, u64 floor);
u64 cs_slice_floor(u64 slice_idle, u64 seek_ns);
u64 cs_slice_base(u64 slice_sync, u64 switch_ns);
u64 cs_switch_avg(u64 avg, u64 sample, u64 slice_sync);
bool cs_slice_expired(u64 slice_end, u64 now);
unsigned int cs_async_slice_rq(unsigned int slice_async_rq,
			       unsigned int level);

void cs_ttime_add(struct cs_ttime *tt, u64 think, u64 slice_idle);
bool cs_ttime_valid(const struct cs_ttime *tt);

void cs_seek_add(struct cs_seek *sk, u64 distance);
bool cs_seeky(const struct cs_seek *sk);

u64 cs_idle_window(enum cs_idle kind, bool merged, u64 slice_idle,
		   u64 group_idle);
enum cs_idle cs_idle_decision(const struct cs_idle_input *in);
u64 cs_idle_credit(bool merged, u64 slice_end, u64 now, u64 slice);
bool cs_should_preempt(const struct cs_preempt_input *in);

bool cs_boost_starts(bool low_latency, u64 budget, bool first, bool stream,
		     u64 last_done, u64 now);
bool cs_boost_ends(u64 served, u64 budget, u64 boost_until, u64 now);
u64 cs_boost_lead_add(u64 lead, bool boosted, bool others_wait, u64 dt);
bool cs_boost_leads(u64 lead, bool leading);
u64 cs_boost_wait_avg(u64 avg, unsigned int n, u64 sample);

bool cs_fifo_expired(u64 deadline, u64 now);
unsigned int cs_async_max_dispatch(unsigned int quantum, bool low_latency,
				   unsigned int sync_in_driver, bool sync_near,
				   u64 since_delayed_sync, u64 slice_sync,
				   unsigned int async_in_driver);
unsigned int cs_async_depth(unsigned int nr_requests, bool whole_bitmap,
			    unsigned int word_bits);
bool cs_idle_class_may_run(u64 last_busy, u64 now, u64 grace);
bool cs_class_waits_rt(bool parallel, bool rt, unsigned int rt_in_driver,
		       u64 rt_quiet, u64 window, unsigned int lower_in_driver,
		       bool oldest_expired);

/* What a request costs a level beyond its sectors (cs_level_cost()). */
#define CS_LEVEL_RQ_SECTORS	256

u64 cs_level_cost(unsigned int sectors, unsigned int level);
bool cs_level_waits(u64 served, u64 served_above, unsigned int in_driver,
		    bool oldest_expired);

#endif /* CTXSCHED_POLICY_H */
