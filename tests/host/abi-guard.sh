#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ABI guard for one Debian kernel series: the compat declarations against the
# private headers of linux-source-SERIES, built with that kernel's headers.
set -euo pipefail
series=${1:?series}
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
src=$("$top/tools/srctree" "$series")
rel=$("$top/tools/vm/kernels" headers "$series")
"$top/compat/abi/check" "/lib/modules/$rel/build" "$src"
