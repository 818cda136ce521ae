#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The cost of ctxsched's readahead hooks, in a VM (not part of make bench):
#
#   tools/vm/run -k 6.12 --modules build/<release>/ko -- tools/bench/ra-overhead.sh
#
# 4 KiB random buffered reads on a null_blk disk without backing memory:
# every read is one readahead call, the most calls per second a workload
# can make.  ctxsched is loaded with ra_hooks=1 and ra_hooks=0 in turns
# (ROUNDS rounds, SECS s each) and the disk runs "none", so the only
# difference is the hooks.  Prints IOPS per run and the ratio of medians.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
rounds=${ROUNDS:-5}
secs=${SECS:-8}

cs_nullb_create ovh size=4096 memory_backed=0
iops() { # hooks -> IOPS of one run
	lsmod | grep -q '^ctxsched ' && rmmod ctxsched
	modprobe ctxsched ra_hooks="$1" || cs_fail "modprobe ra_hooks=$1"
	echo 3 > /proc/sys/vm/drop_caches
	fio --name=ovh --filename=/dev/ovh --rw=randread --bs=4k --direct=0 \
	    --ioengine=psync --size=4g --time_based --runtime="$secs" \
	    --randrepeat=0 --output-format=json --output=/tmp/ovh.json \
	    > /dev/null || cs_fail "fio"
	python3 -c 'import json; print(int(json.load(open("/tmp/ovh.json"))["jobs"][0]["read"]["iops"]))'
}
on=() off=()
for r in $(seq "$rounds"); do
	on+=("$(iops 1)")
	off+=("$(iops 0)")
	echo "round $r: ra_hooks=1 ${on[-1]} IOPS, ra_hooks=0 ${off[-1]} IOPS"
done
python3 - "${on[*]}" "${off[*]}" <<'PY'
import statistics, sys
on = [int(x) for x in sys.argv[1].split()]
off = [int(x) for x in sys.argv[2].split()]
m1, m0 = statistics.median(on), statistics.median(off)
print("median: hooks %d IOPS, no hooks %d IOPS, ratio %.3f" % (m1, m0, m1 / m0))
PY
rmmod ctxsched
cs_nullb_remove ovh
