// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit cases for the scheduling core (sched/core.c, sched/members.c),
 * driven through its interface as the elevator glue drives it: requests
 * inserted, dispatched, completed and requeued, contexts that exit, an idle
 * timer fired by hand, a clock the test moves.  cs_fixes_suite holds one
 * case per defect of the review of c397ee4 (issue 11, items 1-10).
 * Included by ctxsched_kunit.c.
 */

#define KT_MAX_CTX	16

/* A core under test, its clock and the contexts the test made. */
struct kt {
	struct kunit *test;
	struct cs_kenv *env;
	struct cs_core *core;
	u64 now;
	struct cs_kctx *ctx[KT_MAX_CTX];
	unsigned int nr_ctx;
};

static struct kt *kt_new_disk(struct kunit *test, enum cs_mode_force mode,
			      bool rotational)
{
	struct kt *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	u64 tun[CS_NR_TUNABLES];

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->env = kunit_kzalloc(test, sizeof(*t->env), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->env);
	t->test = test;
	t->core = &t->env->core;
	t->now = 1000 * MS;
	cs_tunables_defaults(tun);
	tun[CS_T_DEVICE_MODE] = mode;
	/* Boosts (on by default) only where a case asks. */
	tun[CS_T_BOOST] = 0;
	cs_core_init(t->core, tun, rotational, NULL, t->now);
	return t;
}

static struct kt *kt_new(struct kunit *test, enum cs_mode_force mode)
{
	return kt_new_disk(test, mode, true);
}

static struct cs_kctx *kt_ctx(struct kt *t, pid_t tgid)
{
	struct cs_kctx *c = kunit_kzalloc(t->test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(t->test, c);
	KUNIT_ASSERT_LT(t->test, t->nr_ctx, KT_MAX_CTX);
	INIT_LIST_HEAD(&c->ctx.member);
	c->ctx.tgid = tgid;
	c->ctx.pool = tgid;
	c->ctx.id = (unsigned long)c;
	c->alive = true;
	t->ctx[t->nr_ctx++] = c;
	return c;
}

/* Make @krq a new request of @kb KiB at @sector: a read, or a (sync) write. */
static struct request *kt_rq_init(struct cs_krq *krq, sector_t sector,
				  unsigned int kb, bool write, bool sync)
{
	struct request *rq = &krq->rq;

	memset(krq, 0, sizeof(*krq));
	rq->__sector = sector;
	rq->__data_len = kb << 10;
	rq->cmd_flags = write ? REQ_OP_WRITE | (sync ? REQ_SYNC : 0) :
				REQ_OP_READ;
	krq->ioprio = IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, CS_DEFAULT_LEVEL);
	INIT_LIST_HEAD(&rq->queuelist);
	RB_CLEAR_NODE(&rq->rb_node);
	return rq;
}

/* A request of @kb KiB at @sector, freed with the test. */
static struct request *kt_rq(struct kt *t, sector_t sector, unsigned int kb,
			     bool write, bool sync)
{
	struct cs_krq *krq = kunit_kzalloc(t->test, sizeof(*krq), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(t->test, krq);
	return kt_rq_init(krq, sector, kb, write, sync);
}

static struct request *kt_read(struct kt *t, sector_t sector)
{
	return kt_rq(t, sector, 64, false, true);
}

static void kt_prio(struct request *rq, int class, int level)
{
	container_of(rq, struct cs_krq, rq)->ioprio =
		IOPRIO_PRIO_VALUE(class, level);
}

static void kt_insert(struct kt *t, struct request *rq, struct cs_kctx *c)
{
	cs_core_insert(t->core, rq, c ? &c->ctx : NULL, false, t->now);
}

static struct request *kt_dispatch(struct kt *t)
{
	return cs_core_dispatch(t->core, t->now);
}

static bool kt_done(struct kt *t, struct request *rq)
{
	return cs_core_finish(t->core, rq, t->now);
}

/* Complete the @n requests of @rqs. */
static void kt_done_all(struct kt *t, struct request **rqs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		kt_done(t, rqs[i]);
}

/* Let @ns pass; fire the idle timer if it is due.  Return: a kick. */
static bool kt_wait(struct kt *t, u64 ns)
{
	bool kick = false;

	t->now += ns;
	while (t->env->timer_armed && t->env->timer_at <= t->now) {
		t->env->timer_armed = false;
		kick |= cs_core_idle_timer(t->core, t->env->timer_at);
	}
	return kick;
}

/*
 * Dispatch, letting up to 50 ms pass (idle windows expire) until something
 * comes out.
 */
static struct request *kt_serve(struct kt *t)
{
	struct request *rq = kt_dispatch(t);
	unsigned int i;

	for (i = 0; !rq && i < 50; i++) {
		kt_wait(t, 1 * MS);
		rq = kt_dispatch(t);
	}
	return rq;
}

/* The queue of a context's sync requests. */
static struct cs_queue *kt_q(struct cs_kctx *c)
{
	return c->ctx.sync_q;
}

/* Dispatch and complete everything, then tear down; check the books. */
static void kt_end(struct kt *t, unsigned int warnings)
{
	struct kunit *test = t->test;
	struct request *rq;
	unsigned int i, rounds = 0;

	while (cs_core_has_work(t->core) && rounds++ < 100000) {
		rq = kt_dispatch(t);
		if (rq)
			kt_done(t, rq);
		else
			kt_wait(t, 1 * MS);
	}
	KUNIT_EXPECT_FALSE(test, cs_core_has_work(t->core));
	for (i = 0; i < t->nr_ctx; i++) {
		t->ctx[i]->alive = false;
		cs_core_ctx_exit(t->core, &t->ctx[i]->ctx);
	}
	KUNIT_EXPECT_EQ(test, t->core->in_driver[0] + t->core->in_driver[1],
			0U);
	KUNIT_EXPECT_EQ(test, t->core->nr_present_sync, 0U);
	for (i = 0; i < CS_NR_CLASSES * CS_NR_LEVELS; i++)
		KUNIT_EXPECT_EQ(test, t->core->lvl[i / CS_NR_LEVELS]
					      [i % CS_NR_LEVELS].present, 0U);
	cs_core_exit(t->core);
	KUNIT_EXPECT_EQ(test, t->env->queues, 0);
	KUNIT_EXPECT_EQ(test, t->env->listed, 0);
	KUNIT_EXPECT_EQ(test, t->env->warnings, warnings);
}

/* Requests of one context go out in sector order from the head. */
static void cs_test_core_sector_order(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *a = kt_ctx(t, 10);
	struct request *r3 = kt_read(t, 3000), *r1 = kt_read(t, 1000);
	struct request *r2 = kt_read(t, 2000);

	kt_insert(t, r3, a);
	kt_insert(t, r1, a);
	kt_insert(t, r2, a);
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), r1);
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), r2);
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), r3);
	KUNIT_EXPECT_NULL(test, kt_dispatch(t));
	kt_done(t, r1);
	kt_done(t, r2);
	kt_done(t, r3);
	kt_end(t, 0);
}

/*
 * SERIAL: a backlogged queue owns the disk for its slice with at most
 * quantum requests in the driver; the other waits for the slice to end.
 */
static void cs_test_core_serial_slice(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *a = kt_ctx(t, 10), *b = kt_ctx(t, 11);
	struct request *rq, *inflight[8];
	unsigned int i, n;

	for (i = 0; i < 32; i++) {
		kt_insert(t, kt_read(t, i * 128), a);
		kt_insert(t, kt_read(t, (1 << 24) + i * 128), b);
	}
	for (n = 0; n < 8; n++) {
		inflight[n] = kt_dispatch(t);
		KUNIT_ASSERT_NOT_NULL(test, inflight[n]);
		KUNIT_EXPECT_PTR_EQ(test, cs_rq_queue(inflight[n]), kt_q(a));
	}
	/* quantum (8) in the driver: nothing more while b waits. */
	KUNIT_EXPECT_NULL(test, kt_dispatch(t));
	/* A completion lifts the limit: the caller is told to run the queue. */
	KUNIT_EXPECT_TRUE(test, kt_done(t, inflight[0]));
	rq = kt_dispatch(t);
	KUNIT_EXPECT_PTR_EQ(test, cs_rq_queue(rq), kt_q(a));
	for (i = 1; i < 8; i++)
		kt_done(t, inflight[i]);
	kt_done(t, rq);
	/* 180 ms later a's slice (100 ms at level 4) is over: b's turn. */
	kt_wait(t, 180 * MS);
	rq = kt_dispatch(t);
	KUNIT_EXPECT_PTR_EQ(test, cs_rq_queue(rq), kt_q(b));
	kt_done(t, rq);
	kt_end(t, 0);
}

/* A sequential reader that runs dry keeps the disk for its next request. */
static void cs_test_core_idle_hit(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *a = kt_ctx(t, 10), *b = kt_ctx(t, 11);
	struct request *ra = kt_read(t, 0), *rb = kt_read(t, 1 << 24), *rq;

	kt_insert(t, ra, a);
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), ra);
	kt_insert(t, rb, b);
	t->now += 1 * MS;
	/* Done, nothing queued, b waits: a idles (think time unknown). */
	KUNIT_EXPECT_FALSE(test, kt_done(t, ra));
	KUNIT_EXPECT_EQ(test, t->core->idling, CS_IDLE_QUEUE);
	KUNIT_EXPECT_TRUE(test, t->env->timer_armed);
	KUNIT_EXPECT_EQ(test, t->env->timer_at, t->now + 8 * MS);
	KUNIT_EXPECT_NULL(test, kt_dispatch(t));
	/* Its next request comes 2 ms later and goes before b's. */
	kt_wait(t, 2 * MS);
	rq = kt_read(t, 128);
	kt_insert(t, rq, a);
	KUNIT_EXPECT_EQ(test, t->core->idling, CS_IDLE_NONE);
	KUNIT_EXPECT_EQ(test, t->core->stats.idle_hit, 1ULL);
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), rq);
	kt_done(t, rq);
	kt_end(t, 0);
}

/* An idle window that passes ends the slice and runs the queue. */
static void cs_test_core_idle_expire(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *a = kt_ctx(t, 10), *b = kt_ctx(t, 11);
	struct request *ra = kt_read(t, 0), *rb = kt_read(t, 1 << 24);

	kt_insert(t, ra, a);
	kt_dispatch(t);
	kt_insert(t, rb, b);
	kt_done(t, ra);
	KUNIT_EXPECT_NULL(test, kt_dispatch(t));
	KUNIT_EXPECT_FALSE(test, kt_wait(t, 7 * MS));
	KUNIT_EXPECT_TRUE(test, kt_wait(t, 1 * MS));
	KUNIT_EXPECT_EQ(test, t->core->stats.idle_expired, 1ULL);
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), rb);
	kt_done(t, rb);
	kt_end(t, 0);
}

/* A requeued request comes back at the head and is served first. */
static void cs_test_core_requeue(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *a = kt_ctx(t, 10);
	struct request *r1 = kt_read(t, 0), *r2 = kt_read(t, 128);

	kt_insert(t, r1, a);
	kt_insert(t, r2, a);
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), r1);
	cs_core_requeue(t->core, r1);
	KUNIT_EXPECT_EQ(test, t->core->in_driver[1], 0U);
	cs_core_insert(t->core, r1, &a->ctx, true, t->now);
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), r1);
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), r2);
	kt_done(t, r1);
	kt_done(t, r2);
	KUNIT_EXPECT_EQ(test, t->core->stats.requeued, 1ULL);
	kt_end(t, 0);
}

/* The context the active queue waits for exits: stop waiting, run. */
static void cs_test_core_ctx_exit(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *a = kt_ctx(t, 10), *b = kt_ctx(t, 11);
	struct request *ra = kt_read(t, 0), *rb = kt_read(t, 1 << 24);

	kt_insert(t, ra, a);
	kt_dispatch(t);
	kt_insert(t, rb, b);
	kt_done(t, ra);
	KUNIT_EXPECT_EQ(test, t->core->idling, CS_IDLE_QUEUE);
	a->alive = false;
	KUNIT_EXPECT_TRUE(test, cs_core_ctx_exit(t->core, &a->ctx));
	KUNIT_EXPECT_EQ(test, t->core->idling, CS_IDLE_NONE);
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), rb);
	kt_done(t, rb);
	kt_end(t, 0);
}

/* Three contexts read one stream in turn, 64 KiB each. */
static void kt_one_stream(struct kt *t, struct cs_kctx **c)
{
	struct request *rq;
	sector_t pos = 0;
	unsigned int i;

	for (i = 0; i < 30; i++) {
		rq = kt_read(t, pos);
		kt_insert(t, rq, c[i % 3]);
		KUNIT_ASSERT_PTR_EQ(t->test, kt_serve(t), rq);
		t->now += 100 * 1000;
		kt_done(t, rq);
		pos += 128;
	}
}

/* The same three contexts each read their own far area. */
static void kt_far_apart(struct kt *t, struct cs_kctx **c)
{
	struct request *rq;
	unsigned int i;

	for (i = 0; i < 12; i++) {
		rq = kt_read(t, ((sector_t)(i % 3) << 26) + i * 128);
		kt_insert(t, rq, c[i % 3]);
		rq = kt_dispatch(t);
		if (rq)
			kt_done(t, rq);
		kt_wait(t, 20 * MS);
	}
}

/*
 * Three contexts read one stream in turn, 64 KiB each: once each has a
 * history they are merged into the active queue, so the stream is one
 * queue; when they go apart the merged queue turns seeky and is split.
 */
static void cs_test_core_merge_split(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *c[3];
	unsigned int i;

	for (i = 0; i < 3; i++)
		c[i] = kt_ctx(t, 20 + i);
	kt_one_stream(t, c);
	KUNIT_EXPECT_GE(test, t->core->stats.coop_merged, 2ULL);
	KUNIT_EXPECT_PTR_EQ(test, kt_q(c[0]), kt_q(c[1]));
	KUNIT_EXPECT_PTR_EQ(test, kt_q(c[1]), kt_q(c[2]));
	KUNIT_EXPECT_EQ(test, kt_q(c[0])->nr_members, 3U);
	/* Now each reads its own far area: every request seeks. */
	kt_far_apart(t, c);
	KUNIT_EXPECT_GE(test, t->core->stats.coop_split, 1ULL);
	KUNIT_EXPECT_PTR_NE(test, kt_q(c[0]), kt_q(c[1]));
	kt_end(t, 0);
}

/*
 * A pool of four threads serves one stream, each thread taking the next
 * 256 KiB chunk: a thread's next chunk lies a pool's width past its last,
 * and the four requests of a round arrive out of order.  Round @r
 * inserts chunk j from thread (r + j) % 4, in the order 1 0 3 2.
 */
static void kt_pool_round(struct kt *t, struct cs_kctx **c, unsigned int r,
			  struct request **rqs)
{
	static const unsigned int order[4] = { 1, 0, 3, 2 };
	unsigned int j, k;

	for (k = 0; k < 4; k++) {
		j = order[k];
		rqs[j] = kt_rq(t, (sector_t)(r * 4 + j) * 512, 256, false,
			       true);
		kt_insert(t, rqs[j], c[(r + j) % 4]);
	}
}

/*
 * Where slices own the disk, a pool's requests go into the one queue that
 * serves the stream, whichever thread issued them, and the disk reads the
 * stream in order.  A thread's read of its own far area, and a read of
 * another level, stay in the thread's own queue.
 */
