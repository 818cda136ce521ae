# SPDX-License-Identifier: GPL-2.0
# ctxsched on a SCSI disk (scsi_debug): verified I/O, SCSI passthrough
# (SG_IO) next to it, and requeues: every 50th command fails with a
# transport error that the SCSI midlayer retries through the requeue path.
# timeout: 600
. tests/lib.sh

cs_load
modprobe sd_mod || cs_fail "cannot load sd_mod"
modprobe scsi_debug dev_size_mb=96 max_queue=32 || cs_fail "cannot load scsi_debug"
udevadm settle 2>/dev/null
dev=
for _ in $(seq 50); do
	for s in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/*; do
		[ -e "$s" ] && dev=/dev/$(basename "$s")
	done
	[ -n "$dev" ] && [ -b "$dev" ] && break
	sleep 0.2
done
[ -b "$dev" ] || cs_fail "no scsi_debug disk"
cs_sched_set "$dev" ctxsched
# From now on every 50th command fails with a retryable transport error.
echo 50 > /sys/bus/pseudo/drivers/scsi_debug/every_nth
echo 16 > /sys/bus/pseudo/drivers/scsi_debug/opts

# Passthrough commands run beside file-system-style I/O.  SG_IO commands
# are not retried by the midlayer, so one that draws the injected transport
# error fails with "Aborted command": a real application retries it, and so
# does this one (twice at most; every 50th command cannot hit one command
# three times running).  A lost passthrough request hangs and times out.
sg_retry() {
	"$@" || "$@" || "$@"
}
( for _ in $(seq "$(cs_size 40 10)"); do
	sg_retry sg_turs "$dev" && sg_retry sg_inq "$dev" >/dev/null &&
	sg_retry sg_read if="$dev" bs=512 count=64 bpt=16 >/dev/null 2>&1 ||
		exit 1
  done ) &
sg=$!
cs_fio_verify "$dev" sd-randwrite --rw=randwrite --bs=4k \
	--size=$(cs_size 32m 8m) \
	--direct=1 --iodepth=16
cs_fio_verify "$dev" sd-write-buffered --rw=write --bs=64k \
	--size=$(cs_size 32m 8m) \
	--direct=0 --ioengine=psync --end_fsync=1
wait "$sg" || cs_fail "SG_IO passthrough commands failed"
cs_check_idle "$dev"
[ "$(cs_stat "$dev" requeued)" -gt 0 ] ||
	cs_fail "no requeue seen (every_nth transport errors should requeue)"
cs_assert_eq "completed" "$(cs_stat "$dev" dispatched)" \
	"$(( $(cs_stat "$dev" completed) + $(cs_stat "$dev" requeued) ))"
echo ok
