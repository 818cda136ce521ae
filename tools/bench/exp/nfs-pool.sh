#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nfs-pool.sh: a real pool of kernel-thread servers.  Linux's nfsd with 8
# threads serves two 600 MiB files, far apart on ext4 on hddsim's sata disk
# (about 0 and 8 GiB in), to the kernel's NFS client over loopback (NFSv3,
# NFSP_VERS to change).  Per repetition (NFSP_REPS, 3) and scheduler
# (NFSP_SCHEDS, "ctxsched none mq-deadline bfq", order rotated every
# repetition), after a drop of the page cache (the client's and the
# server's: one kernel): both files read at once by two dd bs=1M for
# NFSP_SECS (8) s, then file a alone.  One "NFSP rep=R sched=S streams=N
# a=MB/s [b=MB/s] total=MB/s disk=MB/s seeks=N rq_kb=KiB cpu=%" line per
# run (the disk's side: what it read, hddsim's seeks, the mean read's size,
# the vCPUs' busy share), ctxsched's counters' change over each of its runs
# and its device model's mode after it (NFSP_MODE: the device_mode to
# force, e.g. serial), and a summary: the median total per scheduler for 2
# and 1 streams and its ratio to none.  Before the runs, one traced 3 s
# read shows which tasks put the reads on the disk (block_bio_queue by
# comm) and how much each nfsd thread read (/proc/PID/io).
#
# Needs on the host (the guest's root): nfs-kernel-server (rpc.nfsd,
# rpc.mountd, exportfs; it pulls in nfs-common with mount.nfs and rpcbind),
# e2fsprogs (mkfs.ext4, filefrag).  Run (under 5 min under TCG):
#   tools/vm/run -k 6.12 --mem 3072 --modules DIR --out OUT -- \
#       bash tools/bench/exp/nfs-pool.sh
# with ctxsched.ko and hddsim.ko in DIR.  Not tools/bench/exp/lib.sh: that
# one loads hddsim with four disks; here the sata disk is alone.
cd "$(dirname "$0")/../../.." || exit 2
BENCH_OUT=/tmp/nfsp BENCH_S=nfs-pool
. tests/lib.sh
. tools/bench/lib.sh
mkdir -p "$BENCH_RAW"
BENCH_SCHEDS=${NFSP_SCHEDS:-ctxsched none mq-deadline bfq}
d=hddsim0
srv=/srv/nfsp cli=/mnt/nfsp
secs=${NFSP_SECS:-8} reps=${NFSP_REPS:-3} vers=${NFSP_VERS:-3}
lines=$BENCH_OUT/lines
st=$CS_DEBUGFS/$d/stats
names="coop_merged coop_split stream_moved idle_expired idle_hit slices"
t_start=$SECONDS

# --- the disk, the file system and the two files ---------------------------
modprobe hddsim devices=sata || cs_fail "modprobe hddsim devices=sata"
udevadm settle 2>/dev/null
[ -b /dev/$d ] || cs_fail "no /dev/$d after modprobe hddsim"
cs_load
modprobe bfq || cs_fail "modprobe bfq"
cs_sched_set /dev/$d mq-deadline
mkdir -p $srv $cli
# 10 GiB of the disk; few inodes and a small journal keep mkfs short, and
# every table is initialised now, so that no lazy-init thread writes later.
mkfs.ext4 -q -F -N 100000 -J size=64 \
	-E lazy_itable_init=0,lazy_journal_init=0 /dev/$d 10G ||
	cs_fail "mkfs.ext4 on /dev/$d"
mount -o noatime /dev/$d $srv || cs_fail "mounting /dev/$d on $srv"
# a at the start; a filler allocated (not written) behind it pushes b to
# about 8 GiB, and goes again.
dd if=/dev/zero of=$srv/a bs=1M count=600 conv=fsync status=none ||
	cs_fail "writing $srv/a"
fallocate -l 7400M $srv/fill || cs_fail "fallocate $srv/fill"
dd if=/dev/zero of=$srv/b bs=1M count=600 conv=fsync status=none ||
	cs_fail "writing $srv/b"
rm -f $srv/fill
sync
# first_block FILE: the first physical block (4 KiB) of FILE, from filefrag.
first_block() {
	filefrag -v "$1" | awk '$1 == "0:" { sub(/\.\..*/, "", $4); print $4; exit }'
}
pa=$(first_block $srv/a) pb=$(first_block $srv/b)
{ [ -n "$pa" ] && [ -n "$pb" ]; } || cs_fail "filefrag found no extents"
echo "NFSP-FILES a_block=$pa a_gib=$((pa >> 18)) a_extents=$(filefrag $srv/a | awk '{ print $2 }')" \
	"b_block=$pb b_gib=$((pb >> 18)) b_extents=$(filefrag $srv/b | awk '{ print $2 }')"