static void cs_test_core_stream_pool(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct request *rqs[4], *rq;
	struct cs_queue *sq = NULL;
	struct cs_kctx *c[4];
	sector_t last = 0;
	unsigned int i, r;

	for (i = 0; i < 4; i++)
		c[i] = kt_ctx(t, 40);
	for (r = 0; r < 6; r++) {
		kt_pool_round(t, c, r, rqs);
		if (!sq)
			sq = cs_rq_queue(rqs[1]);
		for (i = 0; i < 4; i++)
			KUNIT_EXPECT_PTR_EQ(test, cs_rq_queue(rqs[i]), sq);
		for (i = 0; i < 4; i++) {
			rq = kt_serve(t);
			KUNIT_ASSERT_NOT_NULL(test, rq);
			KUNIT_EXPECT_GE(test, blk_rq_pos(rq), last);
			last = blk_rq_pos(rq);
			t->now += 2 * MS;
			kt_done(t, rq);
		}
	}
	/* The stream's queue is thread 1's: the others' 18 requests moved. */
	KUNIT_EXPECT_PTR_EQ(test, sq, kt_q(c[1]));
	KUNIT_EXPECT_EQ(test, t->core->stats.stream_moved, 6ULL * 3);
	/* Read in order, it is no seeker: no seeky window, its slice. */
	KUNIT_EXPECT_FALSE(test, cs_seeky(&sq->seek));
	/* A thread reading its own far area keeps it to itself. */
	rq = kt_read(t, (sector_t)1 << 28);
	kt_insert(t, rq, c[2]);
	KUNIT_EXPECT_PTR_NE(test, cs_rq_queue(rq), sq);
	/* It takes the disk once the stream's idle window is over. */
	KUNIT_ASSERT_PTR_EQ(test, kt_serve(t), rq);
	KUNIT_ASSERT_PTR_NE(test, t->core->active, sq);
	kt_done(t, rq);
	/* The stream's queue, neither active nor waiting, is still found. */
	rq = kt_rq(t, last + 512, 256, false, true);
	kt_insert(t, rq, c[0]);
	KUNIT_EXPECT_PTR_EQ(test, cs_rq_queue(rq), sq);
	KUNIT_EXPECT_EQ(test, t->core->stats.stream_moved, 6ULL * 3 + 1);
	last += 512;
	/* A read of the stream at another level is not moved. */
	rq = kt_rq(t, last + 512, 256, false, true);
	kt_prio(rq, IOPRIO_CLASS_BE, 0);
	kt_insert(t, rq, c[3]);
	KUNIT_EXPECT_PTR_NE(test, cs_rq_queue(rq), sq);
	/* And one past the stream's end by more than CS_COOP_CLOSE. */
	rq = kt_rq(t, last + 512 + CS_COOP_CLOSE + 1, 256, false, true);
	kt_insert(t, rq, c[0]);
	KUNIT_EXPECT_PTR_NE(test, cs_rq_queue(rq), sq);
	KUNIT_EXPECT_EQ(test, t->core->stats.stream_moved, 6ULL * 3 + 1);
	kt_end(t, 0);
}

/*
 * Three threads serve two streams far apart, taking the items in turn
 * (item i is chunk i / 2 of stream i % 2, taken by thread i % 3), so every
 * thread reads for both streams: each request goes into the queue of the
 * stream it continues, not into its thread's, whichever that was last.
 */
static void cs_test_core_stream_pool_two(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_queue *sq[2] = { NULL, NULL };
	struct request *rqs[12], *rq;
	struct cs_kctx *c[3];
	unsigned int i, s;

	for (i = 0; i < 3; i++)
		c[i] = kt_ctx(t, 50);
	for (i = 0; i < 12; i++) {
		s = i % 2;
		rqs[i] = kt_rq(t, ((sector_t)s << 26) + (i / 2) * 512, 256,
			       false, true);
		kt_insert(t, rqs[i], c[i % 3]);
		if (!sq[s])
			sq[s] = cs_rq_queue(rqs[i]);
		KUNIT_EXPECT_PTR_EQ(test, cs_rq_queue(rqs[i]), sq[s]);
	}
	KUNIT_EXPECT_PTR_NE(test, sq[0], sq[1]);
	/* Items 2-11 move but 6 and 7: their threads own their streams' queues. */
	KUNIT_EXPECT_EQ(test, t->core->stats.stream_moved, 10ULL - 2);
	for (i = 0; i < 12; i++) {
		rq = kt_serve(t);
		KUNIT_ASSERT_NOT_NULL(test, rq);
		t->now += 2 * MS;
		kt_done(t, rq);
	}
	kt_end(t, 0);
}

/* A pseudo-random number below @n (a fixed LCG: the same every run). */
static unsigned int kt_rand(u32 *seed, unsigned int n)
{
	*seed = *seed * 1103515245u + 12345u;
	return (*seed >> 16) % n;
}

/*
 * Five threads serve two streams far apart in random order: each round the
 * next two 256 KiB chunks of each stream go to four threads picked at
 * random and arrive in a random order.  Every request goes into its
 * stream's queue, and each stream is read in order.
 */
static void cs_test_core_stream_pool_random(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_queue *sq[2] = { NULL, NULL };
	unsigned int i, j, r, s, x, thr[5], item[4];
	sector_t last[2] = { 0, 0 }, pos;
	struct request *rq;
	struct cs_kctx *c[5];
	u32 seed = 7;

	for (i = 0; i < 5; i++)
		c[i] = kt_ctx(t, 60);
	/* Each stream's first chunk, from a thread of its own. */
	for (s = 0; s < 2; s++) {
		rq = kt_rq(t, (sector_t)s << 26, 256, false, true);
		kt_insert(t, rq, c[s]);
		sq[s] = cs_rq_queue(rq);
	}
	KUNIT_ASSERT_PTR_NE(test, sq[0], sq[1]);
	for (r = 0; r < 10; r++) {
		for (i = 0; i < 5; i++)
			thr[i] = i;
		for (i = 0; i < 4; i++) {
			item[i] = i;
			j = i + kt_rand(&seed, 5 - i);
			x = thr[i];
			thr[i] = thr[j];
			thr[j] = x;
		}
		for (i = 3; i > 0; i--) {
			j = kt_rand(&seed, i + 1);
			x = item[i];
			item[i] = item[j];
			item[j] = x;
		}
		for (i = 0; i < 4; i++) {
			s = item[i] % 2;
			pos = ((sector_t)s << 26) +
			      (1 + r * 2 + item[i] / 2) * 512;
			rq = kt_rq(t, pos, 256, false, true);
			kt_insert(t, rq, c[thr[i]]);
			KUNIT_EXPECT_PTR_EQ(test, cs_rq_queue(rq), sq[s]);
		}
		while ((rq = kt_serve(t))) {
			s = blk_rq_pos(rq) >> 26;
			KUNIT_EXPECT_GE(test, blk_rq_pos(rq), last[s]);
			last[s] = blk_rq_pos(rq);
			t->now += 2 * MS;
			kt_done(t, rq);
		}
	}
	/* Each stream was read to its last chunk. */
	for (s = 0; s < 2; s++)
		KUNIT_EXPECT_EQ(test, last[s], ((sector_t)s << 26) + 20 * 512);
	KUNIT_EXPECT_GE(test, t->core->stats.stream_moved, 20ULL);
	kt_end(t, 0);
}

/*
 * A pool's thread that owns the stream's queue turns to random reads far
 * away while the other three go on with the stream: its reads stay in its
 * queue and none is moved.  The stream's end in that queue went with the
 * first random read, so the stream's next chunk stays in its thread's
 * queue, the one after moves there, and as the disk's head is where the
 * owner's queue left it, that queue joins the owner's as a cooperator
 * (members.c) until that turns seeky and splits.  From its third chunk on
 * the stream is one queue again, never the owner's.
 */
static void cs_test_core_stream_pool_seeker(struct kunit *test)
{
	static const unsigned int other[3] = { 0, 2, 3 };
	struct request *rqs[4], *rq;
	struct cs_queue *own, *nq = NULL;
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *c[4];
	unsigned int i, r, k = 12;
	sector_t pos;
	u64 moved;
	u32 seed = 3;

	for (i = 0; i < 4; i++)
		c[i] = kt_ctx(t, 80);
	for (r = 0; r < 3; r++) {
		kt_pool_round(t, c, r, rqs);
		while ((rq = kt_serve(t)))
			kt_done(t, rq);
	}
	own = kt_q(c[1]);
	KUNIT_ASSERT_TRUE(test, own->flags & CSQ_STREAM);
	for (r = 0; r < 6; r++) {
		/* Thread 1: one random read in an area of its own. */
		pos = ((sector_t)1 << 28) + (sector_t)kt_rand(&seed, 1 << 16) * 64;
		rq = kt_rq(t, pos, 4, false, true);
		moved = t->core->stats.stream_moved;
		kt_insert(t, rq, c[1]);
		KUNIT_EXPECT_PTR_EQ(test, cs_rq_queue(rq), kt_q(c[1]));
		KUNIT_EXPECT_TRUE(test, !nq || cs_rq_queue(rq) != nq);
		KUNIT_EXPECT_EQ(test, t->core->stats.stream_moved, moved);
		/* The others: the stream's next three chunks. */
		for (i = 0; i < 3; i++, k++) {
			rq = kt_rq(t, (sector_t)k * 512, 256, false, true);
			kt_insert(t, rq, c[other[(k + i) % 3]]);
			if (k == 14)
				nq = cs_rq_queue(rq);
			if (k < 14)
				continue;
			KUNIT_EXPECT_PTR_EQ(test, cs_rq_queue(rq), nq);
			KUNIT_EXPECT_PTR_NE(test, nq, kt_q(c[1]));
		}
		while ((rq = kt_serve(t)))
			kt_done(t, rq);
	}
	KUNIT_ASSERT_NOT_NULL(test, nq);
	KUNIT_EXPECT_TRUE(test, nq->flags & CSQ_STREAM);
	KUNIT_EXPECT_FALSE(test, cs_seeky(&nq->seek));
	kt_end(t, 0);
}

/*
 * Two streams of a pool meet and cross: A starts 6 MiB behind B and reads
 * two chunks for each of B's, so it comes within B's window (4 MiB behind
 * B's end) at round 7, reaches B at round 22, overtakes it and leaves it
 * behind.  Three threads take the items in turn, so each reads for both
 * streams.  Apart, each stream has a queue of its own, also while A's
 * chunks fall in B's window but go on A's own end.  Where they meet
 * they are served as one queue (a cooperator merge, and out of order
 * within 4 MiB counts as no seek: the head sweeps both), and once more
 * than 5 MiB apart again each has a queue of its own again.
 */
static void cs_test_core_stream_pool_cross(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_queue *sq[2] = { NULL, NULL }, *q[3];
	sector_t next[2] = { 0, 12288 };
	unsigned int i, r, s, n = 0;
	struct request *rq;
	struct cs_kctx *c[3];

	for (i = 0; i < 3; i++)
		c[i] = kt_ctx(t, 95);
	for (r = 0; r < 56; r++) {
		for (i = 0; i < 3; i++, n++) {
			s = i == 2;
			rq = kt_rq(t, next[s], 256, false, true);
			next[s] += 512;
			kt_insert(t, rq, c[(n + r) % 3]);
			q[i] = cs_rq_queue(rq);
		}
		/* Apart until A reaches B, also in B's window (round 7)... */
		if (r == 0) {
			sq[0] = q[0];
			sq[1] = q[2];
		}
		if (next[0] + 2 * CS_COOP_CLOSE < next[1]) {
			KUNIT_EXPECT_PTR_EQ(test, q[0], sq[0]);
			KUNIT_EXPECT_PTR_EQ(test, q[1], sq[0]);
			KUNIT_EXPECT_PTR_EQ(test, q[2], sq[1]);
		}
		/* ... and apart again once A is 5 MiB ahead. */
		if (next[0] > next[1] + 10240) {
			KUNIT_EXPECT_PTR_EQ(test, q[0], q[1]);
			KUNIT_EXPECT_PTR_NE(test, q[0], q[2]);
		}
		while ((rq = kt_serve(t)))
			kt_done(t, rq);
	}
	KUNIT_EXPECT_PTR_NE(test, sq[0], sq[1]);
	KUNIT_EXPECT_GT(test, next[0], next[1] + 10240 + 4 * 512);
	kt_end(t, 0);
}

/*
 * The device model hears when a pool's threads arrive (a new queue of the
 * pool the previous new queue came from), not when processes of their own
 * do (cs_model_newcomer()).  With the mode forced, no tick takes the news.
 */
static void cs_test_core_newcomer_pool(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *c[4];
	unsigned int i;

	for (i = 0; i < 4; i++)
		c[i] = kt_ctx(t, 500 + i);
	/* Two threads of one pool, after two processes. */
	c[3]->ctx.tgid = 502;
	c[3]->ctx.pool = 502;
	for (i = 0; i < 4; i++) {
		kt_insert(t, kt_rq(t, i * 1000000ULL, 64, false, true), c[i]);
		KUNIT_EXPECT_TRUE(test, t->core->model.newcomer);
		KUNIT_EXPECT_EQ(test, t->core->model.newcomer_pooled, i == 3);
	}
	kt_end(t, 0);
}

/*
 * A kernel server's threads (nfsd) are a process each; their pool is their
 * name (cs_pool_key()), so their requests move into the stream's queue as
 * a process's threads' do.  A kernel thread of another name and another
 * process reading on from the stream keep their own queues.
 */
static void cs_test_core_stream_kernel_pool(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct request *rqs[4], *rq;
	struct cs_kctx *c[4], *jbd, *user;
	struct cs_queue *sq;
	sector_t last = 0;
	unsigned int i, r;

	for (i = 0; i < 4; i++) {
		c[i] = kt_ctx(t, 700 + i);
		c[i]->ctx.pool = cs_pool_key(true, 700 + i, "nfsd", 16);
	}
	for (r = 0; r < 3; r++) {
		kt_pool_round(t, c, r, rqs);
		for (i = 0; i < 4; i++)
			KUNIT_EXPECT_PTR_EQ(test, cs_rq_queue(rqs[i]),
					    kt_q(c[1]));
		for (i = 0; i < 4; i++) {
			rq = kt_serve(t);
			KUNIT_ASSERT_NOT_NULL(test, rq);
			last = max(last, blk_rq_pos(rq));
			t->now += 2 * MS;
			kt_done(t, rq);
		}
	}
	sq = kt_q(c[1]);
	KUNIT_EXPECT_EQ(test, t->core->stats.stream_moved, 3ULL * 3);
	jbd = kt_ctx(t, 800);
	jbd->ctx.pool = cs_pool_key(true, 800, "jbd2/sda1-8", 16);
	rq = kt_rq(t, last + 512, 256, false, true);
	kt_insert(t, rq, jbd);
	KUNIT_EXPECT_PTR_NE(test, cs_rq_queue(rq), sq);
	user = kt_ctx(t, 900);
	rq = kt_rq(t, last + 1024, 256, false, true);
	kt_insert(t, rq, user);
	KUNIT_EXPECT_PTR_NE(test, cs_rq_queue(rq), sq);
	KUNIT_EXPECT_EQ(test, t->core->stats.stream_moved, 3ULL * 3);
	kt_end(t, 0);
}

/*
 * Where the disk serves in parallel nothing is gained by serving a stream
 * as one queue: every thread keeps its own.
 */
static void cs_test_core_stream_parallel(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_PARALLEL);
	struct request *rqs[4], *rq;
	struct cs_kctx *c[4];
	unsigned int i;

	for (i = 0; i < 4; i++)
		c[i] = kt_ctx(t, 40);
	kt_pool_round(t, c, 0, rqs);
	kt_pool_round(t, c, 1, rqs);
	KUNIT_EXPECT_EQ(test, t->core->stats.stream_moved, 0ULL);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_PTR_EQ(test, cs_rq_queue(rqs[i]),
				    kt_q(c[(1 + i) % 4]));
	while ((rq = kt_dispatch(t)))
		kt_done(t, rq);
	kt_end(t, 0);
}

