#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# dkms add, build and install for one installed Debian kernel, in a private
# DKMS tree (nothing on the host changes); the installed module must carry
# that kernel's vermagic.
set -euo pipefail
series=${1:?series}
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
rel=$("$top/tools/vm/kernels" headers "$series")
ver=$(cat "$top/VERSION")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# dkms add wants the tree at <sourcetree>/<name>-<version>
mkdir -p "$work/srctree/ctxsched-$ver" "$work/dkms" "$work/install"
rsync -a --exclude .git --exclude /build --exclude /out "$top/" \
	"$work/srctree/ctxsched-$ver/"
mkdir -p "$work/install/$rel"
opts=(--dkmstree "$work/dkms" --sourcetree "$work/srctree" --installtree "$work/install")
dkms add "${opts[@]}" -m ctxsched -v "$ver"
dkms build "${opts[@]}" -m ctxsched -v "$ver" -k "$rel"
dkms install "${opts[@]}" -m ctxsched -v "$ver" -k "$rel" --force
ko=$(find "$work/install" -name 'ctxsched.ko*' | head -1)
[ -n "$ko" ] || { echo "dkms install left no module"; exit 1; }
magic=$(modinfo -F vermagic "$ko")
case "$magic" in
"$rel "*) echo "dkms: $ko for $rel" ;;
*) echo "dkms: vermagic '$magic' is not for $rel"; exit 1 ;;
esac
dkms status "${opts[@]}" -m ctxsched -v "$ver"
