# SPDX-License-Identifier: GPL-2.0
# group_by: four threads of one process, each reading its own area.  With
# group_by=thread they have four sync queues; with group_by=process one
# queue serves all four.  Switching back and forth every 0.2 s while they
# read loses nothing and leaves nothing behind.  Bad values are refused.
# timeout: 300
. tests/lib.sh

cs_load
cs_serial_disk grp
cs_sched_set /dev/grp ctxsched
# Room for every thread to have requests queued (selecting resets it).
echo 64 > /sys/block/grp/queue/nr_requests || cs_fail "nr_requests"
gb=/sys/block/grp/queue/iosched/group_by
cs_assert_eq "default group_by" thread "$(cat $gb)"
for v in bogus 1 "thread process" " "; do
	( echo -n "$v" > $gb ) 2>/dev/null && cs_fail "group_by took '$v'"
done
cs_assert_eq "group_by after bad input" thread "$(cat $gb)"

readers() { # seconds: four threads (fio --thread) of one process
	fio --name=r --thread --numjobs=4 --filename=/dev/grp --rw=read \
	    --bs=16k --direct=1 --ioengine=libaio --iodepth=4 --size=128m \
	    --offset_increment=128m --invalidate=0 --runtime="$1" \
	    --time_based --group_reporting --output-format=terse \
	    --terse-version=3
}

# Most sync queues seen, and most members in one queue, over up to 12
# samples taken while the readers (PID $1) run; samples before their
# queues are busy do not count (fio needs 15 s and more to start on the
# debug kernel).  Busy sync BE queues: with requests or contexts (the last
# active queue can stay listed, empty, until the next dispatch).
busy='$2 == "S" && $3 ~ /^B/ && ($4 > 0 || $5 > 0 || $9 > 0)'
census() {
	local n=0 q=0 m=0 nq nm v=/sys/kernel/debug/ctxsched/grp/queues
	while [ "$n" -lt 12 ] && kill -0 "$1" 2>/dev/null; do
		sleep 0.3
		# One awk per sample: under load every process start counts.
		read -r nq nm < <(awk "$busy {n++; if (\$9 > m) m = \$9}
				      END {print n + 0, m + 0}" $v)
		[ "$nq" -gt 0 ] || continue
		[ "$nq" -gt "$q" ] && q=$nq
		[ "$nm" -gt "$m" ] && m=$nm
		n=$((n + 1))
		[ "$n" != 3 ] || cat $v > /tmp/census-view
	done
	[ "$n" -gt 0 ] || cs_fail "no busy queue seen while the readers ran"
	echo "$q $m"
}

# Wait for the readers at most $2 s more; a stall shows ctxsched's view.
reap() {
	local i
	for i in $(seq $(($2 * 5))); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.2
	done
	if kill -0 "$1" 2>/dev/null; then
		cat /sys/kernel/debug/ctxsched/grp/queues \
		    /sys/kernel/debug/ctxsched/grp/stats
		cs_fail "readers still running $2 s after they should have ended"
	fi
	wait "$1"
}

readers 8 > /tmp/r1 & r=$!
res=$(census $r) || exit 1
read -r nq nm <<< "$res"
reap $r 90 || cs_fail "readers (thread)"
cs_log "group_by=thread: up to $nq sync queues, at most $nm members in one"
[ "$nq" -ge 3 ] && [ "$nm" = 1 ] ||
	{ cat /tmp/census-view 2>/dev/null; cs_fail "threads did not get queues of their own"; }

echo process > $gb || cs_fail "group_by process refused"
readers 8 > /tmp/r2 & r=$!
res=$(census $r) || exit 1
read -r nq nm <<< "$res"
reap $r 90 || cs_fail "readers (process)"
cs_log "group_by=process: up to $nq sync queues, up to $nm members in one"
[ "$nm" -ge 3 ] ||
	{ cat /tmp/census-view 2>/dev/null; cs_fail "the process's threads did not share a queue"; }

readers 12 > /tmp/r3 & r=$!
n=0
while kill -0 $r 2>/dev/null; do
	if [ $((n % 2)) = 0 ]; then echo thread > $gb; else echo process > $gb; fi
	n=$((n + 1))
	sleep 0.2
done
wait $r || cs_fail "readers while switching group_by"
awk -F';' '{ exit !($6 > 0) }' /tmp/r3 || cs_fail "no data read while switching"
cs_log "$n switches under load"
cs_check_idle /dev/grp
echo ok
