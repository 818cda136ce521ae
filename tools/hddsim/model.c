// SPDX-License-Identifier: GPL-2.0
/*
 * hddsim timing model.
 *
 * A spindle is a set of cylinders split into zones of equal width; a zone's
 * media rate falls linearly from the outer edge to the inner one and its
 * share of the sectors follows its rate (constant linear density).  Every
 * sector has a media time, the time a continuous read from sector 0 takes
 * to reach it; the platter angle of a sector is its media time modulo one
 * revolution, so sequential transfers never wait for rotation and any other
 * access waits exactly until its sector comes round.
 *
 * A command that misses the read cache waits for the mechanism: seek by
 * cylinder distance, rotate, transfer.  After a read the drive keeps reading
 * ahead into the same cache segment while it has nothing else to do; a read
 * that arrives at the read-ahead frontier continues it without losing a
 * revolution, one that lies wholly in a segment is a cache hit and only
 * pays the command overhead and the host link.  With more than one command
 * queued the drive serves the one whose transfer can start first (shortest
 * positioning time first), unless the oldest has waited too long.
 *
 * Flash (rpm 0) has no mechanism: a read costs a fixed latency and the host
 * link, writes are programmed one after the other at the write rate.
 */
#include <linux/errno.h>
#include <linux/math.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/time64.h>

#include "model.h"

static u64 hs_us(u32 us)
{
	return (u64)us * NSEC_PER_USEC;
}

static const struct hs_zone *hs_zone_of(const struct hs_model *m, u64 s)
{
	u32 k = m->nzones - 1;

	while (k && s < m->zone[k].start)
		k--;
	return &m->zone[k];
}

/* When a continuous read from sector 0 reaches @s, ns. */
static u64 hs_mt(const struct hs_model *m, u64 s)
{
	const struct hs_zone *z = hs_zone_of(m, s);

	return z->t0 + div_u64((s - z->start) * z->ps_per_sector, 1000);
}

/* The last sector a continuous read has reached at media time @t. */
static u64 hs_sector_at(const struct hs_model *m, u64 t)
{
	u32 k = m->nzones - 1;
	const struct hs_zone *z;
	u64 s;

	while (k && t < m->zone[k].t0)
		k--;
	z = &m->zone[k];
	s = z->start + div_u64((t - z->t0) * 1000, z->ps_per_sector);
	return min(s, m->unit_sectors);
}

static u32 hs_cyl(const struct hs_model *m, u64 s)
{
	const struct hs_zone *z;
	u32 zcyl = m->cylinders / m->nzones;

	s = min(s, m->unit_sectors - 1);
	z = hs_zone_of(m, s);
	return z->cyl0 + (u32)div64_u64((s - z->start) * zcyl,
					(z + 1)->start - z->start);
}

/**
 * hs_seek_time() - time to move the head across @dist cylinders
 * @m: the model
 * @dist: distance in cylinders
 *
 * Short seeks are dominated by acceleration, so the time grows with the
 * square root of the distance from the track-to-track figure at one
 * cylinder to the average figure at a third of the stroke; longer seeks
 * coast, so the time then grows linearly to the full-stroke figure.
 *
 * Return: the seek time in ns, including settling for reads.
 */
u64 hs_seek_time(const struct hs_model *m, u32 dist)
{
	const struct hs_params *p = &m->p;
	u32 third = max(m->cylinders / 3, 2U);
	u64 frac;

	if (!dist)
		return 0;
	if (dist <= third) {
		frac = div_u64((u64)(dist - 1) << 32, third - 1);
		return hs_us(p->seek_t2t_us) +
			(((u64)(p->seek_avg_us - p->seek_t2t_us) *
			  int_sqrt64(frac) * NSEC_PER_USEC) >> 16);
	}
	if (m->cylinders <= third + 1)
		return hs_us(p->seek_full_us);
	return hs_us(p->seek_avg_us) +
		div_u64((u64)(p->seek_full_us - p->seek_avg_us) *
			NSEC_PER_USEC * (dist - third),
			m->cylinders - 1 - third);
}

/* How far the read-ahead has got at time @t. */
static u64 hs_pf_pos(const struct hs_model *m, const struct hs_unit *u, u64 t)
{
	if (!u->pf_on || t <= u->pf_t0)
		return u->pf_from;
	return min(hs_sector_at(m, hs_mt(m, u->pf_from) + t - u->pf_t0),
		   u->pf_limit);
}

