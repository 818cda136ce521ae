// SPDX-License-Identifier: GPL-2.0
/*
 * sim: ctxsched's scheduling core (the code the module runs) against
 * hddsim's disk model (the code the emulated disk runs), in userspace, in
 * model time: exact, repeatable numbers for the benchmark scenarios in
 * seconds instead of noisy TCG runs.
 *
 *   sim [options] SCENARIO
 *     -s SCHED   ctxsched (default), ctxsched-serial, ctxsched-parallel,
 *                none (FIFO, what blk-mq does without a scheduler)
 *     -d SPEC    hddsim device specification (default sata)
 *     -t SEC     simulated time (default 10)
 *     -g US      think time of a reader after a completion (default 150)
 *     -v         the core's counters and model at the end
 *     -c KB      S8's chunk (default 256); S1's read when given
 *     -b MS      the boost tunable (default the module's)
 *     -r         the disk says it rotates whatever SPEC is (a virtual or
 *                null_blk disk marked rotational)
 *     -q N       s9: each reader reads N MiB at a time, as N 1 MiB requests
 *                in flight together (a buffered reader's readahead, as in
 *                the VM's S9; default: one 128 KiB read)
 *     -p US      s9: the program's mean CPU time after a read (default
 *                2250; each is 1/4 to 7/4 of it)
 *     -T         print the core's trace messages, with model time in ms
 *     -K         ignore the core's requests to run the queue (the lost
 *                queue run of issue 11: blk-mq's 3 ms delay only)
 *     -B KB      s8 reads through the page cache with KB of readahead
 *                (read_ahead_kb), one file per stream shared by the pool
 *                as one open file: the kernel's readahead (6.12) issues
 *                the reads, from whichever thread gets there (S8's
 *                buffered cases)
 *     -P N       s8 -B: the threads share N CPUs, each wake-up or item
 *                taking the think time of one, first come first served
 *     -k US      the queue runs the core asks for (kicks) come US later,
 *                as kblockd's do
 *     -w N       add write-back: N async 512 KiB writes kept queued or
 *                in flight, one after the other in the last quarter of
 *                the disk (what a flusher does for a buffered writer);
 *                its MB/s is printed last, after a 'w'
 *   scenarios
 *     s1 N       N sequential readers, 384 KiB O_DIRECT at one request in
 *                flight, reader i at i/N of the disk (DESIGN.md S1)
 *     s2 T       one stream read by T threads in turn, 64 KiB each, every
 *                thread its own I/O context (S2)
 *     s2b T      s2 while a sequential reader loops half a disk away (S2b)
 *     s8 T S     a pool of T threads serves S streams (at i/S of the disk)
 *                from a shared work queue, each item the next -c KiB of
 *                the next stream in turn, O_DIRECT (S8's direct variant);
 *                prints the streams' MB/s
 *     s10 N      one sequential reader (64 KiB) beside N random readers
 *                (4 KiB, anywhere on the disk), each at one read in flight:
 *                S10's readers without the writer; prints the random
 *                readers' IOPS after their MB/s
 *     s9 N       a program starting (S9): 1100 sync reads of 4-64 KiB in
 *                the disk's first 256 MiB, half of them continuing the
 *                last, -p of CPU after each, from a new context 3 s
 *                in, beside N sequential 128 KiB readers at 40% and 70%
 *                of the disk (N = 0: alone); prints the start-up's
 *                seconds after a 'p' (the run ends when it is done)
 *     s7 RATE    S7's reader: 4 KiB reads at RATE per second in 1 GiB
 *                half a disk away, from 3 s on; with -w, S7's flood;
 *                prints the reads' worst and p99 latency after 'lat'
 *     s5 J       S5's load: J jobs (contexts) of 32 random 4 KiB reads in
 *                flight each, anywhere on the disk; for the core's cost
 *                per request under callgrind (-g 0 for fio's libaio,
 *                which resubmits at once)
 *
 * Prints "total <MB/s>" and each reader's MB/s.  The block layer is
 * modelled as far as the core sees it: a read is split at the disk's
 * stripe unit into requests inserted together, the hardware queue is run
 * after an insert, when the core asks for it, 3 ms after a dispatch that
 * found work it could not take (BLK_MQ_BUDGET_DELAY) and when a full
 * device frees a tag.
 */
#include <stdarg.h>
#define CS_ENV_HEADER "../kunit/env-kunit.h"
#define CS_ENV_TRACE
#include "../../sched/core.c"
#include "../../sched/members.c"
#include "../../sched/model.c"
#include "../../sched/tunables.c"
#include "../../sched/coop.c"
#include "../../sched/policy.c"
#include "../../sched/seek.c"

#include <getopt.h>

#include "../hddsim/model.h"
#include "../hddsim/profile.h"

#define MAX_READERS	2048
#define S5_DEPTH	32	/* s5: reads in flight per job */
#define MAX_PIECES	16
#define MAX_INFLIGHT	4096

enum sched_kind { SCHED_CTX, SCHED_NONE };

/* A reader: one read in flight at a time, through one context. */
struct reader {
	struct cs_kctx ctx;
	struct cs_kctx *cx;	/* the context it submits through: its own,
				 * or (s5) its job's first reader's
				 */
	u64 pos, end, start;	/* sectors: next, area end, area start */
	u64 bytes;		/* delivered in the measured time */
	u64 at;			/* next submission, ns; U64_MAX: busy/idle */
	int pieces;		/* requests of its read still out */
	u32 size;		/* sectors per read */
	int turn_group;		/* >= 0: takes turns within that group; -2: pool;
				 * -3: random reads; -4: write-back; -5: a
				 * program starting; -6: random reads at a
				 * fixed rate (s7)
				 */
	u64 sub_at;		/* s7: when the read in flight was issued */
	int stream;		/* pool: the stream of the item in hand */
	u64 pg, pg_end;		/* -B: the item's next page and its end */
	bool waiting;		/* -B: waits for a page in flight */
	bool held;		/* -R: waits for the switch to end */
	unsigned short ioprio;	/* 0: best effort, level 4 */
};

