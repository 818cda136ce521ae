# SPDX-License-Identifier: GPL-2.0
# A disk that serves one request at a time and pays nothing for distance
# (null_blk, 1 ms per request, marked rotational as virtual disks are):
# eight sequential O_DIRECT readers far apart, 64 KiB at one request in
# flight each (issue 11).  Idling there only leaves the disk unused while a
# reader thinks, so ctxsched must deliver at least 0.95 of none's
# throughput in the same boot.  The device model finds "no seek cost".
# The test reports what the model knew after the first run and checks the
# mode; where fio keeps the disk busy, also the seek figure after all
# runs (70-130 s of load).  Learning within the first run is KUnit's to
# check (cs_test_loop_serial_noseek): here it hangs on how busy fio keeps
# the disk under TCG.  Before the A/B measurement accepted half-contended
# windows, the first run reached it in 7 of 8 tries on the development
# host but not in CI, where fio's readers competed for less than the
# three quarters of each window it then needed.
# timeout: 400
. tests/lib.sh

cs_load
cs_serial_disk sn
secs=$(cs_size 10 6)
# The disk's busy share (io_ticks) and idle windows armed, per run: what a
# failure needs to tell readers that wait for the CPU from idling.
: > /tmp/sn-runs
ticks() { awk '{print $10}' /sys/block/sn/stat; }
armed() { cs_stat /dev/sn idle_armed 2>/dev/null || echo -; }
run() { # scheduler -> MB/s of 8 readers
	local out=/tmp/sn-$1.json t0 a0 bw
	cs_sched_set /dev/sn "$1"
	t0=$(ticks)
	a0=$(armed)
	fio --name=r --filename=/dev/sn --rw=read --bs=64k --direct=1 \
		--ioengine=psync --invalidate=0 --numjobs=8 --size=96m \
		--offset_increment=128m --runtime="$secs" --time_based \
		--group_reporting --output-format=json > "$out" ||
		cs_fail "fio under $1"
	bw=$(cs_fio_get "$out" r "round(j['read']['bw'] / 1024, 2)")
	echo "$1 $bw MB/s busy $(( ($(ticks) - t0) / (10 * secs) ))%" \
		"idle_armed $a0..$(armed)" >> /tmp/sn-runs
	echo "$bw"
}

model() { awk -v k="$1" '$1 == k {print $2}' "$CS_DEBUGFS/sn/model"; }
first=$(run ctxsched)
cs_log "first ctxsched run (learning): $first MB/s; model: $(model mode)" \
	"($(model why)), seek known $(model seek_known) cost $(model seek_cost)"
cs_assert_eq "mode of a disk without seek cost (first run)" parallel "$(model mode)"
# Rounds of none and ctxsched, the best of each: none's own runs spread
# by 20% in one boot (44.2 and 35.9 MB/s in a full tests/run), more than
# the margin.  A 5% margin is judged only where the disk's rate is
# stable: the best three of none's runs within 10% of each other.  Three
# rounds, up to three more until they are.
best() { python3 -c "import sys; print(max(map(float, sys.argv[1:])))" "$@"; }
stable() {
	python3 -c "import sys; v = sorted(map(float, sys.argv[1:]))[-3:]
sys.exit(not (len(v) == 3 and v[-1] <= 1.1 * v[0]))" "$@"
}
nones=() ours_all=()
while [ ${#nones[@]} -lt 3 ] ||
      { [ ${#nones[@]} -lt 6 ] && ! stable "${nones[@]}"; }; do
	nones+=("$(run none)")
	ours_all+=("$(run ctxsched)")
done
cat "$CS_DEBUGFS/sn/model"
cat "$CS_DEBUGFS/sn/stats"
none=$(best "${nones[@]}")
ours=$(best "${ours_all[@]}")
cs_log "8 readers: none ${nones[*]} MB/s, ctxsched ${ours_all[*]} MB/s"
cs_log "runs: $(paste -sd';' /tmp/sn-runs)"
cs_assert_eq "mode of a disk without seek cost" parallel "$(model mode)"
# The disk serves 62.5 MB/s (64 KiB a ms).  Where fio cannot keep half of
# that busy even without a scheduler (the debug kernel: none 11-24,
# ctxsched 9-11 MB/s, no idling armed), the readers wait for the CPU, not
# the disk.  Then the ratios are the CPU cost of a scheduler under lockdep
# and KASAN (issue 13's business, not idling's), and completions wait for
# the CPU too, by more than a seek would cost (near 3.4, far 5.0 ms).
if python3 -c "import sys; sys.exit(not $none < 31.25)"; then
	cs_log "CPU-bound: none $none MB/s of the disk's 62.5;" \
		"seek figure and ratios not checked"
	cs_check_idle /dev/sn
	echo ok
	exit 0
fi
cs_assert_eq "seek cost known" 1 "$(model seek_known)"
cs_assert_eq "seek cost found" 0 "$(model seek_cost)"
if ! stable "${nones[@]}"; then
	cs_log "none's best three runs spread by more than 10%:" \
		"ratios not judged"
	cs_check_idle /dev/sn
	echo ok
	exit 0
fi
python3 -c "import sys; sys.exit(not $ours >= 0.95 * $none)" ||
	cs_fail "ctxsched $ours MB/s < 0.95 x none $none MB/s"
# While it learns (seven measurement pairs on this noisy disk, half of
# them idling) it loses some, not most.
python3 -c "import sys; sys.exit(not $first >= 0.6 * $none)" ||
	cs_fail "first run (learning) $first MB/s < 0.6 x none $none MB/s"
cs_check_idle /dev/sn
echo ok
