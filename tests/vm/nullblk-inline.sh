# SPDX-License-Identifier: GPL-2.0
# The cost benchmark's load as a test: null_blk completing each request
# inside its dispatch (irqmode=0) and saying it rotates, so the device
# model runs on every request, with four libaio jobs 32 deep writing and
# reading back what they wrote (verify_backlog) while ctxsched and mq-deadline take turns every 0.5-1 s.  fio
# must finish without an error, every switch must succeed, nothing may be
# left in flight; the harness fails the run on any kernel warning (under
# the debug kernel: KASAN, lockdep, kmemleak).  An icount guest died once
# under this load (a double fault in SLUB's fast path, 2026-12-05), not
# seen again.
# timeout: 500
. tests/lib.sh

cs_load
cs_nullb_create nbi size=256 submit_queues=2 hw_queue_depth=64 irqmode=0
dev=/dev/nbi
echo 1 > /sys/block/nbi/queue/rotational || cs_fail "rotational"
cs_sched_set "$dev" ctxsched

fio --name=nbi --filename="$dev" --rw=randwrite --bs=4k \
	--ioengine=libaio --direct=1 --iodepth=32 --numjobs=4 --thread \
	--size=32m --offset_increment=64m --verify=crc32c --verify_fatal=1 \
	--verify_backlog=512 --time_based --runtime=$(cs_size 40 20) \
	--group_reporting > /tmp/fio-nbi.log 2>&1 &
pid=$!
n=0
while kill -0 "$pid" 2>/dev/null; do
	sleep 0.$((5 + RANDOM % 5))
	s=$([ $((n % 2)) = 0 ] && echo mq-deadline || echo ctxsched)
	echo "$s" > /sys/block/nbi/queue/scheduler ||
		cs_fail "cannot select $s under load"
	n=$((n + 1))
done
wait "$pid" || { cat /tmp/fio-nbi.log; cs_fail "fio failed"; }
grep -q 'err= 0' /tmp/fio-nbi.log || { cat /tmp/fio-nbi.log; cs_fail "fio errors"; }
[ "$n" -ge 4 ] || cs_fail "only $n switches"
cs_log "$n switches under load"
cs_sched_set "$dev" ctxsched
cs_check_idle "$dev"
cs_sched_set "$dev" none
cs_nullb_remove nbi
echo ok
