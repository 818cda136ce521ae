// SPDX-License-Identifier: GPL-2.0
/*
 * The device model.  queue/rotational says whether a disk rotates, not
 * whether idling pays on it: a virtual disk, an array or a SAN LUN says
 * rotational and serves many requests at once.  So ctxsched watches its
 * own requests:
 *
 * - Seek cost.  A request alone in the driver (with the other pieces of
 *   its read, when a stripe unit split it) shows the disk's service time
 *   without queueing.  Its time beyond the transfer (at the fastest rate
 *   seen) is compared between requests that continue where the previous
 *   one ended and requests far from it.  Where far costs no more than
 *   near, idling can only lose: the disk goes PARALLEL at once (and a
 *   measurement confirms it if the disk says it rotates).
 * - Where distance costs time, a single spindle wants idling and an array
 *   does not, and the difference shows only in what each policy delivers.
 *   And a drive's read cache can hide seeks while few streams run.  So on
 *   such disks, and on every disk that says it rotates, while several
 *   sync queues compete the model measures what each mode delivers: short
 *   windows alternate between SERIAL and PARALLEL (ABBA order, so that a
 *   drift of the load cancels), and the mode that delivers 10% more in
 *   three pairs in a row (or by the median of seven) wins.  The decision
 *   holds for 10 s of contended time, doubling up to 80 s each time a new
 *   measurement confirms it, so that a changed disk or load is noticed
 *   without flapping.
 * - Parallelism.  The throughput per busy second of requests that shared
 *   the driver with others, over that of requests served alone, tells
 *   whether the disk serves requests side by side; a disk that does not
 *   is kept to priorities by idling even where distance costs nothing.
 *
 * All of it is arithmetic on times the caller passes in.
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "model.h"
#include "policy.h"

static enum cs_mode cs_other_mode(enum cs_mode mode)
{
	return mode == CS_MODE_SERIAL ? CS_MODE_PARALLEL : CS_MODE_SERIAL;
}

/**
 * cs_model_init() - set up the model of a disk
 * @m: the model
 * @rotational: the disk says it rotates: measure the mode under load
 * @mem: what an earlier model of the same disk learned, or NULL
 * @now: current time, ns
 */
void cs_model_init(struct cs_model *m, bool rotational,
		   const struct cs_model_memory *mem, u64 now)
{
	unsigned int i;

	memset(m, 0, sizeof(*m));
	m->rotational = rotational;
	if (mem && mem->valid) {
		m->l = mem->l;
		/*
		 * A measured verdict holds as it did; a level not measured
		 * yet is measured at its first contention.
		 */
		for (i = 0; i < CS_MODEL_LEVELS; i++)
			if (m->l.v[i].why != CS_WHY_PRIOR)
				m->hold_until[i] = m->l.v[i].hold;
	} else {
		/*
		 * Work-conserving until measured: most disks that say they
		 * rotate today are virtual disks and arrays, and a spindle
		 * shows within a second what idling brings it.
		 */
		for (i = 0; i < CS_MODEL_LEVELS; i++) {
			m->l.v[i].mode = CS_MODE_PARALLEL;
			m->l.v[i].why = CS_WHY_PRIOR;
			m->l.v[i].hold = CS_AB_HOLD_MIN_NS;
		}
		m->l.parallel = !rotational;
	}
	m->force = CS_FORCE_AUTO;
	m->ab = CS_AB_HOLD;
	m->shown = cs_model_mode(m);
	m->depth_t = now;
	m->epoch_end = now + CS_MODEL_GAIN_EPOCH_NS;
	m->last_tick = now;
	m->present_t = now;
	m->changed_at = now;
}

/**
 * cs_model_force() - apply the device_mode tunable
 * @m: the model
 * @force: auto, or the mode to use
 * @now: current time, ns
 *
 * Setting auto forgets what was learned: the admin asks for a new look at
 * the disk.
 */
void cs_model_force(struct cs_model *m, enum cs_mode_force force, u64 now)
{
	bool one_tag = m->one_tag;

	if (force == CS_FORCE_AUTO) {
		cs_model_init(m, m->rotational, NULL, now);
		m->one_tag = one_tag;
		return;
	}
	m->force = force;
	m->ab = CS_AB_HOLD;
	m->shown = cs_model_mode(m);
	m->dirty = false;
}

/**
 * cs_model_set_tags() - tell the model how many commands the disk takes
 * @m: the model
 * @tags: the driver's queue depth
 *
 * A disk that takes one command at a time cannot serve two in parallel,
 * whatever the gain figure says.
 */
void cs_model_set_tags(struct cs_model *m, unsigned int tags)
{
	m->one_tag = tags == 1;
}

/**
 * cs_model_newcomer() - tell the model that a new sync queue appeared
 * @m: the model
 * @pooled: the queue is a thread's of the pool the previous new queue came
 *	from: a pool's threads are arriving
 *
 * A verdict that is not fresh is then measured again after
 * CS_AB_STALE_NS of contention (cs_model_tick()), for a pool's thread
 * also where the verdict is settled (cs_model_settled_wide()).
 */
void cs_model_newcomer(struct cs_model *m, bool pooled)
{
	m->newcomer = true;
	m->newcomer_pooled |= pooled;
}

/*
 * Move @avg towards @val by the share of 100 ms that @dt is, the step
 * rounded up so that the average reaches the count.
 */
static unsigned int cs_model_smooth(unsigned int avg, unsigned int val,
				    u64 dt)
{
	const u64 tau = 100 * NSEC_PER_MSEC;
	u64 w = min(dt, tau);

	if (val >= avg)
		return avg + (unsigned int)div64_u64((u64)(val - avg) * w +
						     tau - 1, tau);
	return avg - (unsigned int)div64_u64((u64)(avg - val) * w + tau - 1,
					     tau);
}

/*
 * The level of a smoothed count of present queues (/1024): 2, 3-4, 5-8,
 * 9+; a boundary is crossed only half a queue beyond it.
 */
