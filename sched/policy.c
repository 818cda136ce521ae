// SPDX-License-Identifier: GPL-2.0
/*
 * ctxsched scheduling policy.  Times are nanoseconds; callers pass "now".
 *
 * Slices follow CFQ: a sync queue at level L gets
 *	slice_sync * (9 - L) / 5
 * (180 ms at level 0, 100 ms at level 4, 40 ms at level 7 with the default
 * slice_sync of 100 ms), async queues the same with slice_async.  With
 * low_latency on, slices shrink when so many queues are busy that a full
 * round would take longer than target_latency.
 */
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/time64.h>

#include "policy.h"

static unsigned int cs_clamp_level(unsigned int level)
{
	return min_t(unsigned int, level, CS_NR_LEVELS - 1);
}

/**
 * cs_slice_len() - time slice of a queue
 * @base: slice_sync or slice_async, ns
 * @level: priority level, 0 (highest) to 7
 *
 * Return: @base scaled by level: 9/5 of it at level 0, 2/5 at level 7.
 */
u64 cs_slice_len(u64 base, unsigned int level)
{
	return div_u64(base * (9 - cs_clamp_level(level)), 5);
}

/**
 * cs_scaled_slice() - shorten a slice so a round of busy queues fits in
 *	the target latency
 * @slice: the queue's slice, ns
 * @slice_sync: the sync base slice, ns
 * @nr_busy: queues that want the disk in this round
 * @target_latency: how long a newcomer should wait at most, ns
 * @floor: a slice never shrinks below this (cs_slice_floor()), ns
 *
 * Return: @slice, or @slice * @target_latency / (@slice_sync * @nr_busy)
 * but not less than min(@slice, @floor).
 */
u64 cs_scaled_slice(u64 slice, u64 slice_sync, unsigned int nr_busy,
		    u64 target_latency, u64 floor)
{
	u64 expect, low, scaled;

	if (nr_busy <= 1)
		return slice;
	expect = slice_sync * nr_busy;
	if (expect <= target_latency)
		return slice;
	low = min(slice, floor);
	scaled = mul_u64_u64_div_u64(slice, target_latency, expect);
	return max(scaled, low);
}

/**
 * cs_slice_base() - the sync base slice on a disk where slices own it
 * @slice_sync: the slice_sync tunable, ns
 * @switch_ns: what a slice switch costs there (cs_switch_avg()), ns; 0
 *	while unknown
 *
 * CFQ's 100 ms slice was sized for an 8 ms seek.  Readers far apart on a
 * spindle pay 15-25 ms for each switch (tools/sim -d sata s1 2: 23 ms),
 * which is a fifth of a 100 ms slice: two such readers got 0.78 of one.
 * So the base grows to CS_SLICE_PER_SEEK switches, an eleventh of the time
 * switching, but to twice slice_sync at most: what a newcomer waits for
 * grows with it, and a boosted one does not wait (cs_should_preempt()).
 *
 * Return: the base slice, ns.
 */
u64 cs_slice_base(u64 slice_sync, u64 switch_ns)
{
	u64 want = CS_SLICE_PER_SEEK * switch_ns;

	if (want <= slice_sync)
		return slice_sync;
	return min(want, 2 * slice_sync);
}

/**
 * cs_switch_avg() - fold one slice switch into the switch figure
 * @avg: the figure so far, ns (0: none yet)
 * @sample: how long a slice's first request took, ns
 * @slice_sync: the slice_sync tunable, ns
 *
 * A sample counts at most half a slice: a drain of write-back or a vCPU
 * the host preempted is not a seek.
 *
 * Return: the new figure, ns: an eighth of the way to @sample.
 */
u64 cs_switch_avg(u64 avg, u64 sample, u64 slice_sync)
{
	sample = min(sample, slice_sync / 2);
	if (!avg)
		return sample;
	return avg - (avg >> 3) + (sample >> 3);
}

/**
 * cs_slice_floor() - the shortest slice worth starting
 * @slice_idle: idle time, ns
 * @seek_ns: what a switch between queues costs the disk (the device
 *	model's seek figure), ns; 0 where distance costs nothing
 *
 * Every slice starts with a seek where distance costs time; a slice of at
 * least CS_SLICE_PER_SEEK seeks keeps that under an eleventh of the disk's
 * time.  Two idle windows are the floor anyway, as with CFQ.
 *
 * Return: the floor, ns.
 */