/*
 * S8's streams: where each goes on, what it delivered.  With -B each is a
 * file read through the page cache: a state per 4 KiB page of its area and
 * the file's readahead state (struct file_ra_state), shared by the pool's
 * threads as one open file is.
 */
#define MAX_STREAMS	8
#define PG_IN_FLIGHT	1
#define PG_UPTODATE	2
#define PG_READAHEAD	4
static struct sim_stream {
	u64 pos, start, end, bytes;
	u8 *pg;			/* -B: PG_* per page of the area */
	u64 npg;
	u64 ra_start, ra_size, ra_async, prev_pg;	/* pages */
} streams[MAX_STREAMS];
static int nr_streams, next_item;
/* -B: read_ahead_kb in pages, and the disk's io_pages (max_sectors_kb). */
static u64 ra_pages, io_pages = 256;

/* A request and the disk command it becomes. */
struct srq {
	struct cs_krq krq;
	struct hs_cmd cmd;
	struct reader *r;
	int state;		/* 0 sched, 1 in the disk, 2 completion armed */
	int bs;			/* -B: 1 + the stream whose pages it reads */
	u64 bpg;		/* -B: its first page */
	struct list_head fifo;	/* SCHED_NONE, and held-back requests */
};

static struct hs_model disk;
static struct cs_kenv env;
static struct reader rd[MAX_READERS];
static int nr_readers;
static enum sched_kind kind = SCHED_CTX;
static enum cs_mode_force force = CS_FORCE_AUTO;
static u64 now, rerun_at = U64_MAX, think = 150 * NSEC_PER_USEC, sim_end;
static bool no_kick;
/* -k US: a kick's queue run comes US later (kblockd's latency). */
static u64 kick_ns;
static unsigned int tags, in_disk;
static LIST_HEAD(fifo);		/* none: requests waiting for a tag */
static struct srq *armed[MAX_INFLIGHT];
static unsigned int nr_armed;
/* Turn taking (s2): where the group's stream goes on. */
static u64 turn_pos;
/* Write-back (-w): where the flusher writes next, its area, its slots. */
static u64 wb_pos, wb_start, wb_end;
static int nr_wb;
/* s9: the program's reads left, when it started and finished. */
#define PROG_READS	1100
static int prog_left;
static u64 prog_start, prog_done, bg_before;
static unsigned int prog_think_us = 2250;
/* -q: s9's readers' MiB per read (0: 128 KiB); requests are cut at 1 MiB. */
static unsigned int s9_ra_mb;
static u64 max_rq_sectors;
/* s7: the reader's period and every read's latency, ns. */
#define MAX_LAT		65536
static u64 s7_period, lat[MAX_LAT];
static unsigned int nr_lat;
/* Random readers' positions: a fixed sequence, the same every run. */
static u64 rand_state = 0x9e3779b97f4a7c15ULL;
/*
 * -R: the scheduler is selected again every resel_ns, as the benchmark's
 * scheduler windows do: submissions wait while the disk drains, then a new
 * core starts from what the old one learned (ctxsched) with new contexts,
 * and each window from 1 s to 4 s after the switch is measured.
 */
static u64 resel_ns, next_resel = U64_MAX, win_from = U64_MAX, win_to;
static bool draining;
static u64 win_bytes, win_cur, win_ns;
static unsigned int nr_win;
/* SIM_SAMPLE=MS in the environment: the core's state every MS of model time. */
static u64 sample_ns, next_sample;

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static bool tracing;
pid_t cs_env_sim_pid = 1;

void cs_env_trace(struct cs_core *core, const char *fmt, va_list ap)
{
	if (!tracing)
		return;
	printf("%10.3f ", now / 1e6);
	vprintf(fmt, ap);
	putchar('\n');
}

static u64 sim_rand(void)
{
	rand_state ^= rand_state << 13;
	rand_state ^= rand_state >> 7;
	rand_state ^= rand_state << 17;
	return rand_state;
}

static struct srq *srq_of(struct request *rq)
{
	return container_of(container_of(rq, struct cs_krq, rq), struct srq,
			    krq);
}

static bool sched_has_work(void)
{
	return kind == SCHED_CTX ? cs_core_has_work(&env.core) :
				   !list_empty(&fifo);
}

static struct request *sched_dispatch(void)
{
	struct srq *s;

	if (kind == SCHED_CTX)
		return cs_core_dispatch(&env.core, now);
	if (list_empty(&fifo))
		return NULL;
	s = list_first_entry(&fifo, struct srq, fifo);
	list_del_init(&s->fifo);
	return &s->krq.rq;
}

static void disk_start(struct srq *s)
{
	struct request *rq = &s->krq.rq;
	int ret;

	ret = hs_submit(&disk, &s->cmd, blk_rq_pos(rq), blk_rq_sectors(rq),
			op_is_write(req_op(rq)) ? HS_WRITE : HS_READ, now);
	s->state = ret & HS_DONE ? 2 : 1;
	armed[nr_armed++] = s;
	in_disk++;
}

/* One run of the hardware queue. */
static void run_queue(void)
{
	struct request *rq;

	/* As blk-mq: the scheduler is asked only while it says it has work. */
	while (in_disk < tags && sched_has_work()) {
		rq = sched_dispatch();
		if (!rq) {
			if (sched_has_work() && rerun_at == U64_MAX)
				rerun_at = now + 3 * NSEC_PER_MSEC;
			return;
		}
		disk_start(srq_of(rq));
	}
}

