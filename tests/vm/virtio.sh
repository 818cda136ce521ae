# SPDX-License-Identifier: GPL-2.0
# ctxsched on a virtio-blk disk (the harness attaches one): verified direct
# and buffered I/O, then an ext4 file system built, filled and checked.
# timeout: 600
. tests/lib.sh

dev=/dev/vda
[ -b "$dev" ] || cs_fail "no virtio disk /dev/vda (run through tests/run)"
cs_load
cs_sched_set "$dev" ctxsched
cs_fio_verify "$dev" vd-randwrite --rw=randwrite --bs=4k \
	--size=$(cs_size 32m 8m) \
	--direct=1 --iodepth=32
cs_fio_verify "$dev" vd-write-buffered --rw=write --bs=128k \
	--size=$(cs_size 64m 16m) \
	--direct=0 --ioengine=psync --end_fsync=1
mkfs.ext4 -q -F "$dev" || cs_fail mkfs.ext4
mkdir -p /mnt/vd && mount "$dev" /mnt/vd || cs_fail mount
for i in $(seq "$(cs_size 200 50)"); do
	head -c $(( (i % 17 + 1) * 4096 )) /dev/urandom > "/mnt/vd/f$i"
done
(cd /mnt/vd && sha256sum f* > /tmp/sums)
umount /mnt/vd && echo 3 > /proc/sys/vm/drop_caches
mount "$dev" /mnt/vd || cs_fail remount
(cd /mnt/vd && sha256sum -c --quiet /tmp/sums) || cs_fail "file contents changed"
umount /mnt/vd
fsck.ext4 -fn "$dev" > /tmp/fsck.log 2>&1 || { cat /tmp/fsck.log; cs_fail fsck; }
cs_check_idle "$dev"
echo ok
