#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# virtio-one.sh [DEV] [SECS] [ROUNDS]: inside a VM, where one O_DIRECT
# sequential reader (384 KiB, one read in flight: S1's N=1) loses time on
# the virtio disk under each scheduler.  For each scheduler in turn (ROUNDS
# rounds), a fio run of SECS s gives MB/s and fio's submission and
# completion latency, and the disk's counters the requests' mean size.
# ctxsched's debugfs counters before and after are kept.  Separate runs
# differ by up to 20% on this disk; S1 compares turns under one run.
# Results in /results/virtio-one/.
#
#   truncate -s 2G /tmp/v.img
#   tools/vm/run -k 6.12 --modules DIR --disk /tmp/v.img --out OUT -- \
#       bash tools/bench/exp/virtio-one.sh vda 4 2
set -u
cd "$(dirname "$0")/../../.." || exit 2
. tests/lib.sh
dev=${1:-vda} secs=${2:-4} rounds=${3:-2}
scheds=${VIRTIO_ONE_SCHEDS:-ctxsched mq-deadline bfq none}
out=/results/virtio-one
mkdir -p "$out" || out=$(mktemp -d)
[ -b "/dev/$dev" ] || cs_fail "no /dev/$dev"
modprobe ctxsched || cs_fail "modprobe ctxsched"
modprobe bfq
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
for r in $(seq "$rounds"); do
	for s in $scheds; do
		echo "$s" > "/sys/block/$dev/queue/scheduler" || cs_fail "select $s"
		sleep 0.5
		tag=$s-r$r
		stats=/sys/kernel/debug/ctxsched/$dev/stats
		[ -r "$stats" ] && cp "$stats" "$out/$tag.stats-before"
		read -r -a a < "/sys/block/$dev/stat"
		fio --name=one --filename="/dev/$dev" --rw=read --bs=384k \
			--direct=1 --ioengine=psync --time_based \
			--runtime="$secs" --output-format=json \
			--output="$out/$tag.json" > /dev/null 2>&1
		read -r -a b < "/sys/block/$dev/stat"
		[ -r "$stats" ] && cp "$stats" "$out/$tag.stats-after"
		python3 - "$out/$tag.json" "$tag" \
			"$((b[0] - a[0]))" "$((b[2] - a[2]))" <<- 'EOF'
		import json, sys
		j = json.load(open(sys.argv[1]))["jobs"][0]["read"]
		ios, sec = int(sys.argv[3]), int(sys.argv[4])
		print("%s: %.1f MB/s, clat %.1f us, slat %.1f us, %d requests of %.1f KiB"
		      % (sys.argv[2], j["bw_bytes"] / 1e6, j["clat_ns"]["mean"] / 1e3,
		         j["slat_ns"]["mean"] / 1e3, ios, sec / 2 / max(ios, 1)))
		EOF
	done
done
echo none > "/sys/block/$dev/queue/scheduler"
