#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Kernel style: checkpatch --strict is clean on every C file and header, and
# no kernel-version test appears outside compat/.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
src=$(tools/srctree 6.12)
# tools/sim/shim/sim-shim.h re-implements kernel header macros for the
# host (list_for_each_entry() and friends), in the kernel's own shape,
# which checkpatch flags in new code (MACRO_ARG_REUSE).
mapfile -t files < <(git ls-files '*.c' '*.h' | grep -vx 'tools/sim/shim/sim-shim.h')
bad=0
for f in "${files[@]}"; do
	out=$("$src/scripts/checkpatch.pl" --strict --no-tree --quiet \
		--show-types -f "$f" 2>&1) || { echo "$out"; bad=1; }
	[ -z "$out" ] || { echo "$out"; bad=1; }
done
if grep -n 'LINUX_VERSION_CODE\|KERNEL_VERSION\|LINUX_VERSION_MAJOR' \
	"${files[@]}" | grep -v '^compat/'; then
	echo "kernel version tests outside compat/"
	bad=1
fi
echo "checked ${#files[@]} files"
exit $bad
