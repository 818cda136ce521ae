# SPDX-License-Identifier: GPL-2.0
# Helpers for the in-VM tests (sourced by tests/vm/*.sh).  Every helper that
# checks something calls cs_fail on a mismatch, which ends the test.

CS_DEBUGFS=/sys/kernel/debug/ctxsched
CS_NULLB_CFS=/sys/kernel/config/nullb

cs_fail() {
	echo "FAIL: $*" >&2
	exit 1
}

cs_log() {
	echo "# $*"
}

# cs_kernel_at_least MAJOR MINOR: the running kernel is MAJOR.MINOR or newer.
cs_kernel_at_least() {
	local maj min
	IFS=. read -r maj min _ <<< "$(uname -r)"
	min=${min%%[!0-9]*}
	[ "$maj" -gt "$1" ] || { [ "$maj" -eq "$1" ] && [ "$min" -ge "$2" ]; }
}

# cs_size FULL QUICK: FULL, or QUICK when the run is in quick mode
# (tests/run --quick, used for the debug kernel: KASAN, lockdep and kmemleak
# look at every code path once; they do not need the volume).
cs_size() {
	if [ "${CS_QUICK:-}" = 1 ]; then echo "$2"; else echo "$1"; fi
}

cs_assert_eq() { # what expected actual
	[ "$2" = "$3" ] || cs_fail "$1: expected '$2', got '$3'"
}

cs_load() {
	modprobe ctxsched || cs_fail "modprobe ctxsched failed"
}

cs_unload_all() {
	local s
	for s in /sys/block/*/queue/scheduler; do
		grep -q '\[ctxsched\]' "$s" 2>/dev/null && echo none > "$s"
	done
	if lsmod | grep -q '^ctxsched '; then
		rmmod ctxsched || cs_fail "rmmod ctxsched failed"
	fi
}

# cs_nullb_create NAME [attr=value...]: a configfs null_blk disk /dev/NAME
# (memory backed, 256 MiB unless the attributes say otherwise); an attribute
# written as ?attr=value is skipped where null_blk does not have it.
cs_nullb_create() {
	local name=$1 kv d
	shift
	[ -d "$CS_NULLB_CFS" ] || modprobe null_blk nr_devices=0 ||
		cs_fail "cannot load null_blk"
	d=$CS_NULLB_CFS/$name
	mkdir "$d" || cs_fail "cannot create null_blk $name"
	for kv in size=256 memory_backed=1 "$@"; do
		# "?attr=value": set only where this kernel's null_blk has attr.
		if [ "${kv#\?}" != "$kv" ]; then
			kv=${kv#\?}
			[ -e "$d/${kv%%=*}" ] || continue
		fi
		echo "${kv#*=}" > "$d/${kv%%=*}" ||
			cs_fail "null_blk $name: cannot set $kv"
	done
	echo 1 > "$d/power" || cs_fail "null_blk $name: power on failed"
	udevadm settle 2>/dev/null
	for _ in $(seq 50); do
		[ -b "/dev/$name" ] && break
		sleep 0.1
	done
	[ -b "/dev/$name" ] || cs_fail "null_blk $name: no /dev/$name"
}

cs_nullb_remove() {
	local d=$CS_NULLB_CFS/$1
	[ -d "$d" ] || return 0
	echo 0 > "$d/power"
	rmdir "$d"
}

cs_sched_of() { # dev -> active scheduler name
	sed -E 's/.*\[([^]]*)\].*/\1/' "/sys/block/$(basename "$1")/queue/scheduler"
}

cs_sched_set() { # dev sched
	echo "$2" > "/sys/block/$(basename "$1")/queue/scheduler" ||
		cs_fail "cannot select $2 on $1"
	cs_assert_eq "scheduler of $1" "$2" "$(cs_sched_of "$1")"
}

cs_stat() { # dev key -> value from ctxsched debugfs stats
	awk -v k="$2" '$1 == k { print $2 }' "$CS_DEBUGFS/$(basename "$1")/stats"
}

# cs_check_idle DEV: nothing queued in ctxsched or in flight anywhere.
cs_check_idle() {
	local dev=$1 b inflight
	b=$(basename "$dev")
	sync
	for _ in $(seq 50); do
		inflight=$(tr -s ' ' < "/sys/block/$b/inflight" | sed 's/^ //')
		[ "$inflight" = "0 0" ] && break
		sleep 0.1
	done
	cs_assert_eq "$b inflight" "0 0" "$inflight"
	if [ "$(cs_sched_of "$dev")" = ctxsched ]; then
		cs_assert_eq "$b ctxsched queued" 0 "$(cs_stat "$dev" queued)"
		cs_assert_eq "$b ctxsched in_driver" 0 "$(cs_stat "$dev" in_driver)"
	fi
}

