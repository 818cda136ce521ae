# SPDX-License-Identifier: GPL-2.0
# Switch a loaded disk among ctxsched, none, mq-deadline, bfq and kyber every
# 0.1-0.3 s while fio writes and verifies (verify_backlog) and a second job
# reads: every switch must succeed, fio must finish with no error and no lost
# I/O, and nothing may be left in flight. The load runs for a minute and at
# least until every scheduler was entered and left twice (ten switches): a
# debug kernel under TCG takes 1-4 s per switch, whichever the schedulers.
# timeout: 400
. tests/lib.sh

cs_load
modprobe bfq 2>/dev/null
modprobe kyber-iosched 2>/dev/null
cs_nullb_create swb size=256 submit_queues=2 hw_queue_depth=16 \
	irqmode=1
dev=/dev/swb
scheds="ctxsched none mq-deadline bfq kyber"
for s in $scheds; do
	grep -qw "$s" /sys/block/swb/queue/scheduler ||
		cs_fail "scheduler $s not available"
done
cs_sched_set "$dev" ctxsched

fio --name=sw-verify --filename="$dev" --rw=randwrite --bs=8k --size=128m \
	--ioengine=libaio --direct=1 --iodepth=16 --verify=crc32c \
	--verify_backlog=256 --verify_fatal=1 --time_based --runtime=240 \
	> /tmp/fio-sw-verify.log 2>&1 &
w=$!
fio --name=sw-read --filename="$dev" --rw=read --bs=64k --offset=128m \
	--size=128m --ioengine=psync --direct=0 --time_based --runtime=240 \
	> /tmp/fio-sw-read.log 2>&1 &
r=$!

set -- $scheds
n=0 bad=0 prev=ctxsched
: > /tmp/sw-times
start=$(date +%s)
alive() { kill -0 "$w" 2>/dev/null && kill -0 "$r" 2>/dev/null; }
while alive; do
	t=$(( $(date +%s) - start ))
	{ [ "$t" -ge 60 ] && [ "$n" -ge 10 ]; } || [ "$t" -ge 220 ] && break
	i=$(( n % 5 + 1 ))
	s=${!i}
	t0=$(date +%s%N)
	if echo "$s" > /sys/block/swb/queue/scheduler; then
		n=$((n + 1))
	else
		bad=$((bad + 1))
	fi
	# Which switch is slow tells where a drain waits.
	echo "$prev->$s $(( ($(date +%s%N) - t0) / 1000000 ))" >> /tmp/sw-times
	prev=$s
	sleep 0.$(( RANDOM % 3 + 1 ))
done
alive || { cat /tmp/fio-sw-verify.log /tmp/fio-sw-read.log
	cs_fail "fio stopped before the switching did"; }
# fio stops cleanly on SIGINT and exits 128; anything else is a failure.
kill -INT "$w" "$r"
rc=0; wait "$w" || rc=$?
[ "$rc" = 0 ] || [ "$rc" = 128 ] ||
	{ cat /tmp/fio-sw-verify.log; cs_fail "verifying writer failed ($rc)"; }
rc=0; wait "$r" || rc=$?
[ "$rc" = 0 ] || [ "$rc" = 128 ] ||
	{ cat /tmp/fio-sw-read.log; cs_fail "reader failed ($rc)"; }
cs_log "$n switches, $bad failed"
cs_log "ms per switch: $(tr '\n' ' ' < /tmp/sw-times)"
[ "$bad" = 0 ] || cs_fail "$bad scheduler switches failed"
# Each switch freezes the queue and drains it; under TCG that takes a while.
[ "$n" -ge 10 ] || cs_fail "only $n switches in 220 s"
grep -q 'err= 0' /tmp/fio-sw-verify.log || cs_fail "fio reported errors"
grep -q 'err= 0' /tmp/fio-sw-read.log || cs_fail "fio reader reported errors"
! grep -qi 'verify failed\|bad magic' /tmp/fio-sw-verify.log ||
	cs_fail "fio found corrupt data"
cs_check_idle "$dev"
echo ok
