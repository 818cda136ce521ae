// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for ctxsched: the pure policy (slice lengths by class and
 * level, slice expiry, think time and seekiness, idle decisions,
 * preemption, FIFO expiry, async depth limits, head-movement choices,
 * cooperators), the scheduling core's decisions driven through its own
 * interface with a fake clock, timer and device (core_cases.c), the device
 * model (model_cases.c) and the readahead policy (ra_cases.c).
 *
 * The core and policy sources are compiled into this module with the
 * environment of env-kunit.h, so it does not depend on ctxsched.ko being
 * loaded.  tools/sim builds the same cases on the host.
 */
#include <kunit/test.h>
#include <linux/module.h>

#define CS_ENV_HEADER "../kunit/env-kunit.h"
#include "../sched/core.c"
#include "../sched/members.c"
#include "../sched/model.c"
#include "../sched/tunables.c"
#include "../sched/coop.c"
#include "../sched/policy.c"
#include "../sched/seek.c"

#define MS	NSEC_PER_MSEC

/* Slice lengths follow slice * (9 - level) / 5. */
static void cs_test_slice_levels(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, cs_slice_len(100 * MS, 0), 180 * MS);
	KUNIT_EXPECT_EQ(test, cs_slice_len(100 * MS, 4), 100 * MS);
	KUNIT_EXPECT_EQ(test, cs_slice_len(100 * MS, 7), 40 * MS);
	KUNIT_EXPECT_EQ(test, cs_slice_len(40 * MS, 4), 40 * MS);
	KUNIT_EXPECT_EQ(test, cs_slice_len(40 * MS, 0), 72 * MS);
	/* Out-of-range levels count as the lowest. */
	KUNIT_EXPECT_EQ(test, cs_slice_len(100 * MS, 12), 40 * MS);
}

static void cs_test_slice_monotonic(struct kunit *test)
{
	unsigned int level;

	for (level = 1; level < CS_NR_LEVELS; level++)
		KUNIT_EXPECT_LT(test, cs_slice_len(100 * MS, level),
				cs_slice_len(100 * MS, level - 1));
}

/* The -n0 : -n7 share the behaviour test checks. */
static void cs_test_slice_ratio(struct kunit *test)
{
	u64 hi = cs_slice_len(100 * MS, 0), lo = cs_slice_len(100 * MS, 7);

	KUNIT_EXPECT_EQ(test, hi * 2, lo * 9);
}

static void cs_test_scaled_slice(struct kunit *test)
{
	/* One queue, or a round within target_latency: unchanged. */
	KUNIT_EXPECT_EQ(test, cs_scaled_slice(100 * MS, 100 * MS, 1,
					      300 * MS, 16 * MS), 100 * MS);
	KUNIT_EXPECT_EQ(test, cs_scaled_slice(100 * MS, 100 * MS, 3,
					      300 * MS, 16 * MS), 100 * MS);
	/* Five queues: 500 ms expected, scaled to 300/500. */
	KUNIT_EXPECT_EQ(test, cs_scaled_slice(100 * MS, 100 * MS, 5,
					      300 * MS, 16 * MS), 60 * MS);
	/* Twenty queues: never below the floor. */
	KUNIT_EXPECT_EQ(test, cs_scaled_slice(100 * MS, 100 * MS, 20,
					      300 * MS, 16 * MS), 16 * MS);
	/* A slice already shorter than that floor stays as it is. */
	KUNIT_EXPECT_EQ(test, cs_scaled_slice(10 * MS, 100 * MS, 20,
					      300 * MS, 16 * MS), 10 * MS);
}

/*
 * Issue 15: slices on a spindle last at least ten seeks, so that with many
 * readers seeking stays under an eleventh of the disk's time.
 */
static void cs_test_slice_floor(struct kunit *test)
{
	/* No seek cost: two idle windows, as CFQ. */
	KUNIT_EXPECT_EQ(test, cs_slice_floor(8 * MS, 0), 16 * MS);
	KUNIT_EXPECT_EQ(test, cs_slice_floor(8 * MS, 1 * MS), 16 * MS);
	/* An 8 ms seek: 80 ms. */
	KUNIT_EXPECT_EQ(test, cs_slice_floor(8 * MS, 8 * MS), 80 * MS);
	/* Eight readers at 100 ms base: 37.5 ms scaled, held at 80 ms. */
	KUNIT_EXPECT_EQ(test, cs_scaled_slice(100 * MS, 100 * MS, 8,
					      300 * MS,
					      cs_slice_floor(8 * MS, 8 * MS)),
			80 * MS);
}

/*
 * Issue 15: where a switch between readers costs 23 ms (sata, readers
 * half a disk apart), the base slice grows to ten switches, at most to
 * twice slice_sync; the switch figure is a moving average with a cap.
 */
static void cs_test_slice_base(struct kunit *test)
{
	u64 avg = 0;
	int i;

	/* Unknown or cheap switches: slice_sync as it is. */
	KUNIT_EXPECT_EQ(test, cs_slice_base(100 * MS, 0), 100 * MS);
	KUNIT_EXPECT_EQ(test, cs_slice_base(100 * MS, 9 * MS), 100 * MS);
	/* 15 ms: 150 ms. */
	KUNIT_EXPECT_EQ(test, cs_slice_base(100 * MS, 15 * MS), 150 * MS);
	/* Never past twice slice_sync. */
	KUNIT_EXPECT_EQ(test, cs_slice_base(100 * MS, 40 * MS), 200 * MS);
	/* Level 0 keeps 4.5 times level 7 on the grown base. */
	KUNIT_EXPECT_EQ(test, cs_slice_len(cs_slice_base(100 * MS, 23 * MS), 0) * 2,
			cs_slice_len(cs_slice_base(100 * MS, 23 * MS), 7) * 9);

	/* The first sample is the figure; later ones move it an eighth. */
	avg = cs_switch_avg(avg, 24 * MS, 100 * MS);
	KUNIT_EXPECT_EQ(test, avg, 24 * MS);
	avg = cs_switch_avg(avg, 16 * MS, 100 * MS);
	KUNIT_EXPECT_EQ(test, avg, 23 * MS);
	/* A sample counts at most half a slice: a drain is not a seek. */
	avg = cs_switch_avg(0, 400 * MS, 100 * MS);
	KUNIT_EXPECT_EQ(test, avg, 50 * MS);
	/* It converges: 30 samples of 10 ms from 50 ms. */
	for (i = 0; i < 30; i++)
		avg = cs_switch_avg(avg, 10 * MS, 100 * MS);
	KUNIT_EXPECT_LT(test, avg, 11 * MS);
	KUNIT_EXPECT_GE(test, avg, 10 * MS);
}

