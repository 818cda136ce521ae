#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ABI guard for one Debian kernel series: the compat declarations against the
# private headers of linux-source-SERIES, built with that kernel's headers.
# 6.1 and 6.12 are Debian 12's; 7.2 and 7.3 are trixie-backports', whose
# kbuild tools run in tools/trixie-root only.
set -euo pipefail
series=${1:?series}
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
src=$("$top/tools/srctree" "$series")
case "$series" in
7.*)
	rel=$("$top/tools/trixie-root" guard | awk -v s="$series" '$2 == s { print $1 }')
	[ -n "$rel" ] || { echo "abi-guard: no $series headers in tools/trixie-root" >&2; exit 1; }
	exec "$top/tools/trixie-root" run --bind "$top" --bind "$src" -- \
		"$top/compat/abi/check" "/lib/modules/$rel/build" "$src"
	;;
esac
rel=$("$top/tools/vm/kernels" headers "$series")
"$top/compat/abi/check" "/lib/modules/$rel/build" "$src"
