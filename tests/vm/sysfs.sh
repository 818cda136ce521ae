# SPDX-License-Identifier: GPL-2.0
# Every knob under queue/iosched/ shows its default, takes values in range
# and refuses anything else with EINVAL, keeping its value.
# timeout: 400
. tests/lib.sh

cs_load
cs_nullb_create sysb size=64
dev=/dev/sysb
cs_sched_set "$dev" ctxsched
d=/sys/block/sysb/queue/iosched

# name default min max (CFQ's names, units and defaults)
knobs="quantum 8 1 4096
fifo_expire_sync 125 1 60000
fifo_expire_async 250 1 60000
back_seek_max 16384 0 1073741824
back_seek_penalty 2 1 1000
slice_sync 100 1 60000
slice_sync_us 100000 1 60000000
slice_async 40 1 60000
slice_async_us 40000 1 60000000
slice_async_rq 2 1 4096
slice_idle 8 0 1000
slice_idle_us 8000 0 1000000
group_idle 8 0 1000
group_idle_us 8000 0 1000000
low_latency 1 0 1
target_latency 300 1 60000
target_latency_us 300000 1 60000000"

expected=$(echo "$knobs" | awk '{print $1}' | sort | tr '\n' ' ')
cs_assert_eq "knob set" "$expected" "$(ls "$d" | sort | tr '\n' ' ')"

write() { # file value -> prints the error of the write, empty on success
	( echo -n "$2" > "$1" ) 2>&1 | sed 's/.*: //'
}

while read -r k def min max; do
	f=$d/$k
	cs_assert_eq "$k default" "$def" "$(cat "$f")"
	for v in "$min" "$max" "$def"; do
		[ -z "$(write "$f" "$v")" ] || cs_fail "$k: $v refused"
		cs_assert_eq "$k after writing $v" "$v" "$(cat "$f")"
	done
	bad=("abc" "-1" "1.5" " " "0x10" "12abc" "1 2" "99999999999999999999"
	     "$((max + 1))")
	[ "$min" -gt 0 ] && bad+=("$((min - 1))")
	for v in "${bad[@]}"; do
		err=$(write "$f" "$v")
		cs_assert_eq "$k: error for '$v'" "Invalid argument" "$err"
		cs_assert_eq "$k after refused '$v'" "$def" "$(cat "$f")"
	done
	# A trailing newline, as echo writes, is accepted.
	echo "$def" > "$f" || cs_fail "$k: refused '$def\\n'"
done <<< "$knobs"

# The ms and us files show one value.
echo 5500 > "$d/slice_idle_us" || cs_fail "slice_idle_us 5500"
cs_assert_eq "slice_idle after slice_idle_us=5500" 5 "$(cat "$d/slice_idle")"
echo 7 > "$d/slice_sync" || cs_fail "slice_sync 7"
cs_assert_eq "slice_sync_us after slice_sync=7" 7000 "$(cat "$d/slice_sync_us")"
echo ok
