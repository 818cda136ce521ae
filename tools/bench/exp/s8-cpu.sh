# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Experiment (issue 14): S8's pool on hddsim sata (buffered, 256 KiB
# chunks, read_ahead_kb 128, 4 s runs, page cache dropped before each),
# none, mq-deadline and ctxsched in turns, S8C_ROUNDS (3) rounds, at
# S8C_T threads (16) on S8C_S streams (2), or in each round at every
# THREADS:STREAMS of S8C_CASES (as "4:2 16:2"); ctxsched with device_mode
# S8C_MODE (serial, what S1 teaches the sata model in the full runs; empty:
# not written).  Per run: MB/s, the guest's CPU (busy share of both vCPUs
# from /proc/stat) and, for ctxsched, its counters' change.  tools/sim
# (-B 128 s8 16 2) puts ctxsched-serial at 1.02 x none where the VM's
# full runs give 0.84: this asks whether the guest's CPU is what differs.
# S8C_PERF=1: perf record -a of one none and one ctxsched run, top symbols.
# S8C_S1=1: first S1's 8 sequential O_DIRECT readers under ctxsched for
# 12 s, as the full runs have them before S8 (the sata model learns its
# mode at that level there); with S8C_MODE=auto then, the model as it
# stands after each ctxsched run.
# Needs build/bench/s8-pool; run with
#   tools/vm/run -k 6.12 --mem 3072 --modules DIR -- bash tools/bench/exp/s8-cpu.sh
. tools/bench/exp/lib.sh
. tools/bench/lib.sh
bench_prefault
echo 128 > /sys/block/$d/queue/read_ahead_kb
st=$CS_DEBUGFS/$d/stats
names="slices idle_armed idle_hit idle_expired stream_moved coop_merged
coop_split dispatch_empty kicks preempted"
snap() {
	local n
	for n in $names; do awk -v n="$n" '$1 == n { print $2 }' "$st"; done
}
cpu() { # busy and total jiffies of all CPUs
	awk '$1 == "cpu" { t = 0; for (i = 2; i <= NF; i++) t += $i;
		print t - $5 - $6, t }' /proc/stat
}
run() { # SCHED ROUND THREADS STREAMS
	local b e c0 c1 tot i out perf=
	cs_sched_set /dev/$d "$1"
	if [ "$1" = ctxsched ] && [ -n "${S8C_MODE-serial}" ]; then
		echo "${S8C_MODE-serial}" > /sys/block/$d/queue/iosched/device_mode ||
			cs_fail "device_mode ${S8C_MODE-serial}"
	fi
	sync
	echo 3 > /proc/sys/vm/drop_caches
	[ "$1" = ctxsched ] && mapfile -t b < <(snap)
	if [ "${S8C_PERF:-0}" = 1 ] && [ "$2" = 1 ] && [ "$1" != mq-deadline ]; then
		perf=/tmp/perf.$1.data
		/usr/bin/perf record -q -a -e cpu-clock -F 1000 -o "$perf" -- sleep 4 \
			2>/dev/null &
	fi
	read -r c0 t0 < <(cpu)
	tot=$(build/bench/s8-pool --fd-per-stream /dev/$d "$3" "$4" 256 4 |
		sed 's/.*"seconds": \([0-9.]*\).*"stream_bytes": \[\(.*\)\].*/\1 \2/' |
		awk '{ s = 0; for (i = 2; i <= NF; i++) { gsub(",", "", $i); s += $i }
			printf "%.1f", s / $1 / 1e6 }')
	read -r c1 t1 < <(cpu)
	[ -n "$perf" ] && wait
	echo "S8C T=$3 S=$4 $1 r$2: $tot MB/s, guest CPU busy $(((c1 - c0) * 100 / (t1 - t0)))%"
	if [ "$1" = ctxsched ]; then
		mapfile -t e < <(snap)
		i=0 out=
		for n in $names; do out+="$n=$((e[i] - b[i])) "; i=$((i + 1)); done
		echo "  counters: $out"
		dump "after ctxsched r$2"
	fi
	if [ -n "$perf" ]; then
		/usr/bin/perf report -i "$perf" -n --no-children --sort comm,sym --stdio \
			2>/dev/null | grep -v "^#" | grep -v "^$" | head -25
	fi
}
echo 0 > /proc/sys/kernel/kptr_restrict
echo -1 > /proc/sys/kernel/perf_event_paranoid
if [ "${S8C_S1:-0}" = 1 ]; then
	eight_readers
	dump "after S1's 8 readers"
fi
for r in $(seq "${S8C_ROUNDS:-3}"); do
	for c in ${S8C_CASES:-${S8C_T:-16}:${S8C_S:-2}}; do
		for s in none mq-deadline ctxsched; do
			run "$s" "$r" "${c%:*}" "${c#*:}"
		done
	done
done