/* Segment @i as it stands at time @t; the read-ahead may be filling it. */
static void hs_seg_at(const struct hs_model *m, const struct hs_unit *u,
		      int i, u64 t, u64 *start, u64 *end)
{
	*end = u->seg[i].end;
	if (u->pf_on && i == u->pf_seg)
		*end = max(*end, hs_pf_pos(m, u, t));
	*start = u->seg[i].start;
	if (*end - *start > m->seg_sectors)
		*start = *end - m->seg_sectors;
}

/*
 * End of the cached run of [@s, @e) that starts at @s (@s if none).  With
 * @touch the segments used become the most recently used.
 */
static u64 hs_cached_to(const struct hs_model *m, struct hs_unit *u,
			u64 s, u64 e, u64 t, bool touch)
{
	bool more = true;
	u64 a, b;
	u32 i;

	while (more && s < e) {
		more = false;
		for (i = 0; i < m->p.segments; i++) {
			hs_seg_at(m, u, i, t, &a, &b);
			if (a <= s && s < b) {
				s = min(b, e);
				if (touch)
					u->seg[i].used = ++u->stamp;
				more = true;
			}
		}
	}
	return s;
}

static void hs_seg_clamp(const struct hs_model *m, struct hs_seg *g)
{
	if (g->end - g->start > m->seg_sectors)
		g->start = g->end - m->seg_sectors;
}

/* Record [@s, @e) as cached; returns the segment that holds it. */
static int hs_seg_fill(const struct hs_model *m, struct hs_unit *u,
		       u64 s, u64 e)
{
	int i, victim = -1;
	struct hs_seg *g;

	if (!m->seg_sectors)
		return -1;
	for (i = 0; i < m->p.segments; i++) {
		g = &u->seg[i];
		if (g->end > g->start && g->start <= s && s <= g->end) {
			g->end = max(g->end, e);
			g->start = min(g->start, s);
			hs_seg_clamp(m, g);
			g->used = ++u->stamp;
			return i;
		}
		if (victim < 0 || g->used < u->seg[victim].used)
			victim = i;
	}
	g = &u->seg[victim];
	g->start = s;
	g->end = e;
	hs_seg_clamp(m, g);
	g->used = ++u->stamp;
	return victim;
}

/* A write makes cached copies of its sectors stale. */
static void hs_seg_invalidate(struct hs_model *m, struct hs_unit *u,
			      u64 s, u64 e)
{
	struct hs_seg *g;
	u32 i;

	for (i = 0; i < m->p.segments; i++) {
		g = &u->seg[i];
		if (e <= g->start || s >= g->end)
			continue;
		if (s > g->start)
			g->end = s;
		else if (e < g->end)
			g->start = e;
		else
			g->end = g->start;
	}
}

/* The mechanism takes a new command at @t: read-ahead ends there. */
static void hs_pf_stop(struct hs_model *m, struct hs_unit *u, u64 t)
{
	struct hs_seg *g;
	u64 pos;

	if (!u->pf_on)
		return;
	pos = hs_pf_pos(m, u, t);
	g = &u->seg[u->pf_seg];
	g->end = max(g->end, pos);
	hs_seg_clamp(m, g);
	u->cyl = hs_cyl(m, pos);
	u->pf_on = false;
}

/*
 * Data moves over the host link one transfer after the other.  Buffered
 * data (cache hits, flash) crosses it after @ready; data read from the media
 * crosses it while the media is read (@overlap), so only the part the link
 * is too slow or too busy for comes after @ready.  Callers book transfers in
 * the order of @ready.
 */
static u64 hs_link(struct hs_model *m, u64 ready, u64 bytes, bool overlap)
{
	u64 xfer;

	if (!m->p.link_kbps)
		return ready;
	xfer = div_u64(bytes * 1000000, m->p.link_kbps);
	if (overlap)
		m->bus_free = max(ready, m->bus_free + xfer);
	else
		m->bus_free = max(ready, m->bus_free) + xfer;
	return m->bus_free;
}

struct hs_plan {
	u64 t0;			/* command decoded, mechanism free */
	u64 first;		/* first sector the media must deliver */
	u64 seek;
	u64 rot;
	u64 start;		/* media transfer starts */
	u64 end;		/* media transfer ends */
	u32 dist;
	bool stream;		/* continues the running read-ahead */
	bool hit;
};

