# SPDX-License-Identifier: GPL-2.0
# A disk that serves one request at a time and pays nothing for distance
# (null_blk, 1 ms per request, marked rotational as virtual disks are):
# eight sequential O_DIRECT readers far apart, 64 KiB at one request in
# flight each (issue 11).  Idling there only leaves the disk unused while a
# reader thinks, so ctxsched must deliver at least 0.95 of none's
# throughput in the same boot.  The device model finds "no seek cost"
# while the first run learns; the test reports when, and checks the mode.
# timeout: 400
. tests/lib.sh

cs_load
cs_serial_disk sn
secs=$(cs_size 10 6)
run() { # scheduler -> MB/s of 8 readers
	local out=/tmp/sn-$1.json
	cs_sched_set /dev/sn "$1"
	fio --name=r --filename=/dev/sn --rw=read --bs=64k --direct=1 \
		--ioengine=psync --invalidate=0 --numjobs=8 --size=96m \
		--offset_increment=128m --runtime="$secs" --time_based \
		--group_reporting --output-format=json > "$out" ||
		cs_fail "fio under $1"
	cs_fio_get "$out" r "round(j['read']['bw'] / 1024, 2)"
}

first=$(run ctxsched)
mode=$(awk '$1 == "mode" {print $2}' "$CS_DEBUGFS/sn/model")
why=$(awk '$1 == "why" {print $2}' "$CS_DEBUGFS/sn/model")
cs_log "first ctxsched run (learning): $first MB/s; model: $mode ($why)"
cat "$CS_DEBUGFS/sn/model"
cs_assert_eq "mode of a disk without seek cost" parallel "$mode"
cs_assert_eq "seek cost found" 0 "$(awk '$1 == "seek_cost" {print $2}' "$CS_DEBUGFS/sn/model")"
n1=$(run none)
c1=$(run ctxsched)
n2=$(run none)
c2=$(run ctxsched)
cat "$CS_DEBUGFS/sn/stats"
best() { python3 -c "print(max($1, $2))"; }
none=$(best "$n1" "$n2")
ours=$(best "$c1" "$c2")
cs_log "8 readers: none $n1 / $n2 MB/s, ctxsched $c1 / $c2 MB/s"
python3 -c "import sys; sys.exit(not $ours >= 0.95 * $none)" ||
	cs_fail "ctxsched $ours MB/s < 0.95 x none $none MB/s"
# While it learns (seven measurement pairs on this noisy disk, half of
# them idling) it loses some, not most.
python3 -c "import sys; sys.exit(not $first >= 0.6 * $none)" ||
	cs_fail "first run (learning) $first MB/s < 0.6 x none $none MB/s"
cs_check_idle /dev/sn
echo ok
