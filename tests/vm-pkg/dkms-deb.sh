#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dkms-deb.sh [--full] [DEB]: inside a test VM, install the ctxsched-dkms package as an
# administrator would, let DKMS build the module, use it on a null_blk disk
# with verified I/O, check the udev and modprobe.d examples, then remove the
# package and check that the module is gone.  Run by tests/pkg-test through
# tools/vm/run (cwd = checkout, a virtio disk attached as /dev/vda); the
# guest's root is a throw-away overlay of the host's, so the host's dpkg
# database, kernel headers and gcc are here and nothing reaches the host.
#
# By default only the running kernel keeps its headers, so DKMS builds for it
# alone: every DKMS build and depmod costs minutes under TCG.  With --full
# every installed kernel keeps its headers; the test then also
# checks that the package builds for all of them and that DKMS's kernel hook
# (what installing a kernel runs) rebuilds the module.
#
# Prints one "ok"/"not ok" line per step (with seconds) and stops at the
# first failure.
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top" || exit 2
. tests/lib.sh

full=0
[ "${1:-}" = --full ] && { full=1; shift; }
ver=$(cat VERSION)
deb=${1:-out/deb/ctxsched-dkms_${ver}_all.deb}
rel=$(uname -r)
res=${CS_RESULTS:-/tmp}/pkg
mkdir -p "$res"
export DEBIAN_FRONTEND=noninteractive

step_name= step_start=
step() {
	step_name=$1
	step_start=$(date +%s)
}
ok() {
	echo "ok - $rel/pkg/$step_name ($(( $(date +%s) - step_start ))s)${1:+ # $1}"
}
# cs_fail from tests/lib.sh ends the script; report the step first.
cs_fail() {
	echo "# FAIL: $*"
	echo "not ok - $rel/pkg/$step_name ($(( $(date +%s) - step_start ))s)"
	exit 1
}
ko_files() { # kernel -> ctxsched modules DKMS installed for it
	ls "/lib/modules/$1"/updates/dkms/ctxsched.ko* 2>/dev/null
}
in_range() { # kernel release -> supported by ctxsched (dkms.conf's rule)
	bash -c '. "$1"; [[ $2 =~ $BUILD_EXCLUSIVE_KERNEL ]]' _ dkms.conf "$1" 2>/dev/null
}
stamp() { # prefix each line with the seconds since $1 (no fork per line)
	local l now
	while IFS= read -r l; do
		printf -v now '%(%s)T' -1
		printf '%4d %s\n' "$((now - $1))" "$l"
	done
}
show() { # log file -> indented into the test output
	sed 's/^/#   /' "$1"
}

step clean-start
[ -f "$deb" ] || cs_fail "no package $deb (make deb)"
dpkg -s ctxsched-dkms > /dev/null 2>&1 && cs_fail "ctxsched-dkms already installed"
modinfo ctxsched > /dev/null 2>&1 && cs_fail "a ctxsched module is already installed"
[ -e /var/lib/dkms/ctxsched ] && cs_fail "DKMS already knows ctxsched"
ok