/* What serving @c from time @t would cost, without doing it. */
static void hs_plan(struct hs_model *m, struct hs_unit *u,
		    const struct hs_cmd *c, u64 t, struct hs_plan *pl)
{
	const struct hs_params *p = &m->p;
	u64 e = c->sector + c->nr;
	u32 head = u->cyl, tgt, rem_a, rem_b;
	u64 pos, t1;

	/* A command queued early was decoded while the previous one ran. */
	pl->t0 = max(t, c->arrival + hs_us(p->overhead_us));
	pl->first = c->sector;
	pl->seek = 0;
	pl->rot = 0;
	pl->dist = 0;
	pl->stream = false;
	pl->hit = false;
	if (c->op == HS_READ)
		pl->first = hs_cached_to(m, u, c->sector, e, pl->t0, false);
	if (pl->first >= e) {
		pl->hit = true;
		pl->start = pl->t0;
		pl->end = pl->t0;
		return;
	}
	if (u->pf_on) {
		pos = hs_pf_pos(m, u, pl->t0);
		if (c->op == HS_READ && pos < u->pf_limit && pl->first == pos) {
			pl->stream = true;
			pl->start = pl->t0;
			pl->end = u->pf_t0 + hs_mt(m, e) - hs_mt(m, u->pf_from);
			return;
		}
		head = hs_cyl(m, pos);
	}
	tgt = hs_cyl(m, pl->first);
	pl->dist = tgt > head ? tgt - head : head - tgt;
	pl->seek = hs_seek_time(m, pl->dist);
	if (c->op == HS_WRITE && pl->dist)
		pl->seek += hs_us(p->write_settle_us);
	t1 = pl->t0 + pl->seek;
	div_u64_rem(hs_mt(m, pl->first), (u32)m->rot_ns, &rem_a);
	div_u64_rem(t1, (u32)m->rot_ns, &rem_b);
	pl->rot = rem_a >= rem_b ? rem_a - rem_b : m->rot_ns - rem_b + rem_a;
	pl->start = t1 + pl->rot;
	pl->end = pl->start + hs_mt(m, e) - hs_mt(m, pl->first);
}

/*
 * Give @c the mechanism of @u from time @t.  Its completion time is fixed
 * when the transfer ends (hs_unit_run()), so that spindles book the host
 * link in time order.
 */
static void hs_start(struct hs_model *m, struct hs_unit *u, struct hs_cmd *c,
		     u64 t)
{
	u64 e = c->sector + c->nr;
	struct hs_plan pl;
	int seg;

	hs_plan(m, u, c, t, &pl);
	if (pl.hit)
		hs_cached_to(m, u, c->sector, e, pl.t0, true);
	hs_pf_stop(m, u, pl.t0);
	u->cur = c;
	u->busy = true;
	u->busy_until = pl.end;
	c->hit = pl.hit;
	if (pl.hit) {
		m->st.cache_hits++;
	} else {
		m->st.seeks += pl.dist ? 1 : 0;
		m->st.seek_ns += pl.seek;
		m->st.rotate_ns += pl.rot;
		m->st.media_ns += pl.end - pl.start;
		u->cyl = hs_cyl(m, e - 1);
	}
	if (c->op == HS_READ) {
		seg = hs_seg_fill(m, u, c->sector, e);
		if (seg >= 0 && m->ra_sectors && e < m->unit_sectors) {
			u->pf_on = true;
			u->pf_seg = seg;
			u->pf_from = e;
			u->pf_t0 = pl.end;
			u->pf_limit = min(e + m->ra_sectors, m->unit_sectors);
		}
	} else {
		hs_seg_invalidate(m, u, c->sector, e);
	}
}

/*
 * Shortest positioning time first among the commands the drive holds;
 * returns the link that points to the chosen one.
 */
static struct hs_cmd **hs_pick(struct hs_model *m, struct hs_unit *u, u64 t)
{
	struct hs_cmd **pp, **best = NULL;
	struct hs_plan pl;
	u64 cost = 0;
	u32 n = 0;

	if (m->p.max_age_ms &&
	    t > u->head->arrival + (u64)m->p.max_age_ms * NSEC_PER_MSEC)
		return &u->head;
	for (pp = &u->head; *pp && n < m->p.qdepth; pp = &(*pp)->next, n++) {
		hs_plan(m, u, *pp, max(t, (*pp)->arrival), &pl);
		if (!best || pl.start < cost) {
			best = pp;
			cost = pl.start;
		}
	}
	return best;
}

