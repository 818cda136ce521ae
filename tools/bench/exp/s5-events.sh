#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Experiment (issue 13): what a request costs besides the scheduler's own
# code.  S5's workload (null_blk irqmode=0, fio 4 KiB random reads, 32 in
# flight per job, threads) at EV_JOBS jobs (default "1 16"), each
# scheduler in turn for EV_SECS (default 4) seconds, counting kernel events
# per completed request with hist triggers and kprobes: context switches,
# workqueue items by function, hrtimers started, softirqs, hardware queue
# runs, delayed runs, tag waits, and the elevator's entry points.  Run:
#   tools/vm/run -k 6.12 --modules DIR -- bash tools/bench/exp/s5-events.sh
set -u
cd "$(dirname "$0")/../../.." || exit 2
. tests/lib.sh
modprobe ctxsched || cs_fail "modprobe ctxsched"
cs_nullb_create ev size=4096 memory_backed=0 irqmode=0 submit_queues="$(nproc)"
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T
# kprobes: blk-mq's run and dispatch paths and the elevators' entry points.
probes="blk_mq_run_hw_queue blk_mq_delay_run_hw_queue
	blk_mq_sched_dispatch_requests blk_mq_dispatch_rq_list
	blk_mq_get_tag io_schedule blk_mq_sched_try_merge
	ioc_find_get_icq blk_mq_sched_bio_merge
	dd_dispatch_request dd_insert_requests dd_finish_request dd_has_work
	ctxsched:cs_dispatch_request ctxsched:cs_insert_requests
	ctxsched:cs_finish_request ctxsched:cs_has_work ctxsched:cs_bio_merge
	ctxsched:cs_prepare_request ctxsched:cs_limit_depth
	dd_limit_depth dd_bio_merge"
: > /tmp/probes
n=0
for p in $probes; do
	n=$((n + 1))
	echo "p:csev/p$n $p" >> $T/kprobe_events 2>/dev/null ||
		{ echo "no probe for $p"; continue; }
	echo "p$n $p" >> /tmp/probes
done
hist() { # EVENTDIR KEYS
	echo "hist:keys=$2:size=2048" > "$T/events/$1/trigger"
}
clear_hist() {
	echo "!hist:keys=$2:size=2048" > "$T/events/$1/trigger"
}
evs="sched/sched_switch:common_cpu workqueue/workqueue_execute_start:function.sym
	timer/hrtimer_start:function.sym irq/softirq_entry:vec
	block/block_rq_issue:common_cpu block/block_rq_insert:common_cpu"
while read -r pn _; do
	evs+=" csev/$pn:common_cpu"
done < /tmp/probes
fio --name=c --filename=/dev/ev --rw=randread --bs=4k --direct=1 \
	--ioengine=libaio --iodepth=32 --thread --numjobs=1 --norandommap \
	--randrepeat=0 --time_based --runtime=1 > /dev/null 2>&1
for jobs in ${EV_JOBS:-1 16}; do
	fio --name=c --filename=/dev/ev --rw=randread --bs=4k --direct=1 \
		--ioengine=libaio --iodepth=32 --thread --numjobs="$jobs" \
		--norandommap --randrepeat=0 --time_based --runtime=3600 \
		> /dev/null 2>&1 &
	fio_pid=$!
	sleep 3
	for s in ctxsched mq-deadline none ctxsched mq-deadline; do
		echo "$s" > /sys/block/ev/queue/scheduler
		sleep 1
		# fio stopped while the triggers go on and off, and while they
		# are read: only the window counts.
		kill -STOP "$fio_pid"
		for e in $evs; do
			hist "${e%%:*}" "${e#*:}"
		done
		read -r -a st0 < /sys/block/ev/stat
		kill -CONT "$fio_pid"
		sleep "${EV_SECS:-4}"
		kill -STOP "$fio_pid"
		sleep 0.2
		read -r -a st1 < /sys/block/ev/stat
		ios=$((st1[0] - st0[0]))
		echo "#### jobs $jobs $s: $ios requests"
		for e in $evs; do
			ed=${e%%:*}
			name=$ed
			case $ed in
			csev/*) name="kprobe $(grep "^${ed#csev/} " /tmp/probes | cut -d' ' -f2)" ;;
			esac
			grep -E '^\{|^Hits' "$T/events/$ed/hist" |
				sed 's/^{ *//; s/ *} *hitcount: */ = /' |
				awk -v ios="$ios" -v n="$name" '
					/^Hits/ { next }
					{ split($0, a, " = "); k = a[1]; gsub(/ +/, " ", k)
					  if (n ~ /^kprobe/ || n ~ /block_rq/ || n ~ /sched_switch/) { tot += a[2]; next }
					  if (a[2] / ios >= 0.001) printf "%-44s %-40.40s %8.4f\n", n, k, a[2] / ios }
					END { if (tot) printf "%-44s %-40s %8.4f\n", n, "(all)", tot / ios }'
			clear_hist "$ed" "${e#*:}"
		done
		kill -CONT "$fio_pid"
	done
	kill "$fio_pid"; wait "$fio_pid" 2>/dev/null
	grep -E '^(kicks|dispatch_empty|dispatched|slices) ' /sys/kernel/debug/ctxsched/ev/stats 2>/dev/null | tr '\n' ' '
	echo
done
echo > $T/kprobe_events
