# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# A kernel server's thread pool: nfsd's 8 threads, each a process of its
# own, serve two files far apart on ext4 on hddsim's sata disk to the
# kernel's NFS client over loopback.  In serial mode ctxsched moves their
# reads into the queue of the stream each continues (kernel threads of one
# name are one pool); in parallel mode nothing moves.  Both reads return
# what was written.  Needs nfs-kernel-server (tools/setup-host) and a
# kernel with nfsd; skipped without them.
# timeout: 400
. tests/lib.sh

for p in rpcbind rpc.nfsd rpc.mountd exportfs mount.nfs mkfs.ext4; do
	command -v $p > /dev/null || { echo "SKIP: no $p (nfs-kernel-server)"; exit 77; }
done
modprobe nfsd 2> /dev/null || { echo "SKIP: this kernel has no nfsd"; exit 77; }
d=hddsim0 srv=/tmp/nfs-pool-srv cli=/tmp/nfs-pool-cli
mb=$(cs_size 48 16)
cleanup() {
	cs_nfs_stop $cli
	umount $srv 2> /dev/null
	rmmod nfsd 2> /dev/null
}
trap cleanup EXIT

modprobe hddsim devices=sata || cs_fail "modprobe hddsim"
udevadm settle 2> /dev/null
[ -b /dev/$d ] || cs_fail "no /dev/$d"
cs_load
mkdir -p $srv $cli
mkfs.ext4 -q -F -N 10000 -J size=16 -E lazy_itable_init=0,lazy_journal_init=0 \
	/dev/$d 3G || cs_fail "mkfs.ext4"
mount /dev/$d $srv || cs_fail "mount /dev/$d"
# b lies past a 2 GiB filler (allocated, not written), which goes again;
# a is synced first, or delayed allocation would put it beside b.
{ head -c $((mb << 20)) /dev/urandom > $srv/a && sync $srv/a; } || cs_fail "writing a"
fallocate -l 2G $srv/fill || cs_fail "fallocate"
head -c $((mb << 20)) /dev/urandom > $srv/b || cs_fail "writing b"
rm $srv/fill
sync
sum_a=$(sha1sum < $srv/a) sum_b=$(sha1sum < $srv/b)
pa=$(filefrag -v $srv/a | awk '$1 == "0:" { sub(/\.\..*/, "", $4); print $4 }')
pb=$(filefrag -v $srv/b | awk '$1 == "0:" { sub(/\.\..*/, "", $4); print $4 }')
cs_log "a at block $pa, b at block $pb"
[ $((pb - pa)) -ge $((1 << 18)) ] || cs_fail "a and b less than 1 GiB apart"

cs_nfs_serve $srv $cli
pids=$(pgrep -x nfsd)
[ "$(echo "$pids" | wc -l)" = 8 ] || cs_fail "nfsd threads: $pids"

# read MODE: both files through NFS at once, page cache dropped (client's
# and server's: one kernel), ctxsched in device_mode MODE; prints the
# requests moved and the nfsd threads that read.
read_both() {
	local m0 n=0 p
	declare -A r0
	cs_sched_set /dev/$d ctxsched
	echo "$1" > /sys/block/$d/queue/iosched/device_mode || cs_fail "device_mode $1"
	sync
	echo 3 > /proc/sys/vm/drop_caches
	for p in $pids; do r0[$p]=$(awk '$1 == "read_bytes:" { print $2 }' "/proc/$p/io"); done
	m0=$(cs_stat $d stream_moved)
	sha1sum < $cli/a > /tmp/nfs-pool.a &
	sha1sum < $cli/b > /tmp/nfs-pool.b &
	wait
	[ "$(cat /tmp/nfs-pool.a)" = "$sum_a" ] || cs_fail "$1: a read back wrong"
	[ "$(cat /tmp/nfs-pool.b)" = "$sum_b" ] || cs_fail "$1: b read back wrong"
	for p in $pids; do
		[ "$(awk '$1 == "read_bytes:" { print $2 }' "/proc/$p/io")" -gt "${r0[$p]}" ] &&
			n=$((n + 1))
	done
	echo "$(($(cs_stat $d stream_moved) - m0)) $n"
}
read -r moved readers <<< "$(read_both serial)"
cs_log "serial: $moved requests moved, $readers nfsd threads read"
[ "$readers" -ge 2 ] || cs_fail "only $readers nfsd threads read: no pool"
# One per 2 MiB read; tools/bench/exp/nfs-pool.sh moved one per 150 KiB,
# and before nfsd's threads were one pool none.
[ "$moved" -ge "$mb" ] || cs_fail "serial: only $moved requests moved"
read -r moved readers <<< "$(read_both parallel)"
cs_log "parallel: $moved requests moved, $readers nfsd threads read"
cs_assert_eq "requests moved in parallel mode" 0 "$moved"
cs_check_idle /dev/$d
echo ok