static unsigned int cs_model_level(unsigned int avg, unsigned int cur)
{
	static const unsigned int upper[CS_MODEL_LEVELS - 1] = {
		2560, 4608, 8704,	/* 2.5, 4.5, 8.5 queues */
	};
	unsigned int level = 0;

	while (level < CS_MODEL_LEVELS - 1 && avg > upper[level])
		level++;
	if (level > cur && avg < upper[level - 1] + 512)
		level--;
	else if (level < cur && avg + 512 > upper[level])
		level++;
	return level;
}

/* Fold time since the last event into the busy time (reads in the driver). */
static void cs_model_account(struct cs_model *m, u64 now)
{
	if (m->depth_rd)
		m->busy_ns += cs_since(now, m->depth_t);
	m->depth_t = max(now, m->depth_t);
}

/**
 * cs_model_dispatch() - a request goes to the driver
 * @m: the model
 * @pos: its first sector
 * @sectors: its size
 * @write: it writes
 * @now: current time, ns
 *
 * A request dispatched to an idle disk starts a burst that is served
 * alone; requests that continue it directly (the pieces of one read split
 * at a stripe unit) join it, anything else spoils it.
 */
void cs_model_dispatch(struct cs_model *m, u64 pos, u32 sectors, bool write,
		       u64 now)
{
	u64 dist = pos >= m->last_end ? pos - m->last_end : m->last_end - pos;

	cs_model_account(m, now);
	if (!m->depth) {
		m->solo_t0 = now;
		m->solo_bytes = sectors << 9;
		m->solo_far = dist > CS_SEEK_FAR_ROT;
		m->solo_active = true;
		m->solo_read = !write;
	} else if (m->solo_active && !dist) {
		m->solo_bytes += sectors << 9;
		m->solo_read &= !write;
	} else {
		/* Its service time now includes another request's. */
		m->solo_active = false;
	}
	m->depth++;
	m->depth_rd += !write;
	m->last_end = pos + sectors;
}

/*
 * A sample more than twice the mean plus a seek counts as that much: a
 * vCPU the host preempted between dispatch and completion makes one
 * request look 10-20 ms long, and with a few far samples (nine, on a
 * serialising null_blk under TCG) one such outlier read as a 2 ms seek.
 */
static u64 cs_ewma(u64 mean, u32 n, u64 sample)
{
	if (!n)
		return sample;
	sample = min(sample, 2 * mean + CS_MODEL_SEEK_ON_NS);
	return div_u64(7 * mean + sample, 8);
}

/*
 * The share (/1024) of samples that were @hit, @n of them before this one:
 * their mean at first, then decaying.
 */
static u32 cs_share(u32 share, u32 n, bool hit)
{
	if (n < 1U << CS_MODEL_SLOW_SHIFT)
		return (share * n + (hit ? 1024 : 0)) / (n + 1);
	return share - (share >> CS_MODEL_SLOW_SHIFT) +
	       (hit ? 1024 >> CS_MODEL_SLOW_SHIFT : 0);
}

/* One request served alone: @t ns for @bytes, near or @far. */
static void cs_model_sample(struct cs_model *m, u64 t, u32 bytes, bool far)
{
	struct cs_model_learned *l = &m->l;
	u64 ps, xfer, excess, cost, limit;
	bool seek, slow;

	t = min_t(u64, t, CS_MODEL_SAMPLE_MAX_NS);
	if (!far && bytes >= 4096) {
		ps = div_u64(t * 1000, bytes);
		if (!l->best_ps || ps < l->best_ps)
			l->best_ps = max_t(u64, ps, 1);
	}
	xfer = div_u64(l->best_ps * bytes, 1000);
	excess = cs_since(t, xfer);
	slow = excess > CS_MODEL_SEEK_ON_NS;
	if (far) {
		l->far_slow = cs_share(l->far_slow, l->far_n, slow);
		l->far_excess = cs_ewma(l->far_excess, l->far_n, excess);
		l->far_n = min(l->far_n + 1, 65535U);
	} else {
		l->near_slow = cs_share(l->near_slow, l->near_n, slow);
		l->near_excess = cs_ewma(l->near_excess, l->near_n, excess);
		l->near_n = min(l->near_n + 1, 65535U);
	}
	limit = l->seek_known && l->seek_cost ? CS_MODEL_SEEK_OFF_NS :
						CS_MODEL_SEEK_ON_NS;
	if (l->near_n < CS_MODEL_NEAR_MIN) {
		/*
		 * Readers that interleave in the driver (PARALLEL mode, many
		 * streams) leave few near samples.  The far excess bounds the
		 * seek cost from above, so far requests served in less time
		 * than a seek would cost show that distance is cheap; they
		 * can never show that it is dear.
		 */
		if (l->far_n < CS_MODEL_FAR_ALONE_MIN || l->far_excess > limit)
			return;
		cost = l->far_excess;
	} else {
		if (l->far_n < CS_MODEL_FAR_MIN)
			return;
		cost = cs_since(l->far_excess, l->near_excess);
	}
	seek = cost > limit;
	m->dirty |= seek != l->seek_cost || !l->seek_known;
	l->seek_cost = seek;
	l->seek_known = true;
}

/**
 * cs_model_complete() - a request the driver had is done (or requeued)
 * @m: the model
 * @bytes: its size (0 for a requeue: nothing was delivered)
 * @flags: CS_MODEL_SYNC for a sync request: only those count in the A/B
 *	throughput, since the modes differ in how they serve the sync queues
 *	that compete, and write-back, which takes whatever the disk has
 *	left, would make the mode that starves readers look faster (a stream
 *	and a random reader beside a flusher in tools/sim: PARALLEL measured
 *	7.6 times SERIAL in bytes while the stream got 0.7 MB/s instead of
 *	33); CS_MODEL_WRITE for a write, which the gain figure leaves out
 * @now: current time, ns
 */
