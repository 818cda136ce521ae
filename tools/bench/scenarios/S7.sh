# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# S7: sync reads under an async write flood on the sata disk: buffered
# writes over the first 512 MiB while 4 KiB O_DIRECT random reads at
# S7_RATE per second hit an area half a disk away.  Measure: read latency
# p50/p99/max (every read's completion latency is logged).  ctxsched's
# bound is fifo_expire_sync plus one sync slice at the reader's level.
. tools/bench/lib.sh
bench_hddsim || exit 1
dev=hddsim0
size=$(blockdev --getsize64 "/dev/$dev")
mkdir -p "$BENCH_RAW/S7"
# shellcheck disable=SC2034 # (filled by bench_snap through a nameref)
declare -A sa sb
bench_dirty_limits on 2
for rep in $(seq 0 $((BENCH_REPS - 1))); do
	for sched in $(bench_order "$rep"); do
		bench_set_sched "$dev" "$sched" || continue
		extra=()
		if [ "$sched" = ctxsched ]; then
			# The reader runs at best-effort level 4: slice = slice_sync.
			d=/sys/block/$dev/queue/iosched
			extra=(bound_ms=$(($(cat $d/fifo_expire_sync) + $(cat $d/slice_sync))))
		fi
		bench_drop_caches
		out=S7/$sched-r$rep.json
		bench_snap sa "$dev"
		bench_fio "$out" read-under-flood.fio DEV="/dev/$dev" \
			SECS="$S7_SECS" READ_SECS=$((S7_SECS - 4)) RATE="$S7_RATE" \
			READ_OFFSET="$((size / 2 >> 20))m" \
			LATLOG="$BENCH_RAW/S7/$sched-r$rep" || continue
		bench_snap sb "$dev"
		bench_delta sa sb
		bench_record sched="$sched" rep="$rep" fio="$out" \
			latlog="S7/$sched-r${rep}_clat.2.log" "${extra[@]}" \
			"${BENCH_D[@]}"
		rm -f "$BENCH_RAW/S7/$sched-r${rep}"_{lat,slat}.2.log
		[ -s "$BENCH_RAW/S7/$sched-r${rep}_clat.2.log" ] ||
			bench_error "no latency log for $sched rep $rep"
		t0=$SECONDS
		bench_drop_caches
		bench_log "S7 $sched rep $rep: $(awk -F, '{ v = $2 / 1e6; if (v > m) m = v; n++ } END { printf "%d reads, max %.1f ms", n, m }' \
			"$BENCH_RAW/S7/$sched-r${rep}_clat.2.log" 2>/dev/null);" \
			"sync after the flood $((SECONDS - t0))s"
		bench_settle "$dev"
	done
done
bench_dirty_limits off
exit "${BENCH_FAILED:-0}"
