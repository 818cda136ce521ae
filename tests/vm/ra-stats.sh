# SPDX-License-Identifier: GPL-2.0
# Readahead accounting (debugfs ctxsched/readahead/stats) and the
# ctxsched:readahead trace event.  Each workload of tests/tools/ra-work.py
# runs on a file of an ext4 disk with a cold page cache, and the disk's own
# table must show its pattern:
#   a sequential read          initial, then async; windows reach EOF;
#                              the pages read add up to the file
#   a sequential read from the middle of a file: its second read is
#                              sequential (the first looks random)
#   random 4 KiB reads         random, no async
#   two streams on one fd      context
#   fadvise RANDOM, WILLNEED   forced
#   mmap, pages in order       mmap
#   1 MiB reads, 1 MiB apart   oversize
# All of them in a row fill every row of the table, which is printed.
# A write resets the tables.  The trace event is off until enabled, then
# carries the reader, the file and the window.  Counting is off by default
# (ra_hooks=0: nothing probed, nothing counted) and switched at run time or
# at load; bad ra_hooks values are refused and change nothing.
# timeout: 600
. tests/lib.sh

stats=$CS_DEBUGFS/readahead/stats
work() { python3 tests/tools/ra-work.py "$@" || cs_fail "ra-work $*"; }

param=/sys/module/ctxsched/parameters/ra_hooks
hooked() { grep -q '^hooks .*page_cache_sync_ra.*page_cache_async_ra' "$stats"; }

cs_load
[ -f "$stats" ] || cs_fail "no $stats"
cs_assert_eq "ra_hooks default" N "$(cat $param)"
grep -q '^hooks none' "$stats" || cs_fail "hooks in by default: $(grep '^hooks' "$stats")"
for v in abc 2 -1; do
	( echo "$v" > $param ) 2>/dev/null && cs_fail "ra_hooks took '$v'"
done
cs_assert_eq "ra_hooks after bad input" N "$(cat $param)"
echo 1 > $param || cs_fail "cannot set ra_hooks=1"
hooked || cs_fail "readahead hooks missing: $(grep '^hooks' "$stats")"
( echo abc > $param ) 2>/dev/null && cs_fail "ra_hooks took 'abc'"
cs_assert_eq "ra_hooks after bad input" Y "$(cat $param)"

# File size, MiB: the debug kernel (quick mode) is slow to write them.
mb=$(cs_size 32 8)
pages=$((mb * 256))
cs_nullb_create rab size=512
cs_sched_set /dev/rab ctxsched
echo 128 > /sys/block/rab/queue/read_ahead_kb
mkfs.ext4 -q -F /dev/rab || cs_fail "mkfs.ext4"
mnt=/mnt/rab
mkdir -p $mnt
mount /dev/rab $mnt || cs_fail "mount"
for f in a b c d e; do
	dd if=/dev/urandom of=$mnt/$f bs=1M count="$mb" status=none ||
		cs_fail "cannot write $f"
done
sync

