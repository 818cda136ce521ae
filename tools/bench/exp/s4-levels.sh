#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# s4-levels.sh [SECS] [ROUNDS]: inside a VM, what the levels' shares on a
# parallel disk (README, "Levels on a parallel disk") cost the readers.
# S4's pair on hddsim's ssd: BE -n0 and BE -n7 sequential O_DIRECT readers
# (128 KiB, one read in flight each) half a disk apart, and the -n0 reader
# alone, under each scheduler in turn (S4_LEVELS_SCHEDS, default ctxsched
# and none) for ROUNDS rounds of SECS s.  Prints each reader's MB/s, the
# guest's CPU busy share, and ctxsched's level_held and dispatch_empty.
#
#   tools/vm/run -k 6.12 --modules DIR -- bash tools/bench/exp/s4-levels.sh
set -u
cd "$(dirname "$0")/../../.." || exit 2
. tools/bench/exp/lib.sh
secs=${1:-4} rounds=${2:-3}
scheds=${S4_LEVELS_SCHEDS:-ctxsched none}
d=hddsim2
[ "$(cat /sys/block/$d/queue/rotational)" = 0 ] || cs_fail "$d is not the ssd"
half=$(($(blockdev --getsize64 /dev/$d) / 2 >> 20))
stat_of() { # NAME
	awk -v n="$1" '$1 == n { print $2 }' "$CS_DEBUGFS/$d/stats" 2>/dev/null
}
cpu_busy() { # prints "busy total" jiffies of all CPUs
	awk '/^cpu / { t = 0; for (i = 2; i <= NF; i++) t += $i;
		print t - $5 - $6, t }' /proc/stat
}
mbs() { # FIO_JSON JOB
	python3 -c 'import json, sys
for j in json.load(open(sys.argv[1]))["jobs"]:
    if j["jobname"] == sys.argv[2]:
        print("%.1f" % (j["read"]["bw_bytes"] / 1e6))' "$1" "$2"
}
for r in $(seq "$rounds"); do
	for s in $scheds; do
		cs_sched_set /dev/$d "$s"
		for kind in pair solo; do
			h0=$(stat_of level_held) e0=$(stat_of dispatch_empty)
			read -r b0 t0 <<< "$(cpu_busy)"
			if [ "$kind" = pair ]; then
				DEV=/dev/$d HI_CLASS=2 HI_LEVEL=0 LO_CLASS=2 \
				LO_LEVEL=7 LO_OFFSET=${half}m SECS=$secs \
				fio --output-format=json --output=/tmp/s4l.json \
				tools/bench/fio/prio-pair.fio > /dev/null 2>&1
			else
				fio --name=hi --filename=/dev/$d --rw=read \
				--bs=128k --direct=1 --ioengine=psync \
				--time_based --runtime="$secs" --prioclass=2 \
				--prio=0 --output-format=json \
				--output=/tmp/s4l.json > /dev/null 2>&1
			fi
			read -r b1 t1 <<< "$(cpu_busy)"
			h1=$(stat_of level_held) e1=$(stat_of dispatch_empty)
			lo=-
			[ "$kind" = pair ] && lo=$(mbs /tmp/s4l.json lo)
			printf '%-9s round %d %-4s: -n0 %6s MB/s, -n7 %6s MB/s; cpu busy %3d%%' \
				"$s" "$r" "$kind" "$(mbs /tmp/s4l.json hi)" "$lo" \
				"$(((b1 - b0) * 100 / (t1 - t0 + 1)))"
			[ -n "$h0" ] && printf '; level_held %d dispatch_empty %d' \
				"$((h1 - h0))" "$((e1 - e0))"
			echo
			sleep 0.5
		done
	done
done