void cs_model_complete(struct cs_model *m, u32 bytes, unsigned int flags,
		       u64 now)
{
	bool write = flags & CS_MODEL_WRITE;

	cs_model_account(m, now);
	if (!write)
		m->busy_bytes += bytes;
	if (m->depth)
		m->depth--;
	if (!write && m->depth_rd)
		m->depth_rd--;
	if ((flags & CS_MODEL_SYNC) && m->ab == CS_AB_RUN && now >= m->ab_start)
		m->ab_bytes += bytes;
	if (!bytes)
		m->solo_active = false;
	if (m->depth || !m->solo_active)
		return;
	/* The burst served alone is over: one sample of the disk. */
	m->solo_active = false;
	if (m->solo_read) {
		m->solo_ns += cs_since(now, m->solo_t0);
		m->solo_sum += m->solo_bytes;
	}
	cs_model_sample(m, cs_since(now, m->solo_t0), m->solo_bytes,
			m->solo_far);
}

/*
 * Close a gain epoch: bytes per busy time of the requests that shared the
 * driver, against those served alone.  Attributing by request rather than
 * by the depth at each completion keeps near-simultaneous completions of
 * parallel requests from crediting the last one to depth 1.
 */
static void cs_model_gain(struct cs_model *m, u64 now)
{
	struct cs_model_learned *l = &m->l;
	u64 shared_ns, shared_bytes, r0, r1, g;

	shared_ns = cs_since(m->busy_ns, m->solo_ns);
	shared_bytes = cs_since(m->busy_bytes, m->solo_sum);
	if (m->solo_ns >= CS_MODEL_GAIN_MIN_NS &&
	    shared_ns >= CS_MODEL_GAIN_MIN_NS && m->solo_sum) {
		r0 = div64_u64(m->solo_sum * 1000, m->solo_ns);
		r1 = div64_u64(shared_bytes * 1000, shared_ns);
		g = r0 ? div64_u64(r1 * 1024, r0) : 1024;
		g = min_t(u64, g, 64 * 1024);
		l->gain = l->gain_known ? (u32)div_u64(3 * (u64)l->gain + g, 4) :
					  (u32)g;
		l->gain_known = true;
		l->parallel = l->gain > (l->parallel ? CS_MODEL_GAIN_OFF :
						       CS_MODEL_GAIN_ON);
		m->dirty = true;
	}
	m->busy_ns = 0;
	m->busy_bytes = 0;
	m->solo_ns = 0;
	m->solo_sum = 0;
	m->epoch_end = now + CS_MODEL_GAIN_EPOCH_NS;
}

/*
 * Whether the A/B measurement has anything to decide: where distance
 * costs time, and on any disk that says it rotates.  A drive's read cache
 * can make far requests look cheap while few streams run and hide seeks
 * that many streams bring back, so the seek figure alone only sets where
 * the measurement starts.
 */
static bool cs_model_ab_applies(const struct cs_model *m)
{
	if (m->force != CS_FORCE_AUTO)
		return false;
	return m->rotational || (m->l.seek_known && m->l.seek_cost);
}

/* The verdict of the contention level now. */
static struct cs_model_verdict *cs_model_cur(struct cs_model *m)
{
	return &m->l.v[m->level];
}

/**
 * cs_model_verdict() - the verdict of the contention level now
 * @m: the model
 *
 * Return: the verdict.
 */
const struct cs_model_verdict *cs_model_verdict(const struct cs_model *m)
{
	return &m->l.v[m->level];
}

/* The nearest level measured, or NULL. */
static const struct cs_model_verdict *cs_model_nearby(const struct cs_model *m)
{
	int d, i;

	for (d = 1; d < CS_MODEL_LEVELS; d++) {
		i = (int)m->level - d;
		if (i >= 0 && m->l.v[i].why == CS_WHY_AB)
			return &m->l.v[i];
		i = m->level + d;
		if (i < CS_MODEL_LEVELS && m->l.v[i].why == CS_WHY_AB)
			return &m->l.v[i];
	}
	return NULL;
}

/* The mode without a measurement in progress. */
static enum cs_mode cs_model_settled(const struct cs_model *m)
{
	const struct cs_model_verdict *v = cs_model_verdict(m), *near;

	if (v->why == CS_WHY_AB)
		return v->mode;
	if (m->l.seek_known && !m->l.seek_cost)
		return CS_MODE_PARALLEL;
	if (v->why == CS_WHY_PRIOR) {
		near = cs_model_nearby(m);
		if (near)
			return near->mode;
	}
	return v->mode;
}

static void cs_model_ab_window(struct cs_model *m, enum cs_mode mode, u64 now)
{
	m->ab_mode = mode;
	m->ab_start = now + CS_AB_SETTLE_NS;
	m->ab_end = m->ab_start + CS_AB_WIN_NS;
	m->ab_bytes = 0;
	m->ab_cont_ns = 0;
}

/* End a run; @judged: at @now, with a verdict (not cut short). */
static void cs_model_ab_hold(struct cs_model *m, u64 hold, bool judged,
			     u64 now)
{
	m->ab = CS_AB_HOLD;
	m->hold_until[m->level] = m->cont[m->level] + hold;
	if (judged)
		m->measured_at[m->level] = max(now, 1ULL);
}

/**
 * cs_model_defer() - hold measurements back while boosted queues lead
 * @m: the model
 * @defer: they lead now
 * @now: current time, ns
 *
 * A boost costs the streams throughput by design, which a comparison
 * would count against the mode it ran in: no run starts while @defer
 * holds.  A run in progress goes on to its verdict (boosts do not lead
 * meanwhile, at most seven pairs of windows): dropped, it started again
 * at the next pause of the boosted queues and was dropped again, and the
 * disk stayed in the prior (tools/sim, sata, boost 8000, a stream and a
 * boosted random reader beside 8 writes: PARALLEL for 20 s, the stream at
 * 0.3 MB/s; 22.2 MB/s with the run kept).
 */
void cs_model_defer(struct cs_model *m, bool defer, u64 now)
{
	m->defer = defer;
}

