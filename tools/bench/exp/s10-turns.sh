# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Experiment (not a test): S10's mix on the VM's virtio disk (vda) under
# one fio run, configurations taking ROUNDS rounds of TURN s turns (each
# round in another order), compared round by round with mq-deadline.  An
# entry of S10T_CONFIGS is SCHED or ctxsched:TUNABLE=VALUE,... (set in
# queue/iosched/ at each turn; the others go back to their defaults).
# Prints each turn and then, per configuration, the medians of the
# rounds' ratios to mq-deadline: sequential MB/s, random IOPS, writer MB/s.
#   truncate -s 2G /work/v.img
#   tools/vm/run -k 6.12 --mem 3072 --disk /work/v.img \
#	--modules DIR -- bash tools/bench/exp/s10-turns.sh
. tests/lib.sh
cs_load
d=vda
[ -b /dev/$d ] || cs_fail "no /dev/$d (attach a disk with --disk)"
configs=${S10T_CONFIGS:-ctxsched mq-deadline none}
rounds=${S10T_ROUNDS:-6} turn=${S10T_TURN:-2}
part=256
# The tunables a configuration sets, and their defaults to put back (only
# these: writing device_mode, even "auto", makes the model start over).
defaults=()
cs_sched_set /dev/$d ctxsched
keys=$(tr ' ,' '\n' <<< "$configs" | sed -n 's/^\(ctxsched:\)\{0,1\}\([a-z_]*\)=.*/\2/p' |
	sort -u)
for k in $keys; do
	defaults+=("$k=$(cat "/sys/block/$d/queue/iosched/$k")") ||
		cs_fail "no tunable $k"
done
setup() { # CONFIG
	local s=${1%%:*} kv
	local -a kvs
	cs_sched_set /dev/$d "$s"
	[ "$s" = ctxsched ] || return 0
	for kv in "${defaults[@]}"; do
		echo "${kv#*=}" > "/sys/block/$d/queue/iosched/${kv%%=*}"
	done
	[[ $1 == *:* ]] || return 0
	IFS=, read -r -a kvs <<< "${1#*:}"
	for kv in "${kvs[@]}"; do
		echo "${kv#*=}" > "/sys/block/$d/queue/iosched/${kv%%=*}" ||
			cs_fail "cannot set $kv"
	done
}
snap() { # -> "t_us seq_bytes rand_bytes disk_write_sectors"
	local p k v s=() st
	for p in $pids; do
		v=0
		while read -r k val; do
			[ "$k" = read_bytes: ] && v=$val
		done < "/proc/$p/io"
		s+=("$v")
	done
	read -r -a st < /sys/block/$d/stat
	echo "${EPOCHREALTIME/./} ${s[0]} ${s[1]} ${st[6]}"
}
# S10T_DIRTY=1: S3's write-back limits (64 MiB background, 256 MiB), so
# that write-back runs all the time instead of in the flusher's 5 s bursts
# (the writer overwrites 256 MiB, below the default background limit).
# S10T_DIRTY=2: 4 MiB and 16 MiB, so that the writer is throttled to the
# disk's pace at once and write-back never pauses.
case ${S10T_DIRTY:-0} in
1)
	echo $((64 << 20)) > /proc/sys/vm/dirty_background_bytes
	echo $((256 << 20)) > /proc/sys/vm/dirty_bytes ;;
2)
	echo $((4 << 20)) > /proc/sys/vm/dirty_background_bytes
	echo $((16 << 20)) > /proc/sys/vm/dirty_bytes ;;
esac
DEV=/dev/$d SECS=3600 PART=${part}m PART2=$((2 * part))m fio \
	--output-format=json --output=/tmp/mix.json tools/bench/fio/mix.fio \
	> /dev/null 2>&1 &
fio=$!
sleep 3
pids=$(pgrep -P $fio | tr '\n' ' ')
[ "$(wc -w <<< "$pids")" -ge 3 ] || cs_fail "fio jobs: $pids"
: > /tmp/turns
read -r -a cs <<< "$configs"
n=${#cs[@]}
for ((r = 0; r < rounds; r++)); do
	for ((i = 0; i < n; i++)); do
		c=${cs[$(((i + r) % n))]}
		setup "$c"
		sleep 0.5
		read -r t0 a0 b0 w0 <<< "$(snap)"
		sleep "$turn"
		read -r t1 a1 b1 w1 <<< "$(snap)"
		us=$((t1 - t0))
		echo "$r $c $(((a1 - a0) / us)) $(((b1 - b0) * 1000000 / 4096 / us))" \
			"$(((w1 - w0) * 512 / us))" | tee -a /tmp/turns
	done
done
kill -INT $fio
wait $fio
cs_sched_set /dev/$d none
python3 - <<'EOF'
import collections, statistics as S
t = collections.defaultdict(dict)
for line in open("/tmp/turns"):
    r, c, seq, rnd, w = line.split()
    t[r][c] = (float(seq), float(rnd), float(w))
out = collections.defaultdict(list)
for r, by in t.items():
    ref = by.get("mq-deadline")
    for c, v in by.items():
        out[c].append([x / y if y else float("nan") for x, y in zip(v, ref)])
print("config: seq MB/s, random IOPS, writer MB/s (medians of the turns); "
      "/ mq-deadline per round (medians)")
for c, rs in out.items():
    med = [S.median(t[r][c][k] for r in t if c in t[r]) for k in range(3)]
    rat = [S.median(x[k] for x in rs) for k in range(3)]
    print("%-40s %6.1f %6.0f %6.1f | %.2f %.2f %.2f" % (c, *med, *rat))
EOF
