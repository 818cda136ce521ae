# SPDX-License-Identifier: GPL-2.0
# Sync reads under an async write flood on a serialising disk: the worst
# read latency stays below fifo_expire_sync + slice_sync (125 + 100 ms), and
# the writer still makes progress.  Neither job may invalidate the page
# cache (fio's default), which would make it write back the flood itself.
# timeout: 300
. tests/lib.sh

cs_load
cs_serial_disk lat
cs_sched_set /dev/lat ctxsched
bound_ms=$(( $(cat /sys/block/lat/queue/iosched/fifo_expire_sync) +
	     $(cat /sys/block/lat/queue/iosched/slice_sync) ))

# Buffered writes: write-back floods the disk with async requests.  (fio's
# default invalidate would make the writer flush the page cache itself, with
# sync writes.)
fio --name=flood --filename=/dev/lat --rw=write --bs=1m --offset=0 \
	--size=400m --ioengine=psync --direct=0 --invalidate=0 --runtime=25 \
	--time_based \
	--output-format=json > /tmp/flood.json &
w=$!
sleep 3
fio --name=reader --filename=/dev/lat --rw=randread --bs=4k --direct=1 \
	--ioengine=psync --offset=512m --size=256m --rate_iops=20 --invalidate=0 \
	--runtime=15 --time_based --output-format=json > /tmp/reader.json ||
	cs_fail "reader failed"
wait "$w" || cs_fail "writer failed"
max_us=$(cs_fio_get /tmp/reader.json reader "j['read']['clat_ns']['max'] // 1000")
mean_us=$(cs_fio_get /tmp/reader.json reader "int(j['read']['clat_ns']['mean'] // 1000)")
reads=$(cs_fio_get /tmp/reader.json reader "j['read']['total_ios']")
written=$(cs_fio_get /tmp/flood.json flood "j['write']['io_kbytes']")
cs_log "reads $reads, mean $mean_us us, max $max_us us (bound $bound_ms ms); written $written KiB"
[ "$reads" -ge 200 ] || cs_fail "only $reads reads completed"
[ "$written" -ge 4096 ] || cs_fail "the writer was starved ($written KiB)"
[ "$max_us" -lt $((bound_ms * 1000)) ] ||
	cs_fail "worst read latency $max_us us >= $bound_ms ms"
cat /sys/kernel/debug/ctxsched/lat/stats
echo ok
