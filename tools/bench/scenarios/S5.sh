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

# s5_turns REP JOBS FIO: the rounds of one fio run, one record per turn.
s5_turns() {
	local rep=$1 jobs=$2 fio=$3 round sched
	local -a order
	local -A wa wb
	for ((round = 0; round < S5_ROUNDS; round++)); do
		mapfile -t order < <(bench_order $((rep + round)))
		((round % 2)) && mapfile -t order < <(printf '%s\n' "${order[@]}" | tac)
		for sched in "${order[@]}"; do
			bench_set_sched "$dev" "$sched" || continue
			sleep "$S5_RAMP"
			bench_snap wa "$dev"
			sleep "$S5_WIN"
			bench_snap wb "$dev"
			if ! kill -0 "$BENCH_FIO_PID" 2>/dev/null; then
				bench_error "fio ended before the $sched turn closed"
				return 1
			fi
			bench_delta wa wb
			[ "$sched" = ctxsched ] && ((round == S5_ROUNDS - 1)) &&
				bench_model "$dev" "${fio%.json}-ctxsched.model"
			bench_record kind=window sched="$sched" rep="$rep" \
				round="$round" jobs="$jobs" irqmode="$irqmode" \
				fio="$fio" hz="$BENCH_HZ" cpus="$BENCH_CPUS" \
				"${BENCH_D[@]}"
			bench_log "S5 jobs=$jobs rep $rep round $round $sched:" \
				"$(((wb[rd_ios] - wa[rd_ios]) * 1000000 / (wb[t_us] - wa[t_us]))) reads/s"
		done
	done
}

for rep in $(seq 0 $((BENCH_REPS - 1))); do
	first=$(bench_order "$rep" | head -1)
	for jobs in $S5_JOBS; do
		bench_set_sched "$dev" "$first" || continue
		out=S5/j$jobs-r$rep.json
		bench_fio_start "$out" nullb-randread.fio DEV="/dev/$dev" \
			JOBS="$jobs" SECS=3600
		bench_wait_io "$dev" && s5_turns "$rep" "$jobs" "$out"
		bench_fio_stop
		bench_settle "$dev"
	done
done
echo none > "/sys/block/$dev/queue/scheduler"
(. tests/lib.sh; cs_nullb_remove "$dev")
exit "${BENCH_FAILED:-0}"
