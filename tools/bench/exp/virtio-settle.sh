#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Experiment (issue 12): how long the device model takes to settle on the
# virtio disk when several readers start at once, rather than after a
# single reader (S1 starts with one, which teaches the gain figure first).
# VS_N (4) sequential O_DIRECT readers (384 KiB, one read in flight each,
# far apart) for VS_SECS (30) s from a fresh selection of ctxsched; every
# 5 s: requests dispatched, of them sent beside the active queue, idle
# windows armed, empty dispatches, and the model's mode, reason, gain
# figure, state and pairs.  Then VS_SECS / 2 s of each scheduler of
# VS_CONFIGS, each selected anew, with ctxsched's idle windows.
#
#   truncate -s 2G /tmp/vda.img
#   tools/vm/run -k 6.12 --modules DIR --disk /tmp/vda.img -- \
#       bash tools/bench/exp/virtio-settle.sh
set -u
cd "$(dirname "$0")/../../.." || exit 2
. tests/lib.sh
n=${VS_N:-4} secs=${VS_SECS:-30} dev=vda
configs=${VS_CONFIGS:-ctxsched none mq-deadline ctxsched none}
dbg=/sys/kernel/debug/ctxsched/$dev
[ -b /dev/$dev ] || cs_fail "no virtio disk /dev/$dev (tools/vm/run --disk)"
modprobe ctxsched || cs_fail "modprobe ctxsched"
size=$(blockdev --getsize64 /dev/$dev)
# readers SECS: MiB/s of the readers.
readers() {
	fio --name=r --filename=/dev/$dev --rw=read --bs=384k --direct=1 \
		--ioengine=psync --numjobs="$n" --size=$((size / n / 2)) \
		--offset_increment=$((size / n)) --runtime="$1" --time_based \
		--group_reporting --output-format=json > /tmp/vs.json ||
		cs_fail "fio"
	python3 -c "import json;d=json.load(open('/tmp/vs.json'));print('%.0f' % (d['jobs'][0]['read']['bw']/1024))"
}
stat() { awk -v k="$1" '$1==k{print $2}' "$dbg/stats"; }
select_sched() {
	echo none > /sys/block/$dev/queue/scheduler || cs_fail "select none"
	echo "$1" > /sys/block/$dev/queue/scheduler || cs_fail "select $1"
}

select_sched ctxsched
start=$(date +%s)
readers "$secs" > /tmp/vs.mib &
pid=$!
# Every 5 s while the readers run (a sleep takes longer under TCG).
while sleep 5 && kill -0 $pid 2> /dev/null; do
	printf '%3ds dispatched %s shared %s idle_armed %s empty %s | %s\n' \
		$(($(date +%s) - start)) "$(stat dispatched)" "$(stat shared)" \
		"$(stat idle_armed)" \
		"$(stat dispatch_empty)" \
		"$(grep -E '^((mode|why|gain_per_1024|ab|ab_pairs|level|changes) |level[0-9])' \
		   "$dbg/model" | tr '\n' ';')"
done
wait
echo "ctxsched over ${secs}s: $(cat /tmp/vs.mib) MiB/s"
for s in $configs; do
	select_sched "$s"
	mib=$(readers $((secs / 2)))
	extra=
	[ "$s" = ctxsched ] &&
		extra=" (idle_armed $(stat idle_armed) of $(stat dispatched))"
	echo "$s $((secs / 2))s: $mib MiB/s$extra"
done