/* Median of the first @n ratios (sorted in a copy). */
static u32 cs_median(const u32 *r, unsigned int n)
{
	u32 s[CS_AB_MAX_PAIRS] = {};
	unsigned int i, j;
	u32 v;

	for (i = 0; i < n; i++) {
		/* Insertion sort: at most seven values. */
		v = r[i];
		for (j = i; j > 0 && s[j - 1] > v; j--)
			s[j] = s[j - 1];
		s[j] = v;
	}
	return s[n / 2];
}

/*
 * The first @k pairs of a run all favour one mode by @gap (/1024) or more:
 * PARALLEL over SERIAL, or SERIAL over PARALLEL.
 */
static bool cs_ab_clear(const u32 *r, unsigned int n, unsigned int k,
			u32 gap)
{
	const u32 lo = 1024 * 1024 / gap;
	unsigned int i, par = 0, ser = 0;

	if (n != k)
		return false;
	for (i = 0; i < k; i++) {
		par += r[i] >= gap;
		ser += r[i] <= lo;
	}
	return par == k || ser == k;
}

/*
 * What the seek and gain figures say of the disk, at each pair: a disk's
 * first run starts at its first contention, before they are known
 * (serial-noseek in a 6.12 guest: null_blk at depth 1, no seek cost,
 * measured SERIAL in its first run).
 */
static void cs_model_ab_doubts(struct cs_model *m)
{
	m->ab_strong = m->l.seek_known && !m->l.seek_cost;
	m->ab_one = m->l.gain_known && !m->l.parallel &&
		    m->l.seek_known && m->l.seek_cost;
}

/* After a pair: decide, go on measuring, or give up. */
static void cs_model_ab_judge(struct cs_model *m, u64 now)
{
	struct cs_model_verdict *l = cs_model_cur(m);
	/*
	 * Where distance was seen to cost nothing, SERIAL has to win by the
	 * wide gap in the median of all pairs, and be ahead in all of them
	 * but one: a noisy virtual disk must not be talked into idling by a
	 * few unlucky windows (a virtio disk on a busy host gave 435 488 3132
	 * 4758 497 671 4994, a median of 1.5x for SERIAL).
	 */
	const u32 lo = 1024 * 1024 / (m->ab_strong ? CS_AB_WIDE : CS_AB_MARGIN);
	/*
	 * On what looks like a spindle (distance costs, and the gain figure
	 * says one read at a time), PARALLEL has to win by the wide gap, in
	 * three pairs in a row or in the median and all pairs but one: one
	 * window the host stalled is not enough (CI, the 6.1 guest beside
	 * another: sata went PARALLEL at its first measurement).
	 */
	const u32 hi = m->ab_one ? CS_AB_WIDE : CS_AB_MARGIN;
	/*
	 * After all the pairs, the median needs only a quarter there when
	 * every pair but one favoured PARALLEL: array8 (64 KiB stripe unit)
	 * at 8 readers gave 1.17-2.07x in every pair, while its gain figure
	 * (two reads against one, each already across six of its eight
	 * spindles) said one at a time, and it stayed SERIAL at 0.7 of none
	 * (tools/bench/exp/a8-after-sata.sh).  A spindle's pairs are 0.3-0.7
	 * (sata), and a stalled window moves one pair.
	 */
	const u32 hi_med = m->ab_one ? CS_AB_SETTLED_PAR : CS_AB_MARGIN;
	unsigned int n = m->ab_pairs, i, par = 0, ser = 0, ahead = 0, par_ahead;
	enum cs_mode won;
	u32 med, last = m->ab_ratios[n - 1];

	for (i = n >= 3 ? n - 3 : n; i < n; i++) {
		par += m->ab_ratios[i] > hi;
		ser += m->ab_ratios[i] < lo;
	}
	med = cs_median(m->ab_ratios, n);
	for (i = 0; i < n; i++)
		ahead += m->ab_ratios[i] < 1024;
	par_ahead = n - ahead;
	/*
	 * A wide gap needs fewer pairs: 4x in one, 1.5x in two.  So does
	 * PARALLEL by a quarter where the gain figure already says the disk
	 * gains from depth (cs_model_settled_wide()): array12's first
	 * reading with two readers spent two more pairs, half of them in
	 * SERIAL windows 30% slower (tools/sim -d array12 -t 4 s1 2: 43.8
	 * MB/s, 45.1 with one pair, none 45.7).  Spindles never show such a
	 * gain (hddsim's sata in a 6.12 guest: 449-578).
	 */
	if ((cs_ab_clear(m->ab_ratios, n, 1, 4 * 1024) ||
	     cs_ab_clear(m->ab_ratios, n, 2, CS_AB_WIDE) ||
	     (n == 1 && last >= CS_AB_SETTLED_PAR && !m->one_tag &&
	      m->l.gain_known && m->l.gain >= CS_AB_SETTLED_GAIN)) &&
	    (last > 1024 ? !m->ab_one : !m->ab_strong)) {
		won = last > 1024 ? CS_MODE_PARALLEL : CS_MODE_SERIAL;
	} else if (m->ab_one && med > CS_AB_SETTLED_PAR &&
		   cs_ab_clear(m->ab_ratios, n, CS_AB_STEADY_PAIRS,
			       CS_AB_MARGIN)) {
		/*
		 * What looks like a spindle, where PARALLEL won every pair
		 * by the margin and their median by a quarter, if not three
		 * in a row by half: array8 at 8 readers gave 1.32-1.79x in
		 * each of 6 and 5 pairs in two 3 s turns of S1 (bench
		 * 20261207-0930) and was cut before the seventh pair both
		 * times, measuring (0.81 of none).  A spindle's pairs are
		 * 0.3-0.7, and a stalled window moves one.
		 */
		won = CS_MODE_PARALLEL;
	} else if (par == 3 || (ser == 3 && !m->ab_strong)) {
		won = par == 3 ? CS_MODE_PARALLEL : CS_MODE_SERIAL;
	} else if (n >= CS_AB_MAX_PAIRS &&
		   ((med > hi_med && (!m->ab_one || par_ahead + 1 >= n)) ||
		    (m->ab_one && med > CS_AB_MARGIN && par_ahead == n))) {
		/*
		 * On a spindle's figures, also the margin in the median when
		 * every pair favoured PARALLEL: array8 at four readers gave
		 * 1.04-1.18x in 15 of 16 pairs (bench 20261207-1337), and
		 * stayed SERIAL as undecided; a spindle's pairs never all
		 * favour it.
		 */
		won = CS_MODE_PARALLEL;
	} else if (n >= CS_AB_MAX_PAIRS && med < lo &&
		   (!m->ab_strong || ahead == n)) {
		won = CS_MODE_SERIAL;
	} else if (n >= CS_AB_MAX_PAIRS) {
		/*
		 * No winner: the modes are alike within the noise.  Again no
		 * winner doubles the hold, since measuring (half of it in the
		 * worse mode) would cost more than it can find.
		 */
		if (l->why == CS_WHY_AB_UNDECIDED)
			l->hold = min_t(u64, 2 * l->hold, CS_AB_HOLD_MAX_NS);
		else
			l->hold = CS_AB_HOLD_MIN_NS;
		/*
		 * Kept means the mode in use before the run, which for a
		 * level not measured yet is its neighbour's verdict, not the
		 * prior: a reader, a random reader and write-back on sata
		 * went back to PARALLEL after seven pairs between 0.4 and
		 * 2.3, beside a level measured SERIAL by 16 times.
		 */
		l->mode = m->ab_base;
		l->why = CS_WHY_AB_UNDECIDED;
		l->ab_ratio = med;
		cs_model_ab_hold(m, l->hold, true, now);
		return;
	} else {
		return;
	}
	/* A confirmed decision holds longer; a changed one starts short. */
	if (won == m->ab_base && l->why == CS_WHY_AB)
		l->hold = min_t(u64, 2 * l->hold, CS_AB_HOLD_MAX_NS);
	else
		l->hold = CS_AB_HOLD_MIN_NS;
	l->mode = won;
	l->why = CS_WHY_AB;
	l->ab_ratio = med;
	l->blind = !m->l.seek_known;
	cs_model_ab_hold(m, l->hold, true, now);
}