static void cs_test_slice_expired(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, cs_slice_expired(0, 5 * MS));
	KUNIT_EXPECT_FALSE(test, cs_slice_expired(10 * MS, 9 * MS));
	KUNIT_EXPECT_TRUE(test, cs_slice_expired(10 * MS, 10 * MS));
	KUNIT_EXPECT_TRUE(test, cs_slice_expired(10 * MS, 11 * MS));
}

static void cs_test_async_slice_rq(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, cs_async_slice_rq(2, 4), 16U);
	KUNIT_EXPECT_EQ(test, cs_async_slice_rq(2, 0), 32U);
	KUNIT_EXPECT_EQ(test, cs_async_slice_rq(2, 7), 4U);
	KUNIT_EXPECT_EQ(test, cs_async_slice_rq(1, 9), 2U);
}

static struct kunit_case cs_slice_cases[] = {
	KUNIT_CASE(cs_test_slice_levels),
	KUNIT_CASE(cs_test_slice_monotonic),
	KUNIT_CASE(cs_test_slice_ratio),
	KUNIT_CASE(cs_test_scaled_slice),
	KUNIT_CASE(cs_test_slice_floor),
	KUNIT_CASE(cs_test_slice_base),
	KUNIT_CASE(cs_test_slice_expired),
	KUNIT_CASE(cs_test_async_slice_rq),
	{}
};

static struct kunit_suite cs_slice_suite = {
	.name = "ctxsched_slice",
	.test_cases = cs_slice_cases,
};

/* The first sample sets the mean; three make it trustworthy. */
static void cs_test_ttime_first_samples(struct kunit *test)
{
	struct cs_ttime tt = {};

	cs_ttime_add(&tt, 2 * MS, 8 * MS);
	KUNIT_EXPECT_EQ(test, tt.mean, 2 * MS);
	KUNIT_EXPECT_FALSE(test, cs_ttime_valid(&tt));
	cs_ttime_add(&tt, 2 * MS, 8 * MS);
	KUNIT_EXPECT_FALSE(test, cs_ttime_valid(&tt));
	cs_ttime_add(&tt, 2 * MS, 8 * MS);
	KUNIT_EXPECT_TRUE(test, cs_ttime_valid(&tt));
	KUNIT_EXPECT_EQ(test, tt.mean, 2 * MS);
}

/* One long pause counts as twice slice_idle at most. */
static void cs_test_ttime_cap(struct kunit *test)
{
	struct cs_ttime tt = {};

	cs_ttime_add(&tt, 1000 * MS, 8 * MS);
	KUNIT_EXPECT_EQ(test, tt.mean, 16 * MS);
}

/* The mean follows a change of behaviour within a few requests. */
static void cs_test_ttime_decay(struct kunit *test)
{
	struct cs_ttime tt = {};
	int i;

	for (i = 0; i < 20; i++)
		cs_ttime_add(&tt, 1 * MS, 8 * MS);
	KUNIT_EXPECT_LE(test, tt.mean, 1 * MS);
	for (i = 0; i < 10; i++)
		cs_ttime_add(&tt, 16 * MS, 8 * MS);
	KUNIT_EXPECT_GT(test, tt.mean, 8 * MS);
}

static void cs_test_seek_sequential(struct kunit *test)
{
	struct cs_seek sk = {};
	int i;

	for (i = 0; i < 64; i++)
		cs_seek_add(&sk, 0);
	KUNIT_EXPECT_FALSE(test, cs_seeky(&sk));
	/* Short hops stay under the threshold. */
	for (i = 0; i < 64; i++)
		cs_seek_add(&sk, CS_SEEK_FAR_ROT);
	KUNIT_EXPECT_FALSE(test, cs_seeky(&sk));
}

static void cs_test_seek_random(struct kunit *test)
{
	struct cs_seek sk = {};
	int i;

	for (i = 0; i < 4; i++)
		cs_seek_add(&sk, 1 << 20);
	KUNIT_EXPECT_FALSE(test, cs_seeky(&sk));
	cs_seek_add(&sk, 1 << 20);
	KUNIT_EXPECT_TRUE(test, cs_seeky(&sk));
	/* Old seeks age out after 32 sequential requests. */
	for (i = 0; i < 32; i++)
		cs_seek_add(&sk, 0);
	KUNIT_EXPECT_FALSE(test, cs_seeky(&sk));
}

static struct cs_idle_input cs_seq_reader(void)
{
	struct cs_idle_input in = {
		.sync = true,
		.idle_pays = true,
		.ctx_alive = true,
		.seeky = false,
		.ttime_valid = true,
		.ttime_mean = 1 * MS,
		.slice_idle = 8 * MS,
		.group_idle = 8 * MS,
		.last_sync_in_class = false,
	};

	return in;
}

static void cs_test_idle_sequential(struct kunit *test)
{
	struct cs_idle_input in = cs_seq_reader();

	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_QUEUE);
	/* Unknown think time: give the new context the benefit of doubt. */
	in.ttime_valid = false;
	in.ttime_mean = 100 * MS;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_QUEUE);
	/* Think time equal to slice_idle still idles. */
	in.ttime_valid = true;
	in.ttime_mean = 8 * MS;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_QUEUE);
}

static void cs_test_idle_never(struct kunit *test)
{
	struct cs_idle_input in = cs_seq_reader();

	in.sync = false;
	in.last_sync_in_class = true;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_NONE);
	in = cs_seq_reader();
	in.idle_pays = false;
	in.last_sync_in_class = true;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_NONE);
	in = cs_seq_reader();
	in.ctx_alive = false;
	in.last_sync_in_class = true;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_NONE);
}

static void cs_test_idle_think_time(struct kunit *test)
{
	struct cs_idle_input in = cs_seq_reader();

	in.ttime_mean = 9 * MS;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_NONE);
	in.last_sync_in_class = true;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_GROUP);
}

static void cs_test_idle_seeky(struct kunit *test)
{
	struct cs_idle_input in = cs_seq_reader();

	in.seeky = true;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_NONE);
	in.last_sync_in_class = true;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_GROUP);
	in.group_idle = 0;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_NONE);
}

/*
 * Issue 15: a boosted queue that may lead (a program starting, where
 * distance costs time) is idled for, seeky or not and in either mode,
 * while it thinks within twice slice_idle.
 */
