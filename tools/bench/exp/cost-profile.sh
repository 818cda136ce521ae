#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cost-profile.sh [JOBS] [SECS] [SCHEDS]: inside a VM, where the guest's CPU
# goes under each scheduler in S5's load (4 KiB random reads on a null_blk
# that completes inline, 32 in flight per fio job).  One fio run; for each
# scheduler in turn, `perf record` samples all CPUs (cpu-clock: TCG has no
# PMU) for SECS s, and the report lists the kernel symbols by their share
# of the samples, with the requests completed in the window, so that a
# symbol's share can be turned into time per request.  Writes
# /results/profile-SCHED.txt when /results exists.  PROF_DEV=vda profiles
# S1's sequential readers on that disk instead.
#
#   tools/vm/run -k 6.12 --modules DIR --out OUT -- \
#       bash tools/bench/exp/cost-profile.sh 16 8
set -u
cd "$(dirname "$0")/../../.." || exit 2
. tests/lib.sh
jobs=${1:-16} secs=${2:-8} scheds=${3:-ctxsched mq-deadline none}
out=/results
[ -d "$out" ] || out=$(mktemp -d)
command -v perf > /dev/null || cs_fail "no perf on the host's root"
modprobe ctxsched || cs_fail "modprobe ctxsched"
modprobe bfq
if [ -n "${PROF_DEV:-}" ]; then
	# PROF_DEV=vda: S1's readers (JOBS of them, 384 KiB, one in flight
	# each) on an existing disk instead.
	dev=$PROF_DEV
	size=$(blockdev --getsize64 "/dev/$dev") || cs_fail "no /dev/$dev"
	fio --name=c --filename="/dev/$dev" --rw=read --bs=384k --direct=1 \
		--ioengine=psync --numjobs="$jobs" --size=$((size / jobs)) \
		--offset_increment=$((size / jobs)) --time_based \
		--runtime=3600 > /dev/null 2>&1 &
else
	dev=prof
	cs_nullb_create prof size=4096 memory_backed=0 irqmode=0 \
		submit_queues="$(nproc)"
	fio --name=c --filename=/dev/prof --rw=randread --bs=4k --direct=1 \
		--ioengine=libaio --iodepth=32 --thread --numjobs="$jobs" \
		--norandommap --randrepeat=0 --time_based --runtime=3600 \
		--group_reporting > /dev/null 2>&1 &
fi
fio_pid=$!
sleep 3
for s in $scheds; do
	echo "$s" > "/sys/block/$dev/queue/scheduler" || cs_fail "select $s"
	sleep 2
	read -r -a a < "/sys/block/$dev/stat"
	perf record -q -a -g -e cpu-clock -F 499 -o "/tmp/perf-$s.data" \
		-- sleep "$secs" > /dev/null 2>&1
	read -r -a b < "/sys/block/$dev/stat"
	{
		echo "scheduler $s, jobs $jobs, $secs s: $((b[0] - a[0])) reads"
		perf report -i "/tmp/perf-$s.data" --no-children --sort sym \
			--stdio -g none --percent-limit 0.4 2> /dev/null |
			grep -v '^#' | grep -v '^$' | head -60
	} > "$out/profile-$s.txt"
	cat "$out/profile-$s.txt"
	rm -f "/tmp/perf-$s.data"
done
kill "$fio_pid"
wait "$fio_pid" 2> /dev/null
echo none > "/sys/block/$dev/queue/scheduler"
if [ "$dev" = prof ]; then
	cs_nullb_remove prof
fi
