# SPDX-License-Identifier: GPL-2.0
# Experiment: S8's thread pools (T = 4, 8, 16; S = 1, 2, 4; 4 s each) on
# hddsim sata, then 4 and 8 sequential readers in one fio run each with
# ctxsched and none switched every 3 s as the bench does: does a verdict
# learnt under the pools hold the readers?  Needs build/bench/s8-pool:
#   gcc -O2 -pthread -o build/bench/s8-pool tools/bench/s8-pool.c
# then run as s10.sh.
. tools/bench/exp/lib.sh
set_s() { echo $1 > /sys/block/$d/queue/scheduler; }
set_s ctxsched
for t in 4 8 16; do for s in 1 2 4; do
	echo 3 > /proc/sys/vm/drop_caches
	build/bench/s8-pool /dev/$d $t $s 256 4 > /dev/null
done; done
dump "after pools"
# S1 N=4 and N=8 as the bench does: one fio run, schedulers switched under it
for n in 4 8; do
fio --name=r --filename=/dev/$d --rw=read --bs=384k --direct=1 --ioengine=psync \
	--numjobs=$n --size=$((size / n / 2)) --offset_increment=$((size / n)) \
	--runtime=3600 --time_based > /dev/null 2>&1 &
p=$!
sleep 2
for w in 1 2 3; do
	for sc in ctxsched none; do
		set_s $sc; sleep 1
		a=$(awk '{print $3}' /sys/block/$d/stat); sleep 3; b=$(awk '{print $3}' /sys/block/$d/stat)
		echo "S1 N=$n window $w $sc: $(( (b - a) * 512 / 3 / 1000000 )) MB/s"
	done
	set_s ctxsched; dump "N=$n w$w"
done
kill $p; wait $p 2>/dev/null
done
