#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# virtio-turns.sh [N] [SECS]: inside a VM with a virtio disk /dev/vda, N
# sequential O_DIRECT readers (384 KiB, one request in flight each, far
# apart) for SECS seconds, under ctxsched and none in turns (ctxsched
# first, learning), in one boot; prints MB/s per run and ctxsched's mode.
# S1 on the virtio disk runs 3 s windows; this shows the steady state:
#
#   truncate -s 2G out/vda.img
#   tools/build-kernels 6.12
#   tools/vm/run -k 6.12 --modules build/6.12.117+deb12-amd64/ko \
#       --disk out/vda.img -- tools/bench/virtio-turns.sh 8 12
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
n=${1:-8} secs=${2:-12}
[ -b /dev/vda ] || cs_fail "no virtio disk /dev/vda (tools/vm/run --disk)"
modprobe ctxsched || cs_fail "modprobe ctxsched"
size=$(blockdev --getsize64 /dev/vda)
run() {
	echo "$1" > /sys/block/vda/queue/scheduler || cs_fail "scheduler $1"
	fio --name=r --filename=/dev/vda --rw=read --bs=384k --direct=1 \
		--ioengine=psync --numjobs="$n" --size=$((size / n / 2)) \
		--offset_increment=$((size / n)) --runtime="$secs" --time_based \
		--group_reporting --output-format=terse --terse-version=3 |
		awk -F';' '{printf "%.1f MB/s\n", $7 / 1024}'
}
for s in ctxsched ctxsched none ctxsched none ctxsched; do
	echo "$s: $(run "$s")"
	if [ "$s" = ctxsched ]; then
		awk '$1 == "mode" || $1 == "why" || $1 == "level" || $1 == "changes" {
			printf "%s %s ", $1, $2 } END { print "" }' \
			/sys/kernel/debug/ctxsched/vda/model
	fi
done
