#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Experiment (issue 14): S8's buffered pool on array12 (T=8, S=2,
# read_ahead_kb 128, 4 s runs, page cache dropped before each), none and
# ctxsched taking turns S8S_ROUNDS (6) times.  Other cases: S8S_DEV
# (hddsim1; hddsim0 is sata), S8S_T, S8S_S, S8S_RA, S8S_MODE (ctxsched's
# device_mode; unset: not written).  After each ctxsched run:
# its counters' change over the run, queued and in-driver requests sampled
# every 0.2 s, the device model's mode and the queues.  S8S_TRACE=1 also
# block-traces each ctxsched run to /results/s8a-N.txt (its messages say
# why).  Needs build/bench/s8-pool; run with tools/vm/run --modules DIR --
# bash tools/bench/exp/s8a-stats.sh.
. tools/bench/exp/lib.sh
. tools/bench/lib.sh
bench_prefault
a=${S8S_DEV:-hddsim1}
tr=/sys/kernel/tracing
echo "${S8S_RA:-128}" > /sys/block/$a/queue/read_ahead_kb
st=$CS_DEBUGFS/$a/stats
names="inserted dispatched slices preempted idle_armed idle_hit idle_expired
coop_merged coop_split stream_moved cap_refused dispatch_empty boosted boost_preempted"
snap() {
	local n
	for n in $names; do awk -v n="$n" '$1 == n { print $2 }' "$st"; done
}
run() { # LABEL [TRACE]
	local sp tot
	sync
	echo 3 > /proc/sys/vm/drop_caches
	if [ -n "$2" ]; then
		echo 131072 > $tr/buffer_size_kb
		echo > $tr/trace
		echo 1 > /sys/block/$a/trace/enable
		echo blk > $tr/current_tracer
	fi
	(for _ in $(seq 18); do
		sleep 0.2
		awk '/^in_driver |^queued / { printf "%s=%s ", $1, $2 }' "$st" 2>/dev/null
		echo
	done > /tmp/samp) &
	sp=$!
	tot=$(build/bench/s8-pool --fd-per-stream /dev/$a "${S8S_T:-8}" "${S8S_S:-2}" 256 4 |
		sed 's/.*"seconds": \([0-9.]*\).*"stream_bytes": \[\(.*\)\].*/\1 \2/' |
		awk '{ s = 0; for (i = 2; i <= NF; i++) { gsub(",", "", $i); s += $i }
			printf "%.1f", s / $1 / 1e6 }')
	wait $sp
	if [ -n "$2" ]; then
		[ -d /results ] && cp $tr/trace "/results/s8a-$2.txt"
		echo nop > $tr/current_tracer
		echo 0 > /sys/block/$a/trace/enable
	fi
	echo "S8A $1: $tot MB/s"
}
for r in $(seq "${S8S_ROUNDS:-6}"); do
	cs_sched_set /dev/$a none
	run "none r$r"
	cs_sched_set /dev/$a ctxsched
	# Only when asked: writing auto forgets what the model learned.
	if [ -n "${S8S_MODE:-}" ]; then
		echo "$S8S_MODE" > "/sys/block/$a/queue/iosched/device_mode" ||
			cs_fail "device_mode $S8S_MODE"
	fi
	mapfile -t b < <(snap)
	run "ctxsched r$r" "$([ "${S8S_TRACE:-0}" = 1 ] && echo "$r")"
	mapfile -t e < <(snap)
	i=0 out=
	for n in $names; do out+="$n=$((e[i] - b[i])) "; i=$((i + 1)); done
	echo "  counters: $out"
	echo "  samples: $(tr '\n' '|' < /tmp/samp)"
	echo "  model: $(grep -E '^(mode|why|gain_per_1024|far_samples) ' "$CS_DEBUGFS/$a/model" | tr '\n' ' ')"
done