u64 cs_slice_floor(u64 slice_idle, u64 seek_ns)
{
	return max(2 * slice_idle, CS_SLICE_PER_SEEK * seek_ns);
}

/**
 * cs_slice_expired() - whether a started slice is used up
 * @slice_end: end of the slice, ns; 0 if it has not started
 * @now: current time, ns
 *
 * Return: true once @now reaches @slice_end.
 */
bool cs_slice_expired(u64 slice_end, u64 now)
{
	return slice_end && now >= slice_end;
}

/**
 * cs_async_slice_rq() - requests an async queue may dispatch in one slice
 * @slice_async_rq: the slice_async_rq tunable
 * @level: priority level of the queue
 *
 * Return: 2 * @slice_async_rq * (8 - @level), as CFQ allowed.
 */
unsigned int cs_async_slice_rq(unsigned int slice_async_rq, unsigned int level)
{
	return 2 * slice_async_rq * (CS_NR_LEVELS - cs_clamp_level(level));
}

/**
 * cs_ttime_add() - fold one think time into a context's decaying mean
 * @tt: the context's think-time state
 * @think: time from the completion of its last request to this one, ns
 * @slice_idle: the idle time; one long pause counts as twice this at most
 *
 * The first sample sets the mean; after that each sample weighs 1/8 and
 * the past 7/8, so the mean follows a change of behaviour within a few
 * requests.
 */
void cs_ttime_add(struct cs_ttime *tt, u64 think, u64 slice_idle)
{
	if (slice_idle)
		think = min(think, 2 * slice_idle);
	if (!tt->samples)
		tt->mean = think;
	else
		tt->mean = div_u64(7 * tt->mean + think, 8);
	if (tt->samples < 256)
		tt->samples++;
}

/**
 * cs_ttime_valid() - whether a context's think time has enough samples
 * @tt: the context's think-time state
 *
 * Return: true after three samples.
 */
bool cs_ttime_valid(const struct cs_ttime *tt)
{
	return tt->samples >= 3;
}

/**
 * cs_seek_add() - record whether a queue's new request seeks
 * @sk: the queue's seek state
 * @distance: sectors between the end of its previous request and this one
 *
 * A request counts as a seek when it starts more than CS_SEEK_FAR_ROT
 * sectors from where the previous one ended: that is what decides whether
 * a queue reads a stream (worth idling for where distance costs time, and
 * what holds merged contexts together), whatever the device.
 */
void cs_seek_add(struct cs_seek *sk, u64 distance)
{
	sk->history = (sk->history << 1) | (distance > CS_SEEK_FAR_ROT);
	if (sk->nr < 32)
		sk->nr++;
}

/**
 * cs_seeky() - whether a queue's recent requests were mostly seeks
 * @sk: the queue's seek state
 *
 * Return: true when more than 4 of the last 32 requests seeked.
 */
bool cs_seeky(const struct cs_seek *sk)
{
	return hweight32(sk->history) > 32 / 8;
}

/**
 * cs_idle_window() - how long the active queue may keep an idle disk
 * @kind: the kind of idling (CS_IDLE_QUEUE or CS_IDLE_GROUP)
 * @merged: the queue serves several cooperating contexts
 * @slice_idle: per-queue idle time, ns
 * @group_idle: group idle time, ns
 *
 * A merged queue's next request usually comes from another thread than the
 * last one: the thread that was served wakes the next, which then submits.
 * That hand-over takes a wake-up more than a single context's think time,
 * and a busy CPU stretches it, so a merged queue waits twice slice_idle.
 *
 * Return: the idle window, ns (0 for CS_IDLE_NONE).
 */
u64 cs_idle_window(enum cs_idle kind, bool merged, u64 slice_idle,
		   u64 group_idle)
{
	switch (kind) {
	case CS_IDLE_QUEUE:
		return merged ? 2 * slice_idle : slice_idle;
	case CS_IDLE_GROUP:
		return group_idle;
	default:
		return 0;
	}
}

