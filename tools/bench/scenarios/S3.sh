# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# S3 (seed 002): continuous buffered overwrite of a large file against
# `find | xargs cat` over many small files, on ext4 on the sata disk.
# Measure: seconds for the read side, with the page cache dropped before
# each run; a read side that has not finished after S3_TIMEOUT seconds is
# recorded as starved.  Also the read side alone (no writer), and how much
# the writer got to the disk meanwhile.
. tools/bench/lib.sh
bench_hddsim || exit 1
dev=hddsim0
mnt=$BENCH_MNT
tree=$mnt/tree
big=$mnt/big
big_mb=512

# The file system covers the first 16 GiB (bench_ext4).
bench_ext4 "$dev" || exit 1
bench_s3_tree "$tree" "$S3_FILES" ||
	{ bench_error "creating the small files failed"; exit 1; }
dd if=/dev/zero of="$big" bs=4M count=$((big_mb / 4)) conv=fsync status=none ||
	{ bench_error "writing $big failed"; exit 1; }
bench_log "S3: $S3_FILES files, $(du -sm "$tree" | cut -f1) MiB; $big_mb MiB file"
bench_dirty_limits on

# readside KIND: time find | xargs cat over the tree (page cache dropped).
# shellcheck disable=SC2034 # (filled by bench_snap through a nameref)
declare -A sa sb
readside() {
	local kind=$1 rc starved=0 secs
	bench_snap sa "$dev"
	# shellcheck disable=SC2016 # (expanded by the inner bash)
	timeout "$S3_TIMEOUT" bash -c \
		'find "$1" -type f -print0 | xargs -0 cat > /dev/null' _ "$tree"
	rc=$?
	bench_snap sb "$dev"
	case $rc in
	0) ;;
	124) starved=1 ;;
	*) bench_error "$kind read side exited $rc"; return 1 ;;
	esac
	bench_delta sa sb
	secs=${BENCH_D[0]#window_s=}
	[ "$rep" -ge 0 ] &&
		bench_record sched="$sched" rep="$rep" kind="$kind" seconds="$secs" \
			starved="$starved" files="$S3_FILES" timeout="$S3_TIMEOUT" \
			"${BENCH_D[@]}"
	bench_log "S3 $sched rep $rep $kind: ${secs}s$([ $starved = 1 ] && echo ' STARVED')"
}

# writer_run KIND: the read side under the writer, then the writer stopped
# and its pages written.
writer_run() {
	bench_drop_caches
	# The writer: the seed's dd loop, overwriting in place.
	bench_overwrite "$big" "$big_mb"
	wpid=$BENCH_WPID
	sleep "$S3_WARMUP"
	readside "$1"
	kill "$wpid" 2>/dev/null
	wait "$wpid"
	t0=$SECONDS
	sync
	bench_log "S3 $sched: sync after the writer took $((SECONDS - t0))s"
	bench_settle "$dev"
}

# The full profile first makes one unrecorded run of each kind: the first
# runs of a boot are slow for every scheduler, and repetition 0 starts with
# the same one (ctxsched: 6.8 s under the writer against 4.1-5.2 after, in
# 20261206-0426).
if [ "$BENCH_PROFILE" = full ]; then
	sched=warm-up rep=-1
	bench_drop_caches
	readside warm-up-solo
	writer_run warm-up-writer
fi

for rep in $(seq 0 $((BENCH_REPS - 1))); do
	for sched in $(bench_order "$rep"); do
		bench_set_sched "$dev" "$sched" || continue
		if [ "$S3_SOLO" = 1 ]; then
			bench_drop_caches
			readside solo
		fi
		writer_run writer
	done
done
bench_dirty_limits off
umount "$mnt" || bench_error "umount failed"
exit "${BENCH_FAILED:-0}"
