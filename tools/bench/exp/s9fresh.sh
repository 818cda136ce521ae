#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# s9fresh.sh: S9's cold python start-up beside its two sequential readers,
# each time on a disk ctxsched knows nothing of (device_mode written auto
# first: what a user meets after loading the module), in turns with bfq.
# The boot's first start-ups are slow for any scheduler, so one alone and
# one beside the readers under bfq go first, unrecorded, as in the bench.
# S9FRESH_ROUNDS rounds (4); S9FRESH_KEEP=1 keeps what was learnt between
# rounds instead; S9FRESH_WARM=0 leaves out the warm-up, so that ctxsched's
# first start-up is the boot's first.  Prints each start-up's seconds, and after ctxsched's
# the device model's mode, seek and gain figures and the boosts' counters.
# Run as
#   tools/vm/run -k 6.12 --mem 3072 --modules DIR --out DIR -- bash tools/bench/exp/s9fresh.sh
cd "$(dirname "$0")/../../.." || exit 2
. tools/bench/exp/lib.sh
. tools/bench/lib.sh
s9_app s9fresh
start() {
	local sched=$1 kind=$2
	cs_sched_set /dev/$d none
	cs_sched_set /dev/$d "$sched"
	[ "$sched" = ctxsched ] && [ "${S9FRESH_KEEP:-0}" != 1 ] &&
		echo auto > /sys/block/$d/queue/iosched/device_mode
	bench_drop_caches
	[ "$kind" = readers ] && s9_readers
	s9_start
	echo "## $sched $kind: $s9_secs s"
	s9_readers_stop
	if [ "$sched" = ctxsched ]; then
		echo "## model: $(grep -E '^(mode|seek_cost|far_seeks|near_samples|far_samples|near_slow_per_1024|far_slow_per_1024|gain_per_1024|changes) ' "$CS_DEBUGFS/$d/model" | tr '\n' ' ')"
		grep -E '^(boost[a-z_]*|coop_[a-z]*) ' "$CS_DEBUGFS/$d/stats" |
			tr '\n' ' '
		echo
	fi
}
if [ "${S9FRESH_WARM:-1}" = 1 ]; then
	start bfq idle
	start bfq readers
fi
for r in $(seq "${S9FRESH_ROUNDS:-4}"); do
	echo "# round $r"
	start ctxsched readers
	start bfq readers
done
umount "$BENCH_MNT"
