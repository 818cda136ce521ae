# SPDX-License-Identifier: GPL-2.0
# Host-managed zoned devices.  Before zone write plugging (6.10) the core
# only offers schedulers that lock zones, which ctxsched does not: it must
# not be offered.  From 6.10 the core orders zone writes itself: ctxsched
# must run sequential zone writes correctly.
# timeout: 300
. tests/lib.sh

cs_load
cs_nullb_create znb size=128 zoned=1 zone_size=8 zone_nr_conv=2
dev=/dev/znb
cs_assert_eq "zoned model" host-managed "$(cat /sys/block/znb/queue/zoned)"
if cs_kernel_at_least 6 10; then
	cs_sched_set "$dev" ctxsched
	fio --name=zw --filename="$dev" --zonemode=zbd --direct=1 --rw=write \
	    --bs=64k --size=96m --ioengine=libaio --iodepth=8 \
	    --verify=crc32c --verify_fatal=1 > /tmp/fio-z.log 2>&1 ||
		{ cat /tmp/fio-z.log; cs_fail "zoned write/verify"; }
	cs_check_idle "$dev"
else
	grep -qw ctxsched /sys/block/znb/queue/scheduler &&
		cs_fail "ctxsched offered for a zoned device on $(uname -r)"
	echo ctxsched > /sys/block/znb/queue/scheduler 2>/dev/null &&
		cs_fail "ctxsched accepted for a zoned device on $(uname -r)"
	cs_assert_eq "scheduler kept" mq-deadline "$(cs_sched_of "$dev")"
fi
echo ok
