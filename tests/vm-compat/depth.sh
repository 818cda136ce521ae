# SPDX-License-Identifier: GPL-2.0
# Depth updates through compat/'s ->depth_updated() (per hardware queue
# before 6.17.3, per queue since): a new queue/nr_requests changes the async
# depth ctxsched applies, with verified I/O in between.  On 7.0 and later
# the core keeps the async limit (queue/async_depth): ctxsched starts it
# from its own default, applies what the user writes there and follows the
# core when nr_requests scales it.
# timeout: 300
. tests/lib.sh

cs_load
cs_nullb_create dnb size=128 hw_queue_depth=64 irqmode=1
dev=/dev/dnb
q=/sys/block/dnb/queue
cs_sched_set "$dev" ctxsched
ad() { cs_stat "$dev" async_depth; }
io() { # name: async (buffered) and sync writes, read back and verified
	cs_fio_verify "$dev" "$1-async" --rw=randwrite --bs=4k \
		--size=$(cs_size 16m 4m) --direct=0 --iodepth=1 --ioengine=psync
	cs_fio_verify "$dev" "$1-sync" --rw=randwrite --bsrange=4k-64k \
		--size=$(cs_size 16m 4m) --direct=1 --iodepth=32 --offset=64m
	cs_check_idle "$dev"
}

a0=$(ad)
n0=$(cat "$q/nr_requests")
echo "nr_requests $n0, async_depth $a0"
[ "${a0:-0}" -gt 0 ] && [ "$a0" -le "$n0" ] ||
	cs_fail "async_depth $a0 not within 1..nr_requests ($n0)"
io start

for n in 8 32 "$n0"; do
	echo "$n" > "$q/nr_requests" || cs_fail "nr_requests $n refused"
	a=$(ad)
	echo "nr_requests $n, async_depth $a"
	[ "${a:-0}" -gt 0 ] && [ "$a" -le "$n" ] ||
		cs_fail "after nr_requests=$n: async_depth $a not within 1..$n"
	eval "a_$n=$a"
	# Quick mode (the debug kernel): I/O at the smallest depth only.
	[ "$n" = 8 ] || [ "$(cs_size full quick)" = full ] && io "nr$n"
done
# shellcheck disable=SC2154
[ "$a_8" -lt "$a_32" ] ||
	cs_fail "async_depth did not follow nr_requests (8: $a_8, 32: $a_32)"
cs_assert_eq "async_depth back at nr_requests $n0" "$a0" "$(ad)"

if cs_kernel_at_least 7 0; then
	[ -f "$q/async_depth" ] || cs_fail "no queue/async_depth on $(uname -r)"
	cs_assert_eq "queue/async_depth is ctxsched's default" "$a0" "$(cat "$q/async_depth")"
	echo 5 > "$q/async_depth" || cs_fail "queue/async_depth 5 refused"
	cs_assert_eq "async_depth after queue/async_depth=5" 5 "$(ad)"
	io user5
	# The core scales the user's limit with nr_requests.
	echo $((n0 / 2)) > "$q/nr_requests" || cs_fail "nr_requests $((n0 / 2))"
	cs_assert_eq "ctxsched follows the core's scaled limit" \
		"$(cat "$q/async_depth")" "$(ad)"
	io scaled
else
	echo "no queue/async_depth before 7.0: ctxsched keeps its own limit"
fi
cs_sched_set "$dev" none
echo ok
