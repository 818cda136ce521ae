#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cost.sh [JOBS] [SECS] [ROUNDS]: inside a VM, what a request costs under
# ctxsched against mq-deadline (and none): 4 KiB random reads on a null_blk
# that completes inline (irqmode=0), 32 in flight per fio job, the
# schedulers switched under one fio run, ROUNDS windows of SECS each.
# COST_ROT=1 marks the disk rotational (a virtual disk's flag).
# Prints per window IOPS and guest CPU us per request, then the medians
# and ctxsched / mq-deadline.  For quick comparisons of builds (S5 is the
# benchmark of record):
#
#   tools/vm/run -k 6.12 --modules build/<rel>/ko -- tools/bench/cost.sh 4
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
jobs=${1:-4} secs=${2:-5} rounds=${3:-3}
modprobe ctxsched || cs_fail "modprobe ctxsched"
cs_nullb_create cost size=4096 memory_backed=0 irqmode=0 submit_queues="$(nproc)"
# COST_ROT=1: the disk says it rotates, as a virtual disk does; ctxsched
# then feeds its device model on every request.
if [ "${COST_ROT:-0}" = 1 ]; then
	echo 1 > /sys/block/cost/queue/rotational || cs_fail "rotational"
fi
fio --name=c --filename=/dev/cost --rw=randread --bs=4k --direct=1 \
	--ioengine=libaio --iodepth=32 --thread --numjobs="$jobs" \
	--norandommap --randrepeat=0 --time_based --runtime=3600 \
	--group_reporting > /dev/null 2>&1 &
fio_pid=$!
sleep 3
snap() { # -> "ios busy_ticks"
	local -a st cpu
	read -r -a st < /sys/block/cost/stat
	read -r -a cpu < /proc/stat
	echo "${st[0]} $((cpu[1] + cpu[2] + cpu[3] + cpu[6] + cpu[7]))"
}
hz=$(getconf CLK_TCK)
declare -A iops cost
stats=
for r in $(seq "$rounds"); do
	for s in ctxsched mq-deadline none; do
		echo "$s" > /sys/block/cost/queue/scheduler
		sleep 1
		read -r i0 b0 <<< "$(snap)"
		t0=$(date +%s.%N)
		sleep "$secs"
		read -r i1 b1 <<< "$(snap)"
		t1=$(date +%s.%N)
		v=$(python3 -c "d=$i1-$i0; t=$t1-$t0; print(f'{d/t:.0f} {($b1-$b0)/$hz*1e6/max(d,1):.2f}')")
		echo "round $r $s: $v"
		iops[$s]+="${v% *} " cost[$s]+="${v#* } "
		# ctxsched's counters go with it when the next one is selected.
		[ "$s" = ctxsched ] && stats=$(grep -E \
			'^(kicks|dispatch_empty|dispatched|slices|repaired) ' \
			/sys/kernel/debug/ctxsched/cost/stats 2>/dev/null | tr '\n' ' ')
	done
done
kill "$fio_pid"; wait "$fio_pid" 2>/dev/null
for s in ctxsched mq-deadline none; do
	echo "median $s: $(python3 -c "import statistics as S; print(S.median([float(x) for x in '${iops[$s]}'.split()]), S.median([float(x) for x in '${cost[$s]}'.split()]))")"
done
# Round by round, as S5: the host's speed drifts between rounds (a round
# at half the speed of the one before is not rare on a shared machine).
python3 -c "
import statistics as S
f=lambda k: [float(x) for x in k.split()]
ci, di, cc, dc = f('${iops[ctxsched]}'), f('${iops[mq-deadline]}'), f('${cost[ctxsched]}'), f('${cost[mq-deadline]}')
ri=[a/b for a, b in zip(ci, di)]; rc=[a/b for a, b in zip(cc, dc)]
print(f'ctxsched / mq-deadline, median of rounds: IOPS {S.median(ri):.3f} ({min(ri):.3f}-{max(ri):.3f}), us per request {S.median(rc):.3f} ({min(rc):.3f}-{max(rc):.3f})')"
echo "ctxsched's last window: ${stats:-}"
# Gone, so that the script can run again in the same boot.
echo none > /sys/block/cost/queue/scheduler
cs_nullb_remove cost
