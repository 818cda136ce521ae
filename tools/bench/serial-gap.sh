#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# serial-gap.sh OLD_KO: inside a VM, split what ctxsched lost on issue 11's
# serialising null_blk (one request at a time, 1 ms each, rotational, no
# seek cost) into the lost queue run and the idling.  Eight sequential
# O_DIRECT readers far apart (64 KiB, one in flight each), then four with
# eight in flight each (libaio), under: none; the module OLD_KO (before
# the fixes); the current module with device_mode=serial (the queue runs,
# the idling stays); the current module as it decides (auto).  Prints MB/s
# of each, best of two 8 s runs.
#
#   tools/vm/run -k 6.12 --modules build/<rel>/ko -- \
#       tools/bench/serial-gap.sh /path/to/old/ctxsched.ko
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
old=${1:?old ctxsched.ko}
cs_serial_disk sg
run() { # label fio-args...
	local label=$1 best=0 v i
	shift
	for i in 1 2; do
		fio --name=r --filename=/dev/sg --rw=read --bs=64k --direct=1 \
			--invalidate=0 --size=96m --offset_increment=128m \
			--runtime=8 --time_based --group_reporting \
			--output-format=json "$@" > /tmp/sg.json || return 1
		v=$(cs_fio_get /tmp/sg.json r "round(j['read']['bw'] / 1024, 1)")
		best=$(python3 -c "print(max($best, $v))")
	done
	echo "$label $best"
}
both() { # label
	run "$1 qd1x8" --ioengine=psync --numjobs=8
	run "$1 qd8x4" --ioengine=libaio --iodepth=8 --numjobs=4
}
echo none > /sys/block/sg/queue/scheduler
both none
insmod "$old" || cs_fail "insmod $old"
echo ctxsched > /sys/block/sg/queue/scheduler
both old
grep -E '^(slices|idle_armed|idle_expired) ' /sys/kernel/debug/ctxsched/sg/stats | tr '\n' ' '
echo
echo none > /sys/block/sg/queue/scheduler
rmmod ctxsched
modprobe ctxsched || cs_fail "modprobe ctxsched"
echo ctxsched > /sys/block/sg/queue/scheduler
echo serial > /sys/block/sg/queue/iosched/device_mode
both serial
grep -E '^(slices|idle_armed|idle_expired|kicks) ' /sys/kernel/debug/ctxsched/sg/stats | tr '\n' ' '
echo
echo auto > /sys/block/sg/queue/iosched/device_mode
both auto
grep -E '^(mode|why) ' /sys/kernel/debug/ctxsched/sg/model | tr '\n' ' '
echo
echo none > /sys/block/sg/queue/scheduler