static void cs_test_idle_boosted(struct kunit *test)
{
	struct cs_idle_input in = cs_seq_reader();

	in.seeky = true;
	in.ttime_mean = 12 * MS;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_NONE);
	in.boosted = true;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_QUEUE);
	KUNIT_EXPECT_EQ(test, cs_idle_window(CS_IDLE_QUEUE, in.boosted,
					     in.slice_idle, in.group_idle),
			16 * MS);
	in.idle_pays = false;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_QUEUE);
	in.ttime_mean = 17 * MS;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_NONE);
	in.ttime_mean = 12 * MS;
	in.ctx_alive = false;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_NONE);
}

static void cs_test_idle_merged(struct kunit *test)
{
	struct cs_idle_input in = cs_seq_reader();

	/* A merged queue's window covers a hand-over between its threads. */
	KUNIT_EXPECT_EQ(test, cs_idle_window(CS_IDLE_QUEUE, false, 8 * MS,
					     5 * MS), 8 * MS);
	KUNIT_EXPECT_EQ(test, cs_idle_window(CS_IDLE_QUEUE, true, 8 * MS,
					     5 * MS), 16 * MS);
	KUNIT_EXPECT_EQ(test, cs_idle_window(CS_IDLE_GROUP, true, 8 * MS,
					     5 * MS), 5 * MS);
	KUNIT_EXPECT_EQ(test, cs_idle_window(CS_IDLE_NONE, true, 8 * MS,
					     5 * MS), 0);
	/* ... and its think time is judged against that window. */
	in.ttime_mean = 12 * MS;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_NONE);
	in.merged = true;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_QUEUE);
	in.ttime_mean = 17 * MS;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_NONE);
	/* Merged or not, no idling when slice_idle is off or it seeks. */
	in.ttime_mean = 1 * MS;
	in.seeky = true;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_NONE);
	in.seeky = false;
	in.slice_idle = 0;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_NONE);
}

static void cs_test_idle_credit(struct kunit *test)
{
	/* A merged queue keeps what was left of its slice... */
	KUNIT_EXPECT_EQ(test, cs_idle_credit(true, 100 * MS, 40 * MS,
					     100 * MS), 60 * MS);
	/* ... at most one slice ... */
	KUNIT_EXPECT_EQ(test, cs_idle_credit(true, 250 * MS, 40 * MS,
					     100 * MS), 100 * MS);
	/* ... and nothing once the slice is over or never started. */
	KUNIT_EXPECT_EQ(test, cs_idle_credit(true, 100 * MS, 100 * MS,
					     100 * MS), 0);
	KUNIT_EXPECT_EQ(test, cs_idle_credit(true, 0, 40 * MS, 100 * MS), 0);
	/* A single context that stopped gives its slice up, as with CFQ. */
	KUNIT_EXPECT_EQ(test, cs_idle_credit(false, 100 * MS, 40 * MS,
					     100 * MS), 0);
}

static void cs_test_idle_disabled(struct kunit *test)
{
	struct cs_idle_input in = cs_seq_reader();

	in.slice_idle = 0;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_NONE);
	in.last_sync_in_class = true;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_GROUP);
}

/*
 * Where distance costs nothing (PARALLEL mode) a queue idles only to keep
 * its share from a lower-weight queue on a disk that serves one request at
 * a time, and then even when it seeks.
 */
static void cs_test_idle_keep_share(struct kunit *test)
{
	struct cs_idle_input in = cs_seq_reader();

	in.idle_pays = false;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_NONE);
	in.keep_share = true;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_QUEUE);
	in.seeky = true;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_QUEUE);
	/* Never group idling there, and not for a slow thinker. */
	in.ttime_mean = 20 * MS;
	in.last_sync_in_class = true;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_NONE);
	in.ttime_mean = 1 * MS;
	in.ctx_alive = false;
	KUNIT_EXPECT_EQ(test, cs_idle_decision(&in), CS_IDLE_NONE);
}

static struct kunit_case cs_idle_cases[] = {
	KUNIT_CASE(cs_test_idle_keep_share),
	KUNIT_CASE(cs_test_ttime_first_samples),
	KUNIT_CASE(cs_test_ttime_cap),
	KUNIT_CASE(cs_test_ttime_decay),
	KUNIT_CASE(cs_test_seek_sequential),
	KUNIT_CASE(cs_test_seek_random),
	KUNIT_CASE(cs_test_idle_sequential),
	KUNIT_CASE(cs_test_idle_never),
	KUNIT_CASE(cs_test_idle_think_time),
	KUNIT_CASE(cs_test_idle_seeky),
	KUNIT_CASE(cs_test_idle_merged),
	KUNIT_CASE(cs_test_idle_boosted),
	KUNIT_CASE(cs_test_idle_credit),
	KUNIT_CASE(cs_test_idle_disabled),
	{}
};

static struct kunit_suite cs_idle_suite = {
	.name = "ctxsched_idle",
	.test_cases = cs_idle_cases,
};

static bool cs_preempts(enum cs_prio_class nc, bool ns,
			enum cs_prio_class ac, bool as)
{
	struct cs_preempt_input in = {
		.new_class = nc, .new_sync = ns,
		.active_class = ac, .active_sync = as,
	};

	return cs_should_preempt(&in);
}

static void cs_test_preempt_class(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, cs_preempts(CS_CLASS_RT, true, CS_CLASS_BE, true));
	KUNIT_EXPECT_TRUE(test, cs_preempts(CS_CLASS_RT, false, CS_CLASS_BE, true));
	KUNIT_EXPECT_TRUE(test, cs_preempts(CS_CLASS_BE, false, CS_CLASS_IDLE, true));
	KUNIT_EXPECT_TRUE(test, cs_preempts(CS_CLASS_RT, true, CS_CLASS_IDLE, true));
	KUNIT_EXPECT_FALSE(test, cs_preempts(CS_CLASS_BE, true, CS_CLASS_RT, false));
	KUNIT_EXPECT_FALSE(test, cs_preempts(CS_CLASS_IDLE, true, CS_CLASS_BE, false));
}

static void cs_test_preempt_sync(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, cs_preempts(CS_CLASS_BE, true, CS_CLASS_BE, false));
	KUNIT_EXPECT_FALSE(test, cs_preempts(CS_CLASS_BE, false, CS_CLASS_BE, true));
	KUNIT_EXPECT_FALSE(test, cs_preempts(CS_CLASS_BE, true, CS_CLASS_BE, true));
	KUNIT_EXPECT_FALSE(test, cs_preempts(CS_CLASS_RT, false, CS_CLASS_RT, false));
}

