/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device model: what ctxsched learns about a disk from its own
 * dispatches and completions, and the scheduling mode it chooses from that.
 * Pure arithmetic over times passed in (ns), so KUnit and the simulator
 * drive it with a fake clock.
 */
#ifndef CTXSCHED_MODEL_H
#define CTXSCHED_MODEL_H

#include <linux/types.h>

/*
 * How ctxsched schedules a disk.  SERIAL: as CFQ on a single spindle, one
 * queue owns the disk for a slice and a sequential reader keeps it while it
 * thinks (idling), since serving another queue in between costs a seek.
 * PARALLEL: work-conserving; queues take turns by priority without waiting
 * for each other, as a disk that serves several requests at once (an
 * array, flash, a virtual disk) or pays nothing for distance needs.
 */
enum cs_mode {
	CS_MODE_SERIAL,
	CS_MODE_PARALLEL,
};

/* The device_mode tunable: learn the mode, or force one. */
enum cs_mode_force {
	CS_FORCE_AUTO,
	CS_FORCE_SERIAL,
	CS_FORCE_PARALLEL,
};

/* Why the model is in its mode (shown in debugfs). */
enum cs_mode_why {
	CS_WHY_PRIOR,		/* not enough samples: queue/rotational */
	CS_WHY_NO_SEEK_COST,	/* distance costs the disk no time */
	CS_WHY_AB,		/* measured: the mode delivered more */
	CS_WHY_AB_UNDECIDED,	/* measured, no clear winner: kept */
	CS_WHY_NEARBY,		/* measured at a neighbouring contention level */
	CS_WHY_FORCED,		/* the device_mode tunable */
};

/* What cs_model_complete() is told of a request. */
#define CS_MODEL_SYNC	0x1	/* a sync request: counts in the A/B */
#define CS_MODEL_WRITE	0x2	/* a write: not in the gain figure */

/* A/B measurement state. */
enum cs_ab_state {
	CS_AB_HOLD,		/* mode fixed until enough contended time */
	CS_AB_RUN,		/* alternating measurement windows */
};

/* Figures of the model; constants shared by model.c and the tests. */
#define CS_MODEL_NEAR_MIN	8	/* near samples before judging seeks */
#define CS_MODEL_FAR_MIN	4	/* far samples before judging seeks */
#define CS_MODEL_FAR_ALONE_MIN	32	/* ... when near ones do not come */
#define CS_MODEL_SEEK_ON_NS	(2 * NSEC_PER_MSEC)	/* seeks cost time */
#define CS_MODEL_SEEK_OFF_NS	(1 * NSEC_PER_MSEC)	/* ... no longer */
#define CS_MODEL_SAMPLE_MAX_NS	(50 * NSEC_PER_MSEC)	/* clip outliers */
#define CS_MODEL_SLOW_SHIFT	6	/* slow shares: over ~64 samples */
/*
 * Far requests seek, for boosts (cs_model_far_seeks()), where this many
 * more of them than of near ones take longer than a seek (/1024): beyond
 * what host noise on both makes of the difference (over 4 sigma where
 * one in eight of all requests is slow).
 */
#define CS_MODEL_FAR_SLOW_MIN	192
/*
 * Two requests in the driver beat one by more than the guest's own
 * overhead per request (which a second request hides even on a serial
 * disk: 1.2 measured on a serialising null_blk under TCG).
 */
#define CS_MODEL_GAIN_ON	1536	/* /1024: depth pays, parallel */
#define CS_MODEL_GAIN_OFF	1331	/* /1024: ... no longer */
#define CS_MODEL_GAIN_EPOCH_NS	(500 * NSEC_PER_MSEC)
#define CS_MODEL_GAIN_MIN_NS	(40 * NSEC_PER_MSEC)	/* solo, shared */
#define CS_AB_WIN_NS		(200 * NSEC_PER_MSEC)	/* measured part */
#define CS_AB_SETTLE_NS		(50 * NSEC_PER_MSEC)	/* not measured */
#define CS_AB_MARGIN		1126	/* /1024: 10% to call a winner */
#define CS_AB_WIDE		1536	/* /1024: a wide gap, 1.5x */
/*
 * A PARALLEL verdict by this much (/1024) holds for newcomers where the
 * gain figure is at least CS_AB_SETTLED_GAIN (cs_model_settled_wide()).
 */
#define CS_AB_SETTLED_PAR	1280
#define CS_AB_SETTLED_GAIN	1229
#define CS_AB_MAX_PAIRS		7
/* Pairs that all favour PARALLEL decide sooner on a spindle's figures. */
#define CS_AB_STEADY_PAIRS	4
#define CS_AB_HOLD_MIN_NS	(10ULL * NSEC_PER_SEC)
#define CS_AB_HOLD_MAX_NS	(80ULL * NSEC_PER_SEC)
/*
 * Half of a window contended, or the competition is taken to have stopped:
 * readers that think leave PARALLEL windows less contended than SERIAL
 * ones (65-75% for eight fio readers under TCG, where three quarters cut
 * every run before its first SERIAL window).
 */
