#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Experiment (issue 14): S8's buffered pool on array12 (T=8, S=1 and 2,
# read_ahead_kb 128, 4 s runs, page cache dropped before each) under none,
# kyber and ctxsched with its defaults and with one tunable changed each
# (device_mode=parallel; slice_idle=0 and group_idle=0; group_by=process;
# boost=0), three rounds, the device model after each round.  Needs
# build/bench/s8-pool (see s8-fds.sh); run with tools/vm/run --modules DIR
# -- bash tools/bench/exp/s8-array12.sh.  Other cases: S8A_DEV (hddsim0 is
# sata), S8A_T, S8A_S ("1 2"), S8A_ROUNDS (3); S8A_PREFAULT=1 first writes
# the guest's memory once (bench_prefault).  One open file per stream, as
# S8 since 2026-12-06 (the log of 20261206-0327 was taken with one file).
. tools/bench/exp/lib.sh
a=${S8A_DEV:-hddsim1}
if [ "${S8A_PREFAULT:-0}" = 1 ]; then
	. tools/bench/lib.sh
	bench_prefault
fi
echo 128 > /sys/block/$a/queue/read_ahead_kb
io=/sys/block/$a/queue/iosched
run() { # LABEL T S
	local tot
	sync; echo 3 > /proc/sys/vm/drop_caches
	tot=$(build/bench/s8-pool --fd-per-stream /dev/$a "$2" "$3" 256 4 |
		sed 's/.*"seconds": \([0-9.]*\).*"stream_bytes": \[\(.*\)\].*/\1 \2/' |
		awk '{ s = 0; for (i = 2; i <= NF; i++) { gsub(",", "", $i); s += $i }
			printf "%.1f", s / $1 / 1e6 }')
	echo "S8A T=$2 S=$3 $1: $tot MB/s"
}
for r in $(seq "${S8A_ROUNDS:-3}"); do
  for s in ${S8A_S:-1 2}; do
	for v in none kyber - device_mode=parallel slice_idle=0,group_idle=0 group_by=process boost=0; do
		case $v in
		none|kyber) modprobe kyber-iosched; cs_sched_set /dev/$a $v ;;
		*) cs_sched_set /dev/$a none; cs_sched_set /dev/$a ctxsched
		   [ "$v" = - ] || for kv in ${v//,/ }; do echo "${kv#*=}" > "$io/${kv%%=*}" || echo "FAILED $kv"; done ;;
		esac
		run "$v r$r" "${S8A_T:-8}" $s
	done
	d=$a dump "after r$r S=$s"
  done
done
