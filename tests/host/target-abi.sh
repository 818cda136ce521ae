#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# target-abi.sh SERIES: the build's check of compat/'s layouts against the
# target kernel's BTF (compat/btf/) for one kernel: 6.1 or 6.12 (Debian 12's,
# installed here) or 7.3 (trixie-backports', built in tools/trixie-root).
# In a scratch copy of the sources:
#   - the build passes and says what BTF it checked against, also with
#     CS_BTF=/boot/vmlinuz-RELEASE (the image unpacked);
#   - a member moved in struct elevator_queue, and a callback of struct
#     elevator_mq_ops given another prototype, each stop the build before
#     any of ctxsched's objects is compiled, naming the struct and member;
#   - (6.1) CS_BTF naming another kernel's image is refused; with no BTF
#     to be found the build goes on with a warning.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
series=${1:?usage: target-abi.sh SERIES}

if [ "$series" = --kdir ]; then
	kdir=${2:?--kdir DIR}
else
	case "$series" in
	7.*)
		rel=$("$top/tools/trixie-root" kernels | awk -v s="$series" '$2 == s { print $1 }')
		[ -n "$rel" ] || { echo "no $series kernel in tools/trixie-root" >&2; exit 1; }
		exec "$top/tools/trixie-root" run --bind "$top" -- \
			bash "$top/tests/host/target-abi.sh" --kdir "/lib/modules/$rel/build"
		;;
	*)
		rel=$("$top/tools/vm/kernels" headers "$series")
		kdir=/lib/modules/$rel/build
		;;
	esac
fi
rel=$(sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' "$kdir/include/generated/utsrelease.h")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bad=0

# build NAME [VAR=value...]: build a fresh copy of the sources, with the
# edits of mutate(NAME) applied; the log is $work/NAME.log.
build() {
	local name=$1 d=$work/$1
	shift
	mkdir -p "$d"
	cp -r "$top/VERSION" "$top/Kbuild" "$top/Makefile" "$top/compat" \
		"$top/sched" "$top/ra" "$d/"
	rm -rf "$d/compat/abi"
	mutate "$name" "$d/compat/elevator-types.h"
	env "$@" make -C "$d" KDIR="$kdir" modules > "$work/$name.log" 2>&1
}

# A deliberately wrong declaration: the kind of difference a distribution
# kernel with backported block changes could have from its version's variant.
mutate() { # name header
	case "$1" in
	moved)	# elevator_data after kobj
		awk '/^\tvoid \*elevator_data;$/ && !done { held = $0; next }
		     { print } held && /^\tstruct kobject kobj;$/ { print held; held = ""; done = 1 }' \
			"$2" > "$2.new"
		;;
	proto)	# exit_hctx takes the request_queue
		sed 's/void (\*exit_hctx)(struct blk_mq_hw_ctx \*hctx, unsigned int idx);/void (*exit_hctx)(struct request_queue *q, unsigned int idx);/' \
			"$2" > "$2.new"
		;;
	*) return 0 ;;
	esac
	cmp -s "$2" "$2.new" && { echo "mutation $1 changed nothing in $2" >&2; exit 1; }
	mv "$2.new" "$2"
}

pass() { echo "ok - $rel/$1${2:+: $2}"; }
nok() { echo "not ok - $rel/$1: $2"; sed 's/^/#   /' "$work/$1.log" | tail -15; bad=1; }

# expect_refused NAME 'struct.member' [VAR=value...]
expect_refused() {
	local name=$1 what=$2
	shift 2
	if build "$name" "$@"; then
		nok "$name" "the wrong declaration was built"
	elif ! grep -q "^ctxsched: struct $what: " "$work/$name.log" ||
	     ! grep -q 'ELEVATOR ABI MISMATCH' "$work/$name.log"; then
		nok "$name" "the build failed, but not naming struct $what"
	elif [ -e "$work/$name/ctxsched.ko" ] || [ -e "$work/$name/sched/main.o" ]; then
		nok "$name" "ctxsched's objects were compiled despite the mismatch"
	else
		pass "$name" "$(grep -m1 "^ctxsched: struct $what: " "$work/$name.log")"
	fi
}

if build ok && [ -f "$work/ok/ctxsched.ko" ] &&
   grep -q "^ctxsched: elevator ABI checked against the BTF of Linux $rel " "$work/ok.log"; then
	pass ok "$(grep -m1 '^ctxsched: elevator ABI checked' "$work/ok.log")"
else
	nok ok "the unmodified sources did not build with the BTF check"
fi
# The installed image itself (x86 bzImage, xz or zstd) as the BTF source.
if [ -r "/boot/vmlinuz-$rel" ]; then
	if build image CS_BTF="/boot/vmlinuz-$rel" &&
	   grep -q "^ctxsched: elevator ABI checked against the BTF of Linux $rel (/boot/vmlinuz-$rel (CS_BTF))" \
		"$work/image.log"; then
		pass image "$(grep -m1 '^ctxsched: elevator ABI checked' "$work/image.log")"
	else
		nok image "the build did not check against /boot/vmlinuz-$rel"
	fi
fi
expect_refused moved elevator_queue.elevator_data
expect_refused proto elevator_mq_ops.exit_hctx

if [ "${rel#6.1.}" != "$rel" ]; then
	# Another kernel's image given as CS_BTF: refused, naming both.
	other=
	for f in /boot/vmlinuz-*; do
		[ "$f" = "/boot/vmlinuz-$rel" ] || { other=$f; break; }
	done
	if [ -n "$other" ]; then
		if build wrongbtf CS_BTF="$other"; then
			nok wrongbtf "CS_BTF=$other was accepted for $rel"
		elif grep -q "is not the kernel $rel" "$work/wrongbtf.log"; then
			pass wrongbtf "$(grep -m1 'is not the kernel' "$work/wrongbtf.log")"
		else
			nok wrongbtf "CS_BTF=$other refused without saying why"
		fi
	fi
	# No BTF anywhere (6.1's headers ship no vmlinux): warned, built.
	if build nobtf CS_BTF_BOOT=/nonexistent && [ -f "$work/nobtf/ctxsched.ko" ] &&
	   grep -q "WARNING: no BTF found for Linux $rel" "$work/nobtf.log"; then
		pass nobtf "$(grep -m1 -o 'WARNING: no BTF found for Linux [^ ]*' "$work/nobtf.log")"
	else
		nok nobtf "without BTF the build did not go on with a warning"
	fi
fi
exit $bad
