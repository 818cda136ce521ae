# SPDX-License-Identifier: GPL-2.0
# Experiment (not a test): S7's flood and reader on hddsim sata under
# ctxsched, one 16 s run per mode in S7_MODES (default "auto serial auto parallel"),
# the device model from debugfs every 2 s, then the reads slower than
# 160 ms (second of the reader's run: latency) and the worst.  Run as
#   tools/vm/run -k 6.12 --mem 3072 --modules build/<release>/ko -- bash tools/bench/exp/s7.sh
. tools/bench/exp/lib.sh
echo $((128 << 20)) > /proc/sys/vm/dirty_bytes
echo $((32 << 20)) > /proc/sys/vm/dirty_background_bytes
for r in ${S7_MODES:-auto serial auto parallel}; do
	echo "$r" > /sys/block/$d/queue/iosched/device_mode
	sync
	echo 3 > /proc/sys/vm/drop_caches
	rm -f /tmp/s7_clat.2.log
	DEV=/dev/$d SECS=16 READ_SECS=12 RATE=40 \
		READ_OFFSET="$((size / 2 >> 20))m" LATLOG=/tmp/s7 \
		fio --output-format=json --output=/tmp/s7.json \
		tools/bench/fio/read-under-flood.fio &
	p=$!
	for i in 1 2 3 4 5 6 7 8; do sleep 2; dump "$r.$i"; done
	wait $p
	echo "## $r slow reads: $(awk -F, '$2 > 160e6 {printf "%.1fs:%.0fms ", $1 / 1000, $2 / 1e6}' /tmp/s7_clat.2.log)"
	echo "## $r max $(awk -F, '$2 > m {m = $2} END {printf "%.0f ms", m / 1e6}' /tmp/s7_clat.2.log) over $(wc -l < /tmp/s7_clat.2.log) reads"
	sync
done
