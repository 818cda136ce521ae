# SPDX-License-Identifier: GPL-2.0
# Two sequential readers at ionice -c2 -n0 and -n7 on a serialising disk
# share it in the ratio of their slices: 180 ms : 40 ms = 4.5 (slice_sync
# 100 ms scaled by (9 - level) / 5).  Accepted: 3.2 to 6.2, since TCG timing
# is noisy.  With both at the same level the share is even (0.7 to 1.4).
# timeout: 300
. tests/lib.sh

cs_load
cs_serial_disk prio
cs_sched_set /dev/prio ctxsched

pair() { # level-a level-b -> "ios-a ios-b"
	ionice -c2 -n"$1" fio --name=a --filename=/dev/prio --rw=read --bs=4k \
		--direct=1 --invalidate=0 --ioengine=psync --offset=0 --size=256m \
		--runtime=20 --time_based --output-format=json > /tmp/a.json &
	local a=$!
	ionice -c2 -n"$2" fio --name=b --filename=/dev/prio --rw=read --bs=4k \
		--direct=1 --invalidate=0 --ioengine=psync --offset=512m --size=256m \
		--runtime=20 --time_based --output-format=json > /tmp/b.json &
	local b=$!
	wait "$a" || cs_fail "reader a failed"
	wait "$b" || cs_fail "reader b failed"
	echo "$(cs_fio_get /tmp/a.json a "j['read']['total_ios']")" \
	     "$(cs_fio_get /tmp/b.json b "j['read']['total_ios']")"
}

read -r hi lo <<< "$(pair 0 7)"
ratio=$(python3 -c "print(f'{$hi / max($lo, 1):.2f}')")
cs_log "-n0: $hi ios, -n7: $lo ios, ratio $ratio (expected 4.5)"
python3 -c "import sys; sys.exit(not 3.2 <= $hi / max($lo, 1) <= 6.2)" ||
	cs_fail "-n0/-n7 ratio $ratio outside 3.2..6.2"

read -r a b <<< "$(pair 4 4)"
ratio=$(python3 -c "print(f'{$a / max($b, 1):.2f}')")
cs_log "-n4: $a ios, -n4: $b ios, ratio $ratio (expected 1)"
python3 -c "import sys; sys.exit(not 0.7 <= $a / max($b, 1) <= 1.4)" ||
	cs_fail "equal levels got ratio $ratio"
cat /sys/kernel/debug/ctxsched/prio/stats
echo ok
