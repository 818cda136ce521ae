#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Experiment: is the first buffered run in a boot slow because the guest's
# memory is touched for the first time (QEMU maps and zeroes host memory
# on a guest page's first use)?  FT_PREFAULT=1 first runs bench_prefault
# (tools/bench/lib.sh: fills tmpfs with most of the free memory and frees
# it again).  Then S8's first case (sata, 4
# threads, one stream, buffered, read_ahead_kb 128, 4 s) FT_RUNS times
# (default 4) under FT_SCHED (default none), page cache dropped before
# each, then once on array12.  Needs build/bench/s8-pool (see s8-fds.sh).
. tools/bench/exp/lib.sh
s8() { # DEV T S
	sync; echo 3 > /proc/sys/vm/drop_caches
	build/bench/s8-pool --fd-per-stream /dev/$1 "$2" "$3" 256 4 |
		sed 's/.*"seconds": \([0-9.]*\).*"stream_bytes": \[\(.*\)\].*/\1 \2/' |
		awk '{ s = 0; for (i = 2; i <= NF; i++) { gsub(",", "", $i); s += $i }
			printf "%.1f", s / $1 / 1e6 }'
}
for dev in hddsim0 hddsim1; do
	echo 128 > /sys/block/$dev/queue/read_ahead_kb
	cs_sched_set /dev/$dev "${FT_SCHED:-none}"
done
if [ "${FT_PREFAULT:-0}" = 1 ]; then
	. tools/bench/lib.sh
	t0=$EPOCHREALTIME
	bench_prefault
	echo "## prefaulted in $(python3 -c "print(f'{$EPOCHREALTIME - $t0:.1f}')") s"
fi
for r in $(seq "${FT_RUNS:-4}"); do
	echo "## sata T=4 S=1 run $r: $(s8 hddsim0 4 1) MB/s"
done
echo "## array12 T=8 S=1 run 1: $(s8 hddsim1 8 1) MB/s"
echo "## array12 T=8 S=1 run 2: $(s8 hddsim1 8 1) MB/s"