# col PATTERN COLUMN: a value of rab's table (count, sync_count, ...).
col() {
	awk -v p="$1" -v c="$2" '
		/^\[/ { mine = ($1 == "[rab") }
		mine && $1 == "pattern" { for (i = 1; i <= NF; i++) h[$i] = i }
		mine && $1 == p { print $(h[c]); found = 1 }
		END { if (!found) print 0 }' "$stats"
}
n() { col "$1" count; }

# phase NAME: cold cache and clean tables before a workload.
phase() {
	echo 3 > /proc/sys/vm/drop_caches
	echo 1 > "$stats" || cs_fail "cannot reset $stats"
	cs_log "phase $1"
}
show() {
	awk '/^\[rab/ { p = 1 } /^$/ { p = 0 } p' "$stats" | sed 's/^/#   /'
}

phase reset
grep -q '^\[rab' "$stats" && cs_fail "rab still listed after a reset"

phase sequential
work seq $mnt/a
show
[ "$(n initial)" -ge 1 ] || cs_fail "sequential read: no initial readahead"
[ "$(n async)" -ge $((mb * 2)) ] ||
	cs_fail "sequential read: $(n async) async (>= $((mb * 2)) expected)"
[ "$(n random)" -le 2 ] || cs_fail "sequential read: $(n random) random"
eof=$(($(col async eof_count) + $(col sequential eof_count) + $(col initial eof_count)))
[ "$eof" -ge 1 ] || cs_fail "sequential read: no window reached EOF"
got=0
for p in initial sequential async; do
	got=$((got + $(n $p) * $(col $p actual)))
done
# Averages are rounded down, hence 90%.
[ "$got" -ge $((pages * 9 / 10)) ] && [ "$got" -le $((pages * 11 / 10)) ] ||
	cs_fail "sequential read: readahead brought $got pages for $pages"

phase mid-file
work mid $mnt/a 4
show
[ "$(n sequential)" -ge 1 ] || cs_fail "read from mid-file: no sequential readahead"
[ "$(n initial)" -eq 0 ] || cs_fail "read from mid-file: $(n initial) initial"

phase random
work random $mnt/b 400
show
[ "$(n random)" -ge 300 ] || cs_fail "random reads: $(n random) random of 400"
[ "$(n async)" -le 2 ] || cs_fail "random reads: $(n async) async"

phase interleaved
work interleave $mnt/c
show
[ "$(n context)" -ge 4 ] || cs_fail "interleaved streams: $(n context) context"

phase fadvise-random
work fadv-random $mnt/d
show
# One call per 64 KiB read: more would be counting twice.
reads=$((mb * 16))
[ "$(n forced)" -ge $((reads * 8 / 10)) ] && [ "$(n forced)" -le $((reads * 12 / 10)) ] ||
	cs_fail "FADV_RANDOM: $(n forced) forced for $reads reads"
[ "$(n async)" -eq 0 ] || cs_fail "FADV_RANDOM: $(n async) async"
[ "$(n initial)" -eq 0 ] || cs_fail "FADV_RANDOM: $(n initial) initial"

phase willneed
work willneed $mnt/d 8
show
[ "$(n forced)" -ge 1 ] && [ "$(n forced)" -le 4 ] ||
	cs_fail "WILLNEED: $(n forced) forced for one call"

phase mmap
work mmap $mnt/e
show
[ "$(n mmap)" -ge 10 ] || cs_fail "mmap: $(n mmap) mmap"
for p in initial sequential async context random; do
	[ "$(n $p)" -eq 0 ] || cs_fail "mmap: $(n $p) $p"
done

phase oversize
work big $mnt/a
show
[ "$(n oversize)" -ge $((mb * 3 / 8)) ] ||
	cs_fail "$((mb / 2)) reads of 1 MiB: $(n oversize) oversize"

phase all
work seq $mnt/a
work mid $mnt/b 4
work random $mnt/b 400
work interleave $mnt/c
work fadv-random $mnt/d
work willneed $mnt/d 8
echo 3 > /proc/sys/vm/drop_caches
work mmap $mnt/e
work big $mnt/b
echo "# $stats after all workloads:"
sed 's/^/#   /' "$stats"
for p in initial sequential async context random oversize forced mmap; do
	[ "$(n $p)" -gt 0 ] || cs_fail "no $p readahead after all workloads"
done

# The trace event: off by default, then one line per call.
tr=/sys/kernel/tracing
ev=$tr/events/ctxsched/readahead
[ -d $ev ] || cs_fail "no ctxsched:readahead event"
cs_assert_eq "readahead event enabled by default" 0 "$(cat $ev/enable)"
echo 3 > /proc/sys/vm/drop_caches
echo > $tr/trace
echo 1 > $ev/enable
dd if=$mnt/a of=/dev/null bs=64k count=64 status=none
echo 0 > $ev/enable
ino=$(stat -c %i $mnt/a)
dev="$(stat -c %Hd:%Ld $mnt/a)"
grep "readahead: dev $dev ino $ino " $tr/trace | head -3 | sed 's/^/#   /'
grep -q "dd-[0-9]*.* readahead: dev $dev ino $ino pid [0-9]* comm dd req 0+[0-9]* ra 0+[0-9]*-[0-9]* async 0 actual [1-9][0-9]* pattern initial" $tr/trace ||
	cs_fail "no initial readahead event of dd on $dev ino $ino"
grep -q "readahead: dev $dev ino $ino .* comm dd .* async 1 actual [0-9]* pattern async" $tr/trace ||
	cs_fail "no async readahead event of dd"
echo > $tr/trace

# Counting off: the hooks go, reads are not counted.
echo 0 > $param || cs_fail "cannot set ra_hooks=0"
grep -q '^hooks none' "$stats" || cs_fail "hooks left in: $(grep '^hooks' "$stats")"
phase off
work seq $mnt/a
grep -q '^\[rab' "$stats" && cs_fail "reads counted with ra_hooks=0"

umount $mnt
cs_check_idle /dev/rab
cs_sched_set /dev/rab none
cs_nullb_remove rab

# At load: bad values refused, ra_hooks=1 probes from the start.
rmmod ctxsched || cs_fail "rmmod"
for v in abc 2x; do
	modprobe ctxsched ra_hooks=$v 2>/dev/null && cs_fail "ra_hooks=$v accepted"
done
modprobe ctxsched ra_hooks=1 || cs_fail "modprobe ra_hooks=1"
hooked || cs_fail "no hooks after modprobe ra_hooks=1"
rmmod ctxsched || cs_fail "rmmod after ra_hooks=1"
echo ok
