#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# s9trace.sh: one of S9's cold python start-ups beside its two sequential
# readers under ctxsched, with ctxsched's blktrace messages (boosts,
# slices, preemptions, idling) kept in /tmp/s9trace.txt and summarised,
# the queues in debugfs every 2 s and the device model at the end; boost
# S9TRACE_BOOST ms (8000; 0: none).  The whole block trace (dispatches
# and completions too) goes to the results directory as full-<bg>.txt, for
# tools/bench/exp/s9-waits.py.  S9TRACE_BG lists the backgrounds (default
# readers); KIND.N runs KIND again, traced to full-KIND.N.txt.  Run as
#   tools/vm/run -k 6.12 --mem 3072 --modules build/<release>/ko --out DIR -- bash tools/bench/exp/s9trace.sh
cd "$(dirname "$0")/../../.." || exit 2
. tools/bench/exp/lib.sh
. tools/bench/lib.sh
s9_app s9trace
tr=/sys/kernel/tracing
for bg in ${S9TRACE_BG:-readers}; do
	cs_sched_set /dev/$d none; cs_sched_set /dev/$d ctxsched
	echo "${S9TRACE_BOOST:-8000}" > /sys/block/$d/queue/iosched/boost
	bench_drop_caches
	[ "${bg%%.*}" = readers ] && s9_readers
	echo 131072 > $tr/buffer_size_kb
	echo > $tr/trace
	echo 1 > /sys/block/$d/trace/enable
	echo blk > $tr/current_tracer
	( while sleep 2; do echo "## queues"; cat "$CS_DEBUGFS/$d/queues"; done ) &
	qp=$!
	s9_start
	echo "## $bg: $s9_secs s"
	kill $qp; wait $qp 2>/dev/null
	grep ' m  *N cs' $tr/trace > /tmp/s9trace.txt
	[ -d /results ] && cp $tr/trace "/results/full-$bg.txt"
	echo nop > $tr/current_tracer
	echo 0 > /sys/block/$d/trace/enable
	s9_readers_stop
	grep -E '^(slices|preempted|idle_armed|idle_hit|idle_expired|boost[a-z_]*) ' \
		"$CS_DEBUGFS/$d/stats" | tr '\n' ' '; echo
	echo "## model:"
	tr '\n' ' ' < "$CS_DEBUGFS/$d/model"; echo
	echo "## boosts and modes:"
	grep -E 'boost|mode ' /tmp/s9trace.txt | head -40
	echo "## message counts:"
	sed 's/.* N //; s/cs[0-9]*\([SA][RBI]\)/cs\1/; s/[0-9]\+/N/g' /tmp/s9trace.txt |
		sort | uniq -c | sort -rn | head -30
	echo "## first 150 lines after the first boost:"
	grep -A150 -m1 'S[RBI] boost$' /tmp/s9trace.txt | sed 's/^.*  *m  *N //' | head -150
done
umount "$BENCH_MNT"