/*
 * Contexts that a split leaves in new queues are not programs starting:
 * only their first queues are boosted (S9's dd readers, merged and split
 * 15 times as cooperators, were boosted again after each split, and their
 * reads went in beside a starting program's as boosted ones).
 */
static void cs_test_core_split_no_boost(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *c[3];
	unsigned int i;

	WRITE_ONCE(t->core->tun[CS_T_BOOST], 8000 * MS);
	for (i = 0; i < 3; i++)
		c[i] = kt_ctx(t, 20 + i);
	kt_one_stream(t, c);
	KUNIT_EXPECT_EQ(test, t->core->stats.boosted, 3ULL);
	KUNIT_EXPECT_EQ(test, kt_q(c[0])->nr_members, 3U);
	kt_far_apart(t, c);
	KUNIT_EXPECT_GE(test, t->core->stats.coop_split, 1ULL);
	KUNIT_EXPECT_PTR_NE(test, kt_q(c[0]), kt_q(c[1]));
	KUNIT_EXPECT_EQ(test, t->core->stats.boosted, 3ULL);
	/* A context that was quiet for CS_BOOST_GAP is boosted again. */
	kt_wait(t, CS_BOOST_GAP + 10 * MS);
	kt_insert(t, kt_read(t, (sector_t)1 << 28), c[0]);
	KUNIT_EXPECT_TRUE(test, cs_queue_boosted(kt_q(c[0])));
	kt_end(t, 0);
}

/*
 * A request that lands on the head its own queue's last dispatch left
 * continues its own stream, not the active queue's.  Another queue's
 * request is the last dispatched where the active queue was chosen but
 * held back (behind a boosted read, a real-time reader, a higher level),
 * or where turns pass on a parallel disk.  S9's two dd readers, 30% of
 * the disk apart, were merged at "distance 0" so, and split again, 15
 * times in one start-up.
 */
static void cs_test_core_coop_own_head(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *a = kt_ctx(t, 20), *b = kt_ctx(t, 21);
	sector_t pa = 0, pb = (sector_t)1 << 26;
	struct request *rq;
	unsigned int i;

	/* a reads a stream and, active, waits for its next read. */
	for (i = 0; i < 4; i++) {
		rq = kt_read(t, pa);
		kt_insert(t, rq, a);
		KUNIT_ASSERT_PTR_EQ(test, kt_serve(t), rq);
		t->now += 100 * 1000;
		kt_done(t, rq);
		pa += 128;
	}
	KUNIT_ASSERT_PTR_EQ(test, t->core->active, kt_q(a));
	/* b reads its own stream far away meanwhile. */
	for (i = 0; i < 4; i++) {
		kt_insert(t, kt_read(t, pb), b);
		pb += 128;
	}
	KUNIT_ASSERT_PTR_EQ(test, t->core->active, kt_q(a));
	/* b's last read went to the driver: the head is where it ended. */
	t->core->head = pb;
	t->core->head_q = kt_q(b);
	kt_insert(t, kt_read(t, pb), b);
	KUNIT_EXPECT_EQ(test, t->core->stats.coop_merged, 0ULL);
	KUNIT_EXPECT_PTR_NE(test, kt_q(a), kt_q(b));
	/* A read that continues a's stream does join it. */
	kt_insert(t, kt_read(t, pa), b);
	KUNIT_EXPECT_EQ(test, t->core->stats.coop_merged, 1ULL);
	KUNIT_EXPECT_PTR_EQ(test, kt_q(a), kt_q(b));
	kt_end(t, 0);
}

/* group_by=process: the threads of a process share one queue. */
static void cs_test_core_group_by(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *a = kt_ctx(t, 10), *b = kt_ctx(t, 10);
	struct cs_kctx *other = kt_ctx(t, 11);

	kt_insert(t, kt_read(t, 0), a);
	kt_insert(t, kt_read(t, 1 << 20), b);
	KUNIT_EXPECT_PTR_NE(test, kt_q(a), kt_q(b));
	cs_core_set_group_by(t->core, CS_GROUP_PROCESS);
	kt_insert(t, kt_read(t, 1 << 21), a);
	kt_insert(t, kt_read(t, 1 << 22), b);
	kt_insert(t, kt_read(t, 1 << 23), other);
	KUNIT_EXPECT_PTR_EQ(test, kt_q(a), kt_q(b));
	KUNIT_EXPECT_PTR_NE(test, kt_q(a), kt_q(other));
	KUNIT_EXPECT_EQ(test, kt_q(a)->nr_members, 2U);
	cs_core_set_group_by(t->core, CS_GROUP_THREAD);
	kt_insert(t, kt_read(t, 1 << 24), a);
	kt_insert(t, kt_read(t, 1 << 25), b);
	KUNIT_EXPECT_PTR_NE(test, kt_q(a), kt_q(b));
	kt_end(t, 0);
}

/*
 * PARALLEL: no queue owns the disk.  Backlogged queues take turns of a
 * request budget (quantum scaled by level: 8 at level 4), and nothing
 * caps how many requests the driver holds.
 */
static void cs_test_core_parallel_turns(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_PARALLEL);
	struct cs_kctx *a = kt_ctx(t, 10), *b = kt_ctx(t, 11);
	struct request *rq[64];
	unsigned int i, from_a = 0, switches = 0;
	struct cs_queue *last = NULL;

	for (i = 0; i < 32; i++) {
		kt_insert(t, kt_read(t, i * 128), a);
		kt_insert(t, kt_read(t, (1 << 24) + i * 128), b);
	}
	for (i = 0; i < 64; i++) {
		rq[i] = kt_dispatch(t);
		KUNIT_ASSERT_NOT_NULL(test, rq[i]);
		from_a += cs_rq_queue(rq[i]) == kt_q(a);
		switches += last && cs_rq_queue(rq[i]) != last;
		last = cs_rq_queue(rq[i]);
		/* In the first 16, a turn is 8 requests. */
		if (i == 15)
			KUNIT_EXPECT_EQ(test, from_a, 8U);
	}
	KUNIT_EXPECT_EQ(test, from_a, 32U);
	KUNIT_EXPECT_GE(test, switches, 6U);
	KUNIT_EXPECT_FALSE(test, t->env->timer_armed);
	for (i = 0; i < 64; i++)
		kt_done(t, rq[i]);
	kt_end(t, 0);
}

/*
 * PARALLEL on a disk that serves one request at a time (distance costs
 * nothing): a real-time reader's turns end after quantum requests, but it
 * hands none of them to a best-effort queue, which would be preempted at
 * its next read (sched-classes in tests/vm: the real-time reader got 0.91
 * of the I/Os, bound 0.90).  The reader's requests are of @class, level 4.
 * Return: the other (best-effort, level 4) queue's reads dispatched.
 */
static unsigned int kt_rt_turns(struct kunit *test, int class,
				u64 *preempted)
{
	struct kt *t = kt_new(test, CS_FORCE_AUTO);
	struct cs_kctx *a = kt_ctx(t, 10), *b = kt_ctx(t, 11);
	struct cs_model *m = &t->core->model;
	struct request *rq, *be;
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(m->hold_until); i++)
		m->hold_until[i] = U64_MAX;
	m->l.seek_known = true;
	m->l.seek_cost = false;
	for (i = 0; i < 8; i++)
		kt_insert(t, kt_read(t, (1 << 24) + i * 128), b);
	for (i = 0; i < 40; i++) {
		rq = kt_read(t, i * 128);
		kt_prio(rq, class, 4);
		kt_insert(t, rq, a);
		be = kt_dispatch(t);
		while (be && be != rq) {
			n++;
			kt_done(t, be);
			be = kt_dispatch(t);
		}
		KUNIT_ASSERT_PTR_EQ(test, be, rq);
		t->now += 1 * MS;
		kt_done(t, rq);
		/* The completion runs the queue while the reader thinks. */
		be = kt_dispatch(t);
		if (be) {
			n++;
			t->now += 1 * MS;
			kt_done(t, be);
		}
		t->now += 100 * US;
	}
	KUNIT_EXPECT_EQ(test, t->core->mode, CS_MODE_PARALLEL);
	*preempted = t->core->stats.preempted;
	kt_end(t, 0);
	return n;
}

static void cs_test_core_rt_keeps_turns(struct kunit *test)
{
	u64 preempted;
	unsigned int be = kt_rt_turns(test, IOPRIO_CLASS_RT, &preempted);

	kunit_info(test, "best effort got %u reads beside 40 real-time ones",
		   be);
	KUNIT_EXPECT_EQ(test, be, 0U);
	/*
	 * Best effort also waits for real time in the driver now
	 * (cs_test_core_rt_first_parallel), so a turn handed to it would
	 * show only as the preemption that takes it back.
	 */
	KUNIT_EXPECT_EQ(test, preempted, 0ULL);
	/* Of its own class and weight, the other queue is served in full. */
	be = kt_rt_turns(test, IOPRIO_CLASS_BE, &preempted);
	kunit_info(test, "beside 40 best-effort ones: %u", be);
	KUNIT_EXPECT_EQ(test, be, 8U);
}

/* A real-time read on a disk that is not a spindle (flash). */
static struct request *kt_rt_read(struct kt *t, sector_t sector,
				  struct cs_kctx *c)
{
	struct request *rq = kt_read(t, sector);

	kt_prio(rq, IOPRIO_CLASS_RT, 4);
	kt_insert(t, rq, c);
	return rq;
}

/*
 * PARALLEL: best effort waits while real-time reads are in the driver and
 * while their reader thinks (slice_idle), a timer ending that wait; one
 * best-effort read at a time goes once past its deadline.  With
 * slice_idle 0 there is no thinking time to keep.
 */
static void cs_test_core_rt_first_parallel(struct kunit *test)
{
	struct kt *t = kt_new_disk(test, CS_FORCE_PARALLEL, false);
	struct cs_kctx *rt = kt_ctx(t, 10), *be = kt_ctx(t, 11);
	struct request *r, *b[3];
	unsigned int i;

	for (i = 0; i < 3; i++) {
		b[i] = kt_read(t, (1 << 24) + i * 128);
		kt_insert(t, b[i], be);
	}
	r = kt_rt_read(t, 0, rt);
	KUNIT_ASSERT_PTR_EQ(test, kt_dispatch(t), r);
	KUNIT_EXPECT_NULL(test, kt_dispatch(t));
	t->now += 5 * MS;
	KUNIT_EXPECT_NULL(test, kt_dispatch(t));
	kt_done(t, r);
	/* Its reader thinks: still held, until a timer says otherwise. */
	KUNIT_EXPECT_NULL(test, kt_dispatch(t));
	/* Held, best effort is not made active only to be preempted. */
	KUNIT_EXPECT_TRUE(test, !t->core->active ||
			  t->core->active->prio_class == CS_CLASS_RT);
	KUNIT_EXPECT_TRUE(test, t->env->timer_armed);
	KUNIT_EXPECT_EQ(test, t->env->timer_at, t->now + 8 * MS);
	t->now += 100 * US;
	r = kt_rt_read(t, 128, rt);
	KUNIT_ASSERT_PTR_EQ(test, kt_dispatch(t), r);
	t->now += 1 * MS;
	kt_done(t, r);
	KUNIT_EXPECT_NULL(test, kt_dispatch(t));
	/* The reader stopped: the window ends and best effort goes. */
	KUNIT_EXPECT_TRUE(test, kt_wait(t, 9 * MS));
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), b[0]);
	kt_done(t, b[0]);

	/* A reader that never stops: past their deadline, one at a time. */
	r = kt_rt_read(t, 256, rt);
	KUNIT_ASSERT_PTR_EQ(test, kt_dispatch(t), r);
	t->now += 130 * MS;
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), b[1]);
	KUNIT_EXPECT_NULL(test, kt_dispatch(t));
	kt_done(t, b[1]);
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), b[2]);
	kt_done(t, b[2]);
	kt_done(t, r);

	/* slice_idle 0: nothing is kept once the reader's reads are done. */
	WRITE_ONCE(t->core->tun[CS_T_SLICE_IDLE], 0);
	b[0] = kt_read(t, 1 << 25);
	kt_insert(t, b[0], be);
	r = kt_rt_read(t, 384, rt);
	KUNIT_ASSERT_PTR_EQ(test, kt_dispatch(t), r);
	KUNIT_EXPECT_NULL(test, kt_dispatch(t));
	kt_done(t, r);
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), b[0]);
	kt_done(t, b[0]);
	kt_end(t, 0);
}

/* A best-effort reader of kt_levels(), one 64 KiB read in flight. */
struct kt_lreader {
	struct cs_kctx *c;
	unsigned int level;
	u64 start;		/* its first read, ns after kt_levels() starts */
	u64 stop;		/* no read after this, ns after the start */
	struct request *rq;	/* its read, queued or out */
	u64 done_at;		/* when that read completes (U64_MAX: queued) */
	u64 next_at;		/* its next read */
	sector_t pos;
	unsigned int done;	/* reads completed */
	bool write;		/* sync writes (a journal), not reads */
};

/*
 * @n readers of kt_lreader for @ns on a disk that serves every read it
 * is given at once, each in 1 ms; a reader asks again 100 us after a
 * completion.  Fails the case if a read waits with nothing to start it.
 */
static void kt_levels(struct kt *t, struct kt_lreader *r, unsigned int n,
		      u64 ns)
{
	u64 t0 = t->now, end = t->now + ns, next;
	struct request *rq;
	unsigned int i;

	for (i = 0; i < n; i++) {
		r[i].next_at = t0 + r[i].start;
		r[i].pos = (sector_t)(i + 1) << 24;
	}
	while (t->now < end) {
		for (i = 0; i < n; i++) {
			if (r[i].rq || r[i].next_at > t->now ||
			    t->now - t0 >= r[i].stop)
				continue;
			r[i].rq = kt_rq(t, r[i].pos, 64, r[i].write, true);
			r[i].pos += 128;
			r[i].done_at = U64_MAX;
			kt_prio(r[i].rq, IOPRIO_CLASS_BE, r[i].level);
			kt_insert(t, r[i].rq, r[i].c);
		}
		while ((rq = kt_dispatch(t)))
			for (i = 0; i < n; i++)
				if (r[i].rq == rq)
					r[i].done_at = t->now + 1 * MS;
		next = end;
		for (i = 0; i < n; i++)
			if (r[i].rq || t->now - t0 < r[i].stop)
				next = min(next, r[i].rq ? r[i].done_at :
					   max(r[i].next_at, t->now));
		if (t->env->timer_armed)
			next = min(next, t->env->timer_at);
		/* A read is queued and nothing will start it. */
		KUNIT_ASSERT_NE(t->test, next, U64_MAX);
		kt_wait(t, max(next, t->now + 1) - t->now);
		for (i = 0; i < n; i++) {
			if (!r[i].rq || r[i].done_at > t->now)
				continue;
			kt_done(t, r[i].rq);
			r[i].rq = NULL;
			r[i].done++;
			r[i].next_at = t->now + 100 * US;
		}
	}
	/* The reads still out complete, the queued ones go and complete. */
	for (i = 0; i < n; i++) {
		if (r[i].rq && r[i].done_at != U64_MAX) {
			kt_done(t, r[i].rq);
			r[i].rq = NULL;
		}
	}
	for (i = 0; i < n; i++) {
		while (r[i].rq) {
			rq = kt_serve(t);
			KUNIT_ASSERT_NOT_NULL(t->test, rq);
			kt_done(t, rq);
			if (rq == r[i].rq)
				r[i].rq = NULL;
		}
	}
}

/*
 * PARALLEL: levels of a class share the disk as their slices would (9 -
 * level: 4.5 : 1 between levels 0 and 7) although both readers' reads fit
 * the disk at once; equal levels are never held; a level held while the
 * level above thinks is let go by a timer when that reader stops; a level
 * that comes back is not owed what it left unused.
 */