/* A sync queue does not preempt write-back ahead of other sync queues. */
static void cs_test_preempt_sync_waits(struct kunit *test)
{
	struct cs_preempt_input in = {
		.new_class = CS_CLASS_BE, .new_sync = true,
		.active_class = CS_CLASS_BE, .active_sync = false,
		.sync_waits = true,
	};

	KUNIT_EXPECT_FALSE(test, cs_should_preempt(&in));
	in.sync_waits = false;
	KUNIT_EXPECT_TRUE(test, cs_should_preempt(&in));
	/* A reader back from its own slice lets write-back have two. */
	in.new_returns = true;
	in.async_min = 2;
	in.active_dispatched = 1;
	KUNIT_EXPECT_FALSE(test, cs_should_preempt(&in));
	in.active_dispatched = 2;
	KUNIT_EXPECT_TRUE(test, cs_should_preempt(&in));
	/* A higher class still preempts whoever waits in the lower one. */
	in.sync_waits = true;
	in.new_class = CS_CLASS_RT;
	KUNIT_EXPECT_TRUE(test, cs_should_preempt(&in));
}

static void cs_test_fifo_expiry(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, cs_fifo_expired(125 * MS, 124 * MS));
	KUNIT_EXPECT_TRUE(test, cs_fifo_expired(125 * MS, 125 * MS));
	KUNIT_EXPECT_TRUE(test, cs_fifo_expired(125 * MS, 500 * MS));
}

/* Issue 15: metadata reads preempt a queue of their class without any. */
static void cs_test_preempt_meta(struct kunit *test)
{
	struct cs_preempt_input in = {
		.new_class = CS_CLASS_BE, .new_sync = true, .new_meta = true,
		.active_class = CS_CLASS_BE, .active_sync = true,
	};

	KUNIT_EXPECT_TRUE(test, cs_should_preempt(&in));
	in.active_meta = true;
	KUNIT_EXPECT_FALSE(test, cs_should_preempt(&in));
	/* Not across classes the other way, and not for async requests. */
	in.active_meta = false;
	in.active_class = CS_CLASS_RT;
	KUNIT_EXPECT_FALSE(test, cs_should_preempt(&in));
	in.active_class = CS_CLASS_BE;
	in.new_sync = false;
	KUNIT_EXPECT_FALSE(test, cs_should_preempt(&in));
}

/*
 * Between sync queues of a class only metadata and boosts preempt, whatever
 * else is so: the core asks nothing in that case (issue 13).
 */
static void cs_test_preempt_sync_peers(struct kunit *test)
{
	struct cs_preempt_input in = {
		.new_sync = true, .active_sync = true, .async_min = 4,
	};
	unsigned int bits, d;

	for (in.new_class = CS_CLASS_RT; in.new_class < CS_NR_CLASSES;
	     in.new_class++) {
		in.active_class = in.new_class;
		for (bits = 0; bits < 16; bits++) {
			in.active_meta = bits & 1;
			in.active_boosted = bits & 2;
			in.sync_waits = bits & 4;
			in.new_returns = bits & 8;
			for (d = 0; d < 8; d += 3) {
				in.active_dispatched = d;
				KUNIT_EXPECT_FALSE(test, cs_should_preempt(&in));
			}
		}
	}
}

/* Issue 15: a boosted queue preempts one of its class that is not. */
static void cs_test_preempt_boost(struct kunit *test)
{
	struct cs_preempt_input in = {
		.new_class = CS_CLASS_BE, .new_sync = true, .new_boosted = true,
		.active_class = CS_CLASS_BE, .active_sync = true,
		.sync_waits = true,
	};

	KUNIT_EXPECT_TRUE(test, cs_should_preempt(&in));
	in.active_sync = false;
	KUNIT_EXPECT_TRUE(test, cs_should_preempt(&in));
	/* Not another boosted queue, nor a higher class. */
	in.active_sync = true;
	in.active_boosted = true;
	KUNIT_EXPECT_FALSE(test, cs_should_preempt(&in));
	in.active_boosted = false;
	in.active_class = CS_CLASS_RT;
	KUNIT_EXPECT_FALSE(test, cs_should_preempt(&in));
	/* Without the boost, a sync queue does not preempt a sync one. */
	in.active_class = CS_CLASS_BE;
	in.new_boosted = false;
	KUNIT_EXPECT_FALSE(test, cs_should_preempt(&in));
}

/* Issue 15: who is boosted, and for how long. */
static void cs_test_boost_life(struct kunit *test)
{
	u64 budget = 8000 * MS, now = 100000 * MS;

	/* New queues and queues quiet for CS_BOOST_GAP. */
	KUNIT_EXPECT_TRUE(test, cs_boost_starts(true, budget, true, false, 0,
						now));
	KUNIT_EXPECT_TRUE(test, cs_boost_starts(true, budget, false, false,
						now - CS_BOOST_GAP, now));
	KUNIT_EXPECT_FALSE(test, cs_boost_starts(true, budget, false, false,
						 now - CS_BOOST_GAP + 1, now));
	KUNIT_EXPECT_FALSE(test, cs_boost_starts(true, budget, false, false, 0,
						 now));
	/* Not a stream that pauses. */
	KUNIT_EXPECT_FALSE(test, cs_boost_starts(true, budget, false, true,
						 now - CS_BOOST_GAP, now));
	/* Off with low_latency or a budget of 0. */
	KUNIT_EXPECT_FALSE(test, cs_boost_starts(false, budget, true, false, 0,
						 now));
	KUNIT_EXPECT_FALSE(test, cs_boost_starts(true, 0, true, false, 0, now));
	/* A seeky queue keeps it until its budget or its time is used. */
	KUNIT_EXPECT_FALSE(test, cs_boost_ends(budget - 1, budget, now + 1,
					       now));
	KUNIT_EXPECT_TRUE(test, cs_boost_ends(budget, budget, now + 1, now));
	KUNIT_EXPECT_TRUE(test, cs_boost_ends(0, budget, now, now));
}

/*
 * The boosted reads' times in debugfs: the mean of the first eight, then a
 * moving average; one stalled read moves it by at most 50 ms / 8.
 */
