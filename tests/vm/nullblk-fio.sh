# SPDX-License-Identifier: GPL-2.0
# Data integrity through ctxsched on null_blk with 1 and 4 hardware queues,
# queue depth 1 and 64: random and sequential writes, direct and buffered,
# each read back from the device and verified (crc32c).  Afterwards nothing
# may be left queued or in flight, and every inserted request was dispatched.
# timeout: 900
. tests/lib.sh

cs_load
sz=$(cs_size 8m 2m)
# Quick mode keeps the two corners and random writes (under the debug
# kernel each fio run costs 15-60 s whatever its size: 638 s in all for
# both patterns on a slow CI machine).
for cfg in $(cs_size "1:1 1:64 4:1 4:64" "1:1 4:64"); do
	IFS=: read -r nq depth <<< "$cfg"
	name=nbq${nq}d${depth}
	cs_nullb_create "$name" size=128 submit_queues="$nq" ?poll_queues=0 \
		hw_queue_depth="$depth" irqmode=1
	dev=/dev/$name
	nr_hw=$(ls -d /sys/block/$name/mq/*/ | wc -l)
	cs_assert_eq "$name hardware queues" "$nq" "$nr_hw"
	cs_sched_set "$dev" ctxsched
	for rw in $(cs_size "randwrite write" randwrite); do
		cs_fio_verify "$dev" "$name-$rw-direct" --rw=$rw --bs=4k \
			--size=$sz --direct=1 --iodepth=32 --numjobs=1
		cs_fio_verify "$dev" "$name-$rw-buffered" --rw=$rw --bs=16k \
			--size=$sz --direct=0 --iodepth=1 --ioengine=psync \
			--end_fsync=1
	done
	# Concurrent jobs on separate areas mix sync reads and writes.
	cs_fio_verify "$dev" "$name-mixed" --rw=randwrite --bs=8k \
		--size=$(cs_size 4m 1m) \
		--offset_increment=16m --numjobs=4 --direct=1 --iodepth=8
	cs_check_idle "$dev"
	ins=$(( $(cs_stat "$dev" inserted) + $(cs_stat "$dev" head_inserted) ))
	dis=$(cs_stat "$dev" dispatched)
	mrg=$(cs_stat "$dev" rq_merged)
	req=$(cs_stat "$dev" requeued)
	[ "$dis" -gt 0 ] || cs_fail "$name: nothing dispatched by ctxsched"
	# Requests merged after insertion leave without being dispatched.
	[ "$ins" -ge "$dis" ] && [ "$ins" -le $((dis + mrg)) ] ||
		cs_fail "$name: inserted $ins, dispatched $dis, merged $mrg"
	cs_assert_eq "$name completed" "$((dis - req))" "$(cs_stat "$dev" completed)"
	cs_sched_set "$dev" none
	cs_nullb_remove "$name"
done
echo ok
