# SPDX-License-Identifier: GPL-2.0
# Experiment (not a test): S10's mix on hddsim sata under ctxsched, three
# 10 s runs, the device model from debugfs every 2 s and the readers' and
# writer's MB/s.  S10_MODES="serial parallel" forces the mode of each run
# instead (what each mode delivers to the readers beside write-back).
# Run as
#   tools/vm/run -k 6.12 --mem 3072 --modules build/<release>/ko -- bash tools/bench/exp/s10.sh
# (3 GiB as the bench's guest: write-back then comes in bursts).
. tools/bench/exp/lib.sh
part=256
for r in ${S10_MODES:-auto auto auto}; do
echo "$r" > /sys/block/$d/queue/iosched/device_mode
DEV=/dev/$d SECS=10 PART=${part}m PART2=$((2 * part))m fio --output-format=json --output=/tmp/mix.json tools/bench/fio/mix.fio &
p=$!
for i in 1 2 3 4 5; do sleep 2; dump "$r.$i"; done
wait $p
python3 - <<'PY'
import json
d=json.load(open('/tmp/mix.json'))
print(" | ".join("%s %.1f MB/s %d iops w %.1f" % (j['jobname'], j['read']['bw']/1024, j['read']['iops'], j['write']['bw']/1024) for j in d['jobs']))
PY
grep -E "slices|preempted|idle_armed" $CS_DEBUGFS/$d/stats | tr '\n' ' '; echo
done
