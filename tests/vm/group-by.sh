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

# Most sync queues seen, and most members in one queue, over 12 samples
# taken while the readers run (fio needs 15 s and more to start on the
# debug kernel: samples before the first busy queue do not count).
# Busy sync BE queues: with requests or contexts (the last active queue
# can stay listed, empty, until the next dispatch).
busy='$2 == "S" && $3 ~ /^B/ && ($4 > 0 || $5 > 0 || $9 > 0)'
census() {
	local i n=0 q=0 m=0 nq nm v=/sys/kernel/debug/ctxsched/grp/queues
	for i in $(seq 200); do
		sleep 0.3
		nq=$(awk "$busy" $v | wc -l)
		[ "$nq" -gt 0 ] || continue
		nm=$(awk "$busy {print \$9}" $v | sort -n | tail -1)
		[ "$nq" -gt "$q" ] && q=$nq
		[ "${nm:-0}" -gt "$m" ] && m=$nm
		n=$((n + 1))
		[ "$n" -lt 12 ] || break
		[ "$n" != 6 ] || cat $v > /tmp/census-view
	done
	echo "$q $m"
}

readers 5 > /tmp/r1 & r=$!
read -r nq nm <<< "$(census)"
wait $r || cs_fail "readers (thread)"
cs_log "group_by=thread: up to $nq sync queues, at most $nm members in one"
[ "$nq" -ge 3 ] && [ "$nm" = 1 ] ||
	{ cat /tmp/census-view; cs_fail "threads did not get queues of their own"; }

echo process > $gb || cs_fail "group_by process refused"
readers 5 > /tmp/r2 & r=$!
read -r nq nm <<< "$(census)"
wait $r || cs_fail "readers (process)"
cs_log "group_by=process: up to $nq sync queues, up to $nm members in one"
[ "$nm" -ge 3 ] ||
	{ cat /tmp/census-view; cs_fail "the process's threads did not share a queue"; }

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