static void cs_test_core_levels_parallel(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_PARALLEL);
	struct kt_lreader r[3] = {
		{ .c = kt_ctx(t, 10), .level = 0, .stop = U64_MAX },
		{ .c = kt_ctx(t, 11), .level = 7, .stop = U64_MAX },
	};
	unsigned int i;

	kt_levels(t, r, 2, 300 * MS);
	kunit_info(test, "levels 0 / 7: %u / %u reads", r[0].done, r[1].done);
	/* Alone a reader does 1 read per 1.1 ms. */
	KUNIT_EXPECT_GE(test, r[0].done, 240U);
	KUNIT_EXPECT_GE(test, r[1].done * 50, r[0].done * 9);
	KUNIT_EXPECT_LE(test, r[1].done * 40, r[0].done * 9);
	KUNIT_EXPECT_GT(test, t->core->stats.level_held, 0ULL);

	/* The same levels: both get all they ask for. */
	t->now += 100 * MS;
	for (i = 0; i < 2; i++)
		r[i] = (struct kt_lreader){ .c = r[i].c, .level = 4,
					    .stop = U64_MAX };
	kt_levels(t, r, 2, 100 * MS);
	KUNIT_EXPECT_GE(test, r[1].done, 85U);
	KUNIT_EXPECT_GE(test, r[0].done, 85U);

	/* Level 0 stops halfway: level 7 then reads as if alone. */
	t->now += 100 * MS;
	r[0] = (struct kt_lreader){ .c = r[0].c, .level = 0, .stop = 50 * MS };
	r[1] = (struct kt_lreader){ .c = r[1].c, .level = 7, .stop = U64_MAX };
	kt_levels(t, r, 2, 100 * MS);
	kunit_info(test, "level 7 when level 0 stops at 50 of 100 ms: %u",
		   r[1].done);
	KUNIT_EXPECT_GE(test, r[1].done, 45U);

	/*
	 * Levels 2 and 7 share the disk for 300 ms, then level 0 comes:
	 * level 2 keeps about 7/16 of the reads, not held until level 0
	 * has caught up with all level 2 was served before.
	 */
	t->now += 100 * MS;
	r[0] = (struct kt_lreader){ .c = r[0].c, .level = 2, .stop = U64_MAX };
	r[1] = (struct kt_lreader){ .c = r[1].c, .level = 7, .stop = U64_MAX };
	r[2] = (struct kt_lreader){ .c = kt_ctx(t, 12), .level = 0,
				    .stop = U64_MAX };
	kt_levels(t, r, 2, 300 * MS);
	r[0].done = 0;
	kt_levels(t, r, 3, 50 * MS);
	kunit_info(test, "levels 2 / 0 after level 0 came: %u / %u",
		   r[0].done, r[2].done);
	KUNIT_EXPECT_GE(test, r[0].done * 4, r[2].done * 2);

	/*
	 * A journal's sync writes at level 3 hold no reader of level 4
	 * (ext4's journal_ioprio; tools/bench/exp/fsync-levels.sh): only
	 * readers take part in the shares.
	 */
	t->now += 100 * MS;
	t->core->stats.level_held = 0;
	r[0] = (struct kt_lreader){ .c = kt_ctx(t, 13), .level = 3,
				    .stop = U64_MAX, .write = true };
	r[1] = (struct kt_lreader){ .c = r[1].c, .level = 4, .stop = U64_MAX };
	kt_levels(t, r, 2, 100 * MS);
	kunit_info(test, "journal / reader: %u / %u", r[0].done, r[1].done);
	KUNIT_EXPECT_GE(test, r[1].done, 85U);
	KUNIT_EXPECT_EQ(test, t->core->stats.level_held, 0ULL);
	kt_end(t, 0);
}

/* PARALLEL: a queue that ran dry gives way at once, it does not idle. */
static void cs_test_core_parallel_no_idle(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_PARALLEL);
	struct cs_kctx *c[4];
	struct request *rq[4];
	unsigned int i;

	for (i = 0; i < 4; i++) {
		c[i] = kt_ctx(t, 10 + i);
		kt_insert(t, kt_read(t, (sector_t)i << 24), c[i]);
	}
	/* Four readers with one request each: all four go out together. */
	for (i = 0; i < 4; i++) {
		rq[i] = kt_dispatch(t);
		KUNIT_ASSERT_NOT_NULL(test, rq[i]);
	}
	KUNIT_EXPECT_EQ(test, t->core->in_driver[1], 4U);
	for (i = 0; i < 4; i++)
		kt_done(t, rq[i]);
	KUNIT_EXPECT_EQ(test, t->core->stats.idle_armed, 0ULL);
	kt_end(t, 0);
}

/* RT preempts BE; within a class sync preempts async. */
static void cs_test_core_preempt(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *be = kt_ctx(t, 10), *rt = kt_ctx(t, 11);
	struct request *r1 = kt_read(t, 0), *r2 = kt_read(t, 128);
	struct request *rr = kt_read(t, 1 << 24);

	kt_insert(t, r1, be);
	kt_insert(t, r2, be);
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), r1);
	kt_prio(rr, IOPRIO_CLASS_RT, 4);
	kt_insert(t, rr, rt);
	KUNIT_EXPECT_EQ(test, t->core->stats.preempted, 1ULL);
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), rr);
	kt_done(t, r1);
	kt_done(t, rr);
	kt_end(t, 0);
}

/* Out of memory, requests go through the built-in queue, never freed. */
static void cs_test_core_fallback(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *a = kt_ctx(t, 10);
	struct request *r1 = kt_read(t, 0), *r2 = kt_read(t, 128);

	t->env->fail_allocs = 2;
	kt_insert(t, r1, a);
	kt_insert(t, r2, a);
	KUNIT_EXPECT_PTR_EQ(test, cs_rq_queue(r1), &t->core->fallback);
	KUNIT_EXPECT_EQ(test, t->core->stats.alloc_failed, 2ULL);
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), r1);
	/* The built-in queue is async: a sync request in the driver holds it. */
	KUNIT_EXPECT_NULL(test, kt_dispatch(t));
	kt_done(t, r1);
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), r2);
	kt_done(t, r2);
	/* Its own reference, and the active slot's while it is active. */
	KUNIT_EXPECT_EQ(test, t->core->fallback.ref,
			t->core->active == &t->core->fallback ? 2 : 1);
	kt_end(t, 0);
}

/*
 * Issue 15: a metadata read (REQ_META) preempts a streaming queue of its
 * class and goes before the other requests of its own queue.
 */
static void cs_test_core_meta_first(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *a = kt_ctx(t, 10), *b = kt_ctx(t, 11);
	struct request *plain = kt_read(t, 1 << 24), *meta = kt_read(t, 1 << 25);
	struct request *rq;
	unsigned int i;

	for (i = 0; i < 8; i++)
		kt_insert(t, kt_read(t, i * 128), a);
	rq = kt_dispatch(t);
	KUNIT_ASSERT_PTR_EQ(test, cs_rq_queue(rq), kt_q(a));
	kt_done(t, rq);
	kt_insert(t, plain, b);
	KUNIT_EXPECT_EQ(test, t->core->stats.preempted, 0ULL);
	meta->cmd_flags |= REQ_META;
	kt_insert(t, meta, b);
	KUNIT_EXPECT_EQ(test, t->core->stats.preempted, 1ULL);
	/* b's metadata read first, though its plain read came before. */
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), meta);
	kt_done(t, meta);
	kt_end(t, 0);
}

/*
 * Issue 15: on a spindle, while a reader is about, write-back gets one
 * request in the driver; when the reader has been gone for two idle
 * windows, the full quantum.
 */
static void cs_test_core_async_near(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *r = kt_ctx(t, 10);
	struct request *rd = kt_read(t, 1 << 24), *out[8];
	unsigned int i, n;

	kt_insert(t, rd, r);
	KUNIT_ASSERT_PTR_EQ(test, kt_dispatch(t), rd);
	kt_done(t, rd);
	r->alive = false;
	cs_core_ctx_exit(t->core, &r->ctx);
	for (i = 0; i < 32; i++)
		kt_insert(t, kt_rq(t, i * 256, 128, true, false), NULL);
	for (n = 0; n < 8 && (out[n] = kt_dispatch(t)); n++)
		;
	KUNIT_EXPECT_EQ(test, n, 1U);
	kt_done_all(t, out, n);
	t->now += 20 * MS;
	for (n = 0; n < 8 && (out[n] = kt_dispatch(t)); n++)
		;
	KUNIT_EXPECT_EQ(test, n, 8U);
	kt_done_all(t, out, n);
	kt_end(t, 0);
}

/*
 * Issue 15, S7: on a disk that says it rotates, PARALLEL by the prior does
 * not let write-back go beside a read in the driver (a spindle's queue
 * would fill with writes ahead of the read while the model learns), nor
 * does a PARALLEL window of an A/B measurement, nor a measurement that
 * found no winner (sim s7 40 -w 4 on sata: reads of 266-270 ms in the
 * drive's queue behind writes, 71 ms held back); PARALLEL that is known
 * (measured: no seek cost, or PARALLEL won; or forced) does.
 */
static void cs_test_core_prior_writes_wait(struct kunit *test)
{
	static const struct {
		enum cs_mode_force force;
		bool measured, measuring;
		enum cs_mode_why why;	/* of every level's PARALLEL verdict */
		bool beside;
	} c[] = {
		{ CS_FORCE_AUTO, false, false, CS_WHY_PRIOR, false },
		{ CS_FORCE_PARALLEL, false, false, CS_WHY_PRIOR, true },
		{ CS_FORCE_AUTO, true, false, CS_WHY_PRIOR, true },
		{ CS_FORCE_AUTO, true, true, CS_WHY_PRIOR, false },
		{ CS_FORCE_AUTO, false, false, CS_WHY_AB_UNDECIDED, false },
		{ CS_FORCE_AUTO, false, false, CS_WHY_AB, true },
	};
	struct request *rd, *out[8];
	struct cs_model *m;
	struct cs_kctx *r;
	unsigned int i, k, n;
	struct kt *t;

	for (k = 0; k < ARRAY_SIZE(c); k++) {
		t = kt_new(test, c[k].force);
		/* The model set by hand: no measurement starts by itself. */
		m = &t->core->model;
		for (i = 0; i < ARRAY_SIZE(m->hold_until); i++) {
			m->hold_until[i] = U64_MAX;
			m->l.v[i].why = c[k].why;
		}
		if (c[k].why != CS_WHY_PRIOR) {
			/* Far costs time: "no seek cost" does not decide. */
			m->l.seek_known = true;
			m->l.seek_cost = true;
		}
		if (c[k].measured) {
			m->l.seek_known = true;
			m->l.seek_cost = false;
		}
		if (c[k].measuring) {
			/* A PARALLEL window that lasts the case. */
			m->ab = CS_AB_RUN;
			m->ab_mode = CS_MODE_PARALLEL;
			m->ab_start = t->now;
			m->ab_end = U64_MAX;
		}
		r = kt_ctx(t, 10);
		KUNIT_ASSERT_EQ(test, t->core->mode, CS_MODE_PARALLEL);
		rd = kt_read(t, 1 << 24);
		kt_insert(t, rd, r);
		KUNIT_ASSERT_PTR_EQ(test, kt_dispatch(t), rd);
		for (i = 0; i < 8; i++)
			kt_insert(t, kt_rq(t, i * 256, 128, true, false), NULL);
		for (n = 0; n < 8 && (out[n] = kt_dispatch(t)); n++)
			;
		KUNIT_EXPECT_EQ(test, cs_model_measuring(&t->core->model),
				c[k].measuring);
		if (c[k].beside)
			KUNIT_EXPECT_GE(test, n, 2U);
		else
			KUNIT_EXPECT_EQ(test, n, 0U);
		kt_done(t, rd);
		kt_done_all(t, out, n);
		kt_end(t, 0);
	}
}

/*
 * A disk that says it does not rotate is parallel without measuring: the
 * model is not fed (it would cost a fast disk CPU per request), while the
 * same requests on a disk that says it rotates are measured.
 */
static void cs_test_core_nonrot_unmeasured(struct kunit *test)
{
	struct kt *t;
	struct cs_kctx *c;
	struct request *rq;
	unsigned int i, rot;

	for (rot = 0; rot < 2; rot++) {
		t = kt_new_disk(test, CS_FORCE_AUTO, rot);
		c = kt_ctx(t, 100);
		for (i = 0; i < 40; i++) {
			/* Every other request far from the one before. */
			kt_insert(t, kt_read(t, (i & 1) * (1ULL << 30) +
					     i * 128), c);
			rq = kt_dispatch(t);
			KUNIT_ASSERT_NOT_NULL(test, rq);
			kt_wait(t, (i & 1 ? 9 : 1) * MS);
			kt_done(t, rq);
		}
		KUNIT_EXPECT_EQ(test, t->core->model.l.near_n == 0, !rot);
		KUNIT_EXPECT_EQ(test, t->core->model.l.far_n == 0, !rot);
		if (!rot) {
			KUNIT_EXPECT_EQ(test, t->core->mode, CS_MODE_PARALLEL);
			KUNIT_EXPECT_EQ(test, cs_model_why(&t->core->model),
					CS_WHY_PRIOR);
		}
		kt_end(t, 0);
	}
}

/* A reader of kt_mix(): one read in flight at a time. */
struct kt_reader {
	struct cs_kctx *c;
	bool seeky;
	unsigned int seq_first;	/* a seeky one's first reads are not */
	bool far;		/* its read out is a seek */
	sector_t pos;
	u64 next_at;		/* U64_MAX: its read is out */
	struct request *rq;	/* that read */
	struct cs_krq *own;	/* its request, used again for each read */
	unsigned int done;
	unsigned int runs;	/* times the disk came to it from another's */
	u64 busy;		/* disk time its reads took, ns */
	u64 start;		/* its first read, ns after kt_mix() starts */
	u64 think;		/* after a completion, ns (0: 100 us) */
	unsigned int reads;	/* it stops after these (0: never) */
	u64 finished;		/* when its last read completed, ns */
	u64 mark[2];		/* @busy when a reader with @reads began, ended */
	u64 arrive;		/* what the disk's coming to it costs, ns */
};

/* Note every reader's disk time so far in its mark[@k]. */
static void kt_mark(struct kt_reader *r, unsigned int n, unsigned int k)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		r[i].mark[k] = r[i].busy;
}

#define KT_DISK_DEPTH	32

/*
 * @n readers on a serial disk for @ns: the disk serves what was
 * dispatched in order, 64 KiB of a stream in 1 ms and a seek in 10 ms;
 * each reader asks for its next read 100 us (or its think time) after a
 * completion, and a reader with a number of reads stops after them.  Fails
 * the case if work is left with nothing to start it (a lost queue run).
 */
