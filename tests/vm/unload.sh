# SPDX-License-Identifier: GPL-2.0
# rmmod is refused while a queue uses ctxsched (also with I/O in flight) and
# leaves the disk working; it succeeds once every queue has switched away.
# Then 100 rounds (8 in quick mode) of load, select, I/O, switch away,
# unload.
# timeout: 600
. tests/lib.sh

cs_load
cs_nullb_create una size=64 irqmode=2 completion_nsec=2000000
a=/dev/una
cs_nullb_create unb size=64
b=/dev/unb
cs_sched_set "$a" ctxsched
cs_sched_set "$b" ctxsched

dd if="$a" of=/dev/null bs=4k count=2000 iflag=direct status=none &
io=$!
sleep 0.5
rmmod ctxsched 2>/dev/null && cs_fail "rmmod succeeded while two queues use ctxsched"
lsmod | grep -q '^ctxsched ' || cs_fail "module gone after refused rmmod"
wait "$io" || cs_fail "I/O failed during the refused rmmod"
cs_assert_eq "scheduler of $a" ctxsched "$(cs_sched_of "$a")"
cs_sched_set "$a" none
rmmod ctxsched 2>/dev/null && cs_fail "rmmod succeeded while one queue uses ctxsched"
dd if=/dev/zero of="$b" bs=64k count=16 oflag=direct status=none ||
	cs_fail "I/O after refused rmmod"
cs_sched_set "$b" mq-deadline
rmmod ctxsched || cs_fail "rmmod refused with no user"
lsmod | grep -q '^ctxsched ' && cs_fail "module still loaded"

for i in $(seq "$(cs_size 100 8)"); do
	modprobe ctxsched || cs_fail "round $i: modprobe"
	cs_sched_set "$b" ctxsched
	dd if=/dev/zero of="$b" bs=4k count=8 oflag=direct status=none ||
		cs_fail "round $i: I/O"
	cs_sched_set "$b" none
	rmmod ctxsched || cs_fail "round $i: rmmod"
done
lsmod | grep -q '^ctxsched ' && cs_fail "module loaded after the loop"
echo ok
