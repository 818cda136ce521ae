# SPDX-License-Identifier: GPL-2.0
# The KUnit suites of kunit/ctxsched_kunit.c, on a kernel built with KUnit
# (tools/debug-kernel).  Every suite and every case named in the source must
# report "ok"; a failing or missing case fails.  Skipped on kernels without
# KUnit, where ctxsched_kunit.ko is not built.
# timeout: 300
. tests/lib.sh

src=(kunit/ctxsched_kunit.c kunit/core_cases.c kunit/model_cases.c kunit/ra_cases.c)
if ! modinfo ctxsched_kunit > /dev/null 2>&1; then
	echo "SKIP: $(uname -r) has no KUnit"
	exit 77
fi
mapfile -t suites < <(sed -n 's/^[[:space:]]*\.name = "\(ctxsched_[a-z_]*\)",/\1/p' "${src[@]}")
mapfile -t cases < <(sed -n 's/^[[:space:]]*KUNIT_CASE(\([a-z_0-9]*\)),/\1/p' "${src[@]}")
[ ${#suites[@]} -ge 5 ] && [ ${#cases[@]} -ge 20 ] ||
	cs_fail "could not read the suites and cases from ${src[*]}"

modprobe ctxsched_kunit || cs_fail "modprobe ctxsched_kunit"
all=
for s in "${suites[@]}"; do
	f=/sys/kernel/debug/kunit/$s/results
	[ -r "$f" ] || cs_fail "suite $s did not run (no $f)"
	cat "$f"
	grep -qE "^not ok [0-9]+ $s\$" "$f" && cs_fail "suite $s failed"
	grep -qE "^ok [0-9]+ $s\$" "$f" || cs_fail "suite $s has no result line"
	all+=$(sed -n 's/^[[:space:]]\+ok [0-9]\+ \([a-z_0-9]*\)$/\1/p' "$f")$'\n'
	grep -E '^[[:space:]]+not ok' "$f" && cs_fail "cases of $s failed"
done
for c in "${cases[@]}"; do
	grep -qx "$c" <<< "$all" || cs_fail "case $c did not pass"
done
cs_log "${#suites[@]} suites, ${#cases[@]} cases passed"
rmmod ctxsched_kunit || cs_fail "rmmod ctxsched_kunit"
echo ok