static void kt_mix(struct kt *t, struct kt_reader *r, unsigned int n, u64 ns)
{
	struct request *disk[KT_DISK_DEPTH], *rq;
	unsigned int head = 0, tail = 0, i, last = n;
	u64 end = t->now + ns, done_at = U64_MAX, cost = 0, next;
	u32 seed = 12345;

	for (i = 0; i < n; i++)
		r[i].next_at = t->now + r[i].start;
	while (t->now < end) {
		for (i = 0; i < n; i++) {
			if (r[i].next_at > t->now)
				continue;
			seed = seed * 1103515245 + 12345;
			if (r[i].reads && !r[i].done)
				kt_mark(r, n, 0);
			r[i].far = r[i].seeky && r[i].done >= r[i].seq_first;
			/*
			 * One request each, made anew for each read: tens of
			 * thousands of test allocations took a minute on the
			 * debug kernel.
			 */
			r[i].rq = kt_rq_init(r[i].own, r[i].far ?
					     (sector_t)(seed >> 4) << 8 :
					     r[i].pos, 64, false, true);
			r[i].pos += 128;
			r[i].next_at = U64_MAX;
			kt_insert(t, r[i].rq, r[i].c);
		}
		while (tail - head < KT_DISK_DEPTH && (rq = kt_dispatch(t)))
			disk[tail++ % KT_DISK_DEPTH] = rq;
		if (head != tail && done_at == U64_MAX) {
			rq = disk[head % KT_DISK_DEPTH];
			cost = 1 * MS;
			for (i = 0; i < n; i++) {
				if (r[i].rq != rq)
					continue;
				cost = r[i].far ? 10 * MS : 1 * MS;
				if (i != last)
					cost += r[i].arrive;
				r[i].runs += i != last;
				last = i;
			}
			done_at = t->now + cost;
		}
		next = done_at;
		for (i = 0; i < n; i++)
			next = min(next, r[i].next_at);
		if (t->env->timer_armed)
			next = min(next, t->env->timer_at);
		/* Every reader is done. */
		if (next == U64_MAX && head == tail &&
		    !cs_core_has_work(t->core))
			break;
		/* Work left and nothing to start it. */
		KUNIT_ASSERT_NE(t->test, next, U64_MAX);
		kt_wait(t, next - t->now);
		if (t->now < done_at)
			continue;
		rq = disk[head++ % KT_DISK_DEPTH];
		done_at = U64_MAX;
		for (i = 0; i < n; i++) {
			if (r[i].rq != rq)
				continue;
			r[i].rq = NULL;
			r[i].done++;
			r[i].busy += cost;
			r[i].next_at = t->now + (r[i].think ?: 100 * US);
			if (r[i].reads && r[i].done == r[i].reads) {
				r[i].next_at = U64_MAX;
				r[i].finished = t->now;
				kt_mark(r, n, 1);
			}
		}
		kt_done(t, rq);
	}
	/* Let the reads still out finish. */
	while (head != tail)
		kt_done(t, disk[head++ % KT_DISK_DEPTH]);
}

static struct kt_reader *kt_readers(struct kt *t, unsigned int streams,
				    unsigned int seeky)
{
	struct kt_reader *r = kunit_kzalloc(t->test, (streams + seeky) *
					    sizeof(*r), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(t->test, r);
	for (i = 0; i < streams + seeky; i++) {
		r[i].c = kt_ctx(t, 200 + i);
		r[i].own = kunit_kzalloc(t->test, sizeof(*r[i].own),
					 GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(t->test, r[i].own);
		r[i].seeky = i >= streams;
		r[i].pos = (sector_t)i << 28;
	}
	return r;
}

/*
 * Issue 15: two streams on a serial disk, where the disk's coming to a
 * stream from the other costs @arrive.  Return: the switches in 3 s.
 */
static unsigned int kt_switches(struct kunit *test, u64 arrive, u64 *fig)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct kt_reader *r = kt_readers(t, 2, 0);
	unsigned int runs;

	r[0].arrive = arrive;
	r[1].arrive = arrive;
	kt_mix(t, r, 2, 3000 * MS);
	runs = r[0].runs + r[1].runs;
	*fig = t->core->switch_ns;
	kt_end(t, 0);
	return runs;
}

/*
 * Issue 15: where a switch costs 20 ms, slices grow to ten switches (10 x
 * 21 ms with the first read's own 1 ms, held at twice slice_sync: 200 ms,
 * the switch inside it here, as nothing is in the driver when it starts;
 * 3 s hold 16 turns, 21 with seven switches) so that switching stays a
 * tenth of the time; where switching is cheap they stay slice_sync (100
 * ms: about 30 turns).
 */
static void cs_test_core_switch_slices(struct kunit *test)
{
	unsigned int dear, cheap;
	u64 fig_dear, fig_cheap;

	dear = kt_switches(test, 20 * MS, &fig_dear);
	cheap = kt_switches(test, 0, &fig_cheap);
	kunit_info(test, "20 ms switches: %u turns, figure %llu us; free: %u, %llu us",
		   dear, fig_dear / US, cheap, fig_cheap / US);
	KUNIT_EXPECT_GE(test, fig_dear, 19 * MS);
	KUNIT_EXPECT_LE(test, fig_dear, 23 * MS);
	KUNIT_EXPECT_LE(test, fig_cheap, 3 * MS);
	KUNIT_EXPECT_LE(test, dear, 17U);
	KUNIT_EXPECT_GE(test, cheap, 26U);
}

/*
 * A program starting (issue 15): @seq sequential reads (its binary), then
 * 200 seeky reads, with 10 ms of thought after each, from a new context
 * 500 ms in, beside @streams streams on a serial disk with boosts of
 * @boost.  Return: how long it took, ns (U64_MAX if not done in 60 s);
 * @share: the streams' disk time meanwhile, in percent of it.
 */
static u64 kt_startup(struct kunit *test, unsigned int streams,
		      unsigned int seq, u64 boost, unsigned int *share)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct kt_reader *r = kt_readers(t, streams, 1);
	struct kt_reader *p = &r[streams];
	u64 took, busy = 0;
	unsigned int i;

	WRITE_ONCE(t->core->tun[CS_T_BOOST], boost);
	p->start = 500 * MS;
	p->think = 10 * MS;
	p->seq_first = seq;
	p->reads = seq + 200;
	kt_mix(t, r, streams + 1, 60000 * MS);
	took = p->finished ? p->finished - (1000 * MS + p->start) : U64_MAX;
	for (i = 0; i < streams; i++)
		busy += r[i].mark[1] - r[i].mark[0];
	*share = took && took != U64_MAX ? div64_u64(busy * 100, took) : 0;
	kt_end(t, 0);
	return took;
}

/*
 * Issue 15: a program that starts beside two streams on a spindle starts
 * within twice what it takes alone (CFQ's rules, without the boost, left
 * it one read per round of the streams' slices; with boosts that led for
 * 40% of the disk it took 2.4 times), and the streams keep a quarter of
 * the disk's time meanwhile (the bound, cs_test_core_boost_bound()).
 */
static void cs_test_core_boost_startup(struct kunit *test)
{
	u64 boost = 8000 * MS, alone, busy, plain;
	unsigned int share;

	alone = kt_startup(test, 0, 0, boost, &share);
	busy = kt_startup(test, 2, 0, boost, &share);
	kunit_info(test, "alone %llu ms, beside 2 streams %llu ms (streams %u%%)",
		   alone / MS, busy / MS, share);
	KUNIT_EXPECT_LT(test, alone, 5000 * MS);
	KUNIT_EXPECT_LE(test, busy, 2 * alone);
	KUNIT_EXPECT_GE(test, share, 25U);
	plain = kt_startup(test, 2, 0, 0, &share);
	kunit_info(test, "without boosts %llu ms", plain / MS);
	KUNIT_EXPECT_GT(test, plain, 3 * alone);
}

/*
 * A program whose first 48 reads are sequential (exec reads its binary
 * and libraries ahead) keeps its boost for the seeky reads that follow:
 * S9's python lost it 0.1 s in, as "a stream", and took 86 s beside two
 * readers.  While it reads sequentially it does not lead.  Its bound is
 * 2.75 x alone: it took 2.3 x (3.15 x while boosts led for 40% of the
 * disk at most).
 */
static void cs_test_core_boost_exec(struct kunit *test)
{
	u64 boost = 8000 * MS, alone, busy;
	unsigned int share;

	alone = kt_startup(test, 0, 48, boost, &share);
	busy = kt_startup(test, 2, 48, boost, &share);
	kunit_info(test, "alone %llu ms, beside 2 streams %llu ms (streams %u%%)",
		   alone / MS, busy / MS, share);
	KUNIT_EXPECT_LE(test, busy * 4, 11 * alone);
	KUNIT_EXPECT_GE(test, share, 50U);
}

/*
 * Issue 15's bound: however many boosted queues (six random readers, new,
 * so boosted for the whole run), a stream keeps a quarter of the disk's
 * time beyond CS_BOOST_LEAD.  Boosted queues lead only while their disk
 * time stays within twice the others' plus CS_BOOST_LEAD; past that they
 * are served as if not boosted, in the seeky window, where the stream gets
 * half (43% of the disk without boosts).  So the stream gets at least a
 * half of what the boosts led for.  Without the bound the stream got 46 ms
 * of the 6 s.
 */
static void cs_test_core_boost_bound(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct kt_reader *r = kt_readers(t, 1, 6);
	u64 span = 6000 * MS, seeky = 0;
	unsigned int i;

	WRITE_ONCE(t->core->tun[CS_T_BOOST], 8000 * MS);
	kt_mix(t, r, 7, span);
	for (i = 1; i < 7; i++) {
		seeky += r[i].busy;
		KUNIT_EXPECT_TRUE(test, cs_queue_boosted(kt_q(r[i].c)));
	}
	kunit_info(test, "stream %llu ms in %u runs, 6 boosted random readers %llu ms",
		   r[0].busy / MS, r[0].runs, seeky / MS);
	KUNIT_EXPECT_GE(test, r[0].busy, (span - CS_BOOST_LEAD) / 4);
	KUNIT_EXPECT_GE(test, seeky, span * 35 / 100);
	KUNIT_EXPECT_GE(test, t->core->stats.boosted, 7ULL);
	kt_end(t, 0);
}

/*
 * Boosted queues go ahead of somebody or of nobody: where every queue with
 * requests is boosted and acts (a thread pool's new threads, whose reads of
 * several streams look like programs starting), none is idled for as a
 * boost and the device model does not wait for them; a queue that is not
 * boosted, or write-back in the driver, is somebody to lead again.  Before,
 * a pool of 4 threads serving 2 streams on a spindle got 15.2 MB/s in
 * tools/sim (30.9 without boosts): each thread was idled for in turn and
 * the model deferred for the boosts' 30 s.
 */
static void cs_test_core_boost_pool(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_AUTO);
	struct cs_kctx *c[4], *w = kt_ctx(t, 90);
	struct request *rq;
	unsigned int i;

	WRITE_ONCE(t->core->tun[CS_T_BOOST], 8000 * MS);
	for (i = 0; i < 4; i++) {
		c[i] = kt_ctx(t, 300 + i);
		kt_insert(t, kt_read(t, (sector_t)i << 26), c[i]);
		KUNIT_EXPECT_TRUE(test, cs_queue_acts(kt_q(c[i])));
	}
	KUNIT_EXPECT_FALSE(test, cs_boost_over_others(t->core));
	KUNIT_EXPECT_FALSE(test, cs_boost_defers(t->core, t->now));
	for (i = 0; i < 4; i++) {
		rq = kt_serve(t);
		KUNIT_ASSERT_NOT_NULL(test, rq);
		kt_done(t, rq);
	}
	/* Write-back in the driver is somebody to lead. */
	kt_insert(t, kt_rq(t, 1ULL << 30, 64, true, false), w);
	rq = kt_serve(t);
	KUNIT_ASSERT_NOT_NULL(test, rq);
	KUNIT_EXPECT_FALSE(test, rq_is_sync(rq));
	for (i = 0; i < 4; i++)
		kt_insert(t, kt_read(t, ((sector_t)i << 26) + 1024), c[i]);
	KUNIT_EXPECT_TRUE(test, cs_boost_over_others(t->core));
	KUNIT_EXPECT_TRUE(test, cs_boost_defers(t->core, t->now));
	kt_done(t, rq);
	kt_end(t, 0);
}

/*
 * Issue 14: threads of one process that continue each other's streams are
 * a server's pool, not programs starting.  The thread whose first read
 * starts where another's ended loses its boost, and so do the process's
 * other boosted threads, waiting or active, or at their next request; its
 * later threads start without one.  (S8 on
 * array12, 8 threads on 2 streams: the one thread that kept its boost
 * preempted the stream queues 33 times in 4 s, idled the array for itself
 * and the pool got 46 MB/s against none's 85.)
 */
static void kt_boost_pool_stream(struct kunit *test, enum cs_mode_force mode)
{
	struct kt *t = kt_new(test, mode);
	struct cs_kctx *a = kt_ctx(t, 40), *b = kt_ctx(t, 40);
	struct cs_kctx *c = kt_ctx(t, 40), *d = kt_ctx(t, 40);
	struct cs_kctx *p = kt_ctx(t, 41), *e = kt_ctx(t, 42);
	struct request *first = kt_read(t, 0), *prog, *rq;

	WRITE_ONCE(t->core->tun[CS_T_BOOST], 8000 * MS);
	kt_insert(t, first, a);
	rq = kt_serve(t);
	KUNIT_ASSERT_PTR_EQ(test, rq, first);
	/* A program: its read after its own first keeps its boost. */
	prog = kt_read(t, (sector_t)1 << 30);
	kt_insert(t, prog, p);
	kt_done(t, first);
	rq = kt_serve(t);
	KUNIT_ASSERT_PTR_EQ(test, rq, prog);
	kt_insert(t, kt_read(t, ((sector_t)1 << 30) + 128), p);
	/* Another program reading next to it starts all the same. */
	kt_insert(t, kt_read(t, ((sector_t)1 << 30) + 512), e);
	KUNIT_EXPECT_TRUE(test, cs_queue_boosted(kt_q(e)));
	/* Another thread of the pool far away: boosted. */
	kt_insert(t, kt_read(t, (sector_t)1 << 26), c);
	KUNIT_EXPECT_TRUE(test, cs_queue_boosted(kt_q(a)));
	KUNIT_EXPECT_TRUE(test, cs_queue_acts(kt_q(c)));
	KUNIT_EXPECT_TRUE(test, cs_queue_acts(kt_q(p)));
	/* A third thread reads on where the first one's read ended. */
	kt_insert(t, kt_read(t, 128), b);
	KUNIT_EXPECT_FALSE(test, cs_queue_boosted(kt_q(b)));
	KUNIT_EXPECT_FALSE(test, cs_queue_boosted(kt_q(c)));
	KUNIT_EXPECT_TRUE(test, cs_queue_acts(kt_q(p)));
	KUNIT_EXPECT_TRUE(test, cs_queue_boosted(kt_q(e)));
	KUNIT_EXPECT_EQ(test, t->core->nr_busy_boost, 2U);
	/* The first thread's next read, far away: its boost is over too. */
	kt_insert(t, kt_read(t, (sector_t)1 << 27), a);
	KUNIT_EXPECT_FALSE(test, cs_queue_boosted(kt_q(a)));
	/* The pool's next thread starts without a boost. */
	kt_insert(t, kt_read(t, (sector_t)1 << 28), d);
	KUNIT_EXPECT_FALSE(test, cs_queue_boosted(kt_q(d)));
	KUNIT_EXPECT_TRUE(test, cs_queue_boosted(kt_q(p)));
	kt_done(t, prog);
	kt_end(t, 0);
}

/* Where slices own the disk the third thread's read moves (issue 14). */
static void cs_test_core_boost_pool_stream(struct kunit *test)
{
	kt_boost_pool_stream(test, CS_FORCE_SERIAL);
}

/* Where the disk serves in parallel it stays in its thread's queue. */
static void cs_test_core_boost_pool_parallel(struct kunit *test)
{
	kt_boost_pool_stream(test, CS_FORCE_PARALLEL);
}

/*
 * Boosts lead within their class: a boosted best-effort reader that just
 * had a read served leaves a real-time stream its depth in the driver
 * (sched-classes in tests/vm counts the real-time share), while a
 * best-effort stream beside it keeps one request in the driver.
 * Return: the stream's second read went to the driver beside its first.
 */
