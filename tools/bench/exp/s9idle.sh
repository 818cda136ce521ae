#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# s9idle.sh: S9's cold python start-up on ext4 on hddsim sata, alone or
# beside S9's two sequential readers (S9IDLE_BG=readers), under schedulers
# and ctxsched tunable variants (S9IDLE_VARIANTS: a scheduler's name, or
# tunable=value,... for ctxsched; "-" for its defaults), S9IDLE_REPS times
# each, with ctxsched's stats after each variant.
cd "$(dirname "$0")/../../.." || exit 2
. tools/bench/exp/lib.sh
. tools/bench/lib.sh
s9_app s9idle
variants=${S9IDLE_VARIANTS:-"none mq-deadline - slice_idle=0 mode=parallel mode=serial low_latency=0"}
iosched=/sys/block/$d/queue/iosched
for v in $variants; do
	case $v in
	none|mq-deadline|bfq|kyber) modprobe bfq; modprobe kyber-iosched
		cs_sched_set /dev/$d "$v" ;;
	*)	cs_sched_set /dev/$d none; cs_sched_set /dev/$d ctxsched
		[ "$v" = - ] || for kv in ${v//,/ }; do
			echo "${kv#*=}" > "$iosched/${kv%%=*}" || cs_fail "$kv"
		done ;;
	esac
	t=
	for r in $(seq "${S9IDLE_REPS:-3}"); do
		bench_drop_caches
		[ "${S9IDLE_BG:-idle}" = readers ] && s9_readers
		s9_start
		t+=" $s9_secs"
		s9_readers_stop
	done
	r=$(cat /sys/block/$d/stat | awk '{print "reads", $1, "merged", $2, "sectors", $3}')
	echo "## $v:$t ($r)"
	[ -r "$CS_DEBUGFS/$d/stats" ] &&
		grep -E '^(inserted|dispatched|slices|preempted|idle_armed|idle_hit|idle_expired) ' \
			"$CS_DEBUGFS/$d/stats" | tr '\n' ' ' && echo
done
umount "$BENCH_MNT"