static void cs_test_boost_waits(struct kunit *test)
{
	u64 avg = 0;
	unsigned int n;

	/* The average: the mean at first, then it moves by an eighth. */
	for (n = 0; n < 8; n++)
		avg = cs_boost_wait_avg(avg, n, (n + 1) * MS);
	KUNIT_EXPECT_EQ(test, avg, 4500 * 1000ULL);
	KUNIT_EXPECT_EQ(test, cs_boost_wait_avg(avg, 8, 12500 * 1000),
			5500 * 1000ULL);
	/* One stalled read counts as 50 ms at most. */
	KUNIT_EXPECT_EQ(test, cs_boost_wait_avg(0, 0, 300 * MS), 50 * MS);
}

/*
 * Issue 15: boosted queues lead by CS_BOOST_LEAD at most, and over time
 * get at most 2/3 of the disk while others wait; once held back, they
 * wait until the others have had a turn that pays for a seek.
 */
static void cs_test_boost_lead(struct kunit *test)
{
	u64 lead = 0, boosted = 0, other = 0, turn = 30 * MS, run = 0;
	u64 shortest = U64_MAX;
	bool leading = true, was = true;
	unsigned int i;

	for (i = 0; i < 1000; i++) {
		leading = cs_boost_leads(lead, leading);
		if (leading) {
			lead = cs_boost_lead_add(lead, true, true, turn);
			boosted += turn;
			if (!was)
				shortest = min(shortest, run);
			run = 0;
		} else {
			lead = cs_boost_lead_add(lead, false, true, turn);
			other += turn;
			run += turn;
		}
		was = leading;
		KUNIT_EXPECT_LE(test, lead, CS_BOOST_LEAD + turn);
	}
	KUNIT_EXPECT_LE(test, boosted * 100, (boosted + other) * 68);
	KUNIT_EXPECT_GE(test, boosted * 100, (boosted + other) * 65);
	/* The others' turns: 3/4 of the bound's worth of lead paid back. */
	KUNIT_EXPECT_NE(test, shortest, U64_MAX);
	KUNIT_EXPECT_GE(test, shortest * 2, CS_BOOST_LEAD * 3 / 4 - turn);
	/* The bound and the way back, at their edges. */
	KUNIT_EXPECT_TRUE(test, cs_boost_leads(CS_BOOST_LEAD - 1, true));
	KUNIT_EXPECT_FALSE(test, cs_boost_leads(CS_BOOST_LEAD, true));
	KUNIT_EXPECT_FALSE(test, cs_boost_leads(CS_BOOST_LEAD - 1, false));
	KUNIT_EXPECT_FALSE(test, cs_boost_leads(CS_BOOST_LEAD / 4, false));
	KUNIT_EXPECT_TRUE(test, cs_boost_leads(CS_BOOST_LEAD / 4 - 1, false));
	/* Alone, a boosted queue owes nobody. */
	KUNIT_EXPECT_EQ(test, cs_boost_lead_add(0, true, false, turn), 0ULL);
	/* A long turn does not build an unbounded debt. */
	KUNIT_EXPECT_LE(test, cs_boost_lead_add(0, true, true, 10000 * MS),
			2 * CS_BOOST_LEAD);
	KUNIT_EXPECT_EQ(test, cs_boost_lead_add(turn, false, true, 2 * turn),
			0ULL);
	/* Others' time pays the lead back at twice itself. */
	KUNIT_EXPECT_EQ(test, cs_boost_lead_add(100 * MS, false, true, 20 * MS),
			60 * MS);
}

static struct kunit_case cs_order_cases[] = {
	KUNIT_CASE(cs_test_preempt_boost),
	KUNIT_CASE(cs_test_preempt_sync_peers),
	KUNIT_CASE(cs_test_boost_life),
	KUNIT_CASE(cs_test_boost_lead),
	KUNIT_CASE(cs_test_boost_waits),
	KUNIT_CASE(cs_test_preempt_meta),
	KUNIT_CASE(cs_test_preempt_class),
	KUNIT_CASE(cs_test_preempt_sync),
	KUNIT_CASE(cs_test_preempt_sync_waits),
	KUNIT_CASE(cs_test_fifo_expiry),
	{}
};

static struct kunit_suite cs_order_suite = {
	.name = "ctxsched_order",
	.test_cases = cs_order_cases,
};

static void cs_test_async_dispatch(struct kunit *test)
{
	/* Async waits while sync requests are in the driver. */
	KUNIT_EXPECT_EQ(test, cs_async_max_dispatch(8, true, 1, false, U64_MAX,
						    100 * MS, 0), 0U);
	KUNIT_EXPECT_EQ(test, cs_async_max_dispatch(8, false, 1, false, U64_MAX,
						    100 * MS, 0), 0U);
	/* No delayed sync, or low_latency off: the full quantum. */
	KUNIT_EXPECT_EQ(test, cs_async_max_dispatch(8, true, 0, false, U64_MAX,
						    100 * MS, 3), 8U);
	KUNIT_EXPECT_EQ(test, cs_async_max_dispatch(8, false, 0, false, 0,
						    100 * MS, 3), 8U);
	/* Right after a delayed sync: one request, and only if none is out. */
	KUNIT_EXPECT_EQ(test, cs_async_max_dispatch(8, true, 0, false, 0,
						    100 * MS, 0), 1U);
	KUNIT_EXPECT_EQ(test, cs_async_max_dispatch(8, true, 0, false, 0,
						    100 * MS, 1), 0U);
	/* One more per slice_sync since then. */
	KUNIT_EXPECT_EQ(test, cs_async_max_dispatch(8, true, 0, false, 350 * MS,
						    100 * MS, 2), 3U);
	KUNIT_EXPECT_EQ(test, cs_async_max_dispatch(8, true, 0, false, 5000 * MS,
						    100 * MS, 2), 8U);
	/* Issue 15: while readers are about, write-back gets one. */
	KUNIT_EXPECT_EQ(test, cs_async_max_dispatch(8, true, 0, true, U64_MAX,
						    100 * MS, 0), 1U);
	KUNIT_EXPECT_EQ(test, cs_async_max_dispatch(8, true, 0, true, U64_MAX,
						    100 * MS, 1), 1U);
	/* ... unless low_latency is off. */
	KUNIT_EXPECT_EQ(test, cs_async_max_dispatch(8, false, 0, true, U64_MAX,
						    100 * MS, 1), 8U);
}

