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
