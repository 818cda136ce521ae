# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# S8 (issue 14): a server's thread pool.  T threads serve S streams from a
# shared work queue (tools/bench/s8-pool.c), every thread reading for
# every stream, buffered so that the kernel's readahead runs as it does
# for a file server (or O_DIRECT, as targets that bypass the cache).  The
# streams are areas at s/S of hddsim's sata disk (or array12), each read
# through its own open file (one per client, as a file server opens).  A
# case is PROFILE:THREADS:STREAMS:CHUNK_KB:READ_AHEAD_KB:MODE, MODE buf,
# direct or auto (ctxsched alone, read_ahead_kb at its default and
# ra_autotune=1).
# Measure: each stream's MB/s, the total, fairness (slowest / fastest).
. tools/bench/lib.sh
bench_hddsim || exit 1
[ -x "$BENCH_S8" ] || { bench_error "no $BENCH_S8 (built by tools/bench/run)"; exit 1; }
mkdir -p "$BENCH_RAW/S8"
# One unrecorded run on each disk first: a boot's first runs on a disk are
# slow under every scheduler (array12 with one stream 97-111 MB/s, then
# 119-165; tools/bench/exp/first-touch.sh), and repetition 0 starts each
# case with the same scheduler.
warmed=
for c in $S8_CASES; do
	IFS=: read -r prof t s chunk ra mode <<< "$c"
	case " $warmed " in *" $prof "*) continue ;; esac
	warmed+=" $prof"
	dev=$(bench_hddsim_dev "$prof") || continue
	sync
	echo 3 > /proc/sys/vm/drop_caches
	"$BENCH_S8" --fd-per-stream "/dev/$dev" "$t" "$s" "$chunk" "$S8_SECS" \
		> /dev/null 2>&1 || bench_error "s8-pool warm-up on $prof failed"
done
for rep in $(seq 0 $((BENCH_REPS - 1))); do
	for c in $S8_CASES; do
		IFS=: read -r prof t s chunk ra mode <<< "$c"
		dev=$(bench_hddsim_dev "$prof") || { bench_error "no device $prof"; continue; }
		ra_file=/sys/block/$dev/queue/read_ahead_kb
		ra_default=$(cat "$ra_file")
		for sched in $(bench_order "$rep"); do
			[ "$mode" = auto ] && [ "$sched" != ctxsched ] && continue
			bench_set_sched "$dev" "$sched" || continue
			echo "$ra" > "$ra_file" || { bench_error "read_ahead_kb $ra"; continue; }
			if [ "$mode" = auto ]; then
				echo 1 > "/sys/block/$dev/queue/iosched/ra_autotune" ||
					{ bench_error "ra_autotune=1"; continue; }
			fi
			sync
			echo 3 > /proc/sys/vm/drop_caches
			out=S8/$prof-t$t-s$s-c$chunk-ra$ra-$mode-$sched-r$rep.json
			# One open file per stream, as for S files: the
			# kernel's readahead state is per open file.
			args=(--fd-per-stream)
			[ "$mode" = direct ] && args+=(--direct)
			if ! "$BENCH_S8" "${args[@]}" "/dev/$dev" "$t" "$s" "$chunk" \
				"$S8_SECS" > "$BENCH_RAW/$out" 2> "$BENCH_RAW/$out.log"; then
				bench_error "s8-pool $c under $sched: $(tail -1 "$BENCH_RAW/$out.log")"
				continue
			fi
			[ "$sched" = ctxsched ] && bench_model "$dev" "${out%.json}.model"
			[ "$mode" = auto ] && bench_log "S8 $c: read_ahead_kb $(cat "$ra_file") KiB at the end" &&
				echo 0 > "/sys/block/$dev/queue/iosched/ra_autotune"
			echo "$ra_default" > "$ra_file"
			bench_record sched="$sched" rep="$rep" profile="$prof" threads="$t" \
				streams="$s" chunk_kb="$chunk" ra_kb="$ra" mode="$mode" \
				result="$out"
			bench_log "S8 $c $sched rep $rep: $(tr -d '\n' < "$BENCH_RAW/$out")"
			bench_settle "$dev"
		done
	done
done
exit "${BENCH_FAILED:-0}"