[ $(((pb - pa) >> 18)) -ge 4 ] || cs_fail "a and b less than 4 GiB apart"
bench_prefault
bench_log "disk ready"

# --- the NFS server and the client mount ------------------------------------
cs_nfs_serve $srv $cli "$vers"
t0=$SECONDS
# NFSv4: the first open waits until the grace time is over.
until head -c 4096 $cli/a > /dev/null 2> "$BENCH_OUT/open.err"; do
	[ $((SECONDS - t0)) -lt 60 ] ||
		cs_fail "cannot read $cli/a: $(tr '\n' ' ' < "$BENCH_OUT/open.err")"
	sleep 2
done
echo "NFSP-MOUNT $(awk -v m=$cli '$2 == m { print $3, $4 }' /proc/mounts)"
nfsd_pids=$(pgrep -x nfsd | tr '\n' ' ')
[ "$(wc -w <<< "$nfsd_pids")" = 8 ] || cs_fail "nfsd threads: '$nfsd_pids'"
bench_log "nfs ready (nfsd pids $nfsd_pids)"

# --- the runs ----------------------------------------------------------------
# read_mbs FILE: FILE's MB/s from the stats dd printed into it, or nothing.
read_mbs() {
	sed -n 's/^\([0-9]*\) bytes.* copied, \([0-9.e-]*\) s,.*/\1 \2/p' "$1" |
		awk '$2 > 0 { printf "%.1f", $1 / $2 / 1e6 }'
}
# readers SECS FILE...: read each FILE through the mount with its own dd, all
# at once, for SECS s (SIGINT makes dd print what it read); sets rd_out to
# "a=MB/s ... total=MB/s".
readers() {
	local t=$1 f mbs tot=0
	shift
	for f; do
		timeout -s INT "$t" dd if="$cli/$f" of=/dev/null bs=1M 2> "$BENCH_OUT/dd.$f" &
	done
	wait
	rd_out=
	for f; do
		grep -q 'dd: ' "$BENCH_OUT/dd.$f" &&
			cs_fail "reading $cli/$f: $(tr '\n' ' ' < "$BENCH_OUT/dd.$f")"
		mbs=$(read_mbs "$BENCH_OUT/dd.$f")
		[ -n "$mbs" ] || cs_fail "no rate from dd for $f: $(tr '\n' ' ' < "$BENCH_OUT/dd.$f")"
		rd_out+="$f=$mbs "
		tot=$(awk -v a="$tot" -v b="$mbs" 'BEGIN { printf "%.1f", a + b }')
	done
	rd_out+="total=$tot"
}
# disk_out: the disk's side of the run from snapshots wa to wb: MB/s read,
# hddsim's seeks, the mean read's KiB, the vCPUs' busy share in per cent.
declare -A wa wb
disk_out() {
	local us=$((wb[t_us] - wa[t_us])) ios=$((wb[rd_ios] - wa[rd_ios]))
	echo "disk=$(awk -v b=$(((wb[rd_sectors] - wa[rd_sectors]) * 512)) -v us=$us \
		'BEGIN { printf "%.1f", b / us }')" \
		"seeks=$((wb[hs_seeks] - wa[hs_seeks]))" \
		"rq_kb=$(((wb[rd_sectors] - wa[rd_sectors]) / 2 / (ios > 0 ? ios : 1)))" \
		"cpu=$(((wb[busy_ticks] - wa[busy_ticks]) * 100000000 / (BENCH_HZ * BENCH_CPUS * us)))"
}
snap() {
	local n
	for n in $names; do awk -v n="$n" '$1 == n { print $2 }' "$st"; done
}
pid_read() { # PID: its read_bytes
	awk '$1 == "read_bytes:" { print $2 }' "/proc/$1/io" 2>/dev/null || echo 0
}