static bool kt_boost_beside(struct kunit *test, int class)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *s = kt_ctx(t, 10), *b = kt_ctx(t, 11);
	struct request *rq, *first, *second;
	unsigned int i;
	u64 seen;

	WRITE_ONCE(t->core->tun[CS_T_BOOST], 8000 * MS);
	rq = kt_read(t, (sector_t)1 << 28);
	kt_insert(t, rq, b);
	KUNIT_ASSERT_PTR_EQ(test, kt_dispatch(t), rq);
	t->now += 5 * MS;
	kt_done(t, rq);
	seen = t->now;
	KUNIT_EXPECT_TRUE(test, cs_queue_boosted(kt_q(b)));
	/* The stream is not boosted itself. */
	WRITE_ONCE(t->core->tun[CS_T_BOOST], 0);
	for (i = 0; i < 4; i++) {
		rq = kt_read(t, i * 128);
		kt_prio(rq, class, 4);
		kt_insert(t, rq, s);
	}
	KUNIT_EXPECT_FALSE(test, cs_queue_boosted(kt_q(s)));
	/* Its idle window cut short: the reader thinks on. */
	t->now += 2 * MS;
	cs_expire_active(t->core);
	first = kt_dispatch(t);
	KUNIT_ASSERT_NOT_NULL(test, first);
	KUNIT_EXPECT_EQ(test, first->__sector, 0ULL);
	second = kt_dispatch(t);
	/* Still within the boosted queue's 2 x slice_idle. */
	KUNIT_EXPECT_LT(test, t->now - seen,
			2 * cs_tun(t->core, CS_T_SLICE_IDLE));
	kt_done(t, first);
	if (second)
		kt_done(t, second);
	kt_end(t, 0);
	return second && second->__sector == 128;
}

static void cs_test_core_boost_class(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, kt_boost_beside(test, IOPRIO_CLASS_RT));
	KUNIT_EXPECT_FALSE(test, kt_boost_beside(test, IOPRIO_CLASS_BE));
}

/*
 * A program starting takes the disk at once from a stream of its class
 * that has reads queued (cs_should_preempt()), which the core must not
 * skip as it skips other sync queues of a class (issue 13).
 */
static void cs_test_core_boost_preempts(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *s = kt_ctx(t, 10), *b = kt_ctx(t, 11);
	struct request *rq, *prog = kt_read(t, (sector_t)1 << 28);
	unsigned int i;

	for (i = 0; i < 8; i++)
		kt_insert(t, kt_read(t, i * 128), s);
	rq = kt_dispatch(t);
	KUNIT_ASSERT_PTR_EQ(test, cs_rq_queue(rq), kt_q(s));
	WRITE_ONCE(t->core->tun[CS_T_BOOST], 8000 * MS);
	kt_insert(t, prog, b);
	KUNIT_EXPECT_TRUE(test, cs_queue_boosted(kt_q(b)));
	KUNIT_EXPECT_EQ(test, t->core->stats.preempted, 1ULL);
	KUNIT_EXPECT_EQ(test, t->core->stats.boost_preempted, 1ULL);
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), prog);
	kt_done(t, rq);
	kt_done(t, prog);
	kt_end(t, 0);
}

/*
 * A boosted read in the driver finds at most one request of the others
 * beside it however long it takes there: S9's python read behind four of
 * two streams' 1 MiB reads (131 ms, against 4.5 ms behind none) once its
 * read outlasted the window after it, and each such read let more in.
 */
static void cs_test_core_boost_driver(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *s = kt_ctx(t, 10), *b = kt_ctx(t, 11);
	struct request *prog = kt_read(t, (sector_t)1 << 28), *rq, *one;
	struct request *out[4];
	unsigned int i, n;

	/* The stream comes first, before boosts, and is not boosted. */
	rq = kt_read(t, 0);
	kt_insert(t, rq, s);
	KUNIT_ASSERT_PTR_EQ(test, kt_dispatch(t), rq);
	t->now += 5 * MS;
	kt_done(t, rq);
	WRITE_ONCE(t->core->tun[CS_T_BOOST], 8000 * MS);
	kt_insert(t, prog, b);
	KUNIT_ASSERT_PTR_EQ(test, kt_dispatch(t), prog);
	KUNIT_EXPECT_EQ(test, t->core->boost_in_driver, 1U);
	for (i = 1; i < 9; i++)
		kt_insert(t, kt_read(t, i * 128), s);
	KUNIT_EXPECT_FALSE(test, cs_queue_boosted(kt_q(s)));
	/* The program's read is still in the driver 50 ms on. */
	t->now += 50 * MS;
	cs_expire_active(t->core);
	one = kt_dispatch(t);
	KUNIT_ASSERT_NOT_NULL(test, one);
	KUNIT_EXPECT_NULL(test, kt_dispatch(t));
	kt_done(t, one);
	rq = kt_dispatch(t);
	KUNIT_ASSERT_NOT_NULL(test, rq);
	KUNIT_EXPECT_NULL(test, kt_dispatch(t));
	kt_done(t, rq);
	/*
	 * Done, the program may be thinking: for 4 x slice_idle the stream
	 * still has one read in the driver at a time, then more.
	 */
	kt_done(t, prog);
	KUNIT_EXPECT_EQ(test, t->core->boost_in_driver, 0U);
	rq = kt_dispatch(t);
	KUNIT_ASSERT_NOT_NULL(test, rq);
	t->now += 3 * cs_tun(t->core, CS_T_SLICE_IDLE);
	KUNIT_EXPECT_NULL(test, kt_dispatch(t));
	kt_done(t, rq);
	t->now += cs_tun(t->core, CS_T_SLICE_IDLE);
	for (n = 0; n < 4 && (out[n] = kt_dispatch(t)); n++)
		;
	KUNIT_EXPECT_GE(test, n, 2U);
	kt_done_all(t, out, n);
	kt_end(t, 0);
}

/* A disk in PARALLEL mode by an undecided measurement, seeks not measured. */
static struct kt *kt_new_undecided(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_AUTO);
	struct cs_model *m = &t->core->model;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(m->hold_until); i++) {
		m->hold_until[i] = U64_MAX;
		m->l.v[i].mode = CS_MODE_PARALLEL;
		m->l.v[i].why = CS_WHY_AB_UNDECIDED;
	}
	return t;
}

/*
 * In PARALLEL mode (S9's sata in the VM, undecided) a program that leads
 * finds one request of all the others beside its read, not one of each,
 * and keeps the disk past a quantum of reads: handing it on put a
 * stream's 1 MiB read between two of the program's.
 */
static void cs_test_core_boost_parallel(struct kunit *test)
{
	struct kt *t = kt_new_undecided(test);
	struct cs_kctx *s1 = kt_ctx(t, 10), *s2 = kt_ctx(t, 11);
	struct cs_kctx *b = kt_ctx(t, 12);
	struct request *rq, *out[16];
	unsigned int i, n, others = 0;

	/* The streams come before boosts and are not boosted. */
	kt_insert(t, kt_read(t, 1ULL << 24), s1);
	for (i = 0; i < 4; i++)
		kt_insert(t, kt_read(t, (1ULL << 25) + i * 128), s2);
	WRITE_ONCE(t->core->tun[CS_T_BOOST], 8000 * MS);
	for (i = 0; i < 12; i++)
		kt_insert(t, kt_read(t, (sector_t)(i + 1) << 28), b);
	KUNIT_ASSERT_EQ(test, t->core->mode, CS_MODE_PARALLEL);
	KUNIT_ASSERT_TRUE(test, cs_queue_leads(t->core, kt_q(b)));
	for (i = 0; i < 12; i++) {
		rq = kt_dispatch(t);
		KUNIT_ASSERT_NOT_NULL(test, rq);
		others += cs_rq_queue(rq) != kt_q(b);
		t->now += 2 * MS;
		kt_done(t, rq);
	}
	KUNIT_EXPECT_EQ(test, others, 0U);
	/*
	 * Past a quantum of reads in its turn, it keeps the disk while it
	 * leads (the stream that took it over had fifo-expired reads).
	 */
	KUNIT_EXPECT_GE(test, kt_q(b)->slice_dispatch, 12U);
	KUNIT_EXPECT_FALSE(test, cs_yield_after(t->core, kt_q(b)));
	t->core->boost_held = true;
	KUNIT_EXPECT_TRUE(test, cs_yield_after(t->core, kt_q(b)));
	t->core->boost_held = false;
	/* Its last read in the driver: one of the streams' goes beside it. */
	kt_insert(t, kt_read(t, (sector_t)13 << 28), b);
	rq = kt_dispatch(t);
	KUNIT_ASSERT_NOT_NULL(test, rq);
	cs_expire_active(t->core);
	for (n = 0; n < 16 && (out[n] = kt_dispatch(t)); n++)
		;
	KUNIT_EXPECT_EQ(test, n, 1U);
	kt_done(t, rq);
	kt_done_all(t, out, n);
	kt_end(t, 0);
}

/*
 * The boosted reads' own times, alone and beside others' requests in the
 * driver, are kept for debugfs; where the model finds distance cheap in
 * PARALLEL mode they do not make boosts lead (on the virtio disk the reads
 * beside others were as much slower as on a spindle, and boosts there cost
 * S10's readers 40% of their rate).
 */
static void cs_test_core_boost_evidence(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *s = kt_ctx(t, 10), *b = kt_ctx(t, 11);
	struct request *rq = NULL, *prog;
	unsigned int i;

	kt_insert(t, kt_read(t, 1ULL << 24), s);
	WRITE_ONCE(t->core->tun[CS_T_BOOST], 8000 * MS);
	/* Four reads alone at 4 ms, four beside the stream's at 20 ms. */
	for (i = 0; i < 8; i++) {
		if (i == 4) {
			/* The stream's read goes in and stays. */
			cs_expire_active(t->core);
			rq = kt_dispatch(t);
			KUNIT_ASSERT_NOT_NULL(test, rq);
			KUNIT_ASSERT_PTR_EQ(test, cs_rq_queue(rq), kt_q(s));
		}
		prog = kt_read(t, (sector_t)(i + 1) << 28);
		kt_insert(t, prog, b);
		KUNIT_ASSERT_PTR_EQ(test, kt_dispatch(t), prog);
		t->now += (i < 4 ? 4 : 20) * MS;
		kt_done(t, prog);
		if (i == 7)
			kt_done(t, rq);
	}
	KUNIT_EXPECT_EQ(test, t->core->boost_alone_n, 4U);
	KUNIT_EXPECT_EQ(test, t->core->boost_beside_n, 4U);
	KUNIT_EXPECT_EQ(test, t->core->boost_alone, 4 * MS);
	KUNIT_EXPECT_EQ(test, t->core->boost_beside, 20 * MS);
	kt_end(t, 0);

	/* The same figures on a PARALLEL disk where distance is cheap. */
	t = kt_new_undecided(test);
	t->core->model.l.seek_known = true;
	t->core->model.l.seek_cost = false;
	/* Cheap as found by enough far reads served alone, none slow. */
	t->core->model.l.far_n = 1U << CS_MODEL_SLOW_SHIFT;
	t->core->boost_alone = 4 * MS;
	t->core->boost_beside = 20 * MS;
	t->core->boost_alone_n = 8;
	t->core->boost_beside_n = 8;
	KUNIT_EXPECT_EQ(test, t->core->mode, CS_MODE_PARALLEL);
	KUNIT_EXPECT_FALSE(test, cs_model_far_seeks(&t->core->model));
	KUNIT_EXPECT_FALSE(test, cs_boost_could_lead(t->core));
	kt_end(t, 0);
}

/*
 * On a spindle not measured yet, in the prior's PARALLEL mode, where far
 * reads alone that its cache served said "no seek cost" (S3's first run on
 * a disk: its reads took 8.5 s against 3.7-4.1 s once measured), boosts
 * lead; but the model does not wait for them to measure the modes.  A
 * measurement that finds PARALLEL does not stop them (a spindle's cache
 * serving two streams wins it: S9's first start-up on a fresh disk); 64
 * far reads served alone, none of them slow, do.
 */
static void cs_test_core_boost_unmeasured(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_AUTO);
	struct cs_kctx *s = kt_ctx(t, 10), *b = kt_ctx(t, 11);
	struct cs_model *m = &t->core->model;
	unsigned int i;

	m->l.seek_known = true;
	m->l.seek_cost = false;
	kt_insert(t, kt_read(t, 0), s);
	kt_insert(t, kt_read(t, 128), s);
	WRITE_ONCE(t->core->tun[CS_T_BOOST], 8000 * MS);
	kt_insert(t, kt_read(t, (sector_t)1 << 28), b);
	KUNIT_ASSERT_EQ(test, t->core->mode, CS_MODE_PARALLEL);
	KUNIT_EXPECT_TRUE(test, cs_queue_acts(kt_q(b)));
	KUNIT_EXPECT_TRUE(test, cs_boost_could_lead(t->core));
	KUNIT_EXPECT_TRUE(test, cs_queue_leads(t->core, kt_q(b)));
	KUNIT_EXPECT_FALSE(test, cs_boost_defers(t->core, t->now));
	for (i = 0; i < ARRAY_SIZE(m->hold_until); i++) {
		m->l.v[i].mode = CS_MODE_PARALLEL;
		m->l.v[i].why = CS_WHY_AB;
	}
	KUNIT_EXPECT_TRUE(test, cs_queue_leads(t->core, kt_q(b)));
	m->l.far_n = 1U << CS_MODEL_SLOW_SHIFT;
	m->l.far_slow = 0;
	KUNIT_EXPECT_FALSE(test, cs_boost_could_lead(t->core));
	KUNIT_EXPECT_FALSE(test, cs_queue_leads(t->core, kt_q(b)));
	kt_end(t, 0);
}

/*
 * Where writes go beside reads (PARALLEL measured), write-back beside a
 * boosted read is held to one request where far reads seek (a flood of
 * writes kept a boosted reader's read 290 ms in the disk's queue:
 * tools/sim -d sata -w 16 s7 40), also while the boosts' lead is used
 * up; where distance is cheap, as on a disk that serves in parallel, the
 * boost costs write-back nothing.
 * Return: the writes that went to the driver beside the boosted read.
 */
static unsigned int kt_boost_writes(struct kunit *test, bool seek_cost,
				    bool held)
{
	struct kt *t = kt_new(test, CS_FORCE_AUTO);
	struct cs_kctx *b = kt_ctx(t, 11), *w = kt_ctx(t, 12);
	struct request *prog = kt_read(t, (sector_t)1 << 28), *out[8];
	struct cs_model *m = &t->core->model;
	unsigned int i, n;

	for (i = 0; i < ARRAY_SIZE(m->hold_until); i++) {
		m->hold_until[i] = U64_MAX;
		m->l.v[i].mode = CS_MODE_PARALLEL;
		m->l.v[i].why = CS_WHY_AB;
	}
	m->l.seek_known = true;
	m->l.seek_cost = seek_cost;
	/* Found by enough far reads served alone, none slow. */
	m->l.far_n = 1U << CS_MODEL_SLOW_SHIFT;
	WRITE_ONCE(t->core->tun[CS_T_BOOST], 8000 * MS);
	kt_insert(t, prog, b);
	KUNIT_ASSERT_EQ(test, t->core->mode, CS_MODE_PARALLEL);
	KUNIT_ASSERT_PTR_EQ(test, kt_dispatch(t), prog);
	KUNIT_EXPECT_EQ(test, t->core->boost_in_driver, 1U);
	if (held) {
		t->core->boost_lead = 2 * CS_BOOST_LEAD;
		t->core->boost_held = true;
	}
	for (i = 0; i < 8; i++)
		kt_insert(t, kt_rq(t, (1ULL << 30) + i * 1024, 512, true,
				   false), w);
	for (n = 0; n < 8 && (out[n] = kt_dispatch(t)); n++)
		;
	kt_done(t, prog);
	kt_done_all(t, out, n);
	kt_end(t, 0);
	return n;
}

