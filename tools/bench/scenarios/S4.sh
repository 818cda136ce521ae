# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# S4: I/O priorities on the sata disk (and the ssd: issue 13, priorities
# where the disk serves in parallel).  Two sequential O_DIRECT readers
# half a disk apart, started together: best-effort level 0 against level
# 7, best-effort against the idle class, real-time against best-effort.
# Measure: MB/s of each and the ratio of the first to the second.
. tools/bench/lib.sh
bench_hddsim || exit 1
# name:hi-class:hi-level:lo-class:lo-level
all="be0-be7:2:0:2:7 be-idle:2:4:3:0 rt-be:1:4:2:4"
pairs=
for p in $all; do
	[[ " $S4_PAIRS " == *" ${p%%:*} "* ]] && pairs+=" $p"
done
for rep in $(seq 0 $((BENCH_REPS - 1))); do
for prof in $S4_DEVS; do
	dev=$(bench_hddsim_dev "$prof")
	size=$(blockdev --getsize64 "/dev/$dev")
	for sched in $(bench_order "$rep"); do
		bench_set_sched "$dev" "$sched" || continue
		for p in $pairs; do
			IFS=: read -r name hc hl lc ll <<< "$p"
			out=S4/$prof-$sched-$name-r$rep.json
			bench_fio "$out" prio-pair.fio DEV="/dev/$dev" \
				HI_CLASS="$hc" HI_LEVEL="$hl" LO_CLASS="$lc" \
				LO_LEVEL="$ll" LO_OFFSET="$((size / 2 >> 20))m" \
				SECS="$S4_SECS" || continue
			bench_record sched="$sched" rep="$rep" pair="$name" \
				dev="$prof" fio="$out"
			bench_log "S4 $prof $sched rep $rep $name: total" \
				"$(bench_fio_mbs "$BENCH_RAW/$out") MB/s"
			bench_settle "$dev"
		done
	done
done
done
exit "${BENCH_FAILED:-0}"
