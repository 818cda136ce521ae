# SPDX-License-Identifier: GPL-2.0
# Experiment (not a test): S10's mix on the VM's virtio disk (vda), ctxsched
# and mq-deadline in turn, S10V_RUNS rounds of 10 s runs each, the device
# model and ctxsched's counters from debugfs every 2 s of each ctxsched run.
# An entry of S10V_SCHEDS may be ctxsched:MODE:BOOST (device_mode and boost
# set before the run; ctxsched alone is ctxsched:auto:8000).
# Run as
#   truncate -s 2G /work/v.img
#   tools/vm/run -k 6.12 --mem 3072 --disk /work/v.img \
#	--modules build/<release>/ko -- bash tools/bench/exp/s10v.sh
. tests/lib.sh
cs_load
d=vda
[ -b /dev/$d ] || cs_fail "no /dev/$d (attach a disk with --disk)"
part=256
dumpv() {
	echo "## $1: $(tr '\n' ' ' < "$CS_DEBUGFS/$d/model" | cut -c1-700)"
}
for round in $(seq 1 "${S10V_RUNS:-3}"); do
for e in ${S10V_SCHEDS:-ctxsched mq-deadline}; do
	IFS=: read -r s mode boost <<< "$e"
	cs_sched_set /dev/$d "$s"
	if [ "$s" = ctxsched ]; then
		echo "${mode:-auto}" > /sys/block/$d/queue/iosched/device_mode
		echo "${boost:-8000}" > /sys/block/$d/queue/iosched/boost
	fi
	DEV=/dev/$d SECS=10 PART=${part}m PART2=$((2 * part))m fio \
		--output-format=json --output=/tmp/mix.json \
		tools/bench/fio/mix.fio &
	p=$!
	if [ "$s" = ctxsched ]; then
		for i in 1 2 3 4 5; do sleep 2; dumpv "$round.$i"; done
	fi
	wait $p
	echo "$e round $round: $(python3 - <<'PY'
import json
d=json.load(open('/tmp/mix.json'))
print(" | ".join("%s %.1f MB/s %d iops w %.1f" % (j['jobname'], j['read']['bw']/1024, j['read']['iops'], j['write']['bw']/1024) for j in d['jobs']))
PY
)"
	if [ "$s" = ctxsched ]; then
		grep -E "slices|preempted|idle_armed|boost" $CS_DEBUGFS/$d/stats | tr '\n' ' '; echo
	fi
	sync; echo 3 > /proc/sys/vm/drop_caches
done
done
