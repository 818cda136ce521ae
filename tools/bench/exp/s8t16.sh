# SPDX-License-Identifier: GPL-2.0
# Experiment: S8's pool of 16 threads on hddsim sata (buffered, 256 KiB
# chunks, read_ahead_kb 128, 4 s each, page cache dropped before each) under
# ctxsched with boosts on (boost=8000), with boosts off (boost=0), with
# group_idle 0 (then back to its default, 8), and under none, in turns,
# S8_T16_REPS rounds (default 3); the device model after the boost runs,
# ctxsched's counters (cumulative) once a round.  The
# 20261204-2031 bench had ctxsched at 0.81 of none there.  S8_T16_S1=1
# runs S1's 8 readers first.  Needs
# build/bench/s8-pool:
#   gcc -O2 -pthread -o build/bench/s8-pool tools/bench/s8-pool.c
# then, from the top of the checkout:
#   tools/vm/run -k 6.12 --modules DIR -- bash tools/bench/exp/s8t16.sh
# where DIR holds ctxsched.ko and hddsim.ko for the kernel.
. tools/bench/exp/lib.sh
io=/sys/block/$d/queue/iosched
echo 128 > /sys/block/$d/queue/read_ahead_kb
run() { # LABEL T S
	local tot
	sync
	echo 3 > /proc/sys/vm/drop_caches
	tot=$(build/bench/s8-pool /dev/$d "$2" "$3" 256 4 |
		sed 's/.*"seconds": \([0-9.]*\).*"stream_bytes": \[\(.*\)\].*/\1 \2/' |
		awk '{ s = 0; for (i = 2; i <= NF; i++) { gsub(",", "", $i); s += $i }
			printf "%.1f", s / $1 / 1e6 }')
	echo "S8 T=$2 S=$3 $1: $tot MB/s"
}
# S8_T16_S1=1: first 8 sequential readers under ctxsched for 12 s, as S1
# runs them earlier in the bench's boot, so that the model has a verdict
# for many competitors before the pools come.
if [ -n "${S8_T16_S1:-}" ]; then
	eight_readers
	dump "after 8 readers"
fi
for r in $(seq "${S8_T16_REPS:-3}"); do
	for s in 1 2; do
		cs_sched_set /dev/$d ctxsched
		echo 8000 > $io/boost
		run "ctxsched boost=8000 r$r" 16 $s
		dump "boost=8000 T=16 S=$s r$r"
		echo 0 > $io/boost
		run "ctxsched boost=0 r$r" 16 $s
		dump "boost=0 T=16 S=$s r$r"
		echo 8000 > $io/boost
		echo 0 > $io/group_idle
		run "ctxsched group_idle=0 r$r" 16 $s
		echo 8 > $io/group_idle
		grep -E 'coop|split|boost|idle' "$CS_DEBUGFS/$d/stats" | tr '\n' ' '
		echo
		cs_sched_set /dev/$d none
		run "none r$r" 16 $s
	done
done
