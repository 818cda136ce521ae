# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# What the experiments share: ctxsched and hddsim loaded as the bench
# loads them, the sata disk in $d (its size in $size), and dump LABEL, the
# device model's debugfs state on one line.
. tests/lib.sh
cs_load
modprobe hddsim devices=sata,array12,ssd,array8 || cs_fail "modprobe hddsim"
udevadm settle 2>/dev/null
d=hddsim0
size=$(blockdev --getsize64 /dev/$d)
cs_sched_set /dev/$d ctxsched
dump() {
	echo "## $1: $(tr '\n' ' ' < "$CS_DEBUGFS/$d/model" |
		sed 's/seek_known.*present_avg/.. present_avg/' | cut -c1-600)"
}
# S1's 8 sequential O_DIRECT readers on $d under ctxsched for 12 s, as the
# bench's boot has them before S8: the model learns a verdict for many
# independent readers first.
eight_readers() {
	cs_sched_set /dev/$d ctxsched
	fio --name=r --filename=/dev/$d --rw=read --bs=384k --direct=1 \
		--ioengine=psync --numjobs=8 --size=$((size / 16)) \
		--offset_increment=$((size / 8)) --runtime=12 --time_based \
		--group_reporting | grep -E '^ *READ:'
}
# S9's experiments: ext4 with python on the disk (s9_app NAME: work files
# under /tmp/NAME), S9's two sequential buffered readers at 40% and 70% of
# the disk, given 3 s to get going (s9_readers; s9_readers_stop), and one
# cold start-up, its seconds in $s9_secs (s9_start).
s9_app() {
	# shellcheck disable=SC2034 # read by tools/bench/lib.sh
	BENCH_OUT=/tmp/$1 BENCH_RAW=/tmp/$1/raw
	mkdir -p "$BENCH_RAW"
	bench_ext4 "$d" || cs_fail "mkfs or mount"
	# shellcheck disable=SC2153 # set by tools/bench/lib.sh
	bench_python_app "$BENCH_MNT/app" || cs_fail "python app"
}
s9_readers() {
	local at
	s9_pids=
	for at in 40 70; do
		dd if=/dev/$d of=/dev/null bs=1M status=none \
			skip=$((size * at / 100 >> 20)) count=65536 &
		s9_pids+=" $!"
	done
	sleep 3
}
s9_readers_stop() {
	local p
	for p in $s9_pids; do kill "$p"; wait "$p" 2>/dev/null; done
	s9_pids=
}
s9_start() {
	local t0=$EPOCHREALTIME
	timeout 120 chroot "$BENCH_MNT/app" "$BENCH_PY" -c "$BENCH_PY_CODE" ||
		echo "start-up failed or timed out"
	# shellcheck disable=SC2034 # read by the experiments
	s9_secs=$(python3 -c "print(f'{$EPOCHREALTIME - $t0:.2f}')")
}
# S3's experiments: ext4 with S3's 600 small files and its 512 MiB file
# to overwrite, S3's write-back limits on, bfq loaded (s3_disk NAME: work
# files under /tmp/NAME; the mount point, the tree and the big file in
# $mnt, $tree and $big).
s3_disk() {
	# shellcheck disable=SC2034 # read by tools/bench/lib.sh
	BENCH_OUT=/tmp/$1 BENCH_RAW=/tmp/$1/raw
	mkdir -p "$BENCH_RAW"
	modprobe bfq
	# shellcheck disable=SC2153 # set by tools/bench/lib.sh
	mnt=$BENCH_MNT tree=$BENCH_MNT/tree big=$BENCH_MNT/big
	bench_ext4 "$d" || cs_fail "mkfs or mount"
	bench_s3_tree "$tree" 600 || cs_fail "small files"
	dd if=/dev/zero of="$big" bs=4M count=128 conv=fsync status=none
	bench_dirty_limits on
}