/*
 * Insert @left sectors at @pos for @r as the block layer would: split at the
 * stripe unit and at max_rq_sectors.  @bs: 1 + the stream whose page cache
 * the read fills (-B), 0 for a read or write of @r's own.
 */
static void issue(struct reader *r, u64 pos, u64 left, int bs)
{
	struct srq *s;
	u64 n;

	while (left) {
		n = left;
		if (disk.chunk_sectors)
			n = min_t(u64, n, disk.chunk_sectors -
				  pos % disk.chunk_sectors);
		if (max_rq_sectors)
			n = min(n, max_rq_sectors);
		s = calloc(1, sizeof(*s));
		s->r = r;
		s->bs = bs;
		if (bs)
			s->bpg = (pos - streams[bs - 1].start) >> 3;
		s->krq.rq.__sector = pos;
		s->krq.rq.__data_len = n << 9;
		s->krq.rq.cmd_flags = r->turn_group == -4 ? REQ_OP_WRITE :
							    REQ_OP_READ;
		s->krq.ioprio = r->ioprio ?:
				IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4);
		INIT_LIST_HEAD(&s->krq.rq.queuelist);
		INIT_LIST_HEAD(&s->fifo);
		RB_CLEAR_NODE(&s->krq.rq.rb_node);
		cs_env_sim_pid = r - rd;
		if (kind == SCHED_CTX)
			cs_core_insert(&env.core, &s->krq.rq, &r->cx->ctx,
				       false, now);
		else
			list_add_tail(&s->fifo, &fifo);
		if (!bs)
			r->pieces++;
		else if (tracing)
			printf("%10.3f t%d reads %llu + %llu\n", now / 1e6,
			       (int)(r - rd), (unsigned long long)pos,
			       (unsigned long long)n);
		pos += n;
		left -= n;
	}
}

/*
 * -P N: the pool's threads share N CPUs; each wake-up or next item takes
 * the think time of CPU, first come first served (0: a CPU each).
 */
#define MAX_CPUS	64
static u64 cpu_free[MAX_CPUS];
static int nr_cpus;

/* When a thread that becomes runnable now has had @work of CPU. */
static u64 cpu_done(u64 work)
{
	int c, best = 0;

	if (!nr_cpus)
		return now + work;
	for (c = 1; c < nr_cpus; c++)
		if (cpu_free[c] < cpu_free[best])
			best = c;
	cpu_free[best] = max(cpu_free[best], now) + work;
	return cpu_free[best];
}

/*
 * -B: the page cache and readahead of mm/readahead.c (Linux 6.12) for
 * order-0 pages, as far as S8's pool meets them.  Page indexes are relative
 * to the stream's area, which is its file.
 */

/* page_cache_ra_unbounded(): allocate the absent pages, read each run. */
static void ra_read(struct reader *r, u64 start, u64 nr, u64 lookahead)
{
	struct sim_stream *st = &streams[r->stream];
	u64 mark = start + nr - lookahead, i, run = 0;

	/* do_page_cache_ra(): nothing past the end of the file. */
	if (start >= st->npg)
		return;
	nr = min(nr, st->npg - start);
	for (i = start; i < start + nr; i++) {
		if (st->pg[i]) {
			if (run)
				issue(r, st->start + ((i - run) << 3), run << 3,
				      r->stream + 1);
			run = 0;
			continue;
		}
		st->pg[i] = PG_IN_FLIGHT | (i == mark ? PG_READAHEAD : 0);
		run++;
	}
	if (run)
		issue(r, st->start + ((i - run) << 3), run << 3, r->stream + 1);
}

/* ractl_max_pages(): a large read may go up to the disk's io_pages. */
static u64 ra_max(u64 req)
{
	return req > ra_pages && io_pages > ra_pages ? min(req, io_pages) :
						       ra_pages;
}

static u64 ra_init_size(u64 size, u64 max)
{
	u64 n = 1;

	while (n < size)
		n <<= 1;
	if (n <= max / 32)
		return n * 4;
	if (n <= max / 4)
		return n * 2;
	return max;
}

static u64 ra_next_size(u64 cur, u64 max)
{
	if (cur < max / 16)
		return 4 * cur;
	if (cur <= max / 2)
		return 2 * cur;
	return max;
}

/* page_cache_sync_ra(): @index is absent; @req pages are wanted from it. */
static void ra_sync(struct reader *r, u64 index, u64 req)
{
	struct sim_stream *st = &streams[r->stream];
	u64 max = ra_max(req), miss = index - 1, contig, k;

	if (!index || req > max || index - st->prev_pg <= 1) {
		st->ra_start = index;
		st->ra_size = ra_init_size(req, max);
		st->ra_async = st->ra_size > req ? st->ra_size - req :
						   st->ra_size >> 1;
		ra_read(r, st->ra_start, st->ra_size, st->ra_async);
		return;
	}
	/* page_cache_prev_miss(index - 1, max): the last page it looked at */
	for (k = 0; k < max; k++) {
		miss = index - 1 - k;
		if (miss == U64_MAX || !st->pg[miss])
			break;
	}
	contig = index - miss - 1;
	/* Cached from the file's start: a long stream. */
	if (miss == U64_MAX)
		contig *= 2;
	if (contig <= req) {
		/* A standalone read: as is, the state left alone. */
		ra_read(r, index, req, 0);
		return;
	}
	st->ra_start = index;
	st->ra_size = min(contig + req, max);
	st->ra_async = 1;
	ra_read(r, index, st->ra_size, 1);
}