static void cs_test_async_depth(struct kunit *test)
{
	/* A quarter of the tags stays free for sync requests. */
	KUNIT_EXPECT_EQ(test, cs_async_depth(256, true, 64), 192U);
	KUNIT_EXPECT_EQ(test, cs_async_depth(256, false, 64), 48U);
	KUNIT_EXPECT_EQ(test, cs_async_depth(2, true, 64), 1U);
	KUNIT_EXPECT_EQ(test, cs_async_depth(1, true, 64), 1U);
	/* Fewer tags than a word: the one word holds them all. */
	KUNIT_EXPECT_EQ(test, cs_async_depth(2, false, 64), 1U);
	KUNIT_EXPECT_EQ(test, cs_async_depth(16, false, 64), 12U);
}

static void cs_test_idle_class_grace(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, cs_idle_class_may_run(0, 5 * MS, 200 * MS));
	KUNIT_EXPECT_FALSE(test, cs_idle_class_may_run(100 * MS, 299 * MS,
						       200 * MS));
	KUNIT_EXPECT_TRUE(test, cs_idle_class_may_run(100 * MS, 300 * MS,
						      200 * MS));
}

static void cs_test_class_waits_rt(struct kunit *test)
{
	/* A real-time read in the driver holds best effort back... */
	KUNIT_EXPECT_TRUE(test, cs_class_waits_rt(true, false, 1, 0, 8 * MS,
						  0, false));
	/* ...and so does its reader thinking within the window. */
	KUNIT_EXPECT_TRUE(test, cs_class_waits_rt(true, false, 0, 7 * MS,
						  8 * MS, 0, false));
	KUNIT_EXPECT_FALSE(test, cs_class_waits_rt(true, false, 0, 8 * MS,
						   8 * MS, 0, false));
	KUNIT_EXPECT_FALSE(test, cs_class_waits_rt(true, false, 0, U64_MAX,
						   8 * MS, 0, false));
	/* Past its deadline one goes, but not a second beside it. */
	KUNIT_EXPECT_FALSE(test, cs_class_waits_rt(true, false, 1, 0, 8 * MS,
						   0, true));
	KUNIT_EXPECT_TRUE(test, cs_class_waits_rt(true, false, 1, 0, 8 * MS,
						  1, true));
	/* Real time itself, and slices (SERIAL), are never held. */
	KUNIT_EXPECT_FALSE(test, cs_class_waits_rt(true, true, 1, 0, 8 * MS,
						   0, false));
	KUNIT_EXPECT_FALSE(test, cs_class_waits_rt(false, false, 1, 0, 8 * MS,
						   0, false));
	/* slice_idle 0: no window. */
	KUNIT_EXPECT_FALSE(test, cs_class_waits_rt(true, false, 0, 0, 0, 0,
						   false));
}

static void cs_test_level_share(struct kunit *test)
{
	/* Shares as the slices: 4.5 : 1 between levels 0 and 7. */
	KUNIT_EXPECT_EQ(test, cs_level_cost(256, 7) * 2,
			cs_level_cost(256, 0) * 9);
	KUNIT_EXPECT_EQ(test, cs_level_cost(256, 4) * 5,
			cs_level_cost(256, 0) * 9);
	/* A request costs more than its sectors: 4 KiB is not 1/256 of 1 MiB. */
	KUNIT_EXPECT_GT(test, cs_level_cost(8, 4) * 10, cs_level_cost(2048, 4));
	KUNIT_EXPECT_LT(test, cs_level_cost(8, 4), cs_level_cost(2048, 4));
	/* Not ahead of the levels above: it goes. */
	KUNIT_EXPECT_FALSE(test, cs_level_waits(100, 100, 0, false));
	KUNIT_EXPECT_FALSE(test, cs_level_waits(99, 100, 1, false));
	/* Ahead: it waits, but past its deadline one read goes. */
	KUNIT_EXPECT_TRUE(test, cs_level_waits(101, 100, 0, false));
	KUNIT_EXPECT_FALSE(test, cs_level_waits(101, 100, 0, true));
	KUNIT_EXPECT_TRUE(test, cs_level_waits(101, 100, 1, true));
}

static struct kunit_case cs_depth_cases[] = {
	KUNIT_CASE(cs_test_async_dispatch),
	KUNIT_CASE(cs_test_async_depth),
	KUNIT_CASE(cs_test_idle_class_grace),
	KUNIT_CASE(cs_test_class_waits_rt),
	KUNIT_CASE(cs_test_level_share),
	{}
};

static struct kunit_suite cs_depth_suite = {
	.name = "ctxsched_depth",
	.test_cases = cs_depth_cases,
};

static void cs_test_seek_cost(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, cs_seek_cost(1000, 1500, 100, 2), 500ULL);
	KUNIT_EXPECT_EQ(test, cs_seek_cost(1000, 950, 100, 2), 100ULL);
	KUNIT_EXPECT_EQ(test, cs_seek_cost(1000, 900, 100, 2), 200ULL);
	KUNIT_EXPECT_EQ(test, cs_seek_cost(1000, 899, 100, 2), CS_SEEK_TOO_FAR);
	/* A penalty of 0 counts as 1. */
	KUNIT_EXPECT_EQ(test, cs_seek_cost(1000, 950, 100, 0), 50ULL);
}

static void cs_test_seek_pick(struct kunit *test)
{
	sector_t fwd_near[] = { 1100, 950 };	/* 100 ahead, 50 back (x2) */
	sector_t back_near[] = { 1300, 950 };	/* 300 ahead, 50 back (x2) */
	sector_t too_far[] = { 10, 20 };

	/* A tie goes to the forward candidate. */
	KUNIT_EXPECT_EQ(test, cs_seek_pick(1000, fwd_near, 2, 100, 2), 0);
	KUNIT_EXPECT_EQ(test, cs_seek_pick(1000, back_near, 2, 100, 2), 1);
	KUNIT_EXPECT_EQ(test, cs_seek_pick(1000, too_far, 2, 100, 2), -1);
	KUNIT_EXPECT_EQ(test, cs_seek_pick(1000, too_far, 0, 100, 2), -1);
}

static struct kunit_case cs_seek_cases[] = {
	KUNIT_CASE(cs_test_seek_cost),
	KUNIT_CASE(cs_test_seek_pick),
	{}
};

static struct kunit_suite cs_seek_suite = {
	.name = "ctxsched_seek",
	.test_cases = cs_seek_cases,
};

static void cs_test_coop_close(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, cs_coop_close(1000, 1000));
	KUNIT_EXPECT_TRUE(test, cs_coop_close(1000, 1000 + CS_COOP_CLOSE));
	KUNIT_EXPECT_FALSE(test, cs_coop_close(1000, 1001 + CS_COOP_CLOSE));
	/* A request just before the end of the stream also continues it. */
	KUNIT_EXPECT_TRUE(test, cs_coop_close(1000, 900));
	KUNIT_EXPECT_FALSE(test, cs_coop_close(1 << 20, 0));
}