static void hs_flash(struct hs_model *m, struct hs_cmd *c, u64 now)
{
	const struct hs_params *p = &m->p;
	u64 bytes = (u64)c->nr << 9, in;

	now += hs_us(p->overhead_us);
	if (c->op == HS_READ) {
		c->done = hs_link(m, now + hs_us(p->read_lat_us), bytes,
				  false);
		return;
	}
	/* Data comes in over the link, then the flash programs it. */
	in = hs_link(m, now, bytes, false);
	m->prog_free = max(in, m->prog_free) + hs_us(p->write_lat_us);
	if (p->write_kbps)
		m->prog_free += div_u64(bytes * 1000000, p->write_kbps);
	c->done = m->prog_free;
}

/**
 * hs_submit() - a command reaches the device
 * @m: the model
 * @c: the command; owned by the model until its completion time passed
 * @sector: first sector on the device
 * @nr: number of sectors (a command never spans two stripe units)
 * @op: read, write or a command without data
 * @now: arrival time, ns
 *
 * Return: %HS_DONE when @c->done is already known (cache hit, flash, no
 * data); %HS_ARM_UNIT when the idle spindle @c->unit started it: its timer
 * must fire at its busy_until, and hs_unit_run() then finishes @c; 0 when
 * @c waits in the spindle's queue.
 */
int hs_submit(struct hs_model *m, struct hs_cmd *c, u64 sector, u32 nr,
	      enum hs_op op, u64 now)
{
	u64 bytes = (u64)nr << 9, chunk, e;
	struct hs_unit *u;
	u32 off, unit;

	c->arrival = now;
	c->op = op;
	c->nr = nr;
	c->hit = false;
	c->unit = 0;
	c->sector = sector;
	if (op == HS_READ) {
		m->st.reads++;
		m->st.read_bytes += bytes;
	} else if (op == HS_WRITE) {
		m->st.writes++;
		m->st.write_bytes += bytes;
	} else {
		m->st.others++;
	}
	if (op == HS_OTHER || m->flash || !nr) {
		if (op == HS_OTHER || !nr)
			c->done = now + hs_us(m->p.overhead_us);
		else
			hs_flash(m, c, now);
		m->st.service_ns += c->done - now;
		return HS_DONE;
	}
	if (m->nunits > 1) {
		chunk = div_u64_rem(sector, (u32)m->chunk_sectors, &off);
		chunk = div_u64_rem(chunk, m->nunits, &unit);
		c->unit = unit;
		c->sector = chunk * m->chunk_sectors + off;
	}
	u = &m->unit[c->unit];
	if (c->sector >= m->unit_sectors)
		c->sector = m->unit_sectors - 1;
	c->nr = min_t(u64, nr, m->unit_sectors - c->sector);
	e = c->sector + c->nr;
	if (op == HS_READ &&
	    hs_cached_to(m, u, c->sector, e, now + hs_us(m->p.overhead_us),
			 true) >= e) {
		c->hit = true;
		m->st.cache_hits++;
		c->done = hs_link(m, now + hs_us(m->p.overhead_us), bytes,
				  false);
		/* The host follows the read-ahead: keep a window ahead. */
		if (u->pf_on && e >= u->pf_from &&
		    hs_pf_pos(m, u, now) < u->pf_limit)
			u->pf_limit = max(u->pf_limit,
					  min(e + m->ra_sectors,
					      m->unit_sectors));
		m->st.service_ns += c->done - now;
		return HS_DONE;
	}
	if (!u->busy) {
		hs_start(m, u, c, now);
		return HS_ARM_UNIT;
	}
	c->next = NULL;
	*u->tail = c;
	u->tail = &c->next;
	return 0;
}

/**
 * hs_unit_run() - the mechanism of a spindle finished its transfer
 * @m: the model
 * @u: spindle index
 *
 * Called at (or, with a late timer, after) the spindle's busy_until.  Fixes
 * the completion time of the command that was on the mechanism and starts
 * the next one at busy_until, the model time, not at the time of the call:
 * late timers delay completions but do not slow the modelled disk down.
 *
 * Return: the command that finished, its @done set; the spindle is busy
 * again when another command was waiting.
 */
struct hs_cmd *hs_unit_run(struct hs_model *m, unsigned int u)
{
	struct hs_unit *un = &m->unit[u];
	u64 t = un->busy_until;
	struct hs_cmd *c, *fin = un->cur, **pp;

