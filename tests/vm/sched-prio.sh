# SPDX-License-Identifier: GPL-2.0
# Two sequential readers at ionice -c2 -n0 and -n7 on a serialising disk
# share it in the ratio of their slices: 180 ms : 40 ms = 4.5 (slice_sync
# 100 ms scaled by (9 - level) / 5).  Accepted: 3.2 to 6.2, since TCG timing
# is noisy.  With both at the same level the share is even (0.7 to 1.4).
# On a disk that serves both at once (null_blk, 1 ms per read, not
# rotational: no slices own it) the levels keep the same ratio by counting
# what each level was served (2.5 to 6.5: the lower level's reads go in
# bursts), and equal levels are not held (0.7 to 1.4).
# timeout: 400
. tests/lib.sh

cs_load
cs_serial_disk prio
cs_sched_set /dev/prio ctxsched

pair() { # level-a level-b [disk [seconds]] -> "ios-a ios-b"
	local dev=/dev/${3:-prio} secs=${4:-20}
	ionice -c2 -n"$1" fio --name=a --filename="$dev" --rw=read --bs=4k \
		--direct=1 --invalidate=0 --ioengine=psync --offset=0 --size=256m \
		--runtime="$secs" --time_based --output-format=json > /tmp/a.json &
	local a=$!
	ionice -c2 -n"$2" fio --name=b --filename="$dev" --rw=read --bs=4k \
		--direct=1 --invalidate=0 --ioengine=psync --offset=512m --size=256m \
		--runtime="$secs" --time_based --output-format=json > /tmp/b.json &
	local b=$!
	wait "$a" || cs_fail "reader a failed"
	wait "$b" || cs_fail "reader b failed"
	echo "$(cs_fio_get /tmp/a.json a "j['read']['total_ios']")" \
	     "$(cs_fio_get /tmp/b.json b "j['read']['total_ios']")"
}

# check WHERE LEVEL-A LEVEL-B LOW HIGH [disk [seconds]]: a pair's reads in
# x and y, failing unless x / y lies within LOW..HIGH.
check() {
	local where=$1 la=$2 lb=$3 low=$4 high=$5 ratio
	shift 5
	read -r x y <<< "$(pair "$la" "$lb" "$@")"
	ratio=$(python3 -c "print(f'{$x / max($y, 1):.2f}')")
	cs_log "$where-n$la: $x ios, -n$lb: $y ios, ratio $ratio"
	python3 -c "import sys; sys.exit(not $low <= $x / max($y, 1) <= $high)" ||
		cs_fail "$where-n$la/-n$lb ratio $ratio outside $low..$high"
}

check "" 0 7 3.2 6.2
check "" 4 4 0.7 1.4
cat /sys/kernel/debug/ctxsched/prio/stats

cs_nullb_create par size=1024 memory_backed=0 irqmode=2 \
	completion_nsec=1000000 submit_queues=1 ?poll_queues=0
cs_sched_set /dev/par ctxsched
check "parallel disk: " 0 7 2.5 6.5 par 10
hi=$x
[ "$(cs_stat /dev/par level_held)" -gt 0 ] ||
	cs_fail "parallel disk: no read was held for the higher level"
check "parallel disk: " 4 4 0.7 1.4 par 10
# Equal levels read as much as -n0 did beside -n7: nobody held them.
[ $((x * 10)) -ge $((hi * 8)) ] ||
	cs_fail "parallel disk: -n4 beside -n4 got $x ios, -n0 beside -n7 $hi"
cat /sys/kernel/debug/ctxsched/par/stats
cs_sched_set /dev/par none
cs_nullb_remove par
echo ok
