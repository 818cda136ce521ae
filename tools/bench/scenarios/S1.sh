# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# S1 (seed 004): N = 1, 2, 4, 8 parallel sequential readers on distinct
# areas of the raw device (reader i of N at i/N of the disk), for the sata,
# array12 and ssd profiles.  Measure: aggregate MB/s per N.
#
# One fio run per profile and N; the schedulers take turns under it
# (bench_windows), each measured over S1_WIN s from the disk's counters,
# with the bytes of each reader; on the virtio disk S1_ROUNDS rounds of
# S1_TURN s turns (bench_rounds, see lib.sh).
. tools/bench/lib.sh
bench_rt_shell
bench_hddsim || exit 1
for rep in $(seq 0 $((BENCH_REPS - 1))); do
	first=$(bench_order "$rep" | head -1)
	for prof in $S1_PROFILES; do
		dev=$(bench_hddsim_dev "$prof")
		size=$(blockdev --getsize64 "/dev/$dev")
		for n in $S1_NS; do
			bench_set_sched "$dev" "$first" || continue
			out=S1/$prof-n$n-r$rep.json
			bench_fio_start "$out" seqread.fio DEV="/dev/$dev" \
				BS="$S1_BS" N="$n" SECS=3600 \
				INC="$((size / n >> 20))m"
			bench_fio_jobs "$n"
			if [[ " $S1_ROUNDED " == *" $prof "* ]]; then
				bench_wait_io "$dev" &&
					bench_rounds "$dev" "$rep" "$S1_ROUNDS" \
						"$S1_TURN" "$S1_TURN_RAMP" \
						profile="$prof" n="$n" fio="$out"
			elif bench_wait_io "$dev"; then
				BENCH_WIN=$S1_WIN bench_windows "$dev" "$rep" \
					profile="$prof" n="$n" fio="$out"
			fi
			bench_fio_stop
			bench_settle "$dev"
		done
	done
done
exit "${BENCH_FAILED:-0}"
