# SPDX-License-Identifier: GPL-2.0
# The device model (issue 12): under four sequential O_DIRECT readers far
# apart, each disk settles in the mode that suits it, whatever
# queue/rotational says: hddsim's single spindle (sata) SERIAL, its
# twelve-disk array (array12) PARALLEL by measurement although it says
# rotational, its SSD and the harness's virtio-blk disk (rotational in the
# guest, a host file behind it) PARALLEL.  Prints each disk's figures and
# how long the decision took; fails when a disk ends in the wrong mode or
# took longer than its bound.
# timeout: 400
. tests/lib.sh

cs_load
modprobe hddsim devices=sata,array12,ssd || cs_fail "modprobe hddsim"
udevadm settle 2>/dev/null
[ -b /dev/vda ] || cs_fail "no virtio disk /dev/vda (run through tests/run)"

model() { awk -v k="$2" '$1 == k {print $2}' "$CS_DEBUGFS/$1/model"; }

# settle DISK WANT BOUND_S: run four readers until the mode is WANT and the
# model holds (not measuring), at most BOUND_S seconds.
settle() {
	local disk=$1 want=$2 bound=$3 size bs=384k start el mode ab
	size=$(blockdev --getsize64 "/dev/$disk")
	cs_sched_set "/dev/$disk" ctxsched
	echo auto > "/sys/block/$disk/queue/iosched/device_mode"
	fio --name=r --filename="/dev/$disk" --rw=read --bs=$bs --direct=1 \
		--ioengine=psync --invalidate=0 --numjobs=4 \
		--size=$((size / 8)) --offset_increment=$((size / 4)) \
		--runtime=$((bound + 5)) --time_based --group_reporting \
		--output-format=json > "/tmp/dm-$disk.json" &
	local pid=$!
	start=$(date +%s.%N)
	while :; do
		sleep 0.5
		mode=$(model "$disk" mode)
		ab=$(model "$disk" ab)
		el=$(python3 -c "print(round($(date +%s.%N) - $start, 1))")
		if [ "$mode" = "$want" ] && [ "$ab" = holding ] &&
		   python3 -c "import sys; sys.exit(not $el >= 1.5)"; then
			break
		fi
		python3 -c "import sys; sys.exit(not $el >= $bound)" && break
	done
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	echo "# $disk: $(tr '\n' ' ' < "$CS_DEBUGFS/$disk/model")"
	local changed settled
	changed=$(model "$disk" changed_ms_ago)
	settled=$(python3 -c "print(0 if $(model "$disk" changes) == 0 else round(max($el - $changed / 1000, 0), 1))")
	cs_log "$disk settled in $mode ($(model "$disk" why)) after ${settled} s of load"
	cs_assert_eq "$disk mode" "$want" "$mode"
	python3 -c "import sys; sys.exit(not $settled <= $bound)" ||
		cs_fail "$disk took $settled s (bound $bound s)"
	cs_check_idle "/dev/$disk"
}

settle hddsim0 serial 12
settle hddsim1 parallel 12
settle hddsim2 parallel 6
# The virtio disk's A/B pairs are noisy under TCG (813 to 4245 /1024 in
# one run): a run can take all 7 pairs (3.5 s) and, when the contention
# level moves, start again; 6.2 s seen on a quiet host, and beside the
# debug kernel's guest on 6.1 a first run of pairs 686 758 4567 2663 4326
# still SERIAL at 8 s, PARALLEL (measured) just after.
settle vda parallel 12
echo ok