/*
 * A SERIAL verdict measured before the seek figure was known, by less than
 * the rules for a disk without seek cost ask (CS_AB_WIDE in the median),
 * goes once the figure says distance costs nothing: readers that start
 * together contend before the figure comes in.  On the virtio disk level
 * 0 went SERIAL from three pairs of 0.82-0.84 and level 1 PARALLEL; each
 * mode then moved the count of present queues to the other level (SERIAL
 * keeps readers waiting, PARALLEL has them think), 193 mode changes in 27
 * s (bench/results/20261207-1810).  Such verdicts go back to unmeasured,
 * which is PARALLEL where distance costs nothing, and keep their hold: the
 * next measurement has the figure.  Not one measured with the figure
 * saying distance costs: a spindle's cache can make the figure say "no
 * cost" for a while (S3 on sata), and its verdicts stand.
 */
static void cs_model_drop_weak_serial(struct cs_model *m)
{
	struct cs_model_verdict *v;
	unsigned int i;

	if (!m->l.seek_known || m->l.seek_cost)
		return;
	for (i = 0; i < CS_MODEL_LEVELS; i++) {
		v = &m->l.v[i];
		if (v->why != CS_WHY_AB || v->mode != CS_MODE_SERIAL ||
		    !v->blind || (u64)v->ab_ratio * CS_AB_WIDE <= 1024 * 1024)
			continue;
		v->why = CS_WHY_PRIOR;
		v->mode = CS_MODE_PARALLEL;
		m->dirty = true;
	}
}

/* A measurement of one level says nothing of another. */
static void cs_model_set_level(struct cs_model *m, unsigned int level)
{
	m->level = level;
	m->level_away = 0;
	m->dirty = true;
}

/* @level is two or more away from the model's. */
static bool cs_model_far_level(const struct cs_model *m, unsigned int level)
{
	return level >= m->level + 2 || level + 2 <= m->level;
}

/*
 * A pool's threads send their requests to one queue per stream in SERIAL
 * mode only, so their count moves by two levels and more with a run's
 * windows (tools/sim -d array12 s8 16 2: 16 queues in PARALLEL windows, 2
 * in SERIAL ones; the run ended at every SERIAL window and began again,
 * measuring for 30 s at 156 MB/s where PARALLEL gives 200).  After its
 * first window a run moves that far only when the last window of each
 * mode ended with the count there, on the same side.  Called at the end
 * of each window of a run.  Return: the level moved (the run is over).
 */
static bool cs_model_window_level(struct cs_model *m, u64 now)
{
	unsigned int level = cs_model_level(m->present_avg, m->level);
	unsigned int other = m->ab_level[cs_other_mode(m->ab_mode)];
	bool up = level > m->level, other_up = other > m->level;

	m->ab_level[m->ab_mode] = level;
	if (!cs_model_far_level(m, level) || !cs_model_far_level(m, other) ||
	    up != other_up)
		return false;
	cs_model_ab_hold(m, 0, false, now);
	cs_model_set_level(m, level);
	return true;
}

