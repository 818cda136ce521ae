// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit cases for ra/policy.c: how a readahead call is classified from the
 * file's window before and after it, and how ra_autotune moves a window.
 * Included by ctxsched_kunit.c.
 */
#include "../ra/policy.c"

/* A sync call at @index for @req pages; window 64..96, async mark at 80. */
static struct cs_ra_call cs_ra_sync_call(unsigned long index,
					 unsigned long req)
{
	struct cs_ra_call c = {
		.entry = CS_RA_E_SYNC,
		.index = index,
		.req = req,
		.ra_pages = 32,
		.prev_index = 95,
		.eof_pages = 10000,
		.before = { .start = 64, .size = 32, .async_size = 16 },
	};

	c.after = c.before;
	return c;
}

static void cs_test_ra_initial(struct kunit *test)
{
	struct cs_ra_call c = cs_ra_sync_call(0, 4);

	c.after = (struct cs_ra_window){ 0, 16, 12 };
	KUNIT_EXPECT_EQ(test, cs_ra_classify(&c), CS_RA_INITIAL);
}

static void cs_test_ra_sequential(struct kunit *test)
{
	struct cs_ra_call c = cs_ra_sync_call(96, 4);

	/* The page after the previous read: a sequential cache miss. */
	c.after = (struct cs_ra_window){ 96, 32, 28 };
	KUNIT_EXPECT_EQ(test, cs_ra_classify(&c), CS_RA_SEQUENTIAL);
	/* Re-reading the same page counts too (unaligned reads). */
	c.index = 95;
	KUNIT_EXPECT_EQ(test, cs_ra_classify(&c), CS_RA_SEQUENTIAL);
}

static void cs_test_ra_context(struct kunit *test)
{
	struct cs_ra_call c = cs_ra_sync_call(5000, 4);

	/* Far from the previous read, yet a window: from page-cache history. */
	c.after = (struct cs_ra_window){ 5000, 24, 1 };
	KUNIT_EXPECT_EQ(test, cs_ra_classify(&c), CS_RA_CONTEXT);
}

static void cs_test_ra_random(struct kunit *test)
{
	struct cs_ra_call c = cs_ra_sync_call(5000, 1);

	/* Read as asked, window untouched. */
	KUNIT_EXPECT_EQ(test, cs_ra_classify(&c), CS_RA_RANDOM);
}

static void cs_test_ra_oversize(struct kunit *test)
{
	struct cs_ra_call c = cs_ra_sync_call(5000, 64);

	c.after = (struct cs_ra_window){ 5000, 64, 32 };
	KUNIT_EXPECT_EQ(test, cs_ra_classify(&c), CS_RA_OVERSIZE);
	/* A read of exactly the window is not oversize. */
	c.req = 32;
	KUNIT_EXPECT_NE(test, cs_ra_classify(&c), CS_RA_OVERSIZE);
}

static void cs_test_ra_async(struct kunit *test)
{
	struct cs_ra_call c = cs_ra_sync_call(80, 16);

	c.entry = CS_RA_E_ASYNC;
	c.after = (struct cs_ra_window){ 96, 64, 64 };
	KUNIT_EXPECT_EQ(test, cs_ra_classify(&c), CS_RA_ASYNC);
	/* A mark set by another stream of the same file: interleaved. */
	c.index = 4000;
	KUNIT_EXPECT_EQ(test, cs_ra_classify(&c), CS_RA_CONTEXT);
}

static void cs_test_ra_forced_mmap(struct kunit *test)
{
	struct cs_ra_call c = cs_ra_sync_call(0, 16);

	c.forced_mode = true;
	KUNIT_EXPECT_EQ(test, cs_ra_classify(&c), CS_RA_FORCED);
	c.forced_mode = false;
	c.entry = CS_RA_E_FORCE;
	KUNIT_EXPECT_EQ(test, cs_ra_classify(&c), CS_RA_FORCED);
	c.entry = CS_RA_E_AROUND;
	KUNIT_EXPECT_EQ(test, cs_ra_classify(&c), CS_RA_MMAP);
	c.entry = CS_RA_E_ASYNC;
	c.fault = true;
	KUNIT_EXPECT_EQ(test, cs_ra_classify(&c), CS_RA_MMAP);
}

static void cs_test_ra_eof_size(struct kunit *test)
{
	struct cs_ra_call c = cs_ra_sync_call(5000, 4);
	unsigned long size, async;

	c.eof_pages = 5004;
	KUNIT_EXPECT_TRUE(test, cs_ra_hits_eof(&c));
	cs_ra_read_size(&c, &size, &async);
	KUNIT_EXPECT_EQ(test, size, 4UL);
	KUNIT_EXPECT_EQ(test, async, 0UL);
	c.eof_pages = 5005;
	KUNIT_EXPECT_FALSE(test, cs_ra_hits_eof(&c));
	c.after = (struct cs_ra_window){ 4990, 32, 16 };
	KUNIT_EXPECT_TRUE(test, cs_ra_hits_eof(&c));
	cs_ra_read_size(&c, &size, &async);
	KUNIT_EXPECT_EQ(test, size, 32UL);
	KUNIT_EXPECT_EQ(test, async, 16UL);
	c.eof_pages = 0;	/* size unknown */
	KUNIT_EXPECT_FALSE(test, cs_ra_hits_eof(&c));
}

