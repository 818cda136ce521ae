# SPDX-License-Identifier: GPL-2.0
# ra_autotune on hddsim's sata disk, read through the page cache as S6
# does.  Two sequential readers half a disk apart must move read_ahead_kb
# up from 128 KiB (within ra_max_kb); 4 KiB random readers must not raise
# it.  Turning autotune off, or switching to another scheduler, gives the
# user's read_ahead_kb back; a value the user writes while autotune is on
# becomes the one given back.  Bad knob values are refused and change
# nothing.  Autotune puts the readahead hooks in while it is on, even with
# ra_hooks=0 (the default), and takes them out after.
# timeout: 300
. tests/lib.sh

cs_load
modprobe hddsim devices=sata || cs_fail "modprobe hddsim"
udevadm settle 2>/dev/null
dev=hddsim0
[ -b /dev/$dev ] || cs_fail "no /dev/$dev"
cs_sched_set /dev/$dev ctxsched
q=/sys/block/$dev/queue
io=$q/iosched
ra=$q/read_ahead_kb
size=$(blockdev --getsize64 /dev/$dev)
secs=$(cs_size 6 4)

cs_assert_eq "ra_autotune default" 0 "$(cat $io/ra_autotune)"
cs_assert_eq "ra_min_kb default" 128 "$(cat $io/ra_min_kb)"
cs_assert_eq "ra_max_kb default" 4096 "$(cat $io/ra_max_kb)"
# refuse FILE VALUE...: every value is refused and FILE keeps its value.
refuse() {
	local f=$io/$1 v before
	shift
	before=$(cat "$f")
	for v in "$@"; do
		( echo -n "$v" > "$f" ) 2>/dev/null && cs_fail "$(basename "$f") took '$v'"
	done
	cs_assert_eq "$(basename "$f") after bad input" "$before" "$(cat "$f")"
}
refuse ra_autotune 2 -1 abc 1x
refuse ra_min_kb 0 2 8192 -4 abc
refuse ra_max_kb 64 65537 abc -1
echo 512 > $io/ra_max_kb && echo 256 > $io/ra_min_kb || cs_fail "valid limits refused"
cs_assert_eq "ra_max_kb" 512 "$(cat $io/ra_max_kb)"
refuse ra_max_kb 128
echo 128 > $io/ra_min_kb && echo 4096 > $io/ra_max_kb || cs_fail "cannot restore limits"

# readers KIND: buffered readers on the raw disk for $secs s; prints the
# largest read_ahead_kb seen meanwhile.
readers() {
	local kind=$1 pid top=0 v
	if [ "$kind" = seq ]; then
		set -- --rw=read --bs=64k --numjobs=2 --offset_increment=$((size / 2))
	else
		set -- --rw=randread --bs=4k --numjobs=2
	fi
	echo 3 > /proc/sys/vm/drop_caches
	fio --name=ra-$kind --filename=/dev/$dev --direct=0 --ioengine=psync \
	    --size=1g --time_based --runtime="$secs" "$@" \
	    > /tmp/ra-$kind.log 2>&1 &
	pid=$!
	while kill -0 $pid 2>/dev/null; do
		v=$(cat $ra)
		[ "$v" -gt "$top" ] && top=$v
		sleep 0.2
	done
	wait $pid || { cat /tmp/ra-$kind.log >&2; cs_fail "fio $kind"; }
	echo "$top"
}

stats=$CS_DEBUGFS/readahead/stats
# ra_autotune's store runs under the elevator's locks, so a work item moves
# the hooks shortly after it; wait up to 5 s for the state named by $1.
hooks_become() {
	local i
	for i in $(seq 50); do
		grep -q "^hooks $1" $stats && return 0
		sleep 0.1
	done
	return 1
}
grep -q '^hooks none' $stats || cs_fail "hooks in before autotune"
echo 128 > $ra
echo 1 > $io/ra_autotune || cs_fail "ra_autotune=1 refused"
hooks_become '.*page_cache_sync_ra' || cs_fail "autotune without hooks"
top=$(readers seq)
cs_log "sequential readers: read_ahead_kb up to $top (now $(cat $ra))"
[ "$top" -ge 512 ] || cs_fail "autotune did not raise the window for streams ($top KiB)"
[ "$top" -le 4096 ] || cs_fail "window $top beyond ra_max_kb"
echo 0 > $io/ra_autotune
cs_assert_eq "read_ahead_kb given back" 128 "$(cat $ra)"
hooks_become none || cs_fail "hooks left in after autotune"

echo 1 > $io/ra_autotune
top=$(readers rand)
cs_log "random readers: read_ahead_kb up to $top (now $(cat $ra))"
[ "$top" -le 128 ] || cs_fail "autotune raised the window for random reads ($top KiB)"
echo 0 > $io/ra_autotune
cs_assert_eq "read_ahead_kb after random" 128 "$(cat $ra)"

# A user's write while autotune is on is what comes back.
echo 1 > $io/ra_autotune
echo 768 > $ra
echo 0 > $io/ra_autotune
cs_assert_eq "user's read_ahead_kb kept" 768 "$(cat $ra)"

# Switching scheduler with a raised window gives the setting back.
echo 128 > $ra
echo 1 > $io/ra_autotune
top=$(readers seq)
[ "$top" -gt 128 ] || cs_fail "window not raised before the switch"
cs_sched_set /dev/$dev mq-deadline
cs_assert_eq "read_ahead_kb after switching away" 128 "$(cat $ra)"
cs_sched_set /dev/$dev ctxsched
cs_assert_eq "ra_autotune on a new ctxsched instance" 0 "$(cat $io/ra_autotune)"
cs_check_idle /dev/$dev

hooks_become none || cs_fail "hooks left in after the switch"
cs_sched_set /dev/$dev none
echo ok