static void cs_test_core_boost_writes(struct kunit *test)
{
	KUNIT_EXPECT_LE(test, kt_boost_writes(test, true, false), 1U);
	KUNIT_EXPECT_EQ(test, kt_boost_writes(test, true, true), 1U);
	KUNIT_EXPECT_GE(test, kt_boost_writes(test, false, false), 3U);
}

/*
 * A boosted queue's held-back time counts neither way in the lead: the
 * others' time pays it back, its own does not build it up again (CS_RQ_BOOST
 * followed cs_queue_acts(), so a program that kept reading never paid its
 * lead back and led for its first 250 ms only).  Its time while it leads
 * builds the lead.
 */
static void cs_test_core_boost_held(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *s = kt_ctx(t, 10), *b = kt_ctx(t, 11);
	struct request *rq, *mine;
	u64 lead;

	/* The stream comes first, before boosts, and is not boosted. */
	kt_insert(t, kt_read(t, 0), s);
	kt_insert(t, kt_read(t, 128), s);
	WRITE_ONCE(t->core->tun[CS_T_BOOST], 8000 * MS);
	kt_insert(t, kt_read(t, (sector_t)1 << 28), b);
	KUNIT_EXPECT_FALSE(test, cs_queue_boosted(kt_q(s)));
	/* Leading: its 20 ms build the lead while the stream waits. */
	rq = kt_dispatch(t);
	KUNIT_ASSERT_PTR_EQ(test, cs_rq_queue(rq), kt_q(b));
	KUNIT_EXPECT_TRUE(test, cs_rq_state(rq) & CS_RQ_LEADS);
	t->now += 20 * MS;
	kt_done(t, rq);
	KUNIT_EXPECT_EQ(test, t->core->boost_lead, 20 * MS);
	/* Held back: its next 20 ms leave the lead where it was. */
	t->core->boost_lead = 2 * CS_BOOST_LEAD;
	t->core->boost_held = true;
	mine = kt_read(t, (sector_t)1 << 30);
	kt_insert(t, mine, b);
	cs_expire_active(t->core);
	rq = kt_serve(t);
	KUNIT_ASSERT_NOT_NULL(test, rq);
	if (rq != mine) {
		/* The stream first: 10 ms of it pay back 20. */
		lead = t->core->boost_lead;
		t->now += 10 * MS;
		kt_done(t, rq);
		KUNIT_EXPECT_EQ(test, t->core->boost_lead, lead - 20 * MS);
		cs_expire_active(t->core);
		rq = kt_serve(t);
	}
	KUNIT_ASSERT_PTR_EQ(test, rq, mine);
	KUNIT_EXPECT_FALSE(test, cs_rq_state(rq) & CS_RQ_LEADS);
	KUNIT_EXPECT_TRUE(test, cs_rq_state(rq) & CS_RQ_BOOST);
	lead = t->core->boost_lead;
	t->now += 20 * MS;
	kt_done(t, rq);
	KUNIT_EXPECT_EQ(test, t->core->boost_lead, lead);
	kt_end(t, 0);
}

/*
 * SERIAL: a random reader beside a stream gets a slice's share of the
 * disk, not one read per round of the stream's slices (S10 on sata: 5
 * IOPS at 198 ms before).
 */
static void cs_test_core_seeky_share(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct kt_reader *r = kt_readers(t, 1, 1);
	u64 span = 3000 * MS;

	kt_mix(t, r, 2, span);
	kunit_info(test, "stream %llu ms, random %llu ms (%u reads)",
		   r[0].busy / MS, r[1].busy / MS, r[1].done);
	KUNIT_EXPECT_GE(test, r[1].busy, span * 30 / 100);
	KUNIT_EXPECT_GE(test, r[0].busy, span * 30 / 100);
	kt_end(t, 0);
}

/*
 * SERIAL: however many random readers, they share one slice per round,
 * taking turns in it: beside two or six of them the stream keeps about
 * half the disk (n/(n + 1) for n streams), and they get their share too.
 */
static void cs_test_core_seeky_bound(struct kunit *test)
{
	static const unsigned int nr_seeky[] = { 2, 6 };
	u64 span = 3000 * MS, seeky;
	struct kt_reader *r;
	unsigned int i, k;
	struct kt *t;

	for (k = 0; k < ARRAY_SIZE(nr_seeky); k++) {
		t = kt_new(test, CS_FORCE_SERIAL);
		r = kt_readers(t, 1, nr_seeky[k]);
		kt_mix(t, r, 1 + nr_seeky[k], span);
		seeky = 0;
		for (i = 1; i <= nr_seeky[k]; i++)
			seeky += r[i].busy;
		kunit_info(test, "%u random: stream %llu ms, random %llu ms",
			   nr_seeky[k], r[0].busy / MS, seeky / MS);
		KUNIT_EXPECT_GE(test, r[0].busy, span * 40 / 100);
		KUNIT_EXPECT_GE(test, seeky, span * 35 / 100);
		kt_end(t, 0);
	}
}

/*
 * SERIAL: a slice that begins while another queue's requests are still in
 * the driver starts at its own first completion: the drain is not its time.
 */
static void cs_test_core_slice_after_drain(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *a = kt_ctx(t, 10), *b = kt_ctx(t, 11);
	struct request *ra[4], *rb;
	struct cs_queue *qb;
	unsigned int i;

	for (i = 0; i < 4; i++)
		kt_insert(t, kt_read(t, i * 128), a);
	for (i = 0; i < 4; i++) {
		ra[i] = kt_dispatch(t);
		KUNIT_ASSERT_NOT_NULL(test, ra[i]);
	}
	kt_insert(t, kt_read(t, 1 << 24), b);
	qb = kt_q(b);
	/* a's slice ends with its requests still out; b's turn. */
	kt_wait(t, 150 * MS);
	rb = kt_dispatch(t);
	KUNIT_ASSERT_NOT_NULL(test, rb);
	KUNIT_EXPECT_PTR_EQ(test, cs_rq_queue(rb), qb);
	KUNIT_EXPECT_EQ(test, qb->slice_end, 0ULL);
	/* The disk drains a's four for 40 ms, then serves b's first. */
	for (i = 0; i < 4; i++) {
		kt_wait(t, 10 * MS);
		kt_done(t, ra[i]);
	}
	KUNIT_EXPECT_EQ(test, qb->slice_end, 0ULL);
	kt_wait(t, 10 * MS);
	kt_done(t, rb);
	KUNIT_EXPECT_GE(test, qb->slice_end, t->now + 90 * MS);
	kt_end(t, 0);
}

/*
 * A reader beside write-back competes for the disk: the model counts the
 * flusher as one more queue, so that the pair is measured (a single
 * reader's level would never be).
 */
static void cs_test_core_writeback_competes(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_AUTO);
	struct cs_kctx *a = kt_ctx(t, 10), *w = kt_ctx(t, 11);
	struct request *r, *wr;
	unsigned int i;

	for (i = 0; i < 40; i++) {
		kt_insert(t, kt_read(t, i * 128), a);
		kt_insert(t, kt_rq(t, (1 << 24) + i * 1024, 512, true, false),
			  w);
		r = kt_serve(t);
		KUNIT_ASSERT_NOT_NULL(test, r);
		kt_wait(t, 5 * MS);
		kt_done(t, r);
		/*
		 * In the prior, write-back waits for the read in the driver
		 * (queued, so present meanwhile); it is then written fast.
		 */
		wr = kt_serve(t);
		KUNIT_ASSERT_NOT_NULL(test, wr);
		kt_wait(t, 1 * MS);
		kt_done(t, wr);
	}
	/* Two competitors for 200 ms: the smoothed count is near two. */
	KUNIT_EXPECT_GE(test, t->core->model.present_avg, 3U * 1024 / 2);
	kt_end(t, 0);
}

/*
 * SERIAL: a reader whose slice ended does not preempt write-back ahead of
 * another reader that waits: b's read goes before a's next one (before,
 * a reader beside a flusher took the disk back at every request and three
 * of four readers starved).
 */
static void cs_test_core_preempt_no_jump(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *a = kt_ctx(t, 10), *b = kt_ctx(t, 11);
	struct cs_kctx *w = kt_ctx(t, 12);
	struct request *ra = kt_read(t, 0), *rb = kt_read(t, 1 << 24);
	struct request *rq, *out[8];
	unsigned int i, n = 0;

	kt_insert(t, ra, a);
	KUNIT_ASSERT_PTR_EQ(test, kt_dispatch(t), ra);
	for (i = 0; i < 4; i++)
		kt_insert(t, kt_rq(t, (2 << 24) + i * 1024, 512, true, false),
			  w);
	kt_insert(t, rb, b);
	/* a's slice runs out with its read in flight. */
	kt_wait(t, 200 * MS);
	kt_done(t, ra);
	/* Two writes of the async turn (after those a could preempt it). */
	for (i = 0; i < 2; i++) {
		if (n)
			kt_done(t, out[n - 1]);
		rq = kt_serve(t);
		KUNIT_ASSERT_NOT_NULL(test, rq);
		KUNIT_EXPECT_FALSE(test, rq_is_sync(rq));
		out[n++] = rq;
	}
	/* a's next read comes while b still waits. */
	ra = kt_read(t, 128);
	kt_insert(t, ra, a);
	while (n < ARRAY_SIZE(out)) {
		rq = kt_serve(t);
		KUNIT_ASSERT_NOT_NULL(test, rq);
		out[n++] = rq;
		if (rq_is_sync(rq))
			break;
		kt_done(t, out[n - 2]);
	}
	KUNIT_EXPECT_PTR_EQ(test, rq, rb);
	for (i = 0; i < n; i++)
		if (cs_rq_state(out[i]) & CS_RQ_DRIVER)
			kt_done(t, out[i]);
	kt_end(t, 0);
}

/*
 * SERIAL: the seeky window's room is checked for requests it would take.
 * Seeks measured at 30 ms; after a stream's slice two random readers have
 * a read each in flight, and the second, with nothing queued, keeps the
 * window while the stream's next read arrives; when the first completes
 * early its next read still fits and goes before the stream's.
 */
static void cs_test_core_seeky_room(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *s = kt_ctx(t, 10), *a = kt_ctx(t, 11);
	struct cs_kctx *b = kt_ctx(t, 12);
	struct request *rs = kt_read(t, 0), *ra = kt_read(t, 1 << 22);
	struct request *rb = kt_read(t, 3 << 22), *rq;

	t->core->model.l.seek_known = true;
	t->core->model.l.seek_cost = true;
	t->core->model.l.far_excess = 30 * MS;
	t->core->model.l.near_excess = 0;
	kt_insert(t, rs, s);
	kt_insert(t, ra, a);
	kt_insert(t, rb, b);
	kt_q(a)->seek.history = ~0U;
	kt_q(b)->seek.history = ~0U;
	KUNIT_ASSERT_PTR_EQ(test, kt_dispatch(t), rs);
	kt_wait(t, 1 * MS);
	kt_done(t, rs);
	/* The stream's idle window passes: the random readers' turn. */
	KUNIT_ASSERT_PTR_EQ(test, kt_serve(t), ra);
	KUNIT_ASSERT_PTR_EQ(test, kt_dispatch(t), rb);
	KUNIT_EXPECT_NULL(test, kt_dispatch(t));
	kt_wait(t, 15 * MS);
	rs = kt_read(t, 128);
	kt_insert(t, rs, s);
	/* Two seeks out and 85 ms left: b keeps the window. */
	KUNIT_EXPECT_NULL(test, kt_dispatch(t));
	kt_wait(t, 5 * MS);
	kt_done(t, ra);
	ra = kt_read(t, 5 << 22);
	kt_insert(t, ra, a);
	rq = kt_dispatch(t);
	KUNIT_EXPECT_PTR_EQ(test, rq, ra);
	if (rq)
		kt_done(t, rq);
	kt_done(t, rb);
	kt_end(t, 0);
}

/*
 * A reader's slice ends with its read in flight, write-back takes its
 * turn, and the reader's next read comes after @k async dispatches.
 * Return: the reader preempted the async turn.
 */
static bool kt_async_turn(struct kunit *test, unsigned int k)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *a = kt_ctx(t, 10), *w = kt_ctx(t, 11);
	struct request *ra = kt_read(t, 0), *wr = NULL;
	bool preempted;
	unsigned int i;

	kt_insert(t, ra, a);
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), ra);
	for (i = 0; i < 6; i++)
		kt_insert(t, kt_rq(t, (2 << 24) + i * 1024, 512, true, false),
			  w);
	kt_wait(t, 200 * MS);
	kt_done(t, ra);
	for (i = 0; i < k; i++) {
		if (wr) {
			kt_wait(t, 5 * MS);
			kt_done(t, wr);
		}
		wr = kt_serve(t);
		KUNIT_EXPECT_TRUE(test, wr && !rq_is_sync(wr));
	}
	kt_insert(t, kt_read(t, 128), a);
	preempted = !t->core->active || cs_queue_sync(t->core->active);
	kt_done(t, wr);
	kt_end(t, 0);
	return preempted;
}

/*
 * SERIAL: a reader that had the disk just before write-back does not take
 * it back before the async turn had slice_async_rq (2) requests; after
 * that it does.
 */
static void cs_test_core_async_turn(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, kt_async_turn(test, 1));
	KUNIT_EXPECT_TRUE(test, kt_async_turn(test, 2));
}

static struct kunit_case cs_core_cases[] = {
	KUNIT_CASE(cs_test_core_meta_first),
	KUNIT_CASE(cs_test_core_async_near),
	KUNIT_CASE(cs_test_core_prior_writes_wait),
	KUNIT_CASE(cs_test_core_sector_order),
	KUNIT_CASE(cs_test_core_serial_slice),
	KUNIT_CASE(cs_test_core_idle_hit),
	KUNIT_CASE(cs_test_core_idle_expire),
	KUNIT_CASE(cs_test_core_requeue),
	KUNIT_CASE(cs_test_core_ctx_exit),
	KUNIT_CASE(cs_test_core_merge_split),
	KUNIT_CASE(cs_test_core_stream_pool),
	KUNIT_CASE(cs_test_core_stream_pool_two),
	KUNIT_CASE(cs_test_core_stream_pool_random),
	KUNIT_CASE(cs_test_core_newcomer_pool),
	KUNIT_CASE(cs_test_core_stream_kernel_pool),
	KUNIT_CASE(cs_test_core_stream_pool_seeker),
	KUNIT_CASE(cs_test_core_stream_pool_cross),
	KUNIT_CASE(cs_test_core_stream_parallel),
	KUNIT_CASE(cs_test_core_split_no_boost),
	KUNIT_CASE(cs_test_core_coop_own_head),
	KUNIT_CASE(cs_test_core_group_by),
	KUNIT_CASE(cs_test_core_parallel_turns),
	KUNIT_CASE(cs_test_core_parallel_no_idle),
	KUNIT_CASE(cs_test_core_levels_parallel),
	KUNIT_CASE(cs_test_core_switch_slices),
	KUNIT_CASE(cs_test_core_rt_keeps_turns),
	KUNIT_CASE(cs_test_core_rt_first_parallel),
	KUNIT_CASE(cs_test_core_preempt),
	KUNIT_CASE(cs_test_core_fallback),
	KUNIT_CASE(cs_test_core_nonrot_unmeasured),
	KUNIT_CASE(cs_test_core_seeky_share),
	KUNIT_CASE(cs_test_core_seeky_bound),
	KUNIT_CASE(cs_test_core_slice_after_drain),
	KUNIT_CASE(cs_test_core_writeback_competes),
	KUNIT_CASE(cs_test_core_preempt_no_jump),
	KUNIT_CASE(cs_test_core_seeky_room),
	KUNIT_CASE(cs_test_core_async_turn),
	KUNIT_CASE(cs_test_core_boost_startup),
	KUNIT_CASE(cs_test_core_boost_exec),
	KUNIT_CASE(cs_test_core_boost_pool),
	KUNIT_CASE(cs_test_core_boost_pool_stream),
	KUNIT_CASE(cs_test_core_boost_pool_parallel),
	KUNIT_CASE(cs_test_core_boost_bound),
	KUNIT_CASE(cs_test_core_boost_class),
	KUNIT_CASE(cs_test_core_boost_preempts),
	KUNIT_CASE(cs_test_core_boost_driver),
	KUNIT_CASE(cs_test_core_boost_writes),
	KUNIT_CASE(cs_test_core_boost_parallel),
	KUNIT_CASE(cs_test_core_boost_evidence),
	KUNIT_CASE(cs_test_core_boost_unmeasured),
	KUNIT_CASE(cs_test_core_boost_held),
	{}
};

