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
BENCH_OUT=/tmp/s9idle BENCH_RAW=/tmp/s9idle/raw
mkdir -p "$BENCH_RAW"
bench_ext4 "$d" || cs_fail "mkfs or mount"
bench_python_app "$BENCH_MNT/app" || cs_fail "python app"
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
		pids=
		if [ "${S9IDLE_BG:-idle}" = readers ]; then
			for at in 40 70; do
				dd if=/dev/$d of=/dev/null bs=1M status=none \
					skip=$((size * at / 100 >> 20)) count=65536 &
				pids+=" $!"
			done
			sleep 3
		fi
		t0=$EPOCHREALTIME
		timeout 120 chroot "$BENCH_MNT/app" "$BENCH_PY" -c "$BENCH_PY_CODE" ||
			echo "start-up failed or timed out"
		t+=" $(python3 -c "print(f'{$EPOCHREALTIME - $t0:.2f}')")"
		for p in $pids; do kill "$p"; wait "$p" 2>/dev/null; done
	done
	r=$(cat /sys/block/$d/stat | awk '{print "reads", $1, "merged", $2, "sectors", $3}')
	echo "## $v:$t ($r)"
	[ -r "$CS_DEBUGFS/$d/stats" ] &&
		grep -E '^(inserted|dispatched|slices|preempted|idle_armed|idle_hit|idle_expired) ' \
			"$CS_DEBUGFS/$d/stats" | tr '\n' ' ' && echo
done
umount "$BENCH_MNT"