/*
 * The lockless merge hint: a bio that starts where a queued request ends,
 * or ends where one starts, may merge; one elsewhere may not, so its bio
 * merge takes no lock.  A request whose span changed (a merge) is noted
 * again; an entry overwritten by another request's sector no longer
 * matches (a missed merge, never a wrong one).
 */
static void cs_test_merge_hint(struct kunit *test)
{
	struct cs_merge_hint *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	sector_t s, other = 0;
	unsigned int n = 0;

	KUNIT_ASSERT_NOT_NULL(test, h);
	cs_merge_hint_note(h, 1000, 1128);
	KUNIT_EXPECT_TRUE(test, cs_merge_hint_may(h, 1128, 1136));	/* back */
	KUNIT_EXPECT_TRUE(test, cs_merge_hint_may(h, 992, 1000));	/* front */
	/* Random 4 KiB reads elsewhere: no lock. */
	for (s = 1 << 20; s < (1 << 20) + 64 * 8; s += 8)
		n += cs_merge_hint_may(h, s, s + 8);
	KUNIT_EXPECT_EQ(test, n, 0U);
	/* The request grew by a back merge: its new end is found. */
	cs_merge_hint_note(h, 1000, 1136);
	KUNIT_EXPECT_TRUE(test, cs_merge_hint_may(h, 1136, 1144));
	/* Another request's end in 1136's slot replaces it. */
	for (s = 2000; !other; s++)
		if (cs_merge_slot(s) == cs_merge_slot(1136))
			other = s;
	cs_merge_hint_note(h, other - 8, other);
	KUNIT_EXPECT_FALSE(test, cs_merge_hint_may(h, 1136, 1144));
	KUNIT_EXPECT_TRUE(test, cs_merge_hint_may(h, other, other + 8));
}

static struct cs_coop_input cs_stream_pair(u64 distance)
{
	struct cs_coop_input in = {
		.active_sync = true, .new_sync = true,
		.active_class = CS_CLASS_BE, .new_class = CS_CLASS_BE,
		.active_level = 4, .new_level = 4,
		.new_history = CS_COOP_HISTORY,
		.distance = distance,
	};

	return in;
}

static void cs_test_coop_merge(struct kunit *test)
{
	struct cs_coop_input in = cs_stream_pair(0);

	KUNIT_EXPECT_TRUE(test, cs_should_merge(&in));
	in.distance = CS_COOP_CLOSE;
	KUNIT_EXPECT_TRUE(test, cs_should_merge(&in));
	in.distance = CS_COOP_CLOSE + 1;
	KUNIT_EXPECT_FALSE(test, cs_should_merge(&in));
}

static void cs_test_coop_no_merge(struct kunit *test)
{
	struct cs_coop_input in = cs_stream_pair(0);

	in.new_sync = false;
	KUNIT_EXPECT_FALSE(test, cs_should_merge(&in));
	in = cs_stream_pair(0);
	in.active_sync = false;
	KUNIT_EXPECT_FALSE(test, cs_should_merge(&in));
	in = cs_stream_pair(0);
	in.new_class = CS_CLASS_RT;
	KUNIT_EXPECT_FALSE(test, cs_should_merge(&in));
	in = cs_stream_pair(0);
	in.active_class = CS_CLASS_IDLE;
	KUNIT_EXPECT_FALSE(test, cs_should_merge(&in));
	in = cs_stream_pair(0);
	in.active_seeky = true;
	KUNIT_EXPECT_FALSE(test, cs_should_merge(&in));
	in = cs_stream_pair(0);
	in.new_seeky = true;
	KUNIT_EXPECT_FALSE(test, cs_should_merge(&in));
	/* Item 10: no riding on another level's share ... */
	in = cs_stream_pair(0);
	in.new_level = 7;
	KUNIT_EXPECT_FALSE(test, cs_should_merge(&in));
	in = cs_stream_pair(0);
	in.active_level = 0;
	KUNIT_EXPECT_FALSE(test, cs_should_merge(&in));
	/* ... and a context's first request near a stream is chance. */
	in = cs_stream_pair(0);
	in.new_history = 1;
	KUNIT_EXPECT_FALSE(test, cs_should_merge(&in));
}

/*
 * A boosted queue's request within CS_COOP_CLOSE of another sync queue's
 * last one continues a stream: not a program starting.  Unlike a merge,
 * the first such request is enough, seeky or not.
 */
static void cs_test_coop_ends_boost(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, cs_coop_ends_boost(true, 0));
	KUNIT_EXPECT_TRUE(test, cs_coop_ends_boost(true, CS_COOP_CLOSE));
	KUNIT_EXPECT_FALSE(test, cs_coop_ends_boost(true, CS_COOP_CLOSE + 1));
	KUNIT_EXPECT_FALSE(test, cs_coop_ends_boost(false, 0));
}

/*
 * A pool's stream goes on up to CS_COOP_CLOSE past where its last request
 * ended, and its threads' requests may arrive up to CS_STREAM_BEHIND behind
 * it; farther on either side is another area.
 */
static void cs_test_stream_gap(struct kunit *test)
{
	const sector_t end = 1 << 20;

	KUNIT_EXPECT_EQ(test, cs_stream_gap(end, end), 0ULL);
	KUNIT_EXPECT_EQ(test, cs_stream_gap(end, end + CS_COOP_CLOSE),
			(u64)CS_COOP_CLOSE);
	KUNIT_EXPECT_EQ(test, cs_stream_gap(end, end + CS_COOP_CLOSE + 1),
			U64_MAX);
	KUNIT_EXPECT_EQ(test, cs_stream_gap(end, end - CS_STREAM_BEHIND),
			(u64)CS_STREAM_BEHIND);
	KUNIT_EXPECT_EQ(test, cs_stream_gap(end, end - CS_STREAM_BEHIND - 1),
			U64_MAX);
	/* Behind reaches farther than ahead: the race, not a new area. */
	KUNIT_EXPECT_GT(test, CS_STREAM_BEHIND, CS_COOP_CLOSE);
	KUNIT_EXPECT_EQ(test, cs_stream_gap(end, 0), U64_MAX);
}

/*
 * Five contexts reading one stream in turn, 64 KiB (128 sectors) each: every
 * context's request starts where the merged queue's last one ended, so each
 * joins in turn.  A context that fell behind by more than the threshold, or
 * reads another area, does not.
 */