static struct kunit_suite cs_core_suite = {
	.name = "ctxsched_core",
	.test_cases = cs_core_cases,
};

/*
 * Item 1: a context of a merged queue exits after the merge moved it; its
 * old queue is freed once, the merged queue keeps the others.  (The race
 * itself, exit_icq against a merge on another CPU, is a locking matter:
 * tests/vm/coop-churn.sh runs it under KASAN and lockdep.)
 */
static void cs_fix1_exit_after_merge(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *a = kt_ctx(t, 10), *b = kt_ctx(t, 11);
	struct cs_queue *merged;
	struct request *rq;
	unsigned int i;

	for (i = 0; i < 8; i++) {
		rq = kt_read(t, i * 128);
		kt_insert(t, rq, i & 1 ? b : a);
		KUNIT_ASSERT_PTR_EQ(test, kt_serve(t), rq);
		t->now += 100 * 1000;
		kt_done(t, rq);
	}
	merged = kt_q(a);
	KUNIT_ASSERT_PTR_EQ(test, kt_q(b), merged);
	KUNIT_EXPECT_EQ(test, t->env->queues, 1);
	b->alive = false;
	cs_core_ctx_exit(t->core, &b->ctx);
	KUNIT_EXPECT_NULL(test, kt_q(b));
	KUNIT_EXPECT_EQ(test, merged->nr_members, 1U);
	/* Exiting again (a second ->exit_icq) changes nothing. */
	cs_core_ctx_exit(t->core, &b->ctx);
	KUNIT_EXPECT_EQ(test, merged->nr_members, 1U);
	kt_end(t, 0);
}

/*
 * Item 2: a completion that ends the active slice, with work waiting,
 * must run the queue: blk-mq would only come back after its 3 ms delay.
 */
static void cs_fix2_kick_at_slice_end(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *a = kt_ctx(t, 10), *b = kt_ctx(t, 11);
	struct request *ra = kt_read(t, 0), *rb = kt_read(t, 1 << 24);

	kt_insert(t, ra, a);
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), ra);
	kt_insert(t, rb, b);
	/* a waits for its request to complete before deciding to idle. */
	KUNIT_EXPECT_NULL(test, kt_dispatch(t));
	/* It completes after a's slice ended: b must go now. */
	t->now += 150 * MS;
	KUNIT_EXPECT_TRUE(test, kt_done(t, ra));
	KUNIT_EXPECT_EQ(test, t->core->stats.kicks, 1ULL);
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), rb);
	kt_done(t, rb);
	/* A completion that changes nothing does not run the queue. */
	kt_end(t, 0);
}

/*
 * Item 3: a requeued sync request is served at the head without a
 * deadline of ours; however long it takes, write-back is not throttled.
 */
static void cs_fix3_requeue_not_late(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *a = kt_ctx(t, 10);
	struct request *r = kt_read(t, 0);

	kt_insert(t, r, a);
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), r);
	cs_core_requeue(t->core, r);
	cs_core_insert(t->core, r, &a->ctx, true, t->now);
	t->now += 500 * MS;
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), r);
	t->now += 500 * MS;
	kt_done(t, r);
	KUNIT_EXPECT_EQ(test, t->core->last_delayed_sync, 0ULL);
	/* A request served from its queue after its deadline does count. */
	r = kt_read(t, 128);
	kt_insert(t, r, a);
	kt_dispatch(t);
	t->now += 200 * MS;
	kt_done(t, r);
	KUNIT_EXPECT_EQ(test, t->core->last_delayed_sync, t->now);
	kt_end(t, 0);
}

/*
 * Item 4: the callback of a cancelled window that was already running
 * arrives after a new window was armed; it must not end the new one.
 */
static void cs_fix4_stale_timer(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *a = kt_ctx(t, 10), *b = kt_ctx(t, 11);
	struct request *r = kt_read(t, 0);
	u64 first;

	kt_insert(t, r, a);
	kt_dispatch(t);
	kt_insert(t, kt_read(t, 1 << 24), b);
	kt_done(t, r);
	first = t->env->timer_at;
	/* a's next request ends the window; the window is re-armed later. */
	t->now += 1 * MS;
	r = kt_read(t, 128);
	kt_insert(t, r, a);
	kt_dispatch(t);
	t->now += 1 * MS;
	kt_done(t, r);
	KUNIT_ASSERT_EQ(test, t->core->idling, CS_IDLE_QUEUE);
	KUNIT_ASSERT_GT(test, t->env->timer_at, first);
	/* The first window's callback, late: nothing happens. */
	KUNIT_EXPECT_FALSE(test, cs_core_idle_timer(t->core, first));
	KUNIT_EXPECT_EQ(test, t->core->idling, CS_IDLE_QUEUE);
	KUNIT_EXPECT_PTR_EQ(test, t->core->active, kt_q(a));
	KUNIT_EXPECT_EQ(test, t->core->stats.idle_expired, 0ULL);
	kt_end(t, 0);
}

/*
 * Item 5: the grouping a context follows is the one stored with the
 * generation it joined under; a tunable written alone (as sysfs once did,
 * without the lock) regroups nobody.
 */
static void cs_fix5_group_by_gen(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *a = kt_ctx(t, 10), *b = kt_ctx(t, 10), *d;

	kt_insert(t, kt_read(t, 0), a);
	kt_insert(t, kt_read(t, 1 << 20), b);
	WRITE_ONCE(t->core->tun[CS_T_GROUP_BY], CS_GROUP_PROCESS);
	kt_insert(t, kt_read(t, 1 << 21), a);
	kt_insert(t, kt_read(t, 1 << 22), b);
	KUNIT_EXPECT_PTR_NE(test, kt_q(a), kt_q(b));
	cs_core_set_group_by(t->core, CS_GROUP_PROCESS);
	KUNIT_EXPECT_EQ(test, t->core->group_gen, 1U);
	kt_insert(t, kt_read(t, 1 << 23), a);
	kt_insert(t, kt_read(t, 1 << 24), b);
	KUNIT_EXPECT_PTR_EQ(test, kt_q(a), kt_q(b));
	/*
	 * Half a store (the old mode back, no new generation): a context
	 * that arrives now joins by the mode of the generation, its
	 * process's queue; by the tunable it would stay apart for good.
	 */
	WRITE_ONCE(t->core->tun[CS_T_GROUP_BY], CS_GROUP_THREAD);
	d = kt_ctx(t, 10);
	kt_insert(t, kt_read(t, 1 << 25), d);
	KUNIT_EXPECT_PTR_EQ(test, kt_q(d), kt_q(a));
	kt_end(t, 0);
}

/* Item 6: no insert merge may fold a sync write into an async one. */
static void cs_fix6_insert_merge(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);

	struct request *sync_write = kt_rq(t, 0, 4, true, true);
	struct request *async_write = kt_rq(t, 0, 4, true, false);
	struct request *read = kt_read(t, 0);

	KUNIT_EXPECT_FALSE(test, cs_core_may_insert_merge(t->core, sync_write));
	KUNIT_EXPECT_TRUE(test, cs_core_may_insert_merge(t->core, async_write));
	KUNIT_EXPECT_TRUE(test, cs_core_may_insert_merge(t->core, read));
	/* With a size cap, none: they could not be checked against it. */
	WRITE_ONCE(t->core->tun[CS_T_MAX_REQUEST_KB], 256);
	KUNIT_EXPECT_FALSE(test, cs_core_may_insert_merge(t->core, read));
	kt_end(t, 0);
}

/*
 * Item 7: broken books are warned about and repaired so that requests
 * keep moving: a request inserted twice is served once, counts that claim
 * requests a queue does not hold stop the disk from polling.
 */
static void cs_fix7_repairs(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *a = kt_ctx(t, 10);
	struct request *r = kt_read(t, 0);
	struct cs_queue *cq;

	kt_insert(t, r, a);
	kt_insert(t, r, a);
	KUNIT_EXPECT_EQ(test, t->env->warnings, 1U);
	KUNIT_EXPECT_EQ(test, t->core->nr_queued, 1U);
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), r);
	KUNIT_EXPECT_NULL(test, kt_dispatch(t));
	kt_done(t, r);
	/* A queue that says it holds a request it does not have. */
	r = kt_read(t, 128);
	kt_insert(t, r, a);
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), r);
	cq = kt_q(a);
	cq->queued++;
	t->core->nr_queued++;
	cs_busy_account(t->core, cq, 1);
	KUNIT_EXPECT_NULL(test, kt_dispatch(t));
	KUNIT_EXPECT_EQ(test, t->env->warnings, 2U);
	KUNIT_EXPECT_FALSE(test, cs_core_has_work(t->core));
	kt_done(t, r);
	/* The built-in queue survives a count that says it is unused. */
	cs_put_queue(t->core, &t->core->fallback);
	KUNIT_EXPECT_EQ(test, t->core->fallback.ref, 1);
	KUNIT_EXPECT_EQ(test, t->env->warnings, 3U);
	KUNIT_EXPECT_GE(test, t->core->stats.repaired, 2ULL);
	kt_end(t, 3);
}

/*
 * Item 8: a queue that ran dry with nobody else waiting has waited since
 * its last completion; when a competitor comes, only the rest of its idle
 * window is left.
 */
static void cs_fix8_idle_charged(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *a = kt_ctx(t, 10), *b = kt_ctx(t, 11);
	struct cs_kctx *c = kt_ctx(t, 12);
	struct request *r = kt_read(t, 0), *rb = kt_read(t, 1 << 24);
	u64 done;

	kt_insert(t, r, a);
	kt_dispatch(t);
	kt_done(t, r);
	done = t->now;
	KUNIT_EXPECT_EQ(test, t->core->idling, CS_IDLE_NONE);
	t->now += 5 * MS;
	kt_insert(t, rb, b);
	KUNIT_EXPECT_NULL(test, kt_dispatch(t));
	KUNIT_EXPECT_EQ(test, t->core->idling, CS_IDLE_QUEUE);
	KUNIT_EXPECT_EQ(test, t->env->timer_at, done + 8 * MS);
	kt_wait(t, 3 * MS);
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), rb);
	kt_done(t, rb);
	/* Waited longer than the window already: give way at once. */
	t->now += 20 * MS;
	r = kt_read(t, 1 << 25);
	kt_insert(t, r, c);
	KUNIT_EXPECT_PTR_EQ(test, kt_dispatch(t), r);
	kt_done(t, r);
	kt_end(t, 0);
}

/*
 * Item 9: a context whose requests alternate priorities (per-request
 * ioprio) must not be sent to the back of the round robin at each one.
 */
static void cs_fix9_alternating_prio(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *x = kt_ctx(t, 10), *y = kt_ctx(t, 11);
	struct cs_kctx *z = kt_ctx(t, 12);
	struct request *rq;
	unsigned int i, served = 0;
	sector_t xs = 1 << 24;

	for (i = 0; i < 64; i++) {
		kt_insert(t, kt_read(t, i * 128), y);
		kt_insert(t, kt_read(t, (2 << 24) + i * 128), z);
	}
	for (i = 0; i < 400 && !served; i++) {
		rq = kt_read(t, xs);
		xs += 128;
		kt_prio(rq, IOPRIO_CLASS_BE, i & 1 ? 2 : 6);
		kt_insert(t, rq, x);
		rq = kt_dispatch(t);
		if (rq) {
			served += cs_rq_queue(rq) == kt_q(x);
			kt_done(t, rq);
		}
		t->now += 5 * MS;
	}
	/* y and z get a slice each (< 400 ms of the 2 s), then x. */
	KUNIT_EXPECT_GT(test, served, 0U);
	KUNIT_EXPECT_LT(test, i, 120U);
	kt_end(t, 0);
}

/*
 * Item 10: merging needs a history, the same level, and a member whose
 * priority changes leaves instead of re-classing the merged queue.
 */
static void cs_fix10_coop_guards(struct kunit *test)
{
	struct kt *t = kt_new(test, CS_FORCE_SERIAL);
	struct cs_kctx *a = kt_ctx(t, 10), *b = kt_ctx(t, 11);
	struct cs_kctx *lo = kt_ctx(t, 12);
	struct request *rq;
	sector_t pos = 0;
	unsigned int i;

	/* b's very first request lands next to a's stream: no merge. */
	rq = kt_read(t, pos);
	kt_insert(t, rq, a);
	kt_dispatch(t);
	kt_done(t, rq);
	pos += 128;
	rq = kt_read(t, pos);
	kt_insert(t, rq, b);
	KUNIT_EXPECT_PTR_NE(test, kt_q(a), kt_q(b));
	KUNIT_EXPECT_EQ(test, t->core->stats.coop_merged, 0ULL);
	kt_wait(t, 10 * MS);
	rq = kt_dispatch(t);
	KUNIT_ASSERT_NOT_NULL(test, rq);
	kt_done(t, rq);
	/* A BE7 context on a BE4 stream does not ride on it. */
	for (i = 0; i < 4; i++) {
		pos += 128;
		rq = kt_read(t, pos);
		kt_prio(rq, IOPRIO_CLASS_BE, 7);
		kt_insert(t, rq, lo);
		rq = kt_dispatch(t);
		if (rq)
			kt_done(t, rq);
		pos += 128;
		rq = kt_read(t, pos);
		kt_insert(t, rq, i & 1 ? a : b);
		rq = kt_dispatch(t);
		if (rq)
			kt_done(t, rq);
	}
	KUNIT_EXPECT_PTR_NE(test, kt_q(lo), kt_q(a));
	KUNIT_EXPECT_EQ(test, kt_q(lo)->level, 7U);
	/* a and b did merge; b turning BE0 leaves, a stays at BE4. */
	KUNIT_ASSERT_PTR_EQ(test, kt_q(a), kt_q(b));
	pos += 128;
	rq = kt_read(t, pos);
	kt_prio(rq, IOPRIO_CLASS_BE, 0);
	kt_insert(t, rq, b);
	KUNIT_EXPECT_PTR_NE(test, kt_q(a), kt_q(b));
	KUNIT_EXPECT_EQ(test, kt_q(a)->level, 4U);
	KUNIT_EXPECT_EQ(test, kt_q(b)->level, 0U);
	kt_end(t, 0);
}

static struct kunit_case cs_fixes_cases[] = {
	KUNIT_CASE(cs_fix1_exit_after_merge),
	KUNIT_CASE(cs_fix2_kick_at_slice_end),
	KUNIT_CASE(cs_fix3_requeue_not_late),
	KUNIT_CASE(cs_fix4_stale_timer),
	KUNIT_CASE(cs_fix5_group_by_gen),
	KUNIT_CASE(cs_fix6_insert_merge),
	KUNIT_CASE(cs_fix7_repairs),
	KUNIT_CASE(cs_fix8_idle_charged),
	KUNIT_CASE(cs_fix9_alternating_prio),
	KUNIT_CASE(cs_fix10_coop_guards),
	{}
};

static struct kunit_suite cs_fixes_suite = {
	.name = "ctxsched_fixes",
	.test_cases = cs_fixes_cases,
};