# cs_fio_verify DEV NAME [fio options...]: write a pattern, drop the page
# cache, read it back from the device and verify it.  Fails on any error.
cs_fio_verify() {
	local dev=$1 name=$2 log
	shift 2
	log=/tmp/fio-$name.log
	fio --name="$name" --filename="$dev" --verify=crc32c --verify_fatal=1 \
	    --do_verify=0 --ioengine=libaio --group_reporting "$@" \
	    > "$log" 2>&1 || { cat "$log"; cs_fail "fio $name write phase"; }
	echo 3 > /proc/sys/vm/drop_caches
	fio --name="$name" --filename="$dev" --verify=crc32c --verify_fatal=1 \
	    --verify_only --ioengine=libaio --group_reporting "$@" \
	    > "$log" 2>&1 || { cat "$log"; cs_fail "fio $name verify phase"; }
	grep -q 'err= 0' "$log" || { cat "$log"; cs_fail "fio $name: errors"; }
}

# cs_fio_get JSON JOB EXPR: a value from fio --output-format=json output,
# EXPR being a Python expression over the job's dict "j", e.g.
# "j['read']['io_kbytes']".
cs_fio_get() {
	python3 - "$1" "$2" "$3" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
for j in data["jobs"]:
    if j["jobname"] == sys.argv[2]:
        print(eval(sys.argv[3]))
        break
else:
    sys.exit("no job " + sys.argv[2])
PY
}

# cs_serial_disk NAME: a null_blk disk that serves one request at a time in
# about 1 ms and claims to be rotational, so that ctxsched idles on it.
cs_serial_disk() {
	cs_nullb_create "$1" size=1024 memory_backed=0 irqmode=2 \
		completion_nsec=1000000 hw_queue_depth=1 submit_queues=1 \
		?poll_queues=0
	echo 1 > "/sys/block/$1/queue/rotational" ||
		cs_fail "cannot mark $1 rotational"
}

# cs_nfs_serve DIR MNT [VERS]: serve DIR with nfsd's 8 threads to the
# kernel's NFS client on loopback and mount it on MNT (NFS VERS, 3 by
# default; 4.x mounts DIR as the pseudo root).  Needs nfs-kernel-server.
# cs_nfs_stop MNT undoes it.
cs_nfs_serve() {
	local dir=$1 mnt=$2 vers=${3:-3} opts src t0 n
	modprobe nfsd || cs_fail "modprobe nfsd"
	mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd ||
		cs_fail "mounting the nfsd file system"
	ip link set lo up || cs_fail "cannot bring up lo"
	mkdir -p /run/rpcbind /var/lib/nfs/rpc_pipefs /var/lib/nfs/v4recovery "$mnt"
	rpcbind || cs_fail "rpcbind did not start"
	for _ in $(seq 50); do
		rpcinfo -p 127.0.0.1 > /dev/null 2>&1 && break
		sleep 0.1
	done
	rpcinfo -p 127.0.0.1 > /dev/null 2>&1 || cs_fail "rpcbind does not answer"
	# fsid=0: the NFSv4 pseudo root, so that NFSv4 needs no export of the
	# directories above (the guest's / is an overlay nfsd cannot export).
	exportfs -o rw,no_root_squash,no_subtree_check,insecure,fsid=0 \
		"127.0.0.1:$dir" || cs_fail "exportfs $dir"
	rpc.mountd || cs_fail "rpc.mountd did not start"
	# Short lease and grace times (before the threads start): an NFSv4
	# client cannot open files during the grace time.
	echo 10 > /proc/fs/nfsd/nfsv4leasetime || cs_fail "nfsv4leasetime"
	echo 10 > /proc/fs/nfsd/nfsv4gracetime || cs_fail "nfsv4gracetime"
	rpc.nfsd 8 || cs_fail "rpc.nfsd 8"
	read -r n < /proc/fs/nfsd/threads
	[ "$n" = 8 ] || cs_fail "nfsd runs $n threads, not 8"
	case $vers in
	3) opts=vers=3,proto=tcp,nolock src=127.0.0.1:$dir ;;
	*) opts=vers=$vers,proto=tcp src=127.0.0.1:/ ;;
	esac
	t0=$SECONDS
	until mount -t nfs -o "$opts" "$src" "$mnt" 2> /tmp/cs-nfs.err; do
		[ $((SECONDS - t0)) -lt 60 ] ||
			cs_fail "mount -t nfs -o $opts $src: $(tr '\n' ' ' < /tmp/cs-nfs.err)"
		sleep 2
	done
}

cs_nfs_stop() { # MNT
	umount "$1" 2> /dev/null
	rpc.nfsd 0 2> /dev/null
	exportfs -ua 2> /dev/null
	pkill -x rpc.mountd
	pkill -x rpcbind
	umount /proc/fs/nfsd 2> /dev/null
}
