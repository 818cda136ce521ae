# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# S10 (issue 12): the demo's mix, a 64 KiB O_DIRECT sequential reader, a
# 4 KiB O_DIRECT random reader and a 64 KiB buffered writer, on the VM's
# virtio-blk disk (a host file: parallel, but it says rotational) and on
# hddsim's sata disk.  Measure: each job's MB/s or IOPS per scheduler.
#
# On sata one fio run per scheduler.  On the virtio disk, whose rate moves
# with the host within seconds, one fio run per repetition with S10_ROUNDS
# rounds of S10_TURN s turns under it (bench_rounds); the jobs' bytes come
# from /proc/PID/io (the readers) and the disk's counters (the writer).
. tools/bench/lib.sh
bench_hddsim || exit 1
for rep in $(seq 0 $((BENCH_REPS - 1))); do
	for prof in $S10_DEVS; do
		dev=$(bench_hddsim_dev "$prof") || { bench_error "no device $prof"; continue; }
		size=$(blockdev --getsize64 "/dev/$dev")
		part=$((size / 4 >> 20))
		[ "$part" -gt 256 ] && part=256
		if [[ " $S10_ROUNDED " == *" $prof "* ]]; then
			bench_set_sched "$dev" "$(bench_order "$rep" | head -1)" ||
				continue
			out=S10/$prof-r$rep.json
			bench_fio_start "$out" mix.fio DEV="/dev/$dev" SECS=3600 \
				PART="${part}m" PART2="$((2 * part))m"
			bench_fio_jobs 3
			bench_wait_io "$dev" &&
				bench_rounds "$dev" "$rep" "$S10_ROUNDS" \
					"$S10_TURN" "$S10_TURN_RAMP" dev="$prof" fio="$out"
			bench_fio_stop
			bench_settle "$dev"
			continue
		fi
		for sched in $(bench_order "$rep"); do
			bench_set_sched "$dev" "$sched" || continue
			out=S10/$prof-$sched-r$rep.json
			bench_fio "$out" mix.fio DEV="/dev/$dev" SECS="$S10_SECS" \
				PART="${part}m" PART2="$((2 * part))m" || continue
			[ "$sched" = ctxsched ] &&
				bench_model "$dev" "S10/$prof-ctxsched-r$rep.model"
			bench_record sched="$sched" rep="$rep" dev="$prof" fio="$out"
			bench_log "S10 $prof $sched rep $rep: total" \
				"$(bench_fio_mbs "$BENCH_RAW/$out") MB/s read"
			bench_settle "$dev"
		done
	done
done
exit "${BENCH_FAILED:-0}"