static void cs_test_coop_chain(struct kunit *test)
{
	sector_t last_end = 0, pos, lagging = 0;
	struct cs_coop_input in;
	int i;

	for (i = 0; i < 20; i++) {
		pos = last_end;			/* context i % 5 continues */
		in = cs_stream_pair(pos >= last_end ? pos - last_end :
						      last_end - pos);
		KUNIT_EXPECT_TRUE(test, cs_should_merge(&in));
		last_end = pos + 128;
	}
	/* 20 chunks on, a context still at the start is 2560 sectors back. */
	in = cs_stream_pair(last_end - lagging);
	KUNIT_EXPECT_FALSE(test, cs_coop_close(last_end, lagging));
	KUNIT_EXPECT_FALSE(test, cs_should_merge(&in));
	/* One chunk behind is still the same stream. */
	in = cs_stream_pair(128);
	KUNIT_EXPECT_TRUE(test, cs_should_merge(&in));
}

static void cs_test_coop_split(struct kunit *test)
{
	struct cs_seek sk = {};
	int i;

	KUNIT_EXPECT_FALSE(test, cs_should_split(true, 3, cs_seeky(&sk)));
	/* Two streams interleaved in one queue: every request seeks. */
	for (i = 0; i < 6; i++)
		cs_seek_add(&sk, 1 << 21);
	KUNIT_EXPECT_TRUE(test, cs_should_split(true, 3, cs_seeky(&sk)));
	/* Only merged queues split, and only with contexts to split. */
	KUNIT_EXPECT_FALSE(test, cs_should_split(false, 3, cs_seeky(&sk)));
	KUNIT_EXPECT_FALSE(test, cs_should_split(true, 1, cs_seeky(&sk)));
}

static void cs_test_group_keys(struct kunit *test)
{
	/* Two threads of process 100 with contexts 0x1000 and 0x2000. */
	KUNIT_EXPECT_NE(test, cs_group_key(CS_GROUP_THREAD, 100, 0x1000),
			cs_group_key(CS_GROUP_THREAD, 100, 0x2000));
	KUNIT_EXPECT_EQ(test, cs_group_key(CS_GROUP_PROCESS, 100, 0x1000),
			cs_group_key(CS_GROUP_PROCESS, 100, 0x2000));
	KUNIT_EXPECT_NE(test, cs_group_key(CS_GROUP_PROCESS, 100, 0x1000),
			cs_group_key(CS_GROUP_PROCESS, 101, 0x1000));
}

/*
 * A user task's pool is its process; kernel threads of one name (nfsd, the
 * kworkers) are one pool, apart from every process and from other names.
 */
static void cs_test_pool_key(struct kunit *test)
{
	static const char jbd2[] = "jbd2/sda1-8";
	static const char raw[4] = { 'n', 'f', 's', 'd' };
	pid_t nfsd = cs_pool_key(true, 801, "nfsd", 16);
	pid_t kw = cs_pool_key(true, 90, "kworker/0:1", 16);

	KUNIT_EXPECT_EQ(test, cs_pool_key(false, 100, "nfsd", 16), 100);
	KUNIT_EXPECT_EQ(test, cs_pool_key(true, 802, "nfsd", 16), nfsd);
	KUNIT_EXPECT_LT(test, nfsd, 0);
	KUNIT_EXPECT_EQ(test, cs_pool_key(true, 91, "kworker/u8:2", 16), kw);
	KUNIT_EXPECT_EQ(test, cs_pool_key(true, 92, "kworker/1:0H", 16), kw);
	KUNIT_EXPECT_NE(test, kw, nfsd);
	/* Numbered threads of one server are one pool, other names not. */
	KUNIT_EXPECT_EQ(test, cs_pool_key(true, 93, "scsi_eh_0", 16),
			cs_pool_key(true, 94, "scsi_eh_12", 16));
	KUNIT_EXPECT_NE(test, cs_pool_key(true, 95, jbd2, sizeof(jbd2)), nfsd);
	KUNIT_EXPECT_NE(test, cs_pool_key(true, 96, "nfsv4.1-svc", 16), nfsd);
	/* A name is read no further than its length, NUL or not. */
	KUNIT_EXPECT_EQ(test, cs_pool_key(true, 97, raw, sizeof(raw)), nfsd);
	KUNIT_EXPECT_LT(test, cs_pool_key(true, 98, "", 16), 0);
}

static void cs_test_cap(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, cs_cap_allows(0, 1 << 20, 1 << 20));
	KUNIT_EXPECT_TRUE(test, cs_cap_allows(256, 128 << 10, 128 << 10));
	KUNIT_EXPECT_FALSE(test, cs_cap_allows(256, 128 << 10, 129 << 10));
	KUNIT_EXPECT_FALSE(test, cs_cap_allows(256, 256 << 10, 4096));
	KUNIT_EXPECT_TRUE(test, cs_cap_allows(4, 0, 4096));
}

static struct kunit_case cs_coop_cases[] = {
	KUNIT_CASE(cs_test_coop_close),
	KUNIT_CASE(cs_test_merge_hint),
	KUNIT_CASE(cs_test_coop_merge),
	KUNIT_CASE(cs_test_coop_no_merge),
	KUNIT_CASE(cs_test_coop_ends_boost),
	KUNIT_CASE(cs_test_stream_gap),
	KUNIT_CASE(cs_test_coop_chain),
	KUNIT_CASE(cs_test_coop_split),
	KUNIT_CASE(cs_test_group_keys),
	KUNIT_CASE(cs_test_pool_key),
	KUNIT_CASE(cs_test_cap),
	{}
};

static struct kunit_suite cs_coop_suite = {
	.name = "ctxsched_coop",
	.test_cases = cs_coop_cases,
};

/* The core's suites: cs_core_suite, cs_fixes_suite. */
#include "core_cases.c"
/* The device model's suite, cs_model_suite. */
#include "model_cases.c"
/* The readahead policy's suite, cs_ra_suite. */
#include "ra_cases.c"

kunit_test_suites(&cs_slice_suite, &cs_idle_suite, &cs_order_suite,
		  &cs_depth_suite, &cs_seek_suite, &cs_coop_suite,
		  &cs_core_suite, &cs_fixes_suite, &cs_model_suite,
		  &cs_ra_suite);

MODULE_DESCRIPTION("KUnit tests for the ctxsched scheduling core and policy");
MODULE_LICENSE("GPL");