/* page_cache_async_ra(): the thread reached a PG_readahead page. */
static void ra_async(struct reader *r, u64 index, u64 req)
{
	struct sim_stream *st = &streams[r->stream];
	u64 max = ra_max(req), start, n;

	if (index == st->ra_start + st->ra_size - st->ra_async) {
		st->ra_start += st->ra_size;
		st->ra_size = max(st->ra_size, ra_next_size(st->ra_size, max));
		st->ra_async = st->ra_size;
		ra_read(r, st->ra_start, st->ra_size, st->ra_async);
		return;
	}
	/* page_cache_next_miss(index + 1, max) */
	for (start = index + 1, n = 0; n < max; n++, start++)
		if (start >= st->npg || !st->pg[start])
			break;
	if (n == max || start - index > max)
		return;
	st->ra_start = start;
	st->ra_size = ra_next_size(start - index + req, max);
	st->ra_async = st->ra_size;
	ra_read(r, start, st->ra_size, st->ra_async);
}

/*
 * filemap_read() of a pool thread's item: absent pages start a sync
 * readahead, a PG_readahead page an async one, a page in flight makes the
 * thread wait for it.  At the item's end the thread takes the next.
 */
static void pool_step(struct reader *r)
{
	struct sim_stream *st = &streams[r->stream];
	u8 *p;

	while (r->pg < r->pg_end) {
		p = &st->pg[r->pg];
		if (!*p) {
			ra_sync(r, r->pg, r->pg_end - r->pg);
			continue;
		}
		if (*p & PG_READAHEAD) {
			*p &= ~PG_READAHEAD;
			ra_async(r, r->pg, r->pg_end - r->pg);
		}
		if (!(*p & PG_UPTODATE)) {
			r->waiting = true;
			return;
		}
		r->pg++;
	}
	st->prev_pg = r->pg_end - 1;
	if (now <= sim_end) {
		r->bytes += r->size << 9;
		st->bytes += r->size << 9;
	}
	r->at = cpu_done(think);
}

static void submit(struct reader *r)
{
	u64 pos = r->pos, left = r->size, n;

	r->at = U64_MAX;
	if (draining) {
		r->held = true;
		return;
	}
	if (r->turn_group == -2 && ra_pages && r->pg < r->pg_end) {
		/* -B: the item in hand goes on. */
		pool_step(r);
		run_queue();
		return;
	}
	if (r->turn_group == -2) {
		/* The next item of the shared work queue. */
		r->stream = next_item++ % nr_streams;
		pos = streams[r->stream].pos;
		if (pos + r->size > streams[r->stream].end)
			pos = streams[r->stream].start;
		streams[r->stream].pos = pos + r->size;
		if (ra_pages) {
			r->pg = (pos - streams[r->stream].start) >> 3;
			r->pg_end = r->pg + (r->size >> 3);
			pool_step(r);
			run_queue();
			return;
		}
	} else if (r->turn_group == -4) {
		if (wb_pos + r->size > wb_end)
			wb_pos = wb_start;
		pos = wb_pos;
		wb_pos += r->size;
	} else if (r->turn_group == -3 || r->turn_group == -6) {
		r->sub_at = now;
		pos = r->start + sim_rand() % ((r->end - r->start) / r->size) *
		      r->size;
	} else if (r->turn_group == -5) {
		if (prog_left == PROG_READS && !r->pieces && !r->bytes)
			for (n = 0; n < (u64)nr_readers; n++)
				if (rd[n].turn_group == -1)
					bg_before += rd[n].bytes;
		/* Half continue the last read; sizes 4-64 KiB. */
		r->size = 8 << (sim_rand() % 5);
		if (sim_rand() % 2)
			pos = r->start + sim_rand() % ((r->end - r->start) >> 3
						       ) * 8;
	}
	if (pos + r->size > r->end)
		pos = r->start;
	issue(r, pos, left, 0);
	pos += left;
	r->pos = pos;
	if (r->turn_group >= 0)
		turn_pos = pos;
	run_queue();
}

/*
 * -B: a read of a stream's pages completed: they are up to date, and the
 * threads waiting for one of them go on.
 */
static void pages_done(struct srq *s)
{
	struct sim_stream *st = &streams[s->bs - 1];
	u64 i, n = s->krq.rq.__data_len >> 12;
	bool kick = false;
	int j;

	for (i = s->bpg; i < s->bpg + n; i++)
		st->pg[i] = (st->pg[i] & PG_READAHEAD) | PG_UPTODATE;
	if (kind == SCHED_CTX)
		kick = cs_core_finish(&env.core, &s->krq.rq, now);
	/* A waiting thread wakes, copies what it has and reads on. */
	for (j = 0; j < nr_readers; j++)
		if (rd[j].waiting && &streams[rd[j].stream] == st &&
		    st->pg[rd[j].pg] & PG_UPTODATE) {
			rd[j].waiting = false;
			rd[j].at = cpu_done(think);
		}
	free(s);
	if (kick && !no_kick && kick_ns)
		rerun_at = min(rerun_at, now + kick_ns);
	else if ((kick && !no_kick) || kind == SCHED_NONE || in_disk + 1 == tags)
		run_queue();
}

