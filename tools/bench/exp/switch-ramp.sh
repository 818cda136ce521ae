# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Experiment (not a test): how a scheduler's rate develops after it is
# selected under a running workload, as S1's turns select it.  S1's N
# readers (384 KiB O_DIRECT, one in flight each) run on DEV; the entries
# of SWR_CONFIGS take ROUNDS rounds of turns; each turn prints the disk's
# MB/s in 0.25 s steps for SWR_SECS s after the switch, and the mean of
# 0.5-1.5 s (S1's window on virtio).  An entry is SCHED or
# ctxsched:TUNABLE=VALUE (set after the switch).
#   tools/vm/run -k 6.12 --mem 3072 --disk /work/v.img --modules DIR -- \
#	env SWR_N=1 bash tools/bench/exp/switch-ramp.sh
. tests/lib.sh
cs_load
d=${SWR_DEV:-vda} n=${SWR_N:-1} rounds=${SWR_ROUNDS:-4} secs=${SWR_SECS:-2.5}
configs=${SWR_CONFIGS:-ctxsched none mq-deadline}
[ -b "/dev/$d" ] || cs_fail "no /dev/$d"
size=$(blockdev --getsize64 "/dev/$d")
fio --name=r --filename="/dev/$d" --rw=read --bs=384k --direct=1 \
	--ioengine=psync --numjobs="$n" --size=$((size / n)) \
	--offset_increment=$((size / n)) --runtime=3600 --time_based \
	> /dev/null 2>&1 &
fio=$!
sleep 3
steps=$(awk -v s="$secs" 'BEGIN { print int(s / 0.25) }')
read -r -a cs <<< "$configs"
for ((r = 0; r < rounds; r++)); do
	for ((i = 0; i < ${#cs[@]}; i++)); do
		c=${cs[$(((i + r) % ${#cs[@]}))]}
		cs_sched_set "/dev/$d" "${c%%:*}"
		if [[ $c == *:* ]]; then
			kv=${c#*:}
			echo "${kv#*=}" > "/sys/block/$d/queue/iosched/${kv%%=*}" ||
				cs_fail "cannot set $kv"
		fi
		line=
		read -r -a a < "/sys/block/$d/stat"
		t0=${EPOCHREALTIME/./}
		for ((k = 0; k < steps; k++)); do
			sleep 0.25
			read -r -a b < "/sys/block/$d/stat"
			t1=${EPOCHREALTIME/./}
			line+=" $(((b[2] - a[2]) * 512 / (t1 - t0)))"
			a=("${b[@]}") t0=$t1
		done
		echo "$r $c:$line"
	done
done
kill $fio
wait $fio 2> /dev/null
cs_sched_set "/dev/$d" none
