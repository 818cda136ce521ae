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

# A real-time reader beside a best-effort one.
reader be2 0 14 -c2 -n0 &
be=$!
sleep 2
reader rt 512m 10 -c1 -n4 || cs_fail "real-time reader"
wait "$be" || cs_fail "best-effort reader"
rt=$(ios rt)
# The best-effort reader's I/Os during the overlap: its total minus what it
# does alone in the remaining 4 s, estimated from the solo rate.
be_all=$(ios be2)
overlap=$(( be_all - solo * 4 / 5 ))
[ "$overlap" -lt 0 ] && overlap=0
cs_log "RT $rt ios/10s; BE $be_all ios/14s (about $overlap during the overlap)"
[ $((rt * 100)) -ge $(( (rt + overlap) * 90 )) ] ||
	cs_fail "RT got $rt ios, best effort about $overlap while both ran"
cat /sys/kernel/debug/ctxsched/cls/stats
echo ok