/* An epoch of @ms with @async async calls that read @pages pages. */
static struct cs_ra_epoch cs_ra_epoch_of(unsigned int async, u64 pages,
					 unsigned int ms)
{
	struct cs_ra_epoch e = { .stream_pages = pages, .ns = ms * MS };

	e.calls[CS_RA_ASYNC] = async;
	return e;
}

static void cs_test_ra_tune_streams(struct kunit *test)
{
	/* 12800 pages in 1 s (50 MB/s): 100 ms of it is 1280 pages. */
	struct cs_ra_epoch e = cs_ra_epoch_of(400, 12800, 1000);

	KUNIT_EXPECT_EQ(test, cs_ra_tune(32, &e, 32, 2048), 1280U);
	/* ... within ra_max_kb. */
	KUNIT_EXPECT_EQ(test, cs_ra_tune(32, &e, 32, 1024), 1024U);
	/* A bit below the window: keep it (hysteresis). */
	KUNIT_EXPECT_EQ(test, cs_ra_tune(2048, &e, 32, 4096), 2048U);
	/* Far below: halve, not more. */
	e.stream_pages = 1280;
	KUNIT_EXPECT_EQ(test, cs_ra_tune(2048, &e, 32, 4096), 1024U);
}

static void cs_test_ra_tune_misses(struct kunit *test)
{
	/* Slow but the reader keeps catching up: sync misses double. */
	struct cs_ra_epoch e = cs_ra_epoch_of(10, 320, 1000);

	e.calls[CS_RA_SEQUENTIAL] = 10;
	KUNIT_EXPECT_EQ(test, cs_ra_tune(64, &e, 32, 1024), 128U);
	KUNIT_EXPECT_EQ(test, cs_ra_tune(1024, &e, 32, 1024), 1024U);
}

static void cs_test_ra_tune_random(struct kunit *test)
{
	struct cs_ra_epoch e = cs_ra_epoch_of(2, 12800, 1000);

	e.calls[CS_RA_RANDOM] = 300;
	KUNIT_EXPECT_EQ(test, cs_ra_tune(1024, &e, 32, 1024), 512U);
	KUNIT_EXPECT_EQ(test, cs_ra_tune(32, &e, 32, 1024), 32U);
	/* mmap faults count as random. */
	e.calls[CS_RA_RANDOM] = 0;
	e.calls[CS_RA_MMAP] = 300;
	KUNIT_EXPECT_EQ(test, cs_ra_tune(256, &e, 32, 1024), 128U);
}

static void cs_test_ra_tune_quiet(struct kunit *test)
{
	struct cs_ra_epoch e = cs_ra_epoch_of(CS_RA_TUNE_MIN_CALLS - 1,
					      12800, 1000);

	/* Too few calls: no change, but always within the limits. */
	KUNIT_EXPECT_EQ(test, cs_ra_tune(64, &e, 32, 1024), 64U);
	KUNIT_EXPECT_EQ(test, cs_ra_tune(64, &e, 128, 1024), 128U);
	KUNIT_EXPECT_EQ(test, cs_ra_tune(4096, &e, 32, 1024), 1024U);
	e.calls[CS_RA_ASYNC] = 100;
	e.ns = 0;
	KUNIT_EXPECT_EQ(test, cs_ra_tune(64, &e, 32, 1024), 64U);
}

static struct kunit_case cs_ra_cases[] = {
	KUNIT_CASE(cs_test_ra_initial),
	KUNIT_CASE(cs_test_ra_sequential),
	KUNIT_CASE(cs_test_ra_context),
	KUNIT_CASE(cs_test_ra_random),
	KUNIT_CASE(cs_test_ra_oversize),
	KUNIT_CASE(cs_test_ra_async),
	KUNIT_CASE(cs_test_ra_forced_mmap),
	KUNIT_CASE(cs_test_ra_eof_size),
	KUNIT_CASE(cs_test_ra_tune_streams),
	KUNIT_CASE(cs_test_ra_tune_misses),
	KUNIT_CASE(cs_test_ra_tune_random),
	KUNIT_CASE(cs_test_ra_tune_quiet),
	{}
};

static struct kunit_suite cs_ra_suite = {
	.name = "ctxsched_readahead",
	.test_cases = cs_ra_cases,
};
