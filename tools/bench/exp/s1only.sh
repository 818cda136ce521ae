# SPDX-License-Identifier: GPL-2.0
# Experiment: S1 on hddsim sata at 1, 2, 4, 8 and again 4 readers, 8 s each,
# in a fresh boot, with the device model after each (run as s10.sh).
. tools/bench/exp/lib.sh
s1() { # N SECS
	fio --name=r --filename=/dev/$d --rw=read --bs=384k --direct=1 --ioengine=psync \
		--numjobs=$1 --size=$((size / $1 / 2)) --offset_increment=$((size / $1)) \
		--runtime=$2 --time_based --group_reporting --output-format=json > /tmp/s1.json
	python3 -c "import json;d=json.load(open('/tmp/s1.json'));print('S1 N=$1: %.1f MB/s' % (d['jobs'][0]['read']['bw']/1024))"
}
for n in 1 2 4 8 4; do s1 $n 8; dump "S1 N=$n"; done