/**
 * cs_idle_decision() - whether the active queue keeps the disk while it
 *	has nothing queued
 * @in: the queue's state and the idle tunables
 *
 * Only sync queues of contexts that can still issue requests idle, and only
 * where it pays: in SERIAL mode, where serving another queue costs a seek,
 * a sequential context whose think time is within its idle window
 * (slice_idle, twice that for a merged queue; see cs_idle_window()) or not
 * known yet waits for its next request; otherwise, if it is the last sync
 * queue of its class with work, the class keeps the disk for group_idle so
 * that async and lower classes do not cut in between its requests.  A
 * seeky queue that thinks within group_idle and is the only seeky one
 * waiting in its class waits for group_idle too, as CFQ's last queue of
 * the sync-noidle tree did: else it would get one request per round of
 * the streams' slices (10 IOPS beside one sequential reader in tools/sim,
 * 5 in the S10 bench on sata), while several seeky queues still take
 * turns without idling.  Where
 * the disk serves one request at a time and a queue of another weight
 * waits (@keep_share), any queue that thinks briefly enough waits too:
 * that is what keeps the slices' shares, and so priorities, on such a
 * disk.  A boosted queue that may lead (a program starting, on a disk
 * where distance costs time) is waited for in either mode, seeky or not,
 * for twice slice_idle: a program reading its libraries seeks and computes
 * between its reads, and served once per round of the streams' slices, or
 * behind their requests in the disk's own queue, it takes minutes to
 * start.
 *
 * Return: the kind of idling to do.
 */
enum cs_idle cs_idle_decision(const struct cs_idle_input *in)
{
	u64 window = cs_idle_window(CS_IDLE_QUEUE, in->merged || in->boosted,
				    in->slice_idle, in->group_idle);
	bool quick = !in->ttime_valid || in->ttime_mean <= window;

	if (!in->sync || !in->ctx_alive)
		return CS_IDLE_NONE;
	if (window && quick && in->boosted)
		return CS_IDLE_QUEUE;
	if (!in->idle_pays && !in->keep_share)
		return CS_IDLE_NONE;
	if (window && quick && (!in->seeky || in->keep_share))
		return CS_IDLE_QUEUE;
	if (!in->idle_pays || !in->group_idle)
		return CS_IDLE_NONE;
	if (in->last_sync_in_class)
		return CS_IDLE_GROUP;
	if (in->seeky && in->last_seeky_in_class &&
	    (!in->ttime_valid || in->ttime_mean <= in->group_idle))
		return CS_IDLE_GROUP;
	return CS_IDLE_NONE;
}

/**
 * cs_idle_credit() - slice time a queue keeps when its idle window expires
 * @merged: the queue serves several cooperating contexts
 * @slice_end: end of its slice, ns
 * @now: when the idle window expired, ns
 * @slice: the length of a slice of the queue, ns; the credit's bound
 *
 * A single context that lets its idle window pass has stopped reading for
 * now, and gives up the rest of its slice as with CFQ.  A merged queue's
 * window mostly passes because one hand-over between its threads was slow
 * while the stream goes on; without a credit, each such hiccup would cost
 * the stream the rest of its slice while a competitor keeps full slices.
 * The credit is added to its next slice, so the stream still gets its
 * time, only later.
 *
 * Return: the unused part of the slice, at most @slice; 0 for a queue that
 * is not merged or whose slice is over.
 */
u64 cs_idle_credit(bool merged, u64 slice_end, u64 now, u64 slice)
{
	if (!merged || !slice_end || now >= slice_end)
		return 0;
	return min(slice_end - now, slice);
}

/**
 * cs_should_preempt() - whether a queue that got a request takes the disk
 *	from the active queue at once
 * @in: the two queues
 *
 * A higher class preempts a lower one (any class preempts IDLE), and within
 * a class a sync queue preempts an async one, and a sync request for file
 * system metadata (REQ_META, REQ_PRIO: directory blocks, inodes) preempts
 * a queue that has none itself: a program waits for those before it can
 * ask for anything else, as CFQ knew.  A sync queue does not preempt an
 * async one while other sync queues of its class wait, though: it would go
 * ahead of them, and a reader that preempts write-back at every request
 * after its own slice ended would keep the disk for good (three of four
 * readers beside a flusher got 0.2 MB/s each in tools/sim).  Nor does a
 * sync queue that used up its slice just before the async one's turn,
 * until that has had slice_async_rq requests of it: a stream that thinks
 * for a moment after its slice would otherwise leave write-back one
 * request per slice (a stream beside a flusher on sata in tools/sim: 4.2 MB/s of
 * writes to 44.7 of reads).
 *
 * A boosted queue preempts a queue of its class that is not, while boosts
 * may lead.  Between sync queues of a class nothing else preempts: the
 * core does not ask for a request that is neither metadata nor boosted.
 *
 * Return: true to preempt.
 */
