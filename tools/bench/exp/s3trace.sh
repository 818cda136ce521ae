#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Experiment (not a test): S3's read side under its writer on hddsim sata,
# block-traced, once per scheduler in S3TRACE_SCHEDS (default "bfq
# ctxsched"), S3TRACE_REPS times in turn (default 2), each after one
# unrecorded run of the same scheduler.  The whole trace of each recorded
# run goes to the results directory as full-SCHED-N.txt, for
# tools/bench/exp/s3-waits.py: how the disk's time went to reads and
# writes, and what the writes in the driver cost the reads.  Run as
#   tools/vm/run -k 6.12 --mem 3072 --modules DIR --out DIR -- bash tools/bench/exp/s3trace.sh
cd "$(dirname "$0")/../../.." || exit 2
. tools/bench/exp/lib.sh
. tools/bench/lib.sh
s3_disk s3trace
tr=/sys/kernel/tracing
# run SCHED [NAME]: one read side under the writer; traced to NAME.
run() {
	local w t0 p
	bench_set_sched "$d" none
	bench_set_sched "$d" "$1" || cs_fail "select $1"
	bench_drop_caches
	bench_overwrite "$big" 512
	w=$BENCH_WPID
	sleep 3
	if [ -n "$2" ]; then
		echo 131072 > $tr/buffer_size_kb
		echo > $tr/trace
		echo 1 > /sys/block/$d/trace/enable
		echo blk > $tr/current_tracer
	fi
	t0=$EPOCHREALTIME
	find "$tree" -type f -print0 | xargs -0 cat > /dev/null &
	p=$!
	wait $p
	echo "## $1 ${2:-warm-up} read side $(python3 -c "print(f'{$EPOCHREALTIME - $t0:.2f}')") s"
	if [ -n "$2" ]; then
		# Before the tracer goes: changing it empties the buffer.
		[ -d /results ] && cp $tr/trace "/results/full-$2.txt"
		echo nop > $tr/current_tracer
		echo 0 > /sys/block/$d/trace/enable
	fi
	kill "$w"
	wait "$w"
	sync
	bench_settle "$d"
}
for s in ${S3TRACE_SCHEDS:-bfq ctxsched}; do
	run "$s"
done
for r in $(seq "${S3TRACE_REPS:-2}"); do
	for s in ${S3TRACE_SCHEDS:-bfq ctxsched}; do
		run "$s" "$s-$r"
	done
done
bench_dirty_limits off
umount "$mnt"