	un->busy = false;
	un->cur = NULL;
	if (fin) {
		fin->done = hs_link(m, t, (u64)fin->nr << 9, !fin->hit);
		m->st.service_ns += fin->done - fin->arrival;
	}
	if (un->head) {
		pp = hs_pick(m, un, t);
		c = *pp;
		*pp = c->next;
		if (un->tail == &c->next)
			un->tail = pp;
		hs_start(m, un, c, max(t, c->arrival));
	}
	return fin;
}

static int hs_check(const struct hs_params *p)
{
	if (!p->size_mb || !p->qdepth || p->qdepth > 1024 ||
	    p->segments > HS_MAX_SEGS || (p->segments && p->cache_kb < 4))
		return -EINVAL;
	if (!p->rpm)
		return 0;
	if (p->rpm < 100 || p->rpm > 100000 || !p->heads || !p->zones ||
	    p->zones > HS_MAX_ZONES || p->inner_kbps < 128 ||
	    p->outer_kbps < p->inner_kbps || p->outer_kbps > 10000000 ||
	    p->seek_avg_us < p->seek_t2t_us ||
	    p->seek_full_us < p->seek_avg_us ||
	    !p->spindles || p->spindles > HS_MAX_UNITS ||
	    (p->spindles > 1 && (p->chunk_kb < 4 || p->chunk_kb & 3)))
		return -EINVAL;
	return 0;
}

/* Media rate of zone @k, kB/s: linear in the radius, outer zone first. */
static u32 hs_zone_rate(const struct hs_params *p, u32 k)
{
	if (p->zones < 2)
		return p->outer_kbps;
	return p->outer_kbps - (p->outer_kbps - p->inner_kbps) * k /
		(p->zones - 1);
}

/**
 * hs_model_init() - lay out the geometry for a set of parameters
 * @m: the model, zeroed by the caller
 * @p: parameters (copied)
 *
 * Return: 0, or -%EINVAL when the parameters make no sense.
 */
int hs_model_init(struct hs_model *m, const struct hs_params *p)
{
	u64 rate_sum = 0, cum = 0, t = 0, tracks = 0, len, spt;
	u32 k, z, rate, zcyl;

	if (hs_check(p))
		return -EINVAL;
	m->p = *p;
	m->capacity = (u64)p->size_mb << 11;
	m->flash = !p->rpm;
	if (m->flash)
		return 0;
	m->nunits = p->spindles;
	m->unit_sectors = div_u64(m->capacity, m->nunits);
	if (m->nunits > 1) {
		m->chunk_sectors = (u64)p->chunk_kb * 2;
		m->unit_sectors = div64_u64(m->unit_sectors, m->chunk_sectors) *
			m->chunk_sectors;
	}
	m->unit_sectors &= ~7ULL;
	if (m->unit_sectors < 8 * p->zones)
		return -EINVAL;
	m->capacity = m->unit_sectors * m->nunits;
	m->rot_ns = div_u64(60ULL * NSEC_PER_SEC, p->rpm);
	m->nzones = p->zones;
	z = p->zones;
	for (k = 0; k < z; k++)
		rate_sum += hs_zone_rate(p, k);
	for (k = 0; k < z; k++) {
		rate = hs_zone_rate(p, k);
		m->zone[k].start = div64_u64(m->unit_sectors * cum, rate_sum);
		m->zone[k].t0 = t;
		/* 512 bytes at rate kB/s, in picoseconds. */
		m->zone[k].ps_per_sector = (u32)div_u64(512000000000ULL, rate);
		cum += rate;
		len = div64_u64(m->unit_sectors * cum, rate_sum) -
			m->zone[k].start;
		t += div_u64(len * m->zone[k].ps_per_sector, 1000);
		spt = max_t(u64, div_u64(m->rot_ns * 1000,
					 m->zone[k].ps_per_sector), 1);
		tracks += div64_u64(len, spt);
	}
	m->zone[z].start = m->unit_sectors;
	m->zone[z].t0 = t;
	zcyl = max_t(u64, div64_u64(tracks, (u64)p->heads * z), 1);
	m->cylinders = zcyl * z;
	for (k = 0; k <= z; k++)
		m->zone[k].cyl0 = k * zcyl;
	if (p->segments) {
		m->seg_sectors = (u64)p->cache_kb * 2 / p->segments;
		m->ra_sectors = min_t(u64, (u64)p->readahead_kb * 2,
				      m->seg_sectors);
	}
	for (k = 0; k < m->nunits; k++)
		m->unit[k].tail = &m->unit[k].head;
	return 0;
}