bool cs_should_preempt(const struct cs_preempt_input *in)
{
	if (in->new_class != in->active_class)
		return in->new_class < in->active_class;
	if (in->new_sync && in->new_boosted && !in->active_boosted)
		return true;
	if (in->new_sync && !in->active_sync)
		return !in->sync_waits && (!in->new_returns ||
					   in->active_dispatched >=
					   in->async_min);
	return in->new_sync && in->new_meta && !in->active_meta;
}

/**
 * cs_boost_starts() - whether a sync queue that gets a request is boosted
 * @low_latency: the low_latency tunable
 * @budget: the boost tunable: disk time a boost lasts, ns (0: no boosts)
 * @first: it is the queue's first request
 * @stream: its recent requests show it a stream (cs_boost_ends())
 * @last_done: when its last request completed, ns (0: never); the caller
 *	passes 0 while it has requests queued or in the driver
 * @now: current time, ns
 *
 * A program that starts, or a context that was quiet for CS_BOOST_GAP, is
 * likely one a user waits for; a long-running stream is neither, nor is a
 * stream that pauses.
 *
 * Return: true to boost it.
 */
bool cs_boost_starts(bool low_latency, u64 budget, bool first, bool stream,
		     u64 last_done, u64 now)
{
	if (!low_latency || !budget || stream)
		return false;
	return first || (last_done && cs_since(now, last_done) >= CS_BOOST_GAP);
}

/**
 * cs_boost_ends() - whether a boosted queue's boost is over
 * @served: the disk's time it took since its boost began (its requests'
 *	service and its idle windows), ns
 * @budget: the boost tunable, ns
 * @boost_until: when its boost runs out, ns
 * @now: current time, ns
 *
 * A boost lasts @budget of the disk's time (8 s, say: a cold start-up of
 * python with a dozen modules takes half that alone on a 7200 rpm disk),
 * or until @boost_until.  It does not end when the queue reads
 * sequentially for a while: a program's exec reads its binary and
 * libraries ahead before its seeky reads (S9's python, which lost its
 * boost as "a stream" 0.1 s in, took 86 s beside two readers); the core
 * does not let a boosted queue lead while it reads like a stream.
 *
 * Return: true when the boost ends.
 */
bool cs_boost_ends(u64 served, u64 budget, u64 boost_until, u64 now)
{
	return now >= boost_until || served >= budget;
}

/**
 * cs_boost_lead_add() - count some of the disk's time in boosted queues'
 *	lead
 * @lead: boosted queues' lead so far, ns
 * @boosted: the time went to a boosted queue (its request's service, or an
 *	idle window kept for it)
 * @others_wait: queues that are not boosted wait
 * @dt: the time, ns
 *
 * Boosted time while others wait adds to the lead; time of queues that
 * are not boosted takes CS_BOOST_PAYBACK times itself from it.  With
 * cs_boost_leads(), boosted queues so take at most 2/3 of the disk's time
 * by leading while other queues wait, and at most CS_BOOST_LEAD (and one
 * request or idle window) ahead of that.  At 40% (2/3 of itself paid
 * back) S9's python took 22.4 s beside two readers against bfq's 11.7 s,
 * while the readers got 1.44 times what bfq left them.  The lead is
 * capped at twice CS_BOOST_LEAD, so that a long boosted turn does not
 * shut the next program out for long.
 *
 * Return: the new lead, ns.
 */
u64 cs_boost_lead_add(u64 lead, bool boosted, bool others_wait, u64 dt)
{
	if (!boosted)
		return lead - min(lead, dt * CS_BOOST_PAYBACK);
	if (!others_wait)
		return lead;
	return min(lead + dt, 2 * CS_BOOST_LEAD);
}

