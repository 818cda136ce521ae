# SPDX-License-Identifier: GPL-2.0
# modprobe finds the installed module; ctxsched is offered and selectable;
# writing the name to queue/scheduler loads the module by its alias.
# timeout: 120
. tests/lib.sh

modinfo ctxsched > /dev/null || cs_fail "modinfo: module not installed"
cs_assert_eq license GPL "$(modinfo -F license ctxsched)"
cs_nullb_create nb0
dev=/dev/nb0

grep -qw ctxsched "/sys/block/nb0/queue/scheduler" &&
	cs_fail "ctxsched offered before the module is loaded"
cs_load
grep -qw ctxsched /sys/block/nb0/queue/scheduler ||
	cs_fail "ctxsched not offered: $(cat /sys/block/nb0/queue/scheduler)"
[ -d "$CS_DEBUGFS" ] || cs_fail "no debugfs directory"
cs_sched_set "$dev" ctxsched
[ -f "$CS_DEBUGFS/nb0/stats" ] || cs_fail "no debugfs stats for nb0"
dd if=/dev/zero of="$dev" bs=64k count=64 oflag=direct status=none ||
	cs_fail "write through ctxsched failed"
[ "$(cs_stat "$dev" dispatched)" -ge 64 ] ||
	cs_fail "ctxsched dispatched $(cs_stat "$dev" dispatched) requests, expected >= 64"
cs_sched_set "$dev" none
[ -e "$CS_DEBUGFS/nb0" ] && cs_fail "debugfs directory left after switching away"
rmmod ctxsched || cs_fail "rmmod after switching away"

# The elevator core loads "ctxsched-iosched" on demand.
echo ctxsched > /sys/block/nb0/queue/scheduler ||
	cs_fail "selecting ctxsched did not autoload the module"
cs_assert_eq "scheduler after autoload" ctxsched "$(cs_sched_of "$dev")"
lsmod | grep -q '^ctxsched ' || cs_fail "module not listed after autoload"
echo ok