# The kernels that should get the module: those with headers, in range.  By
# default the other kernels' headers are hidden (renamed in this throw-away
# root), as on a machine that has only the running kernel's headers.
kernels=()
hidden=()
for b in /lib/modules/*/build; do
	[ -e "$b/include" ] || continue
	k=${b#/lib/modules/}
	k=${k%/build}
	if [ "$full" = 0 ] && [ "$k" != "$rel" ]; then
		mv "$b" "$b.ctxsched-hidden"
		hidden+=("$k")
		continue
	fi
	in_range "$k" && kernels+=("$k")
done
[ "${#hidden[@]}" = 0 ] || echo "# headers hidden for: ${hidden[*]}"

step install
printf -v t0 '%(%s)T' -1
dpkg -i "$deb" 2>&1 | stamp "$t0" > "$res/install.log"
rc=${PIPESTATUS[0]}
show "$res/install.log"
if [ "$rc" != 0 ]; then
	cp /var/lib/dkms/ctxsched/"$ver"/build/make.log "$res/" 2>/dev/null
	cs_fail "dpkg -i $deb (status $rc)"
fi
ok "DKMS built for: ${kernels[*]}"

step dkms-status
st=$(dkms status -m ctxsched -v "$ver" 2>/dev/null)
echo "$st" | sed 's/^/#   /'
for k in "${kernels[@]}"; do
	echo "$st" | grep "^ctxsched/$ver, $k, [^:]*: installed" > /dev/null ||
		cs_fail "DKMS did not install ctxsched for $k"
	[ -n "$(ko_files "$k")" ] || cs_fail "no module in /lib/modules/$k/updates/dkms"
done
[ -f "/usr/src/ctxsched-$ver/dkms.conf" ] || cs_fail "no /usr/src/ctxsched-$ver/dkms.conf"
ok

step modinfo
ko=$(ko_files "$rel")
[ "$(modinfo -n ctxsched)" = "$ko" ] || cs_fail "modinfo finds $(modinfo -n ctxsched), not $ko"
cs_assert_eq version "$ver" "$(modinfo -F version ctxsched)"
case "$(modinfo -F vermagic ctxsched)" in
"$rel "*) ;;
*) cs_fail "vermagic $(modinfo -F vermagic ctxsched) is not for $rel" ;;
esac
# DKMS signs with its MOK key (made at its first build) where the kernel's
# sign-file exists, as it does for Debian's kernels: check that it did, and
# that the certificate docs/packaging.rst tells users to enroll is there.
signer=$(modinfo -F signer ctxsched)
[ -n "$signer" ] || cs_fail "module not signed (see $res/install.log)"
[ -f /var/lib/dkms/mok.pub ] || cs_fail "signed, but no /var/lib/dkms/mok.pub to enroll"
ok "signed by '$signer'"

step modprobe
modprobe ctxsched || cs_fail "modprobe ctxsched"
lsmod | grep '^ctxsched ' > /dev/null || cs_fail "ctxsched not loaded after modprobe"
ok

step fio-verify
cs_nullb_create nb0
cs_sched_set /dev/nb0 ctxsched
cs_fio_verify /dev/nb0 pkg-rand --rw=randwrite --bsrange=4k-64k --size=64M \
	--iodepth=16 --direct=1
cs_fio_verify /dev/nb0 pkg-seq --rw=write --bs=256k --size=64M --iodepth=4 \
	--direct=0 --offset=128M
d=$(cs_stat /dev/nb0 dispatched)
[ "${d:-0}" -gt 0 ] || cs_fail "ctxsched dispatched nothing"
cs_check_idle /dev/nb0
cs_sched_set /dev/nb0 none
cs_nullb_remove nb0
ok "ctxsched dispatched $d requests"

# The udev example as shipped, on the virtio disk (rotational, like a disk
# behind a plain virtio-blk device): "udevadm test" runs the rules for one
# device and applies their ATTR assignments.
step udev-example
rules=/usr/share/doc/ctxsched-dkms/examples/60-ctxsched.rules
[ -f "$rules" ] || cs_fail "no $rules"
if [ -b /dev/vda ] && [ "$(cat /sys/block/vda/queue/rotational)" = 1 ]; then
	cs_sched_set /dev/vda none
	cp "$rules" /etc/udev/rules.d/60-ctxsched.rules
	udevadm test --action=change /sys/block/vda > "$res/udev-test.log" 2>&1
	rm -f /etc/udev/rules.d/60-ctxsched.rules
	grep -i 'scheduler' "$res/udev-test.log" | sed 's/^/#   /'
	cs_assert_eq "scheduler of vda set by the udev rule" ctxsched "$(cs_sched_of /dev/vda)"
	cs_fio_verify /dev/vda pkg-vda --rw=randwrite --bs=64k --size=16M --iodepth=4 --direct=1
	cs_check_idle /dev/vda
	cs_sched_set /dev/vda none
	ok
else
	echo "ok - $rel/pkg/$step_name # SKIP no rotational /dev/vda"
fi
rmmod ctxsched || cs_fail "rmmod ctxsched"

# The modprobe.d template's two lines do what it says.
step modprobe-example
conf=/usr/share/doc/ctxsched-dkms/examples/ctxsched-modprobe.conf
[ -f "$conf" ] || cs_fail "no $conf"
grep -q '^[^#]' "$conf" && cs_fail "$conf has active lines; it must be all comments"
cs_nullb_create nb1
sed 's/^#blacklist ctxsched/blacklist ctxsched/' "$conf" > /etc/modprobe.d/ctxsched.conf
echo ctxsched > /sys/block/nb1/queue/scheduler 2>/dev/null &&
	cs_fail "blacklist: ctxsched was still loaded on demand"
modprobe ctxsched || cs_fail "blacklist: modprobe ctxsched failed"
rmmod ctxsched || cs_fail "rmmod ctxsched"
sed 's|^#install ctxsched /bin/false|install ctxsched /bin/false|' "$conf" > /etc/modprobe.d/ctxsched.conf
modprobe ctxsched 2>/dev/null && cs_fail "install /bin/false: modprobe ctxsched succeeded"
rm -f /etc/modprobe.d/ctxsched.conf
cs_nullb_remove nb1
lsmod | grep '^ctxsched ' > /dev/null && cs_fail "ctxsched loaded despite modprobe.d"
ok

# A kernel installed later gets the module from DKMS's kernel hook: drop it
# for this kernel and run the hook that linux-image's postinst runs.
if [ "$full" = 1 ]; then
	step kernel-hook
	dkms remove -m ctxsched -v "$ver" -k "$rel" > "$res/hook.log" 2>&1 ||
		cs_fail "dkms remove -k $rel"
	[ -z "$(ko_files "$rel")" ] || cs_fail "module for $rel left after dkms remove"
	printf -v t0 '%(%s)T' -1
	/etc/kernel/postinst.d/dkms "$rel" 2>&1 | stamp "$t0" >> "$res/hook.log"
	dkms status -m ctxsched -v "$ver" -k "$rel" | grep ': installed' > /dev/null || {
		show "$res/hook.log" | tail -20
		cs_fail "the kernel hook did not rebuild ctxsched for $rel"
	}
	[ -n "$(ko_files "$rel")" ] || cs_fail "no module for $rel after the kernel hook"
	ok "rebuilt for $rel"
fi

step remove
printf -v t0 '%(%s)T' -1
dpkg -r ctxsched-dkms 2>&1 | stamp "$t0" > "$res/remove.log"
rc=${PIPESTATUS[0]}
show "$res/remove.log"
[ "$rc" = 0 ] || cs_fail "dpkg -r ctxsched-dkms (status $rc)"
for k in "${kernels[@]}"; do
	[ -z "$(ko_files "$k")" ] || cs_fail "module left in /lib/modules/$k/updates/dkms"
done
modinfo ctxsched > /dev/null 2>&1 && cs_fail "modinfo still finds $(modinfo -n ctxsched)"
modprobe ctxsched 2>/dev/null && cs_fail "modprobe ctxsched still works"
lsmod | grep '^ctxsched ' > /dev/null && cs_fail "ctxsched still loaded"
[ -n "$(dkms status -m ctxsched 2>/dev/null)" ] && cs_fail "DKMS still lists ctxsched"
[ -e "/usr/src/ctxsched-$ver" ] && cs_fail "/usr/src/ctxsched-$ver left behind"
dpkg -P ctxsched-dkms > /dev/null 2>&1 || cs_fail "dpkg -P ctxsched-dkms"
dpkg -s ctxsched-dkms > /dev/null 2>&1 && cs_fail "package still known to dpkg after purge"
ok

for k in "${hidden[@]}"; do
	mv "/lib/modules/$k/build.ctxsched-hidden" "/lib/modules/$k/build"
done
echo "# all steps passed"
