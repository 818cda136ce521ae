# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# S2 and S2b (seed 000) on the sata disk: one sequential stream read in
# 64 KiB pieces by S2_THREADS threads in turn, each with its own I/O
# context (build/bench/s2-turns), against the same stream read by one
# thread alone; then (S2b) the threads again while a sequential reader
# loops over an area half a disk away.  Measure: the stream's MB/s, and in
# S2b what the disk read besides the stream (the competitor's share).
. tools/bench/lib.sh
bench_hddsim || exit 1
dev=hddsim0
size=$(blockdev --getsize64 "/dev/$dev")
comp_off=$((size / 2 >> 20))
[ -x "$BENCH_S2" ] || { bench_error "no $BENCH_S2 (built by tools/bench/run)"; exit 1; }
mkdir -p "$BENCH_RAW/S2"
# shellcheck disable=SC2034 # (filled by bench_snap through a nameref)
declare -A sa sb

# ctxsched's counters (sched/debugfs.c), kept beside each of its runs to
# see how the stream's slices end; with BENCH_S2_TRACE=1 also its blk
# tracer messages, dispatches and completions.
csdbg=/sys/kernel/debug/ctxsched/$dev
tr=/sys/kernel/tracing
cs_diag() { # before|after OUT
	[ "$sched" = ctxsched ] && [ -r "$csdbg/stats" ] || return 0
	echo "$(< "$csdbg/stats")" > "$BENCH_RAW/$2.stats-$1"
	[ "${BENCH_S2_TRACE:-0}" = 1 ] && [ -d "$tr" ] || return 0
	if [ "$1" = before ]; then
		echo 16384 > "$tr/buffer_size_kb"
		echo 1 > "/sys/block/$dev/trace/enable"
		echo blk > "$tr/current_tracer"
		echo > "$tr/trace"
	else
		# (before the tracer changes: that empties the buffer)
		grep -E ' m +N cs| [DC] +R' "$tr/trace" > "$BENCH_RAW/$2.trace"
		echo nop > "$tr/current_tracer"
		echo 0 > "/sys/block/$dev/trace/enable"
	fi
}

# BENCH_S2_HOG=N (diagnosis only): N niced busy loops in the guest during
# S2b, which slow the hand-over between the threads as a busy host does.
hogs=()
hog_start() {
	local i
	for ((i = 0; i < ${BENCH_S2_HOG:-0}; i++)); do
		nice -n 19 bash -c 'while :; do :; done' &
		hogs+=($!)
	done
}
hog_stop() {
	[ ${#hogs[@]} = 0 ] && return 0
	kill "${hogs[@]}"
	wait "${hogs[@]}" 2>/dev/null
	hogs=()
}

# turns KIND THREADS: run s2-turns once on a fresh gigabyte, record it.
turns() {
	local kind=$1 threads=$2 out mbs
	out=S2/$sched-$kind-r$rep.json
	next_off
	cs_diag before "$out"
	bench_snap sa "$dev"
	if ! "$BENCH_S2" "/dev/$dev" "$off" 1024 "$threads" 64 "$S2_SECS" \
		> "$BENCH_RAW/$out" 2> "$BENCH_RAW/$out.log"; then
		bench_error "s2-turns $kind: $(cat "$BENCH_RAW/$out.log")"
		return 1
	fi
	bench_snap sb "$dev"
	cs_diag after "$out"
	bench_delta sa sb
	rm -f "$BENCH_RAW/$out.log"
	read -r mbs < "$BENCH_RAW/$out"
	[[ $mbs =~ \"mbs\":\ ([0-9.]+) ]] && mbs=${BASH_REMATCH[1]}
	bench_record sched="$sched" rep="$rep" kind="$kind" threads="$threads" \
		result="$out" stream_mbs="$mbs" "${extra[@]}" "${BENCH_D[@]}"
	bench_log "S2 $sched rep $rep $kind: stream $mbs MB/s"
}

# Each run reads a fresh gigabyte of the outermost zone (its first 30 GB),
# so that nothing is left in the drive's cache from the run before.
k=0
next_off() { k=$(((k + 1) % 24)); off=$((k * 1024)); }

for rep in $(seq 0 $((BENCH_REPS - 1))); do
	for sched in $(bench_order "$rep"); do
		bench_set_sched "$dev" "$sched" || continue
		extra=()
		turns solo 1
		turns turns "$S2_THREADS"
		bench_settle "$dev"

		# S2b: start the competitor, wait until it reads, run the
		# stream, stop the competitor.
		cout=S2/$sched-competitor-r$rep.json
		bench_fio_start "$cout" competitor.fio DEV="/dev/$dev" \
			OFFSET="${comp_off}m" SIZE=1g SECS=3600
		if bench_wait_io "$dev"; then
			sleep 0.5
			extra=(competitor_fio="$cout")
			hog_start
			turns turns+competitor "$S2_THREADS"
			hog_stop
			kill -0 "$BENCH_FIO_PID" 2>/dev/null ||
				bench_error "the S2b competitor ended before the stream did"
		fi
		bench_fio_stop
		bench_settle "$dev"
	done
done
exit "${BENCH_FAILED:-0}"
