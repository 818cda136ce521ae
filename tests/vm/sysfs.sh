# SPDX-License-Identifier: GPL-2.0
# Every knob under queue/iosched/ shows its default, takes values in range
# and refuses anything else with EINVAL, keeping its value.
# timeout: 300
. tests/lib.sh

cs_load
cs_nullb_create sysb size=64
dev=/dev/sysb
cs_sched_set "$dev" ctxsched
d=/sys/block/sysb/queue/iosched

# name default min max (CFQ's names, units and defaults; ra_min_kb's
# maximum and ra_max_kb's minimum are each other's defaults)
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
target_latency_us 300000 1 60000000
max_request_kb 0 0 1048576
boost 8000 0 60000
boost_us 8000000 0 60000000
ra_autotune 0 0 1
ra_min_kb 128 4 4096
ra_max_kb 4096 128 65536"

export KNOBS=$knobs
# group_by and device_mode take words; group_by is checked in
# tests/vm/group-by.sh, device_mode below.
expected=$( { echo "$knobs" | awk '{print $1}'; echo group_by; echo device_mode; } |
	sort | tr '\n' ' ')
cs_assert_eq "knob set" "$expected" "$(ls "$d" | sort | tr '\n' ' ')"

# One Python process does all the writes: a shell per write is slow on the
# debug kernel.  Each write is a single write(2) of exactly the given bytes.
python3 - "$d" <<'PY' || cs_fail "knob validation failed"
import errno, os, sys
d = sys.argv[1]
knobs = [l.split() for l in os.environ["KNOBS"].strip().splitlines()]
bad = 0

def read(k):
    with open(os.path.join(d, k)) as f:
        return f.read().strip()

def write(k, v):
    fd = os.open(os.path.join(d, k), os.O_WRONLY)
    try:
        os.write(fd, v.encode())
        return 0
    except OSError as e:
        return e.errno
    finally:
        os.close(fd)

def fail(msg):
    global bad
    print("FAIL:", msg)
    bad = 1

for k, dflt, lo, hi in knobs:
    if read(k) != dflt:
        fail(f"{k}: default {read(k)}, expected {dflt}")
    for v in (lo, hi, dflt):
        if write(k, v) != 0 or read(k) != v:
            fail(f"{k}: {v} not taken (reads {read(k)})")
    refused = ["abc", "-1", "1.5", " ", "0x10", "12abc", "1 2", "+",
               "99999999999999999999", str(int(hi) + 1), "1\n2"]
    if int(lo) > 0:
        refused.append(str(int(lo) - 1))
    for v in refused:
        err = write(k, v)
        if err != errno.EINVAL:
            fail(f"{k}: {v!r} gave {errno.errorcode.get(err, err)}, expected EINVAL")
        if read(k) != dflt:
            fail(f"{k}: {v!r} changed the value to {read(k)}")
    # A trailing newline, as echo writes, is accepted.
    if write(k, dflt + "\n") != 0 or read(k) != dflt:
        fail(f"{k}: {dflt!r} with a newline refused")
print(f"{len(knobs)} knobs checked")
sys.exit(bad)
PY

# A cap below a page is refused.
for v in 1 3; do
	( echo "$v" > "$d/max_request_kb" ) 2>/dev/null &&
		cs_fail "max_request_kb took $v"
done
echo 4 > "$d/max_request_kb" || cs_fail "max_request_kb 4"

# device_mode: auto by default, shown with the mode in effect; serial and
# parallel force one; anything else is refused and changes nothing.
dm=$d/device_mode
grep -qE '^auto \[(serial|parallel)\]$' "$dm" || cs_fail "device_mode default: $(cat "$dm")"
echo parallel > "$dm" || cs_fail "device_mode parallel"
cs_assert_eq "device_mode forced parallel" "parallel [parallel]" "$(cat "$dm")"
echo serial > "$dm" || cs_fail "device_mode serial"
cs_assert_eq "device_mode forced serial" "serial [serial]" "$(cat "$dm")"
for v in fast 1 "serial parallel" Auto; do
	( printf '%s' "$v" > "$dm" ) 2>/dev/null && cs_fail "device_mode took '$v'"
	cs_assert_eq "device_mode after '$v'" "serial [serial]" "$(cat "$dm")"
done
grep -q '^device_mode serial$' "$CS_DEBUGFS/$(basename "$(dirname "$(dirname "$d")")")/model" ||
	cs_fail "debugfs model does not show the forced mode"
echo auto > "$dm" || cs_fail "device_mode auto"
grep -qE '^auto \[' "$dm" || cs_fail "device_mode back to auto: $(cat "$dm")"

# The ms and us files show one value.
echo 5500 > "$d/slice_idle_us" || cs_fail "slice_idle_us 5500"
cs_assert_eq "slice_idle after slice_idle_us=5500" 5 "$(cat "$d/slice_idle")"
echo 7 > "$d/slice_sync" || cs_fail "slice_sync 7"
cs_assert_eq "slice_sync_us after slice_sync=7" 7000 "$(cat "$d/slice_sync_us")"
echo ok