#define CS_AB_CONTENDED_MIN	512	/* /1024 */
/* The count of present queues is folded into its average this often. */
#define CS_MODEL_FOLD_NS	(10 * NSEC_PER_MSEC)
/* Outside a measurement, a tick with nothing new waits this long at most. */
#define CS_MODEL_TICK_NS	(1 * NSEC_PER_MSEC)
/*
 * A verdict older than this (wall time) is measured again after
 * CS_AB_STALE_NS of contention once a new competitor appears.
 */
#define CS_AB_FRESH_NS		(10ULL * NSEC_PER_SEC)
#define CS_AB_STALE_NS		(500 * NSEC_PER_MSEC)
/* A run's level changes after this long at another (four windows). */
#define CS_MODEL_LEVEL_AWAY_NS	(4 * (CS_AB_WIN_NS + CS_AB_SETTLE_NS))

/*
 * Contention levels: which mode delivers more depends on how many sync
 * queues compete (array8 in the VM: SERIAL with 2 readers, PARALLEL with
 * 8), so each level gets a verdict of its own.  Levels: 2, 3-4, 5-8, 9 or
 * more present sync queues (smoothed).
 */
#define CS_MODEL_LEVELS	4

/**
 * struct cs_model_verdict - what was measured at one contention level
 * @mode: the mode that won
 * @why: CS_WHY_AB, CS_WHY_AB_UNDECIDED, or CS_WHY_PRIOR (not measured)
 * @ab_ratio: last measured PARALLEL over SERIAL throughput, /1024
 * @blind: measured before the seek figure was known, so without the rules
 *	that figure brings (cs_model_drop_weak_serial())
 * @hold: contended time the verdict holds before it is measured again, ns
 *
 * Under the model's owner's lock (cs_data.lock in the kernel), as the rest
 * of struct cs_model.
 */
struct cs_model_verdict {
	enum cs_mode mode;
	enum cs_mode_why why;
	u32 ab_ratio;
	bool blind;
	u64 hold;
};

/**
 * struct cs_model_learned - what the model has learned about a disk; kept
 *	across scheduler switches on the same disk
 * @near_excess: decaying mean time of requests that continue where the
 *	previous one ended, beyond their transfer time, ns
 * @far_excess: the same for requests far from the previous one, ns
 * @near_n: near samples so far (saturates)
 * @far_n: far samples so far (saturates)
 * @near_slow: decaying share of near samples that took longer than a
 *	seek, /1024
 * @far_slow: the same for far samples: a drive whose cache serves the
 *	streams it follows makes most far requests cheap (@far_excess below
 *	a seek) while those it misses still seek
 * @best_ps: fastest transfer seen, picoseconds per byte (0: none yet)
 * @seek_known: enough samples to judge whether distance costs time
 * @seek_cost: distance costs time (far requests take longer)
 * @gain: read throughput per time with reads in the driver, of reads that
 *	shared the driver with others, over that of reads served alone,
 *	/1024.  Reads only: a drive's write cache completes writes at once
 *	whatever it does with reads, and would make a spindle look parallel.
 * @gain_known: @gain rests on enough busy time at both depths
 * @parallel: the disk serves requests in parallel (@gain, with hysteresis)
 * @v: the verdict of each contention level
 */
struct cs_model_learned {
	u64 near_excess;
	u64 far_excess;
	u32 near_n;
	u32 far_n;
	u32 near_slow;
	u32 far_slow;
	u64 best_ps;
	bool seek_known;
	bool seek_cost;
	u32 gain;
	bool gain_known;
	bool parallel;
	struct cs_model_verdict v[CS_MODEL_LEVELS];
};

/**
 * struct cs_model_memory - a learned state to start from
 * @valid: @l holds a learned state
 * @l: the state
 */
struct cs_model_memory {
	bool valid;
	struct cs_model_learned l;
};

