#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Experiment (issue 14): S8's buffered pools with all streams read through
# one open file (the bench's way until now: one readahead state for all
# streams) against one open file per stream (--fd-per-stream), T=8, 4 s
# runs, page cache dropped before each, none / ctxsched / mq-deadline in
# turns, S8FDS_REPS rounds (default 3), on array12 and sata.  Needs
# build/bench/s8-pool (gcc -O2 -pthread -o build/bench/s8-pool
# tools/bench/s8-pool.c); run with tools/vm/run --modules DIR (ctxsched.ko
# and hddsim.ko) -- bash tools/bench/exp/s8-fds.sh.
. tools/bench/exp/lib.sh
run() { # DEV LABEL T S [s8-pool options]
	local dev=$1 label=$2 t=$3 s=$4 tot
	shift 4
	sync; echo 3 > /proc/sys/vm/drop_caches
	tot=$(build/bench/s8-pool "$@" /dev/$dev "$t" "$s" 256 4 |
		sed 's/.*"seconds": \([0-9.]*\).*"stream_bytes": \[\(.*\)\].*/\1 \2/' |
		awk '{ s = 0; for (i = 2; i <= NF; i++) { gsub(",", "", $i); s += $i }
			printf "%.1f", s / $1 / 1e6 }')
	echo "S8FDS $dev T=$t S=$s $label: $tot MB/s"
}
for dev in hddsim1 hddsim0; do
	echo 128 > /sys/block/$dev/queue/read_ahead_kb
done
for r in $(seq "${S8FDS_REPS:-3}"); do
	for dev in hddsim1 hddsim0; do
		for s in 2 4; do
			for sc in none ctxsched mq-deadline; do
				cs_sched_set /dev/$dev "$sc"
				run $dev "$sc shared r$r" 8 $s
				run $dev "$sc per-stream r$r" 8 $s --fd-per-stream
			done
		done
	done
done