/**
 * cs_boost_leads() - whether boosted queues may go ahead of others now
 * @lead: boosted queues' lead (cs_boost_lead_add()), ns
 * @leading: they could go ahead until now
 *
 * Once the lead reaches CS_BOOST_LEAD, they wait until it is down to a
 * quarter of that: the queues they cut short then get turns long enough
 * to pay for a seek (187 ms and more).  Without that the lead hovers at
 * the bound and a stream gets one request per turn (tools/sim, sata:
 * 6.0 MB/s instead of 27.5 beside one boosted random reader).
 *
 * Return: whether they may go ahead now.
 */
bool cs_boost_leads(u64 lead, bool leading)
{
	return lead < (leading ? CS_BOOST_LEAD : CS_BOOST_LEAD / 4);
}

/**
 * cs_boost_wait_avg() - fold a boosted read's time in the driver into an
 *	average
 * @avg: the average so far, ns
 * @n: reads in it so far
 * @sample: this read's time from dispatch to completion, ns
 *
 * A read is counted as at most 50 ms: one held up for 300 ms among reads
 * of 4-5 ms (S9's python with nothing else in the driver, where a stream's
 * read then went in and was served first) raised an average over eight to
 * 133 ms, above the reads beside others, and the boosts stopped.
 *
 * Return: the new average: the mean of the first eight, then a moving
 * average over about eight.
 */
u64 cs_boost_wait_avg(u64 avg, unsigned int n, u64 sample)
{
	sample = min_t(u64, sample, 50 * NSEC_PER_MSEC);
	if (n < 8)
		return div_u64(avg * n + sample, n + 1);
	return div_u64(avg * 7 + sample, 8);
}

/**
 * cs_fifo_expired() - whether a request has waited past its deadline
 * @deadline: the request's deadline, ns
 * @now: current time, ns
 *
 * Return: true once @now reaches @deadline.
 */
bool cs_fifo_expired(u64 deadline, u64 now)
{
	return now >= deadline;
}

/**
 * cs_async_max_dispatch() - how many requests an async queue may have in the
 *	driver
 * @quantum: the quantum tunable
 * @low_latency: the low_latency tunable
 * @sync_in_driver: sync requests in the driver now
 * @sync_near: sync requests are queued, or one completed so recently that
 *	its reader is likely still thinking about the next
 * @since_delayed_sync: time since a sync request last completed after its
 *	deadline, ns (U64_MAX if never)
 * @slice_sync: the sync base slice, ns
 * @async_in_driver: requests of this async queue in the driver now
 *
 * Async requests wait while sync ones are in the driver.  With
 * low_latency, while readers are about (@sync_near) write-back gets one
 * request in the driver, so that a read that comes finds at most one
 * write ahead of it in the disk's queue; and after sync requests were
 * delayed, async depth grows back by one request per slice_sync, so
 * writeback cannot flood the disk right after reads suffered.
 *
 * Return: the limit, at most @quantum.
 */
unsigned int cs_async_max_dispatch(unsigned int quantum, bool low_latency,
				   unsigned int sync_in_driver, bool sync_near,
				   u64 since_delayed_sync, u64 slice_sync,
				   unsigned int async_in_driver)
{
	u64 depth;

	if (sync_in_driver)
		return 0;
	if (!low_latency || !slice_sync)
		return quantum;
	depth = div64_u64(since_delayed_sync, slice_sync);
	if (!depth && !async_in_driver)
		depth = 1;
	if (sync_near)
		depth = min_t(u64, depth, 1);
	return min_t(u64, depth, quantum);
}

/**
 * cs_async_depth() - scheduler tags an async request may take
 * @nr_requests: tags in the queue's scheduler tag bitmap
 * @whole_bitmap: the kernel applies the limit to the whole tag bitmap
 *	(true) or to each word of it (false)
 * @word_bits: bits per word of the tag bitmap
 *
 * A quarter of the tags stays free for sync requests, so that writeback
 * cannot hold every tag while reads wait for one.  A per-word limit applies
 * to each full word; a bitmap smaller than a word is one partial word.
 *
 * Return: the shallow depth to set, at least 1.
 */
unsigned int cs_async_depth(unsigned int nr_requests, bool whole_bitmap,
			    unsigned int word_bits)
{
	unsigned int total = whole_bitmap ? nr_requests :
					    min(word_bits, nr_requests);

	return max(total * 3 / 4, 1U);
}