/**
 * struct cs_model - device model of one disk, under the core's lock
 * @l: what was learned
 * @force: the device_mode tunable in effect
 * @rotational: the disk says it is rotational (the prior)
 * @one_tag: the disk takes one command at a time: never parallel
 * @last_end: sector after the last dispatched request
 * @solo_t0: dispatch time of the burst that started on an idle disk
 * @solo_bytes: its size so far
 * @solo_far: it starts far from where the previous request ended
 * @solo_active: it is still alone (nothing unrelated was dispatched)
 * @solo_read: it is all reads
 * @depth: requests in the driver, as the model counted them
 * @depth_rd: reads among them
 * @depth_t: when @depth last changed, ns
 * @busy_ns: in this gain epoch, time with reads in the driver, ns
 * @busy_bytes: bytes of reads completed in this gain epoch
 * @solo_ns: service time of the reads served alone in it, ns
 * @solo_sum: their bytes
 * @epoch_end: end of this gain epoch, ns
 * @ab: A/B state
 * @ab_pairs: pairs measured in this run
 * @ab_win: window index within the run (0, 1 of each pair)
 * @ab_base: the mode before this run
 * @ab_strong: distance was seen to cost nothing (at the last pair)
 * @ab_one: the disk looks like a spindle: distance costs time and the gain
 *	figure says it serves one read at a time
 * @ab_mode: mode of the current window
 * @ab_start: start of the current window's measured part, ns
 * @ab_end: end of the current window, ns
 * @ab_bytes: bytes completed in the measured part
 * @ab_cont_ns: contended time in the measured part
 * @ab_tput: throughput of this pair's windows, [SERIAL] and [PARALLEL],
 *	bytes per ms
 * @ab_ratios: ratios of this run's pairs, /1024
 * @level: the contention level now (its verdict applies)
 * @present_avg: smoothed count of present sync queues, /1024
 * @level_away: when the count left @level for the next level during a run,
 *	ns (0: it did not)
 * @ab_level: per mode, the level of the count at the end of this run's
 *	last window in that mode (cs_model_window_level())
 * @present_sum: present queues integrated over @present_span, queue-ns
 * @present_span: time integrated since the last fold, ns
 * @present_last: present queues at the last count
 * @present_t: time of the last count, ns
 * @cont: per level, contended time seen so far, ns
 * @hold_until: per level, @cont at which to measure again
 * @measured_at: per level, when its last measurement ended, ns (0: not in
 *	this instance: learnt before, or never)
 * @newcomer: a new sync queue appeared since the last tick
 * @newcomer_pooled: one of them was a pool's thread (cs_model_newcomer())
 * @defer: no measurement now: boosted queues lead (cs_model_defer())
 * @last_tick: time of the last cs_model_tick(), ns
 * @contended: the caller said at the last tick that queues compete
 * @shown: the mode at the last tick
 * @dirty: something the mode depends on changed since the last tick
 * @changed_at: when the mode last changed, ns
 * @changes: mode changes so far
 */
struct cs_model {
	struct cs_model_learned l;
	enum cs_mode_force force;
	bool rotational;
	bool one_tag;
	u64 last_end;
	u64 solo_t0;
	u32 solo_bytes;
	bool solo_far;
	bool solo_active;
	bool solo_read;
	unsigned int depth;
	unsigned int depth_rd;
	u64 depth_t;
	u64 busy_ns;
	u64 busy_bytes;
	u64 solo_ns;
	u64 solo_sum;
	u64 epoch_end;
	enum cs_ab_state ab;
	unsigned int ab_pairs;
	unsigned int ab_win;
	enum cs_mode ab_base;
	bool ab_strong;
	bool ab_one;
	enum cs_mode ab_mode;
	u64 ab_start;
	u64 ab_end;
	u64 ab_bytes;
	u64 ab_cont_ns;
	u64 ab_tput[2];
	u32 ab_ratios[CS_AB_MAX_PAIRS];
	unsigned int level;
	unsigned int present_avg;
	u64 level_away;
	unsigned int ab_level[2];
	u64 present_sum;
	u64 present_span;
	unsigned int present_last;
	u64 present_t;
	u64 cont[CS_MODEL_LEVELS];
	u64 hold_until[CS_MODEL_LEVELS];
	u64 measured_at[CS_MODEL_LEVELS];
	bool newcomer;
	bool newcomer_pooled;
	bool defer;
	u64 last_tick;
	bool contended;
	enum cs_mode shown;
	bool dirty;
	u64 changed_at;
	u32 changes;
};

void cs_model_init(struct cs_model *m, bool rotational,
		   const struct cs_model_memory *mem, u64 now);
void cs_model_force(struct cs_model *m, enum cs_mode_force force, u64 now);
void cs_model_set_tags(struct cs_model *m, unsigned int tags);
void cs_model_newcomer(struct cs_model *m, bool pooled);
void cs_model_defer(struct cs_model *m, bool defer, u64 now);
void cs_model_dispatch(struct cs_model *m, u64 pos, u32 sectors, bool write,
		       u64 now);
void cs_model_complete(struct cs_model *m, u32 bytes, unsigned int flags,
		       u64 now);
bool cs_model_tick_due(const struct cs_model *m, unsigned int present,
		       u64 now);
void cs_model_count(struct cs_model *m, unsigned int present, u64 now);
bool cs_model_tick(struct cs_model *m, unsigned int present, u64 now);
enum cs_mode cs_model_mode(const struct cs_model *m);
enum cs_mode_why cs_model_why(const struct cs_model *m);
const struct cs_model_verdict *cs_model_verdict(const struct cs_model *m);
bool cs_model_measuring(const struct cs_model *m);
bool cs_model_parallel(const struct cs_model *m);
bool cs_model_side_by_side(const struct cs_model *m);
bool cs_model_seek_cost(const struct cs_model *m);
u64 cs_model_seek_ns(const struct cs_model *m);
bool cs_model_far_seeks(const struct cs_model *m);
bool cs_model_may_seek(const struct cs_model *m);
const char *cs_model_why_name(enum cs_mode_why why);

#endif /* CTXSCHED_MODEL_H */
