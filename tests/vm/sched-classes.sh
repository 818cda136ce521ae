# SPDX-License-Identifier: GPL-2.0
# Service classes on a serialising disk.
#  - An IDLE-class reader gets almost nothing (< 3% of the I/Os) while a
#    best-effort reader is busy, and proceeds once it stops (at least half
#    the rate the best-effort reader had alone).
#  - A real-time reader preempts a best-effort one: it gets >= 90% of the
#    I/Os while both run.
# timeout: 400
. tests/lib.sh

cs_load
cs_serial_disk cls
cs_sched_set /dev/cls ctxsched

reader() { # name offset seconds [ionice args] -> runs fio, JSON in /tmp/NAME.json
	local name=$1 off=$2 secs=$3
	shift 3
	ionice "$@" fio --name="$name" --filename=/dev/cls --rw=read --bs=4k \
		--direct=1 --invalidate=0 --ioengine=psync --offset="$off" --size=256m \
		--runtime="$secs" --time_based --output-format=json \
		> "/tmp/$name.json"
}
ios() { cs_fio_get "/tmp/$1.json" "$1" "j['read']['total_ios']"; }

# Best-effort alone: the reference rate.
reader solo 0 5 -c2 -n4 || cs_fail "solo reader"
solo=$(ios solo)

# An IDLE-class reader beside a busy best-effort one ...
reader be 0 14 -c2 -n4 &
be=$!
sleep 2
reader idle 512m 10 -c3 || cs_fail "idle reader"
wait "$be" || cs_fail "best-effort reader"
idle=$(ios idle)
busy=$(ios be)
cs_log "solo BE $solo ios/5s; BE $busy ios/14s beside IDLE $idle ios/10s"
[ $((idle * 100)) -lt $((busy * 3)) ] ||
	cs_fail "IDLE class got $idle ios beside $busy best-effort ios"

# ... proceeds once the disk is free.
reader idle2 512m 5 -c3 || cs_fail "idle reader alone"
alone=$(ios idle2)
cs_log "IDLE alone: $alone ios/5s"
[ $((alone * 2)) -ge "$solo" ] ||
	cs_fail "IDLE class alone got $alone ios, best effort alone $solo"

# A real-time reader beside a best-effort one.  Both log their I/Os per
# half second with wall-clock stamps, so the best-effort reader's share is
# counted over the time the real-time one ran (fio's start-up under TCG
# would otherwise count as overlap, or a slow solo run as none).
logged() { # name offset seconds [ionice args] -> also /tmp/NAME_iops.1.log
	local name=$1 off=$2 secs=$3
	shift 3
	ionice "$@" fio --name="$name" --filename=/dev/cls --rw=read --bs=4k \
		--direct=1 --invalidate=0 --ioengine=psync --offset="$off" --size=256m \
		--runtime="$secs" --time_based --output-format=json \
		--write_iops_log="/tmp/$name" --log_avg_msec=500 \
		--log_unix_epoch=1 > "/tmp/$name.json"
}
logged be2 0 14 -c2 -n0 &
be=$!
sleep 2
logged rt 512m 10 -c1 -n4 || cs_fail "real-time reader"
wait "$be" || cs_fail "best-effort reader"
rt=$(ios rt)
be_all=$(ios be2)
# I/Os of each in the half seconds that end within the real-time run,
# after its first: IOPS x 0.5 s summed.
counts=$(python3 - /tmp/rt_iops.1.log /tmp/be2_iops.1.log <<'PY'
import sys
def log(path):
    return [(int(f[0]), int(f[1])) for f in
            (l.split(",") for l in open(path)) if len(f) > 1]
rt, be = log(sys.argv[1]), log(sys.argv[2])
first, last = rt[0][0], rt[-1][0]
ios = lambda e: sum(v for t, v in e if first < t <= last) / 2
print(round(ios(rt)), round(ios(be)))
PY
) || cs_fail "iops logs"
read -r rt_in be_in <<< "$counts"
cs_log "RT $rt ios/10s; BE $be_all ios/14s; while RT ran: RT $rt_in, BE $be_in"
[ "$rt_in" -ge $((rt / 2)) ] || cs_fail "RT's log covers $rt_in of its $rt ios"
[ $((rt_in * 100)) -ge $(( (rt_in + be_in) * 90 )) ] ||
	cs_fail "RT got $rt_in ios, best effort $be_in while both ran"
cat /sys/kernel/debug/ctxsched/cls/stats
echo ok