/**
 * cs_idle_class_may_run() - whether the IDLE class may use the disk
 * @last_busy: when other classes last had work, ns (0: never)
 * @now: current time, ns
 * @grace: how long the disk must have been free of other work, ns
 *
 * Return: true once the disk has had no other work for @grace.
 */
bool cs_idle_class_may_run(u64 last_busy, u64 now, u64 grace)
{
	return !last_busy || now >= last_busy + grace;
}

/**
 * cs_level_cost() - what a sync request counts against its level's share
 *	of a parallel disk
 * @sectors: its size
 * @level: its queue's priority level, 0 (highest) to 7
 *
 * Levels share the disk as their slices do (cs_slice_len(): 9 - @level),
 * so a sector costs 2520 / (9 - @level), 2520 being a multiple of 9 - @level
 * for every level: level 0 gets 4.5 times level 7's sectors.  A request
 * costs CS_LEVEL_RQ_SECTORS more: a disk spends time on each request
 * whatever its size, and without it a 4 KiB read would count 1/256 of a
 * 1 MiB one (with it, 1/9), so that a level reading small blocks would
 * hold back a stream of another level for hundreds of its reads.
 *
 * Return: the cost.
 */
u64 cs_level_cost(unsigned int sectors, unsigned int level)
{
	static const u16 per_sector[CS_NR_LEVELS] = {
		280, 315, 360, 420, 504, 630, 840, 1260,
	};

	return ((u64)sectors + CS_LEVEL_RQ_SECTORS) *
	       per_sector[cs_clamp_level(level)];
}

/**
 * cs_level_waits() - whether a sync queue waits for the higher levels of
 *	its class on a disk that serves in parallel
 * @served: its level's service so far (cs_level_cost() summed)
 * @served_above: the least service of the live levels above it
 * @in_driver: its requests in the driver
 * @oldest_expired: its oldest queued request is past its deadline
 *
 * Where slices own the disk a level gets its share as slice time.  Where
 * the disk serves in parallel nobody owns it, and two readers of levels 0
 * and 7 with a read in flight each would get the same throughput (S4 on
 * ssd: 104 / 104 MB/s, 143 alone).  So there a level that has had more than
 * its share of the disk, counted in weighted sectors, waits until the
 * levels above it have had theirs, as long as they are live (requests
 * queued or in the driver, or a read completed within a quarter of
 * slice_idle: a reader thinking).  Its bound is the one a lower class has: a request
 * past its deadline goes, one at a time.
 *
 * Return: true to hold it for now.
 */
bool cs_level_waits(u64 served, u64 served_above, unsigned int in_driver,
		    bool oldest_expired)
{
	if (served <= served_above)
		return false;
	return in_driver || !oldest_expired;
}

/**
 * cs_class_waits_rt() - whether a queue of a lower class than real time
 *	waits for the real-time queues
 * @parallel: the disk is scheduled as serving in parallel
 * @rt: the queue is of the real-time class
 * @rt_in_driver: real-time requests in the driver
 * @rt_quiet: time since a real-time request last completed, ns (U64_MAX:
 *	never)
 * @window: how long a real-time reader may think between requests and
 *	keep the disk (slice_idle), ns
 * @lower_in_driver: requests of the other classes in the driver
 * @oldest_expired: the queue's oldest request is past its deadline
 *
 * Real time has first access to the disk (ionice(1)).  Where slices own
 * the disk, a real-time slice preempts and keeps it, idling while its
 * reader thinks.  Where the disk serves in parallel nobody owns it, and a
 * lower class's request would be served beside the real-time ones and
 * share the disk's time (tools/sim s4 3 on ssd: the real-time reader
 * 130 MB/s beside a best-effort one, 177 alone).  So there the lower
 * classes wait while real-time requests are in the driver or their
 * reader is within @window of its last one.  Their bound is the one they
 * have on a spindle: a request past its deadline goes, one at a time.
 *
 * Return: true to leave the disk to real time for now.
 */
bool cs_class_waits_rt(bool parallel, bool rt, unsigned int rt_in_driver,
		       u64 rt_quiet, u64 window, unsigned int lower_in_driver,
		       bool oldest_expired)
{
	if (!parallel || rt || (!rt_in_driver && rt_quiet >= window))
		return false;
	return lower_in_driver || !oldest_expired;
}
