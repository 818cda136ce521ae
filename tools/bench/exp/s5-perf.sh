#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Experiment (issue 13): where the guest's CPU goes under S5's load
# (null_blk irqmode=0, fio 4 KiB random reads, 32 in flight per job) at
# PF_JOBS jobs (default 1): perf record -a -e cpu-clock (the guest has no
# PMU) for 6 s per scheduler, ctxsched and mq-deadline twice in turns,
# then samples per symbol.  Samples taken while interrupts are off land on
# the instruction that turns them on again (_raw_spin_unlock_irq...).
# Run: tools/vm/run -k 6.12 --modules DIR -- bash tools/bench/exp/s5-perf.sh
cd "$(dirname "$0")/../../.." || exit 2
. tests/lib.sh
modprobe ctxsched || cs_fail "modprobe ctxsched"
cs_nullb_create pf size=4096 memory_backed=0 irqmode=0 submit_queues="$(nproc)"
P=/usr/bin/perf
echo 0 > /proc/sys/kernel/kptr_restrict
echo -1 > /proc/sys/kernel/perf_event_paranoid
for jobs in ${PF_JOBS:-1}; do
fio --name=c --filename=/dev/pf --rw=randread --bs=4k --direct=1 \
	--ioengine=libaio --iodepth=32 --thread --numjobs=$jobs --norandommap \
	--randrepeat=0 --time_based --runtime=3600 > /dev/null 2>&1 &
fp=$!
sleep 3
for s in ctxsched mq-deadline ctxsched mq-deadline; do
	echo $s > /sys/block/pf/queue/scheduler
	sleep 1
	r0=$(awk '{print $1}' /sys/block/pf/stat)
	$P record -q -a -e cpu-clock -F 2000 -o /tmp/perf.$s.data -- sleep 6 2>/dev/null
	r1=$(awk '{print $1}' /sys/block/pf/stat)
	echo "#### jobs $jobs $s: $((r1 - r0)) requests"
	$P report -i /tmp/perf.$s.data -n --no-children --sort sym --stdio 2>/dev/null |
		grep -v "^#" | grep -v "^$" | head -${PF_TOP:-70}
done
kill $fp; wait $fp 2>/dev/null
done
# PF_ANNOTATE="SYM ...": where in those functions ctxsched's last window's
# samples fell (useful with a build whose lock leaves interrupts on).
for sym in ${PF_ANNOTATE:-}; do
	echo "#### annotate $sym"
	$P annotate -i /tmp/perf.ctxsched.data --stdio -s "$sym" 2>/dev/null |
		grep -E '^ +[0-9]+\.[0-9]+' | sort -rn | head -40
done
true
