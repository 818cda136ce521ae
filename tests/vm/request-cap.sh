# SPDX-License-Identifier: GPL-2.0
# max_request_kb: with the cap at 16 KiB, 4 KiB sequential direct reads that
# pile up behind a slow disk are merged only up to 16 KiB, so every
# dispatched read is at most 32 sectors; without the cap they grow larger.
# The data read is the same either way.  Bad values are refused.
# timeout: 300
. tests/lib.sh

cs_load
cs_serial_disk cap
cs_sched_set /dev/cap ctxsched
# After selecting the scheduler, which resets it to twice the device depth.
echo 64 > /sys/block/cap/queue/nr_requests || cs_fail "nr_requests"
f=/sys/block/cap/queue/iosched/max_request_kb
cs_assert_eq "default max_request_kb" 0 "$(cat $f)"
for v in 1 3 -4 abc 1048577; do
	( echo -n "$v" > $f ) 2>/dev/null && cs_fail "max_request_kb took '$v'"
done
cs_assert_eq "max_request_kb after bad input" 0 "$(cat $f)"

tr=/sys/kernel/tracing
largest() { # -> largest dispatched read, in sectors
	echo 0 > $tr/tracing_on
	echo > $tr/trace
	echo 1 > /sys/block/cap/trace/enable
	echo blk > $tr/current_tracer
	echo 1 > $tr/tracing_on
	fio --name=seq --filename=/dev/cap --rw=read --bs=4k --direct=1 \
	    --ioengine=libaio --iodepth=32 --iodepth_batch_submit=1 \
	    --size=16m --offset="$1" --invalidate=0 > /dev/null ||
		cs_fail "fio"
	echo 0 > $tr/tracing_on
	# Read the buffer before changing the tracer, which clears it.
	awk '$0 ~ / D +R/ { for (i = 1; i < NF; i++) if ($i == "+") print $(i + 1) }' \
		$tr/trace | sort -n | tail -1
	echo nop > $tr/current_tracer
	echo 0 > /sys/block/cap/trace/enable
}

big=$(largest 0)
echo 16 > $f || cs_fail "max_request_kb 16 refused"
capped=$(largest $((256 << 20)))
refused=$(cs_stat /dev/cap cap_refused)
cs_log "largest read: $big sectors uncapped, $capped capped; $refused merges refused"
[ "${big:-0}" -gt 32 ] || cs_fail "reads did not merge beyond 16 KiB without the cap ($big)"
[ "${capped:-999}" -le 32 ] || cs_fail "a read of $capped sectors exceeds the cap"
[ "$refused" -gt 0 ] || cs_fail "no merge was refused"
echo 0 > $f
cs_check_idle /dev/cap
echo ok
