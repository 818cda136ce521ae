# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# S6 (seeds 000, 001): buffered sequential reads through the page cache on
# the sata disk, S6_STREAMS readers half a disk apart, with the block
# device's read-ahead fixed at each of S6_RAS KiB (queue/read_ahead_kb).
# Measure: MB/s the disk delivered.
#
# A file takes the read-ahead size when it is opened, so there is one fio
# run per size (page cache dropped first); the schedulers take turns under
# it (bench_windows), each measured over S6_WIN s.
. tools/bench/lib.sh
bench_rt_shell
bench_hddsim || exit 1
dev=hddsim0
size=$(blockdev --getsize64 "/dev/$dev")
ra_file=/sys/block/$dev/queue/read_ahead_kb
ra_default=$(cat "$ra_file")

# run VARIANT RA_KB [SCHEDULERS]: one fio run and its windows; VARIANT is
# "fixed" or "auto".
run() {
	local variant=$1 ra=$2 out
	out=S6/$variant-ra$ra-r$rep.json
	echo "$ra" > "$ra_file" || { bench_error "cannot set read_ahead_kb $ra"; return 1; }
	bench_set_sched "$dev" "$first" || return 1
	bench_drop_caches
	bench_fio_start "$out" buffered-read.fio DEV="/dev/$dev" \
		STREAMS="$S6_STREAMS" INC="$((size / S6_STREAMS >> 20))m" SECS=3600
	bench_fio_jobs "$S6_STREAMS"
	if bench_wait_io "$dev"; then
		BENCH_WIN=$S6_WIN bench_windows "$dev" "$rep" variant="$variant" \
			ra_kb="$ra" streams="$S6_STREAMS" fio="$out"
	fi
	bench_fio_stop
	bench_settle "$dev"
}

# ---- AUTOTUNE ------------------------------------------------------------
# ctxsched's iosched knob ra_autotune (0/1, ra/tune.c): ctxsched alone runs
# one more variant, "auto": read_ahead_kb back at its default,
# ra_autotune=1; the report compares it with the best fixed size (target:
# >= 0.95).  A ctxsched without the knob gets the variant recorded as
# skipped.
autotune_run() {
	local knob=/sys/block/$dev/queue/iosched/ra_autotune
	bench_set_sched "$dev" ctxsched || return 1
	if [ ! -e "$knob" ]; then
		bench_record kind=window sched=ctxsched rep="$rep" variant=auto \
			skipped="ctxsched has no ra_autotune knob yet"
		return 0
	fi
	echo 1 > "$knob" || { bench_error "cannot set ra_autotune=1"; return 1; }
	BENCH_SCHEDS=ctxsched first=ctxsched run auto "$ra_default"
	bench_log "S6 rep $rep auto: read_ahead_kb $(cat "$ra_file") KiB at the end"
	bench_set_sched "$dev" ctxsched && echo 0 > "$knob"
}
# -------------------------------------------------------------------------

for rep in $(seq 0 $((BENCH_REPS - 1))); do
	first=$(bench_order "$rep" | head -1)
	for ra in $S6_RAS; do
		run fixed "$ra"
	done
	autotune_run
done
echo "$ra_default" > "$ra_file"
exit "${BENCH_FAILED:-0}"
