#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel-range table of compat/elevator-range.h: each version maps to the
# variant whose declarations were checked for it, and versions outside the
# checked range stop the build with a message that names the range.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/linux"

variant() { # major minor sub -> variant letter or the #error text
	cat > "$work/linux/version.h" <<EOV
#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))
#define LINUX_VERSION_MAJOR $1
#define LINUX_VERSION_PATCHLEVEL $2
#define LINUX_VERSION_SUBLEVEL $3
EOV
	printf '#include "elevator-range.h"\nvariant=CS_ELV_VARIANT\n' |
		gcc -E -P -I"$work" -I"$top/compat" - 2>&1 |
		sed -n "s/^variant='\(.\)'/\1/p; s/.*#error \(.*\)/\1/p" | head -1 || true
}

bad=0
while read -r ver want; do
	IFS=. read -r a b c <<< "$ver"
	got=$(variant "$a" "$b" "$c")
	case "$want" in
	error) [[ "$got" == *ctxsched:* ]] || { echo "$ver: expected a refusal, got '$got'"; bad=1; } ;;
	*) [ "$got" = "$want" ] || { echo "$ver: expected variant $want, got '$got'"; bad=1; } ;;
	esac
	echo "$ver -> $got"
done <<'EOT'
5.15.0 error
6.0.19 error
6.1.0 A
6.1.192 A
6.2.0 B
6.3.13 B
6.4.0 C
6.9.12 C
6.10.0 D
6.12.117 D
6.16.3 D
6.16.4 E
6.17.2 E
6.17.3 F
6.18.2 F
6.18.3 G
7.0.0 G
7.3.4 G
7.4.0 error
8.0.0 error
EOT
exit $bad
