# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# S9 (seed 002, issue 15): application start-up on a busy spindle.  The
# host's python3 with its standard library and shared libraries is copied
# onto ext4 on the sata disk; a start-up is `chroot APP python3 -c
# "import ..."` of a dozen standard modules with the page cache dropped
# first, so that every library, module and directory is read from the disk.
# Timed alone (idle) and under (a) two sequential buffered readers of the
# raw disk far beyond the file system, (b) a buffered overwrite loop of a
# 512 MiB file in it (S3's writer), (c) both.  Also recorded: what the
# background delivered meanwhile (the readers' bytes from /proc/PID/io, the
# disk's written bytes).  A start-up not done after S9_TIMEOUT seconds is
# recorded as starved.
. tools/bench/lib.sh
bench_hddsim || exit 1
dev=hddsim0
mnt=$BENCH_MNT
app=$mnt/app
big=$mnt/big
big_mb=512

bench_ext4 "$dev" || exit 1

bench_python_app "$app" || exit 1
bench_python_start "$app" || { bench_error "python3 does not start in $app"; exit 1; }
dd if=/dev/zero of="$big" bs=4M count=$((big_mb / 4)) conv=fsync status=none ||
	{ bench_error "writing $big failed"; exit 1; }
bench_log "S9: $(du -sm "$app" | cut -f1) MiB in $(find "$app" -type f | wc -l) files; $big_mb MiB file"
bench_dirty_limits on

# The readers: the raw disk at 40% and 70% of its capacity, 1 MiB buffered
# reads (readahead as a media player or a copy gets it).
sectors=$(cat "/sys/block/$dev/size")
readers_start() {
	local at
	rpids=()
	for at in 40 70; do
		dd if="/dev/$dev" of=/dev/null bs=1M status=none \
			skip=$((sectors * at / 100 / 2048)) count=$((64 << 10)) &
		rpids+=($!)
	done
}
writer_start() {
	bench_overwrite "$big" "$big_mb"
	wpid=$BENCH_WPID
}

# shellcheck disable=SC2034 # (filled by bench_snap through a nameref)
declare -A sa sb
# run KIND: one cold start-up under background KIND.
run() {
	local kind=$1 rc starved=0 secs p
	rpids=() wpid=
	bench_drop_caches
	case $kind in
	readers) readers_start ;;
	writer) writer_start ;;
	both) readers_start; writer_start ;;
	esac
	[ "$kind" = idle ] || sleep "$S9_WARMUP"
	bench_snap sa "$dev" "${rpids[@]}"
	timeout "$S9_TIMEOUT" chroot "$app" "$BENCH_PY" -c "$BENCH_PY_CODE"
	rc=$?
	bench_snap sb "$dev" "${rpids[@]}"
	for p in "${rpids[@]}"; do kill "$p" 2>/dev/null; done
	[ -n "$wpid" ] && kill "$wpid" 2>/dev/null
	for p in "${rpids[@]}" $wpid; do wait "$p" 2>/dev/null; done
	case $rc in
	0) ;;
	124) starved=1 ;;
	*) bench_error "S9 $kind start-up exited $rc"; return 1 ;;
	esac
	bench_delta sa sb
	secs=${BENCH_D[0]#window_s=}
	[ "$rep" -ge 0 ] &&
		bench_record sched="$sched" rep="$rep" kind="$kind" seconds="$secs" \
			starved="$starved" timeout="$S9_TIMEOUT" "${BENCH_D[@]}"
	bench_log "S9 $sched rep $rep $kind: ${secs}s$([ $starved = 1 ] && echo ' STARVED')"
	[ -n "$wpid" ] && sync
	bench_settle "$dev"
}

# The full profile first makes one unrecorded start-up alone and one
# beside the readers, under bfq (which starves neither): the boot's first
# start-ups are slow for any scheduler, and repetition 0 starts with the
# same one (ctxsched: 9.1 s alone and 50.4 s beside the readers, against
# 3.6-4.1 and 14.8-22.5 s in repetitions 1-4; 20261206-0502).
if [ "$BENCH_PROFILE" = full ] && bench_set_sched "$dev" bfq; then
	sched=warm-up rep=-1
	run idle
	run readers
fi

for rep in $(seq 0 $((BENCH_REPS - 1))); do
	for sched in $(bench_order "$rep"); do
		bench_set_sched "$dev" "$sched" || continue
		for kind in $S9_KINDS; do
			run "$kind"
		done
	done
done
bench_dirty_limits off
umount "$mnt" || bench_error "umount failed"
exit "${BENCH_FAILED:-0}"