/* The measured part of a window is over. */
static void cs_model_ab_end_window(struct cs_model *m, u64 now)
{
	u64 len = cs_since(now, m->ab_start);
	enum cs_mode next;

	if (!len || m->ab_cont_ns * 1024 < CS_AB_CONTENDED_MIN * len) {
		/* The competition stopped: what was measured is moot. */
		cs_model_ab_hold(m, CS_AB_HOLD_MIN_NS / 10, false, now);
		return;
	}
	m->ab_tput[m->ab_mode] = div64_u64(m->ab_bytes * NSEC_PER_MSEC, len);
	if (cs_model_window_level(m, now))
		return;
	if (++m->ab_win < 2) {
		cs_model_ab_window(m, cs_other_mode(m->ab_mode), now);
		return;
	}
	m->ab_win = 0;
	m->ab_ratios[m->ab_pairs++] =
		(u32)min_t(u64, div64_u64(m->ab_tput[CS_MODE_PARALLEL] * 1024,
					  max_t(u64, m->ab_tput[CS_MODE_SERIAL],
						1)), U32_MAX);
	cs_model_ab_doubts(m);
	cs_model_ab_judge(m, now);
	if (m->ab != CS_AB_RUN)
		return;
	/* ABBA: every other pair starts with the other mode. */
	next = m->ab_pairs & 1 ? cs_other_mode(m->ab_base) : m->ab_base;
	cs_model_ab_window(m, next, now);
}

/*
 * Every request of the disk is a seek sample and none shows a seek cost:
 * one command at a time, so no parallelism to measure either.
 */
static bool cs_model_seek_watched(const struct cs_model *m)
{
	return m->one_tag && m->l.seek_known && !m->l.seek_cost;
}

/*
 * A newcomer need not have the verdict measured again where the mode that
 * won did so clearly and the gain figure says why:
 * - PARALLEL won by a quarter or more and the gain figure is above a
 *   spindle's (CS_AB_SETTLED_GAIN), side by side or short of it (array12
 *   with two readers: gain 1.3-1.5, PARALLEL ahead by 1.4x, and each new
 *   pair of readers cost 4% in tools/sim -d array12 -R 5 s1 2).  SERIAL
 *   wins on such disks only where few streams each cover several spindles
 *   (array8 with two readers), whose gain is below 1;
 * - the disk serves reads side by side, the level is not measured and
 *   distance costs nothing;
 * - the disk serves one read at a time and SERIAL won by the wide gap
 *   (1.5x).  PARALLEL wins on a spindle where readers think long, and
 *   those SERIAL does not idle for.
 * The hold still has the verdict measured again.  Each new set of readers
 * otherwise paid a measurement, half of it in the worse mode (S1 on
 * array12, virtio and sata: every benchmark window started one).
 */
static bool cs_model_settled_wide(const struct cs_model *m)
{
	const struct cs_model_verdict *v = cs_model_verdict(m);

	if (v->why == CS_WHY_AB && v->mode == CS_MODE_PARALLEL &&
	    !m->one_tag && m->l.gain_known && m->l.gain >= CS_AB_SETTLED_GAIN)
		return v->ab_ratio >= CS_AB_SETTLED_PAR;
	if (cs_model_side_by_side(m))
		return v->why != CS_WHY_AB && m->l.seek_known &&
		       !m->l.seek_cost;
	return m->l.gain_known && !m->l.parallel && v->why == CS_WHY_AB &&
	       v->mode == CS_MODE_SERIAL &&
	       (u64)v->ab_ratio * CS_AB_WIDE <= 1024 * 1024;
}

/* Fold the integrated count of present queues in; move the level. */
static void cs_model_fold(struct cs_model *m, u64 now)
{
	unsigned int level, val;

	val = (unsigned int)div64_u64(m->present_sum * 1024, m->present_span);
	m->present_avg = cs_model_smooth(m->present_avg, val, m->present_span);
	m->present_sum = 0;
	m->present_span = 0;
	level = cs_model_level(m->present_avg, m->level);
	/*
	 * A run's own windows move the count, so a run keeps its level until
	 * the count has stayed at the next one for longer than windows in
	 * one mode last.  One further away ends a run at once in its first
	 * window, where the count may still be on its way to the readers'
	 * (a run begins at the first contention), and later only at the end
	 * of windows of both modes (cs_model_window_level()).
	 */
	if (m->ab == CS_AB_RUN && (m->ab_pairs || m->ab_win) &&
	    cs_model_far_level(m, level))
		return;
	if (level == m->level) {
		m->level_away = 0;
	} else if (m->ab == CS_AB_RUN && level + 1 >= m->level &&
		   level <= m->level + 1) {
		if (!m->level_away)
			m->level_away = max(now, 1ULL);
		if (now - m->level_away < CS_MODEL_LEVEL_AWAY_NS)
			level = m->level;
	}
	if (level != m->level) {
		if (m->ab == CS_AB_RUN)
			cs_model_ab_hold(m, 0, false, now);
		cs_model_set_level(m, level);
	}
}

/**
 * cs_model_tick_due() - whether a tick now would do more than count
 * @m: the model
 * @present: as for cs_model_tick()
 * @now: current time, ns
 *
 * A tick at every dispatch and completion cost a fast disk that says it
 * rotates (a virtual disk) about 250 instructions per request in all
 * (tools/sim, callgrind).  Between events that change nothing it decides
 * on, a tick only moves time on, which the next one does as well: so
 * outside a measurement, while competition neither starts nor stops and
 * nothing new was learnt, the caller only counts the competitors
 * (cs_model_count()) and ticks at most every CS_MODEL_TICK_NS.  A
 * newcomer (cs_model_newcomer()) waits for the next tick, as it may where
 * the model keeps it for later.
 *
 * Return: true when cs_model_tick() should run now.
 */
bool cs_model_tick_due(const struct cs_model *m, unsigned int present,
		       u64 now)
{
	return m->ab == CS_AB_RUN || m->dirty ||
	       (present >= 2) != m->contended ||
	       now >= m->epoch_end ||
	       cs_since(now, m->last_tick) >= CS_MODEL_TICK_NS;
}

/**
 * cs_model_count() - integrate the count of competitors
 * @m: the model
 * @present: as for cs_model_tick()
 * @now: current time, ns
 *
 * The contention level is the count of present queues smoothed over
 * about 100 ms (a thinking reader is briefly not present), so the count
 * is integrated at every event, ticked or not, and folded in at ticks
 * every 10 ms: a division per event would cost a fast disk more than the
 * rest of the model.
 */
