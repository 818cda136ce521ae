# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2031 # (the subshells only source tests/lib.sh)
# S5: 4 KiB random reads on null_blk (no backing memory, completions
# inline: BENCH_NULLB_IRQMODE=0, so that the CPU measured is the block
# layer's and the scheduler's), 32 in flight per job, JOBS = S5_JOBS.
# Measure per scheduler: IOPS from the disk's counters and CPU time per
# request from /proc/stat (all non-idle time of the guest: fio, the block
# layer and the scheduler).
#
# One fio run per job count and repetition (starting 256 fio threads takes
# about 50 s under TCG).  Under it the schedulers take S5_ROUNDS turns of
# S5_WIN s each, every round in another order and every other one
# backwards.  The guest's speed dips to half for seconds at a time and
# drifts by 10% over minutes (a host effect: none's IOPS show it alone),
# so one long window per scheduler compared schedulers measured at
# different speeds (repetitions 2x apart); short turns side by side see the
# same speed, and the report compares schedulers round by round.
#
# This shell, which switches and measures, runs SCHED_FIFO: 256 busy fio
# threads on 2 vCPUs would otherwise leave it seconds behind its sleeps.
# fio itself runs SCHED_OTHER (bench_fio_start).
. tools/bench/lib.sh
bench_rt_shell
dev=benchnb
irqmode=${BENCH_NULLB_IRQMODE:-0}
(
	. tests/lib.sh
	cs_nullb_create "$dev" size=4096 memory_backed=0 irqmode="$irqmode" \
		submit_queues="$(nproc)"
) || { bench_error "cannot create null_blk $dev"; exit 1; }

for rep in $(seq 0 $((BENCH_REPS - 1))); do
	first=$(bench_order "$rep" | head -1)
	for jobs in $S5_JOBS; do
		bench_set_sched "$dev" "$first" || continue
		out=S5/j$jobs-r$rep.json
		bench_fio_start "$out" nullb-randread.fio DEV="/dev/$dev" \
			JOBS="$jobs" SECS=3600
		BENCH_PIDS=
		bench_wait_io "$dev" &&
			bench_rounds "$dev" "$rep" "$S5_ROUNDS" "$S5_WIN" \
				"$S5_RAMP" jobs="$jobs" irqmode="$irqmode" fio="$out"
		bench_fio_stop
		bench_settle "$dev"
	done
done
echo none > "/sys/block/$dev/queue/scheduler"
(. tests/lib.sh; cs_nullb_remove "$dev")
exit "${BENCH_FAILED:-0}"
