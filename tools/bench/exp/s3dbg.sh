#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Experiment (not a test): S3's read side under its writer on hddsim sata,
# S3DBG_REPS times (default 6), ctxsched selected anew before each run as
# the bench does (after S3DBG_OTHER, default bfq, ran the same once), with
# the device model's state every second of the read side and ctxsched's
# boost and idle counters after it: why some repetitions take twice as long
# as others.  With S3DBG_FRESH=1 ctxsched forgets what it learned of the
# disk before each run (device_mode written auto), so every run is the
# disk's first.  Run as
#   tools/vm/run -k 6.12 --mem 3072 --modules DIR -- bash tools/bench/exp/s3dbg.sh
cd "$(dirname "$0")/../../.." || exit 2
. tools/bench/exp/lib.sh
. tools/bench/lib.sh
s3_disk s3dbg
stats() {
	grep -E '^(boosted|boost_preempted|boost_lead_us|boost_held|idle_armed|idle_hit|dispatched|preempted) ' \
		"$CS_DEBUGFS/$d/stats" | tr '\n' ' '
}
run() { # SCHED
	bench_set_sched "$d" none
	bench_set_sched "$d" "$1" || cs_fail "select $1"
	[ "$1" = ctxsched ] && [ "${S3DBG_FRESH:-0}" = 1 ] &&
		echo auto > "/sys/block/$d/queue/iosched/device_mode"
	bench_drop_caches
	bench_overwrite "$big" 512
	local w=$BENCH_WPID t0 p i=0
	sleep 3
	t0=$EPOCHREALTIME
	find "$tree" -type f -print0 | xargs -0 cat > /dev/null &
	p=$!
	# The model's first lines every 0.25 s, read without a fork.
	while kill -0 $p 2>/dev/null; do
		sleep 0.25
		i=$((i + 1))
		if [ "$1" = ctxsched ]; then
			m=$(<"$CS_DEBUGFS/$d/model")
			m=${m//$'\n'/ }
			now=${EPOCHREALTIME/./}
			echo "## $(((now - ${t0/./}) / 1000)) ms ${m:0:48}"
		fi
	done
	echo "## $1 read side $(python3 -c "print(f'{$EPOCHREALTIME - $t0:.2f}')") s"
	[ "$1" = ctxsched ] && echo "## stats: $(stats)"
	kill "$w"
	wait "$w"
	sync
	bench_settle "$d"
}
for r in $(seq "${S3DBG_REPS:-6}"); do
	run "${S3DBG_OTHER:-bfq}"
	run ctxsched
done
bench_dirty_limits off
umount "$mnt"