void cs_model_count(struct cs_model *m, unsigned int present, u64 now)
{
	u64 dt = min_t(u64, cs_since(now, m->present_t), NSEC_PER_SEC);

	m->present_t = max(now, m->present_t);
	m->present_sum += (u64)m->present_last * dt;
	m->present_span += dt;
	m->present_last = min(present, 64U);
}

/**
 * cs_model_tick() - let time pass in the model
 * @m: the model
 * @present: sync queues with requests queued or in the driver; with two
 *	or more the mode makes a difference, and how many sets the
 *	contention level
 * @now: current time, ns
 *
 * Called at dispatches and completions where cs_model_tick_due() says so
 * (cs_model_count() at the others); cheap unless a window or an epoch
 * ends or something the mode depends on changed.
 *
 * Return: true when the mode changed.
 */
bool cs_model_tick(struct cs_model *m, unsigned int present, u64 now)
{
	u64 dt = cs_since(now, m->last_tick);
	bool contended = present >= 2;
	enum cs_mode mode;

	/* The time since the last tick passed in the state seen then. */
	m->last_tick = max(now, m->last_tick);
	if (m->contended) {
		m->cont[m->level] += dt;
		if (m->ab == CS_AB_RUN && now > m->ab_start)
			m->ab_cont_ns += min(dt, now - m->ab_start);
	}
	m->contended = contended;
	if (now >= m->epoch_end)
		cs_model_gain(m, now);

	/* The contention level, with half a queue of hysteresis. */
	cs_model_count(m, present, now);
	if (m->present_span >= CS_MODEL_FOLD_NS)
		cs_model_fold(m, now);

	if (!cs_model_ab_applies(m)) {
		if (m->ab == CS_AB_RUN)
			m->dirty = true;
		m->ab = CS_AB_HOLD;
	} else if (m->ab == CS_AB_HOLD) {
		cs_model_drop_weak_serial(m);
		/*
		 * A verdict measured under other competitors says little
		 * about new ones (a thread pool's PARALLEL at 4-8 queues held
		 * four sequential readers on sata at 23 MB/s, where SERIAL
		 * gives 47): a new queue has an old verdict measured again
		 * soon, but a verdict at most once per CS_AB_FRESH_NS.
		 * Not while the disk takes one command at a time and far
		 * costs no more than near: each request there is served
		 * alone, so the seek figure watches the newcomers' requests
		 * too, and idling has nothing else to win (null_blk at depth
		 * 1: 100-390 idle windows armed by each new set of readers).
		 * The newcomer is kept for when that figure finds a cost.
		 * A settled SERIAL verdict is measured again for a pool's
		 * threads all the same: independent readers settled it, and
		 * a pool that reads its streams through the page cache has
		 * the drive's own read-ahead serve them side by side (S8
		 * sata, 16 threads on two streams: 0.84 of none in SERIAL,
		 * 1.01-1.04 with PARALLEL forced).  A settled PARALLEL
		 * holds for them (tools/sim -d array12 -R 5 s8 8 2: 4.6%
		 * lost to measuring each new set of threads).
		 */
		if (!cs_model_seek_watched(m) &&
		    (!cs_model_settled_wide(m) ||
		     (m->newcomer_pooled &&
		      cs_model_verdict(m)->mode == CS_MODE_SERIAL))) {
			if (m->newcomer && contended &&
			    (!m->measured_at[m->level] ||
			     cs_since(now, m->measured_at[m->level]) >=
			     CS_AB_FRESH_NS))
				m->hold_until[m->level] =
					min(m->hold_until[m->level],
					    m->cont[m->level] + CS_AB_STALE_NS);
			m->newcomer = false;
			m->newcomer_pooled = false;
		}
		if (contended && !m->defer &&
		    m->cont[m->level] >= m->hold_until[m->level]) {
			m->ab_base = cs_model_settled(m);
			cs_model_ab_doubts(m);
			m->ab = CS_AB_RUN;
			m->ab_pairs = 0;
			m->ab_win = 0;
			m->ab_level[CS_MODE_SERIAL] = m->level;
			m->ab_level[CS_MODE_PARALLEL] = m->level;
			cs_model_ab_window(m, m->ab_base, now);
			m->dirty = true;
		}
	} else if (now >= m->ab_end) {
		cs_model_ab_end_window(m, now);
		m->dirty = true;
	}

	/* Most ticks change nothing: only look again when something did. */
	if (!m->dirty)
		return false;
	m->dirty = false;
	mode = cs_model_mode(m);
	if (mode == m->shown)
		return false;
	m->shown = mode;
	m->changed_at = now;
	m->changes++;
	return true;
}

/**
 * cs_model_mode() - the mode to schedule the disk in now
 * @m: the model
 *
 * Return: the forced mode; the mode of the current measurement window; the
 * measured one; PARALLEL where distance costs nothing; or the prior.
 */
enum cs_mode cs_model_mode(const struct cs_model *m)
{
	switch (m->force) {
	case CS_FORCE_SERIAL:
		return CS_MODE_SERIAL;
	case CS_FORCE_PARALLEL:
		return CS_MODE_PARALLEL;
	default:
		break;
	}
	if (m->ab == CS_AB_RUN)
		return m->ab_mode;
	return cs_model_settled(m);
}

/**
 * cs_model_why() - why the model is in its mode
 * @m: the model
 *
 * Return: the reason.
 */
enum cs_mode_why cs_model_why(const struct cs_model *m)
{
	const struct cs_model_verdict *v = cs_model_verdict(m);

	if (m->force != CS_FORCE_AUTO)
		return CS_WHY_FORCED;
	if (v->why == CS_WHY_AB)
		return CS_WHY_AB;
	if (m->l.seek_known && !m->l.seek_cost)
		return CS_WHY_NO_SEEK_COST;
	if (v->why == CS_WHY_PRIOR && cs_model_nearby(m))
		return CS_WHY_NEARBY;
	return v->why;
}