static void complete(struct srq *s, u64 t_end)
{
	struct reader *r = s->r;
	bool kick = false;
	int i;

	in_disk--;
	if (now >= win_from && now < win_to && r->turn_group != -4)
		win_cur += s->krq.rq.__data_len;
	if (s->bs) {
		pages_done(s);
		return;
	}
	if (now <= t_end) {
		r->bytes += s->krq.rq.__data_len;
		if (r->turn_group == -2)
			streams[r->stream].bytes += s->krq.rq.__data_len;
	}
	if (kind == SCHED_CTX)
		kick = cs_core_finish(&env.core, &s->krq.rq, now);
	free(s);
	if (!--r->pieces) {
		if (r->turn_group == -4) {
			r->at = now;	/* the flusher has more */
		} else if (r->turn_group == -5) {
			u64 us = prog_think_us / 4 +
				 sim_rand() % (prog_think_us * 3 / 2);

			if (--prog_left)
				r->at = now + us * NSEC_PER_USEC;
			else
				prog_done = now;
		} else if (r->turn_group == -6) {
			if (nr_lat < MAX_LAT)
				lat[nr_lat++] = now - r->sub_at;
			if (tracing)
				printf("%10.3f s7 read %.1f ms\n", now / 1e6,
				       (now - r->sub_at) / 1e6);
			/* Like fio's rate_iops: the next read when it is due. */
			r->at = max(now + think, r->sub_at + s7_period);
		} else if (r->turn_group < 0) {
			r->at = now + think;
		} else {
			/* Hand the stream to the next thread of the group. */
			for (i = 1; i <= nr_readers; i++) {
				struct reader *n =
					&rd[(r - rd + i) % nr_readers];

				if (n->turn_group == r->turn_group) {
					n->pos = turn_pos;
					n->at = now + think;
					break;
				}
			}
		}
	}
	if (kick && !no_kick && kick_ns)
		rerun_at = min(rerun_at, now + kick_ns);
	else if ((kick && !no_kick) || kind == SCHED_NONE || in_disk + 1 == tags)
		run_queue();
}

static const char *mode_name(const struct cs_model *m)
{
	return cs_model_mode(m) == CS_MODE_SERIAL ? "serial" : "parallel";
}

/* The core's state at @what, for -R windows and SIM_SAMPLE. */
static void show_state(const char *what)
{
	const struct cs_model *m = &env.core.model;

	if (!tracing && !sample_ns)
		return;
	if (kind != SCHED_CTX)
		return;
	printf("%10.3f %s: mode %s (%s) ab %d level %u", now / 1e6, what,
	       mode_name(m), cs_model_why_name(cs_model_why(m)), m->ab,
	       m->level);
	printf(" in_disk %u queued %u busy_boost %u boost_near %d lead %llu",
	       in_disk, env.core.nr_queued, env.core.nr_busy_boost,
	       cs_boost_near(&env.core, CS_CLASS_IDLE, now),
	       (unsigned long long)env.core.boost_lead);
	printf(" present %u avg %u pairs %u cont %llu/%llu\n",
	       env.core.nr_present_sync, m->present_avg, m->ab_pairs,
	       (unsigned long long)(m->cont[m->level] / NSEC_PER_MSEC),
	       (unsigned long long)(m->hold_until[m->level] /
				    NSEC_PER_MSEC));
}

/*
 * -R: the disk has drained; select the scheduler again.  A new ctxsched
 * starts from what the old one learned, as cs_devmem keeps it, and sees
 * every context anew (the kernel frees the icqs at a switch).
 */
static void reselect(const u64 *tun, bool rot)
{
	struct cs_model_memory mem = { .valid = true };
	unsigned int warnings;
	int i;

	if (kind == SCHED_CTX) {
		mem.l = env.core.model.l;
		for (i = 0; i < nr_readers; i++)
			cs_core_ctx_exit(&env.core, &rd[i].ctx.ctx);
		cs_core_exit(&env.core);
		warnings = env.warnings + (env.queues != 0);
		memset(&env, 0, sizeof(env));
		env.warnings = warnings;
		cs_core_init(&env.core, tun, rot, &mem, now);
		for (i = 0; i < nr_readers; i++) {
			memset(&rd[i].ctx.ctx, 0, sizeof(rd[i].ctx.ctx));
			INIT_LIST_HEAD(&rd[i].ctx.ctx.member);
			rd[i].ctx.ctx.tgid = rd[i].turn_group == -2 ? 99 :
					     100 + i;
			rd[i].ctx.ctx.pool = rd[i].ctx.ctx.tgid;
			rd[i].ctx.ctx.id = (unsigned long)&rd[i] + nr_win + 1;
		}
	}
	draining = false;
	for (i = 0; i < nr_readers; i++) {
		/*
		 * Streams go on from a new place in their area: on an array
		 * what a window delivers depends on which spindles the
		 * streams share, and a scheduler that moved them on at
		 * another pace would otherwise be measured on another layout.
		 */
		if (rd[i].turn_group == -1 && rd[i].end - rd[i].start > rd[i].size)
			rd[i].pos = rd[i].start + sim_rand() %
				    ((rd[i].end - rd[i].start) / rd[i].size) * rd[i].size;
		if (!rd[i].held)
			continue;
		rd[i].held = false;
		rd[i].at = now + think;
	}
	if (tracing)
		printf("%10.3f switch: window %.1f MB/s\n", now / 1e6,
		       win_cur / 3e6);
	show_state("switch");
	/* The last window is whole: the switch comes 4 s or more after it. */
	if (nr_win) {
		win_bytes += win_cur;
		win_ns += 3 * NSEC_PER_SEC;
	}
	win_cur = 0;
	win_from = now + NSEC_PER_SEC;
	win_to = now + 4 * NSEC_PER_SEC;
	nr_win++;
	next_resel = now + resel_ns;
}