# Who reads: one 3 s run of both streams (mq-deadline) with the block layer's
# bio_queue and rq_issue events traced, and each nfsd thread's read_bytes.
tr=/sys/kernel/tracing
[ -d $tr/events/block ] || cs_fail "no block events in $tr"
bench_set_sched $d mq-deadline || cs_fail "mq-deadline on $d"
bench_drop_caches
declare -A rb0
for p in $nfsd_pids; do rb0[$p]=$(pid_read "$p"); done
read -r -a ds0 < /sys/block/$d/stat
echo 16384 > $tr/buffer_size_kb
echo > $tr/trace
echo 1 > $tr/events/block/block_bio_queue/enable
echo 1 > $tr/events/block/block_rq_issue/enable
echo 1 > $tr/tracing_on
readers 3 a b
echo 0 > $tr/tracing_on
echo 0 > $tr/events/block/block_bio_queue/enable
echo 0 > $tr/events/block/block_rq_issue/enable
read -r -a ds1 < /sys/block/$d/stat
dev=$(cat /sys/block/$d/dev)
# "TASK-PID [CPU] ... EVENT: MAJ,MIN R ..." -> "EVENT COMM PID" for reads
sed -n "s/^ *\(.*\)-\([0-9]*\) *\[[0-9]*\] .* \(block_[a-z_]*\): ${dev/:/,} R.*/\3 \1 \2/p" \
	$tr/trace > "$BENCH_OUT/who"
echo > $tr/trace
echo "NFSP-WHO run: $rd_out; disk read $(((ds1[2] - ds0[2]) / 2048)) MiB"
for ev in block_bio_queue block_rq_issue; do
	echo "NFSP-WHO $ev by comm: $(awk -v e=$ev '$1 == e { n[$2]++ }
		END { for (c in n) printf "%s=%d ", c, n[c] }' "$BENCH_OUT/who")"
done
nb=$(awk '$1 == "block_bio_queue" && $2 == "nfsd" { p[$3] = 1 }
	END { print length(p) }' "$BENCH_OUT/who")
out='' nr=0
for p in $nfsd_pids; do
	v=$((($(pid_read "$p") - rb0[$p]) >> 20))
	out+="$p=${v}MiB "
	[ "$v" -gt 0 ] && nr=$((nr + 1))
done
echo "NFSP-WHO nfsd read_bytes: $out"
echo "NFSP-WHO distinct nfsd pids: $nb queued bios (trace), $nr read (/proc/PID/io), of 8"
[ "$nb" -gt 0 ] || cs_fail "no bio on $d came from an nfsd thread"
bench_settle $d

: > "$lines"
for ((rep = 0; rep < reps; rep++)); do
	for sched in $(bench_order "$rep"); do
		bench_set_sched $d "$sched" || cs_fail "cannot select $sched on $d"
		# Only when asked: writing auto forgets what the model learned.
		if [ "$sched" = ctxsched ] && [ -n "${NFSP_MODE:-}" ]; then
			echo "$NFSP_MODE" > /sys/block/$d/queue/iosched/device_mode ||
				cs_fail "device_mode $NFSP_MODE"
		fi
		for n in 2 1; do
			bench_drop_caches
			bench_settle $d || cs_fail "$d does not settle"
			[ "$sched" = ctxsched ] && mapfile -t b < <(snap)
			bench_snap wa $d
			if [ $n = 2 ]; then readers "$secs" a b; else readers "$secs" a; fi
			bench_snap wb $d
			echo "NFSP rep=$rep sched=$sched streams=$n $rd_out $(disk_out)" |
				tee -a "$lines"
			if [ "$sched" = ctxsched ]; then
				mapfile -t e < <(snap)
				i=0 out=''
				for k in $names; do out+="$k=$((e[i] - b[i])) "; i=$((i + 1)); done
				out+="mode=$(awk '$1 == "mode" { print $2 }' "$CS_DEBUGFS/$d/model")"
				echo "NFSP-CS rep=$rep streams=$n $out"
			fi
		done
	done
done

# --- the summary -------------------------------------------------------------
median() { # SCHED STREAMS
	awk -v s="sched=$1" -v n="streams=$2" '$3 == s && $4 == n {
		for (i = 5; i <= NF; i++) if (sub("^total=", "", $i)) print $i }' "$lines" |
		sort -n |
		awk '{ v[NR] = $1 } END { if (NR == 0) exit
			if (NR % 2) print v[(NR + 1) / 2]
			else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
for n in 2 1; do
	none=$(median none $n)
	for sched in $BENCH_SCHEDS; do
		m=$(median "$sched" $n)
		echo "NFSP-SUM streams=$n sched=$sched median_total=$m ratio_none=$(
			awk -v m="$m" -v z="$none" 'BEGIN { if (z > 0) printf "%.2f", m / z; else print "-" }')"
	done
done
cs_nfs_stop $cli
bench_log "done in $((SECONDS - t_start)) s"