/**
 * cs_model_measuring() - whether the model compares the modes now
 * @m: the model
 *
 * Return: true while alternating SERIAL and PARALLEL windows run.  What
 * they compare is how the modes serve the disk's competitors; a policy
 * that trades throughput for something else (a boost) should stand aside
 * meanwhile.
 */
bool cs_model_measuring(const struct cs_model *m)
{
	return m->force == CS_FORCE_AUTO && m->ab == CS_AB_RUN;
}

/**
 * cs_model_parallel() - whether the disk serves requests side by side
 * @m: the model
 *
 * Return: true where two requests in the driver get through faster than
 * one after the other (or, until that is known, where the disk says it is
 * not rotational), never on a disk that takes one command at a time;
 * always true when PARALLEL is forced, never when SERIAL is.
 */
bool cs_model_parallel(const struct cs_model *m)
{
	if (m->force != CS_FORCE_AUTO)
		return m->force == CS_FORCE_PARALLEL;
	if (cs_model_mode(m) == CS_MODE_SERIAL || m->one_tag)
		return false;
	return m->l.parallel;
}

/**
 * cs_model_side_by_side() - whether the disk serves reads side by side
 * @m: the model
 *
 * Unlike cs_model_parallel(), whatever the mode now: what the gain figure
 * found (an array, a virtual disk), not what the scheduler makes of it.
 * A single spindle serves one read at a time, but its cache can serve two
 * streams it reads ahead for as if side by side: hddsim's sata says so
 * beside S9's two buffered readers, where boosts must still lead (turned
 * off on such disks, python's start-up there took 35-60 s instead of
 * 9-20 s).
 *
 * Return: true where reads that share the driver get through clearly
 * faster than reads alone (cs_model_gain()), never on a disk that takes one
 * command at a time; always when PARALLEL is forced, never when SERIAL is.
 */
bool cs_model_side_by_side(const struct cs_model *m)
{
	if (m->force != CS_FORCE_AUTO)
		return m->force == CS_FORCE_PARALLEL;
	return !m->one_tag && m->l.gain_known && m->l.parallel;
}

/**
 * cs_model_seek_cost() - whether moving far costs the disk time
 * @m: the model
 *
 * Return: what was measured, or until then what queue/rotational says.
 */
bool cs_model_seek_cost(const struct cs_model *m)
{
	if (m->force != CS_FORCE_AUTO)
		return m->force == CS_FORCE_SERIAL;
	return m->l.seek_known ? m->l.seek_cost : m->rotational;
}

/**
 * cs_model_seek_ns() - measured cost of a far request over a near one
 * @m: the model
 *
 * Return: ns; 0 until measured.
 */
u64 cs_model_seek_ns(const struct cs_model *m)
{
	if (!m->l.seek_known)
		return 0;
	return cs_since(m->l.far_excess, m->l.near_excess);
}

/**
 * cs_model_far_seeks() - whether a far request may have to seek
 * @m: the model
 *
 * Unlike cs_model_seek_cost(), which asks whether far requests cost time
 * on the whole, this also holds where a drive's cache serves most of them
 * (streams it reads ahead for) and the rest seek: a program's first reads
 * are among the rest.
 *
 * Return: true if seeks cost time, or if clearly more far requests than
 * near ones took longer than a seek.
 */
bool cs_model_far_seeks(const struct cs_model *m)
{
	if (cs_model_seek_cost(m))
		return true;
	if (m->force != CS_FORCE_AUTO)
		return false;
	/*
	 * Near samples set the transfer time the excess is over (without
	 * them a large far request of a disk that serves one at a time
	 * looks slow by its transfer alone) and the noise to discount.
	 */
	return m->l.far_n >= 1U << CS_MODEL_SLOW_SHIFT &&
	       m->l.near_n >= 1U << CS_MODEL_SLOW_SHIFT &&
	       m->l.far_slow >= m->l.near_slow + CS_MODEL_FAR_SLOW_MIN;
}

/**
 * cs_model_may_seek() - whether a far read may have to seek, for boosts
 * @m: the model
 *
 * cs_model_far_seeks(), or on a disk that says it rotates, until enough
 * far and near requests were served alone to tell (CS_MODEL_SLOW_SHIFT
 * of each, or of far ones where few of them were slow).  A spindle's
 * cache makes far requests served alone look cheap on average (S3's
 * small files beside write-back on hddsim's sata said "no-seek-cost" 2 s
 * into the disk's first run), and serves two streams it reads ahead for
 * as if side by side, so that neither the gain figure nor the modes'
 * measurement tells a spindle from a virtual disk there: in the first S9
 * start-up on a fresh sata disk, with both saying so (and 24 far samples
 * in 70 s), python's reads went in behind four of the readers' and it
 * took 71 s instead of 9.
 *
 * Return: true if a boosted read may save a seek by going first.
 */
bool cs_model_may_seek(const struct cs_model *m)
{
	const struct cs_model_learned *l = &m->l;

	if (cs_model_far_seeks(m))
		return true;
	if (m->force != CS_FORCE_AUTO || !m->rotational)
		return false;
	if (l->far_n < 1U << CS_MODEL_SLOW_SHIFT)
		return true;
	return l->near_n < 1U << CS_MODEL_SLOW_SHIFT &&
	       l->far_slow >= CS_MODEL_FAR_SLOW_MIN;
}

/**
 * cs_model_why_name() - the name of a reason, for debugfs
 * @why: the reason
 *
 * Return: a short name.
 */
const char *cs_model_why_name(enum cs_mode_why why)
{
	static const char * const names[] = {
		[CS_WHY_PRIOR] = "prior",
		[CS_WHY_NO_SEEK_COST] = "no-seek-cost",
		[CS_WHY_AB] = "measured",
		[CS_WHY_AB_UNDECIDED] = "undecided",
		[CS_WHY_NEARBY] = "measured-nearby",
		[CS_WHY_FORCED] = "forced",
	};

	return why < ARRAY_SIZE(names) ? names[why] : "?";
}
