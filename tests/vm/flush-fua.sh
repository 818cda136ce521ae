# SPDX-License-Identifier: GPL-2.0
# A device with a volatile write cache and FUA: fsync and O_SYNC writes send
# flushes and FUA writes through ctxsched; discards and a bandwidth-limited
# device (the driver pushes back, requests wait in the dispatch list) too.
# timeout: 600
. tests/lib.sh

cs_load
cs_nullb_create fnb size=128 cache_size=32 ?fua=1 discard=1 irqmode=1
dev=/dev/fnb
cs_assert_eq "write cache" "write back" "$(cat /sys/block/fnb/queue/write_cache)"
cs_sched_set "$dev" ctxsched
flushes() { awk '{print $16}' /sys/block/fnb/stat; }
f0=$(flushes)
cs_fio_verify "$dev" fua-sync --rw=randwrite --bs=4k \
	--size=$(cs_size 16m 4m) --direct=1 \
	--sync=1 --iodepth=8
cs_fio_verify "$dev" fua-fsync --rw=write --bs=16k \
	--size=$(cs_size 32m 8m) --direct=0 \
	--ioengine=psync --fsync=8
[ "$(flushes)" -gt "$f0" ] || cs_fail "no flush reached the device"
fio --name=trim --filename="$dev" --rw=randtrim --bs=64k --size=64m \
	--ioengine=libaio --iodepth=8 > /tmp/fio-trim.log 2>&1 ||
	{ cat /tmp/fio-trim.log; cs_fail "discard"; }
cs_check_idle "$dev"
cs_sched_set "$dev" none
cs_nullb_remove fnb

cs_nullb_create bwnb size=64 mbps=20 hw_queue_depth=4
dev=/dev/bwnb
cs_sched_set "$dev" ctxsched
cs_fio_verify "$dev" bw-limited --rw=randwrite --bs=16k \
	--size=$(cs_size 16m 4m) \
	--direct=1 --iodepth=32
cs_check_idle "$dev"
echo ok
