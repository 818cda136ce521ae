# SPDX-License-Identifier: GPL-2.0
# blktrace shows ctxsched's decisions as messages ("m N cs<pid>..." lines):
# slices starting and expiring, idling armed and hit, and preemption when a
# real-time reader arrives; debugfs lists the busy queues.  The messages are
# read through the kernel's blk tracer (ftrace): Debian 12's blkparse 1.2.0
# drops message events that carry a cgroup id, which every kernel built with
# CONFIG_BLK_CGROUP adds (blkparse 1.3 shows them).
# timeout: 300
. tests/lib.sh

cs_load
cs_serial_disk trc
cs_sched_set /dev/trc ctxsched
# The messages of slices and idling, not the device model's verdict, are
# under test: this disk costs nothing to seek, so the model would serve it
# work-conserving and idle only in its measurement windows, which need
# readers that keep the disk busy (fio under TCG, slower still on CI, may
# not: the windows were cut and no idling was armed in 20 s).
echo serial > /sys/block/trc/queue/iosched/device_mode ||
	cs_fail "cannot force device_mode serial"

tr=/sys/kernel/tracing
echo 0 > $tr/tracing_on
echo 1 > /sys/block/trc/trace/enable || cs_fail "cannot enable blktrace"
echo blk > $tr/current_tracer || cs_fail "no blk tracer"
echo 8192 > $tr/buffer_size_kb
echo > $tr/trace
echo 1 > $tr/tracing_on
fio --name=a --filename=/dev/trc --rw=read --bs=4k --direct=1 \
	--ioengine=psync --size=64m --runtime=20 --time_based > /dev/null &
a=$!
fio --name=b --filename=/dev/trc --rw=read --bs=4k --direct=1 \
	--ioengine=psync --offset=512m --size=64m --runtime=20 --time_based \
	> /dev/null &
b=$!
# fio takes seconds to start under TCG (15 s and more on the debug kernel).
# Check the same snapshot that is printed: between two slices (and while
# idling) no queue is active, so a second read can miss it.
for _ in $(seq 60); do
	q=$(cat /sys/kernel/debug/ctxsched/trc/queues)
	case "$q" in *active*) break ;; esac
	sleep 0.5
done
case "$q" in
*active*) echo "$q" ;;
*) cs_fail "debugfs shows no active queue: $q" ;;
esac
ionice -c1 fio --name=rt --filename=/dev/trc --rw=read --bs=4k --direct=1 \
	--ioengine=psync --offset=256m --size=16m --runtime=2 --time_based \
	> /dev/null || cs_fail "rt reader"
wait "$a" "$b" || cs_fail "readers failed"
echo 0 > $tr/tracing_on
grep -E ' m +N cs' $tr/trace > /tmp/msgs
echo nop > $tr/current_tracer
echo 0 > /sys/block/trc/trace/enable
for what in "set_active" "slice expired" "arm slice idle" "idle hit" \
	    "preempts" "slice [0-9]* us"; do
	n=$(grep -c "cs[0-9]*[SA][RBI] .*$what" /tmp/msgs)
	cs_log "$what: $n messages"
	[ "$n" -gt 0 ] || { head -20 /tmp/msgs; cs_fail "no '$what' message"; }
done
echo ok