static void bad_args(void)
{
	fputs("usage: sim [-s SCHED] [-d SPEC] [-t SEC] [-g US] [-c KB] [-w N] [-p US] [-q N]\n"
	      "           [-b MS] [-R SEC] [-B KB] [-P N] [-k US]\n"
	      "           [-r] [-v] [-T] [-K]\n"
	      "           s1 N | s2 T | s2b T | s8 T S | s10 N | s9 N | s7 RATE | s5 J\n",
	      stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	u64 tun[CS_NR_TUNABLES], end, best, cap;
	int opt, i, n, verbose = 0, which;
	char spec[256] = "sata";
	int chunk_kb = 256, nst = 0, boost_ms = -1;
	bool chunk_set = false, say_rot = false;
	double secs = 10, total = 0;
	struct hs_params p;
	const char *sc;

	while ((opt = getopt(argc, argv, "s:d:t:g:c:w:p:q:b:R:B:P:k:rvKT")) != -1) {
		switch (opt) {
		case 's':
			if (!strcmp(optarg, "none"))
				kind = SCHED_NONE;
			else if (!strcmp(optarg, "ctxsched-serial"))
				force = CS_FORCE_SERIAL;
			else if (!strcmp(optarg, "ctxsched-parallel"))
				force = CS_FORCE_PARALLEL;
			else if (strcmp(optarg, "ctxsched"))
				bad_args();
			break;
		case 'd':
			snprintf(spec, sizeof(spec), "%s", optarg);
			break;
		case 't':
			secs = atof(optarg);
			break;
		case 'g':
			think = (u64)atoi(optarg) * NSEC_PER_USEC;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'K':
			no_kick = true;
			break;
		case 'T':
			tracing = true;
			break;
		case 'q':
			s9_ra_mb = atoi(optarg);
			break;
		case 'k':
			kick_ns = (u64)atoi(optarg) * NSEC_PER_USEC;
			break;
		case 'P':
			nr_cpus = atoi(optarg);
			if (nr_cpus < 0 || nr_cpus > MAX_CPUS)
				bad_args();
			break;
		case 'B':
			ra_pages = (u64)atoi(optarg) / 4;
			if (ra_pages < 1 || ra_pages > 16384)
				bad_args();
			break;
		case 'p':
			prog_think_us = atoi(optarg);
			if (prog_think_us < 4 || prog_think_us > 100000)
				bad_args();
			break;
		case 'c':
			chunk_kb = atoi(optarg);
			chunk_set = true;
			break;
		case 'b':
			boost_ms = atoi(optarg);
			if (boost_ms < 0 || boost_ms > 60000)
				bad_args();
			break;
		case 'r':
			say_rot = true;
			break;
		case 'R':
			resel_ns = (u64)(atof(optarg) * NSEC_PER_SEC);
			if (resel_ns < 4 * NSEC_PER_SEC)
				bad_args();
			break;
		case 'w':
			nr_wb = atoi(optarg);
			if (nr_wb < 0 || nr_wb > 32)
				bad_args();
			break;
		default:
			bad_args();
		}
	}
	if (optind + 2 != argc && optind + 3 != argc)
		bad_args();
	sc = argv[optind];
	n = atoi(argv[optind + 1]);
	if (optind + 3 == argc)
		nst = atoi(argv[optind + 2]);
	if (n < (strcmp(sc, "s9") ? 1 : 0) || n > MAX_READERS - 1 || secs <= 0 ||
	    (!strcmp(sc, "s5") && n > MAX_READERS / S5_DEPTH))
		bad_args();
	if (!hs_parse(spec, &p) || hs_model_init(&disk, &p)) {
		fprintf(stderr, "sim: bad device specification '%s'\n", spec);
		return 2;
	}
	tags = min(p.qdepth * max(disk.nunits, 1U), 1024U);
	cap = disk.capacity & ~7ULL;
	now = NSEC_PER_SEC;
	cs_tunables_defaults(tun);
	tun[CS_T_DEVICE_MODE] = force;
	if (boost_ms >= 0)
		tun[CS_T_BOOST] = (u64)boost_ms * NSEC_PER_MSEC;
	cs_core_init(&env.core, tun, p.rpm != 0 || say_rot, NULL, now);

	if (!strcmp(sc, "s1")) {
		for (i = 0; i < n; i++) {
			rd[i].start = cap / n * i & ~7ULL;
			rd[i].end = rd[i].start + cap / n;
			rd[i].size = chunk_set ? chunk_kb * 2 : 768;
			rd[i].turn_group = -1;
		}
		nr_readers = n;
	} else if (!strcmp(sc, "s2") || !strcmp(sc, "s2b")) {
		for (i = 0; i < n; i++) {
			rd[i].start = 0;
			rd[i].end = cap / 2;
			rd[i].size = 128;
			rd[i].turn_group = 0;
			rd[i].at = U64_MAX;
		}
		nr_readers = n;
		if (!strcmp(sc, "s2b")) {
			rd[n].start = cap / 2;
			rd[n].end = cap;
			rd[n].size = 128;
			rd[n].turn_group = -1;
			nr_readers = n + 1;
		}
	} else if (!strcmp(sc, "s8") && nst >= 1 && nst <= MAX_STREAMS &&
		   chunk_kb >= 4 && chunk_kb <= 4096) {
		nr_streams = nst;
		for (i = 0; i < nst; i++) {
			streams[i].start = cap / nst * i & ~7ULL;
			streams[i].end = streams[i].start + cap / nst;
			streams[i].pos = streams[i].start;
		}
		for (i = 0; i < n; i++) {
			rd[i].start = 0;
			rd[i].end = cap;
			rd[i].size = chunk_kb * 2;
			rd[i].turn_group = -2;
		}
		nr_readers = n;
	} else if (!strcmp(sc, "s10")) {
		rd[0].start = 0;
		rd[0].end = cap / 2;
		rd[0].size = 128;
		rd[0].turn_group = -1;
		for (i = 1; i <= n; i++) {
			rd[i].start = 0;
			rd[i].end = cap;
			rd[i].size = 8;
			rd[i].turn_group = -3;
		}
		nr_readers = n + 1;
	} else if (!strcmp(sc, "s4") && n <= 3) {
		/* S4's pairs: 1 BE 0 : BE 7, 2 BE 4 : idle, 3 RT 4 : BE 4. */
		static const unsigned short pair[3][2] = {
			{ IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 0),
			  IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 7) },
			{ IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4),
			  IOPRIO_PRIO_VALUE(IOPRIO_CLASS_IDLE, 0) },
			{ IOPRIO_PRIO_VALUE(IOPRIO_CLASS_RT, 4),
			  IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4) },
		};

		for (i = 0; i < 2; i++) {
			rd[i].start = cap / 2 * i & ~7ULL;
			rd[i].end = rd[i].start + cap / 2;
			rd[i].size = 256;
			rd[i].turn_group = -1;
			rd[i].ioprio = pair[n - 1][i];
		}
		nr_readers = 2;
	} else if (!strcmp(sc, "s5")) {
		for (i = 0; i < n * S5_DEPTH; i++) {
			rd[i].start = 0;
			rd[i].end = cap;
			rd[i].size = 8;
			rd[i].turn_group = -3;
		}
		nr_readers = n * S5_DEPTH;
	} else if (!strcmp(sc, "s7")) {
		/* 4 KiB reads at n per second in 1 GiB half a disk away. */
		rd[0].start = cap / 2 & ~7ULL;
		rd[0].end = rd[0].start + (1ULL << 21);
		rd[0].size = 8;
		rd[0].turn_group = -6;
		s7_period = NSEC_PER_SEC / n;
		nr_readers = 1;
	} else if (!strcmp(sc, "s9") && n <= 2) {
		for (i = 0; i < n; i++) {
			rd[i].start = cap / 10 * (i ? 7 : 4) & ~7ULL;
			rd[i].end = cap;
			rd[i].size = s9_ra_mb ? s9_ra_mb << 11 : 256;
			rd[i].turn_group = -1;
		}
		if (s9_ra_mb)
			max_rq_sectors = 2048;
		rd[n].start = 0;
		rd[n].end = 256 << 11;
		rd[n].size = 8;
		rd[n].turn_group = -5;
		prog_left = PROG_READS;
		nr_readers = n + 1;
	} else {
		bad_args();
	}
	/* -B is S8's page cache; -R would need its windows counted. */
	if (nr_readers + nr_wb > MAX_READERS ||
	    (ra_pages && (!nr_streams || resel_ns)))
		bad_args();
	for (i = 0; ra_pages && i < nr_streams; i++) {
		streams[i].npg = (streams[i].end - streams[i].start) >> 3;
		streams[i].pg = calloc(streams[i].npg, 1);
		if (!streams[i].pg)
			return 2;
		/* file_ra_state_init(): no read before. */
		streams[i].prev_pg = U64_MAX >> 12;
	}
	wb_start = cap / 4 * 3 & ~7ULL;
	wb_end = cap;
	wb_pos = wb_start;
	for (i = nr_readers; i < nr_readers + nr_wb; i++) {
		rd[i].start = wb_start;
		rd[i].end = wb_end;
		rd[i].size = 1024;
		rd[i].turn_group = -4;
	}
	nr_readers += nr_wb;
	for (i = 0; i < nr_readers; i++) {
		INIT_LIST_HEAD(&rd[i].ctx.ctx.member);
		/* A pool's threads are one process. */
		rd[i].ctx.ctx.tgid = rd[i].turn_group == -2 ? 99 : 100 + i;
		rd[i].ctx.ctx.pool = rd[i].ctx.ctx.tgid;
		rd[i].ctx.ctx.id = (unsigned long)&rd[i];
		rd[i].ctx.alive = true;
		rd[i].cx = &rd[i].ctx;
		/* s5: a job's readers share its first one's context. */
		if (!strcmp(sc, "s5"))
			rd[i].cx = &rd[i - i % S5_DEPTH].ctx;
		rd[i].pos = rd[i].start;
		if (rd[i].turn_group < 0 || i == 0)
			rd[i].at = now + i * 1000;
		if (rd[i].turn_group == -5) {
			prog_start = now + 3 * NSEC_PER_SEC;
			rd[i].at = prog_start;
		}
		/* S7's reader joins the flood after 3 s. */
		if (rd[i].turn_group == -6)
			rd[i].at = now + 3 * NSEC_PER_SEC;
	}
	/* s9 runs until the program is done (-t bounds it). */
	if (prog_left)
		secs = max(secs, 120.0);

	/* SIM_SEED: another sequence of random choices, for spreads. */
	if (getenv("SIM_SEED"))
		rand_state += (u64)atoll(getenv("SIM_SEED")) * 0x2545f4914f6cdd1dULL;
	if (getenv("SIM_SAMPLE"))
		sample_ns = (u64)atoi(getenv("SIM_SAMPLE")) * NSEC_PER_MSEC;
	end = now + (u64)(secs * NSEC_PER_SEC);
	sim_end = end;
	if (resel_ns)
		next_resel = now + resel_ns;
	while (now < end && !(prog_left == 0 && prog_done)) {
		int ev = -1;
		struct srq *s = NULL;

		if (draining && !in_disk && !sched_has_work())
			reselect(tun, p.rpm != 0 || say_rot);
		if (sample_ns && now >= next_sample) {
			next_sample = now + sample_ns;
			show_state("sample");
		}

		best = U64_MAX;
		which = 0;
		for (i = 0; i < nr_readers; i++)
			if (rd[i].at < best) {
				best = rd[i].at;
				ev = 0;
				which = i;
			}
		for (i = 0; i < (int)nr_armed; i++)
			if (armed[i]->state == 2 && armed[i]->cmd.done < best) {
				best = armed[i]->cmd.done;
				ev = 1;
				which = i;
			}
		for (i = 0; i < (int)disk.nunits; i++)
			if (disk.unit[i].busy && disk.unit[i].busy_until < best) {
				best = disk.unit[i].busy_until;
				ev = 2;
				which = i;
			}
		if (env.timer_armed && env.timer_at < best) {
			best = env.timer_at;
			ev = 3;
		}
		if (rerun_at < best) {
			best = rerun_at;
			ev = 4;
		}
		if (!draining && next_resel < best) {
			best = next_resel;
			ev = 5;
		}
		if (ev < 0)
			break;
		now = max(now, best);
		switch (ev) {
		case 0:
			submit(&rd[which]);
			break;
		case 1:
			s = armed[which];
			armed[which] = armed[--nr_armed];
			complete(s, end);
			break;
		case 2: {
			struct hs_cmd *c = hs_unit_run(&disk, which);

			if (c)
				container_of(c, struct srq, cmd)->state = 2;
			break;
		}
		case 3:
			env.timer_armed = false;
			/* The timer's own queue run was there before. */
			if (cs_core_idle_timer(&env.core, now))
				run_queue();
			break;
		case 4:
			rerun_at = U64_MAX;
			run_queue();
			break;
		default:
			draining = true;
			next_resel = U64_MAX;
			break;
		}
	}
	for (i = 0; i < nr_readers; i++)
		if (rd[i].turn_group != -4)
			total += rd[i].bytes;
	if (resel_ns) {
		/* Only whole windows count. */
		if (nr_win && win_to <= now) {
			win_bytes += win_cur;
			win_ns += 3 * NSEC_PER_SEC;
		} else if (nr_win) {
			nr_win--;
		}
		printf("windows %u %.1f MB/s ", nr_win,
		       win_ns ? win_bytes / (win_ns / 1e9) / 1e6 : 0.0);
	}
	printf("total %.1f MB/s:", total / secs / 1e6);
	if (nr_streams) {
		for (i = 0; i < nr_streams; i++)
			printf(" %.1f", streams[i].bytes / secs / 1e6);
	} else {
		for (i = 0; i < nr_readers; i++)
			if (rd[i].turn_group != -4)
				printf(" %.1f", rd[i].bytes / secs / 1e6);
		for (i = 0; i < nr_readers; i++)
			if (rd[i].turn_group == -3)
				printf(" %.0f/s", rd[i].bytes / secs /
				       (rd[i].size << 9));
	}
	if (prog_start) {
		double bg = -(double)bg_before, d;

		for (i = 0; i < nr_readers; i++)
			if (rd[i].turn_group == -1)
				bg += rd[i].bytes;
		d = (double)((prog_done ?: now) - prog_start) / 1e9;
		printf(" p %.2f%s bg %.1f", d, prog_done ? "" : " starved",
		       d > 0 ? bg / d / 1e6 : 0);
	}
	if (s7_period && nr_lat) {
		/* p99: the latency with at most 1% of the reads above it. */
		qsort(lat, nr_lat, sizeof(lat[0]), cmp_u64);
		printf(" lat max %.1f p99 %.1f ms n %u", lat[nr_lat - 1] / 1e6,
		       lat[nr_lat - 1 - nr_lat / 100] / 1e6, nr_lat);
	}
	if (nr_wb) {
		double wb = 0;

		for (i = 0; i < nr_readers; i++)
			if (rd[i].turn_group == -4)
				wb += rd[i].bytes;
		printf(" w %.1f", wb / secs / 1e6);
	}
	printf("\n");
	if (verbose && kind == SCHED_CTX) {
		struct cs_stats *st = &env.core.stats;
		struct cs_model *m = &env.core.model;

		printf("# near %llu us (%u) far %llu us (%u) best %llu ps/B\n",
		       (unsigned long long)(m->l.near_excess / 1000), m->l.near_n,
		       (unsigned long long)(m->l.far_excess / 1000), m->l.far_n,
		       (unsigned long long)m->l.best_ps);
		printf("# level %u busy %llu ms, hold to %llu ms, ab %d pairs %u present %u\n",
		       m->level, (unsigned long long)(m->cont[m->level] / 1000000),
		       (unsigned long long)(m->hold_until[m->level] / 1000000),
		       m->ab, m->ab_pairs, env.core.nr_present_sync);
		printf("# mode %s (%s) seek %llu us gain %u ab %u changes %u\n",
		       cs_model_mode(m) == CS_MODE_SERIAL ? "serial" : "parallel",
		       cs_model_why_name(cs_model_why(m)),
		       (unsigned long long)(cs_model_seek_ns(m) / 1000),
		       m->l.gain, cs_model_verdict(m)->ab_ratio, m->changes);
		printf("# slices %llu idle armed %llu hit %llu expired %llu",
		       (unsigned long long)st->slices,
		       (unsigned long long)st->idle_armed,
		       (unsigned long long)st->idle_hit,
		       (unsigned long long)st->idle_expired);
		printf(" merged %llu split %llu moved %llu kicks %llu empty %llu\n",
		       (unsigned long long)st->coop_merged,
		       (unsigned long long)st->coop_split,
		       (unsigned long long)st->stream_moved,
		       (unsigned long long)st->kicks,
		       (unsigned long long)st->dispatch_empty);
	}
	return cs_sim_warnings || env.warnings ? 1 : 0;
}
