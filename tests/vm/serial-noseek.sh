# SPDX-License-Identifier: GPL-2.0
# A disk that serves one request at a time and pays nothing for distance
# (null_blk, 1 ms per request, marked rotational as virtual disks are):
# eight sequential O_DIRECT readers far apart, 64 KiB at one request in
# flight each (issue 11).  Idling there only leaves the disk unused while a
# reader thinks, so ctxsched must deliver at least 0.95 of none's
# throughput in the same boot.  The device model finds "no seek cost".
# The test reports what the model knew after the first run and checks the
# mode; where fio keeps the disk busy, also the seek figure after all
# seven runs (70 s of load).  Learning within the first run is KUnit's to
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
run() { # scheduler -> MB/s of 8 readers
	local out=/tmp/sn-$1.json
	cs_sched_set /dev/sn "$1"
	fio --name=r --filename=/dev/sn --rw=read --bs=64k --direct=1 \
		--ioengine=psync --invalidate=0 --numjobs=8 --size=96m \
		--offset_increment=128m --runtime="$secs" --time_based \
		--group_reporting --output-format=json > "$out" ||
		cs_fail "fio under $1"
	cs_fio_get "$out" r "round(j['read']['bw'] / 1024, 2)"
}

model() { awk -v k="$1" '$1 == k {print $2}' "$CS_DEBUGFS/sn/model"; }
first=$(run ctxsched)
cs_log "first ctxsched run (learning): $first MB/s; model: $(model mode)" \
	"($(model why)), seek known $(model seek_known) cost $(model seek_cost)"
cs_assert_eq "mode of a disk without seek cost (first run)" parallel "$(model mode)"
# Three rounds, the best of each: none's own runs spread by 20% in one
# boot (44.2 and 35.9 MB/s in a full tests/run), more than the margin.
nones=() ours_all=()
for _ in 1 2 3; do
	nones+=("$(run none)")
	ours_all+=("$(run ctxsched)")
done
cat "$CS_DEBUGFS/sn/model"
cat "$CS_DEBUGFS/sn/stats"
best() { python3 -c "import sys; print(max(map(float, sys.argv[1:])))" "$@"; }
none=$(best "${nones[@]}")
ours=$(best "${ours_all[@]}")
cs_log "8 readers: none ${nones[*]} MB/s, ctxsched ${ours_all[*]} MB/s"
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
python3 -c "import sys; sys.exit(not $ours >= 0.95 * $none)" ||
	cs_fail "ctxsched $ours MB/s < 0.95 x none $none MB/s"
# While it learns (seven measurement pairs on this noisy disk, half of
# them idling) it loses some, not most.
python3 -c "import sys; sys.exit(not $first >= 0.6 * $none)" ||
	cs_fail "first run (learning) $first MB/s < 0.6 x none $none MB/s"
cs_check_idle /dev/sn
echo ok
