#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fsync-levels.sh [SECS] [ROUNDS]: inside a VM, whether shares of levels
# on a parallel disk (README, "Levels on a parallel disk") cost
# default-level work beside a writer that calls fsync: ext4's journal
# commits at BE level 3 (journal_ioprio), above it.  ext4 on a null_blk that does not
# rotate (1 ms per request, served side by side); a 4 KiB random writer
# with fsync after each write and a 128 KiB O_DIRECT sequential reader,
# both at the default level, for SECS s under each configuration in turn:
# ctxsched, ctxsched with slice_idle 0 (levels live only while they have
# requests), mq-deadline.  Prints the writer's IOPS and fsync latency
# (mean, p99), the reader's MB/s and ctxsched's level_held (where the
# module has that counter).
#
#   tools/vm/run -k 6.12 --modules DIR -- bash tools/bench/exp/fsync-levels.sh
set -u
cd "$(dirname "$0")/../../.." || exit 2
. tests/lib.sh
secs=${1:-8} rounds=${2:-2}
cs_load
cs_nullb_create fsl size=2048 memory_backed=1 irqmode=2 \
	completion_nsec=1000000 submit_queues=1 ?poll_queues=0
mkfs.ext4 -q -F /dev/fsl || cs_fail "mkfs.ext4"
mkdir -p /mnt/fsl
mount /dev/fsl /mnt/fsl || cs_fail "mount"
dd if=/dev/zero of=/mnt/fsl/big bs=1M count=512 status=none || cs_fail "dd"
sync
setup() { # CONFIG
	local s=${1%%:*}
	cs_sched_set /dev/fsl "$s"
	[ "$s" = ctxsched ] || return 0
	echo 8 > /sys/block/fsl/queue/iosched/slice_idle
	[ "$1" = ctxsched:slice_idle=0 ] &&
		echo 0 > /sys/block/fsl/queue/iosched/slice_idle
	return 0
}
for r in $(seq "$rounds"); do
	for c in ctxsched ctxsched:slice_idle=0 mq-deadline; do
		setup "$c"
		held0=0
		[ "${c%%:*}" = ctxsched ] && held0=$(cs_stat /dev/fsl level_held)
		held0=${held0:-0}
		fio --output-format=json --output=/tmp/fsl.json \
			--name=w --filename=/mnt/fsl/w --size=64m --rw=randwrite \
			--bs=4k --fsync=1 --ioengine=psync --runtime="$secs" \
			--time_based \
			--name=r --filename=/mnt/fsl/big --rw=read --bs=128k \
			--direct=1 --ioengine=psync --runtime="$secs" \
			--time_based > /dev/null 2>&1 || cs_fail "fio under $c"
		held=0
		[ "${c%%:*}" = ctxsched ] &&
			held=$(($(cs_stat /dev/fsl level_held || echo 0) + 0 - held0))
		python3 - "$c" "$r" "$held" <<'PY'
import json, sys
j = json.load(open("/tmp/fsl.json"))
w, rd = j["jobs"][0], j["jobs"][1]
sync = w.get("sync", {})
lat = sync.get("lat_ns", {})
p99 = lat.get("percentile", {}).get("99.000000", 0)
print("%-24s round %s: writer %6.0f IOPS, fsync mean %6.2f ms p99 %6.2f ms;"
      " reader %6.1f MB/s; level_held %s" %
      (sys.argv[1], sys.argv[2], w["write"]["iops"],
       lat.get("mean", 0) / 1e6, p99 / 1e6, rd["read"]["bw"] / 1024,
       sys.argv[3]))
PY
	done
done
cs_sched_set /dev/fsl none
umount /mnt/fsl
cs_nullb_remove fsl
