# SPDX-License-Identifier: GPL-2.0
# Experiment: S1 array8 at 8 readers falls to about 0.75 of none in a boot
# that ran S1 sata first, not alone or after array12.  S1's readers on a
# profile's disk at 1, 2, 4, 8 readers, ctxsched then none each time (the
# scheduler selected anew, as the bench does), first on sata ($1 = 1) or
# not, then on array8, with array8's device model after each ctxsched run.
. tools/bench/exp/lib.sh
s1() { # DEV N SECS
	local dsize
	dsize=$(blockdev --getsize64 "/dev/$1")
	fio --name=r --filename="/dev/$1" --rw=read --bs=384k --direct=1 \
		--ioengine=psync --numjobs="$2" --size=$((dsize / $2 / 2)) \
		--offset_increment=$((dsize / $2)) --runtime="$3" --time_based \
		--group_reporting --output-format=json > /tmp/s1.json
	python3 -c "import json;d=json.load(open('/tmp/s1.json'));print('%.1f' % (d['jobs'][0]['read']['bw']/1024))"
}
profile() { # DEV
	local n
	for n in 1 2 4 8; do
		cs_sched_set "/dev/$1" ctxsched
		c=$(s1 "$1" "$n" 5)
		d=$1 dump "$1 N=$n ctxsched $c"
		cs_sched_set "/dev/$1" none
		echo "## $1 N=$n none $(s1 "$1" "$n" 5)"
	done
}
cs_sched_set /dev/hddsim0 none
[ "${1:-1}" = 1 ] && profile hddsim0
profile hddsim3
