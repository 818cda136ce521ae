#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Experiment (issues 12, 13): what a scheduler costs S1's readers on the
# virtio disk.  VC_N (4) sequential O_DIRECT readers (384 KiB, one read in
# flight each, far apart) under one fio run; the configurations of
# VC_CONFIGS take turns under it, VC_ROUNDS (10) rounds of VC_SECS (2) s
# turns, the order reversed every other round.  A configuration is a
# scheduler, or "ctxsched-rot0": ctxsched selected while the disk says it
# does not rotate (no device model fed).  Prints MB/s per turn, then per
# configuration the median MB/s and the median of its per-round ratios
# to none's, with quartiles.  VC_TRACE=1 instead traces 2 s of each
# scheduler's run with the block tracer and prints the mean and median
# times from queueing, insertion and dispatch to completion, and who
# dispatched.
#
#   truncate -s 2G /tmp/vda.img
#   tools/vm/run -k 6.12 --modules DIR --disk /tmp/vda.img -- \
#       bash tools/bench/exp/virtio-cost.sh
set -u
cd "$(dirname "$0")/../../.." || exit 2
. tests/lib.sh
n=${VC_N:-4} rounds=${VC_ROUNDS:-10} secs=${VC_SECS:-2} dev=vda
configs=${VC_CONFIGS:-none mq-deadline ctxsched ctxsched-rot0}
[ -b /dev/$dev ] || cs_fail "no virtio disk /dev/$dev (tools/vm/run --disk)"
modprobe ctxsched || cs_fail "modprobe ctxsched"
size=$(blockdev --getsize64 /dev/$dev)
sysq=/sys/block/$dev/queue
# readers SECS &: the readers, as the background job itself ($! is fio).
readers() {
	exec fio --name=r --filename=/dev/$dev --rw=read --bs=384k --direct=1 \
		--ioengine=psync --numjobs="$n" --size=$((size / n / 2)) \
		--offset_increment=$((size / n)) --runtime="$1" \
		--time_based > /dev/null 2>&1
}
set_config() {
	echo none > $sysq/scheduler || cs_fail "select none"
	if [ "$1" = ctxsched-rot0 ]; then
		echo 0 > $sysq/rotational && echo ctxsched > $sysq/scheduler
	else
		echo 1 > $sysq/rotational && echo "$1" > $sysq/scheduler
	fi || cs_fail "configuration $1"
}
if [ "${VC_TRACE:-0}" = 1 ]; then
	tr=/sys/kernel/tracing
	echo 32768 > $tr/buffer_size_kb
	for s in none mq-deadline ctxsched; do
		set_config "$s"
		readers 5 &
		pid=$!
		sleep 1.5
		: > $tr/trace
		echo 1 > /sys/block/$dev/trace/enable
		echo blk > $tr/current_tracer
		sleep 2
		echo 0 > /sys/block/$dev/trace/enable
		# Switching the tracer empties the buffer: copy it first.
		cp $tr/trace /tmp/vc-trace.txt
		echo nop > $tr/current_tracer
		wait "$pid"
		echo "== $s: dispatched by $(awk '$6 == "D" { sub(/-[0-9]+$/, "", $1); c[$1]++ }
			END { for (k in c) printf "%s %d ", k, c[k] }' /tmp/vc-trace.txt)"
		python3 - /tmp/vc-trace.txt <<'EOF'
import re, statistics as S, sys
pat = re.compile(r'\s(\d+\.\d+): +\d+,\d+ +([QIDC]) +(\S+) +(\d+) \+ \d+')
at = {'Q': {}, 'I': {}, 'D': {}}
span = {'Q->D': [], 'I->D': [], 'D->C': [], 'Q->C': []}
for line in open(sys.argv[1]):
    m = pat.search(line)
    if not m or 'R' not in m.group(3):
        continue
    t, a, sec = float(m.group(1)), m.group(2), int(m.group(4))
    if a in 'QI':
        at[a][sec] = t
        continue
    if a == 'D':
        at['D'][sec] = t
        for k in 'QI':
            if sec in at[k]:
                span[k + '->D'].append(t - at[k][sec])
        continue
    for k in 'DQ':
        if sec in at[k]:
            span[k + '->C'].append(t - at[k].pop(sec))
for k, v in span.items():
    if v:
        print(f"{k}: mean {S.mean(v) * 1e6:.0f} us, median {S.median(v) * 1e6:.0f} us ({len(v)})")
EOF
	done
	echo none > $sysq/scheduler
	exit 0
fi
readers 3600 &
fio_pid=$!
# The shell switches and measures on time beside CPU-bound readers (which
# started before, so they keep the normal policy).
chrt -f -p 10 $$ > /dev/null || cs_fail "chrt"
sleep 3
declare -A mbs
for r in $(seq "$rounds"); do
	order=$configs
	((r % 2)) && order=$(tr ' ' '\n' <<< "$configs" | tac | tr '\n' ' ')
	line="round $r:"
	for c in $order; do
		set_config "$c"
		sleep 0.5
		read -r -a a < /sys/block/$dev/stat
		t0=$(date +%s.%N)
		sleep "$secs"
		read -r -a b < /sys/block/$dev/stat
		t1=$(date +%s.%N)
		v=$(awk -v s=$((b[2] - a[2])) -v t0="$t0" -v t1="$t1" \
			'BEGIN { printf "%.1f", s * 512 / 1e6 / (t1 - t0) }')
		mbs[$c]+="$v "
		line+=" $c $v"
	done
	echo "$line"
done
kill "$fio_pid"
wait "$fio_pid" 2> /dev/null
echo none > $sysq/scheduler
echo 1 > $sysq/rotational
for c in $configs; do
	echo "$c ${mbs[$c]}"
done | python3 -c '
import statistics as S, sys
runs = {l.split()[0]: [float(x) for x in l.split()[1:]] for l in sys.stdin}
for c, v in runs.items():
    r = sorted(a / b for a, b in zip(v, runs["none"]))
    q = len(r) // 4
    print(f"{c:14s} {S.median(v):7.1f} MB/s, of none {S.median(r):.3f}"
          f" (quartiles {r[q]:.3f}-{r[len(r) - 1 - q]:.3f})")'
