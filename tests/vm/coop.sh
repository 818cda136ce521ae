# SPDX-License-Identifier: GPL-2.0
# Cooperating threads.  Five threads, each its own I/O context, read one
# stream in turn, 64 KiB each, on a serialising disk: ctxsched merges their
# queues, so the stream keeps its slice and idle window.  The hand-over
# between threads costs time of its own (Python threads under TCG, and it
# varies with the host's load), so the yardstick is "none", which never
# idles: five threads in turn must get at least half of what they get under
# none.  Unmerged, every turn would wait out another context's idle window
# and get about a fifth (the bench measures the real ratio on hddsim).  Then
# two merged threads leave the stream for areas far apart: the merged queue
# turns seeky and is split.
# timeout: 400
. tests/lib.sh

cs_load
cs_serial_disk coop
turns() { python3 tests/tools/turns.py /dev/coop "$@" | awk '/MB\/s/ {print $2}'; }
five() { # scheduler -> best MB/s of two runs of five threads in turn
	local a b
	cs_sched_set /dev/coop "$1"
	a=$(turns --threads 5 --bytes $((24 << 20))) || cs_fail "$1: read"
	b=$(turns --threads 5 --offset $((256 << 20)) --bytes $((24 << 20))) ||
		cs_fail "$1: read"
	python3 -c "print(max($a, $b))"
}

base=$(five none)
ours=$(five ctxsched)
merged=$(cs_stat /dev/coop coop_merged)
cs_log "five threads in turn: none $base MB/s, ctxsched $ours MB/s; $merged merges"
[ "$merged" -ge 4 ] || cs_fail "only $merged queue merges"
python3 -c "import sys; sys.exit(not $ours >= 0.5 * $base)" ||
	cs_fail "five threads in turn: ctxsched $ours MB/s, none $base MB/s"

# Two threads read one stream together, then each its own far area: the
# second half makes every request of the merged queue a seek.
split0=$(cs_stat /dev/coop coop_split)
python3 - <<'PY' || cs_fail "split workload"
import mmap, os, threading
fd = os.open("/dev/coop", os.O_RDONLY | os.O_DIRECT)
cond = threading.Condition()
st = {"turn": 0, "step": 0}
CH = 64 * 1024
def worker(me):
    buf = mmap.mmap(-1, CH)
    while True:
        with cond:
            while st["turn"] != me and st["step"] < 400:
                cond.wait(1)
            if st["step"] >= 400:
                cond.notify_all()
                return
            step = st["step"]
        if step < 100:
            pos = (512 << 20) + step * CH            # one stream together
        else:
            pos = ((128 << 20) if me else (768 << 20)) + step * CH
        assert os.preadv(fd, [buf], pos) == CH
        with cond:
            st["step"] += 1
            st["turn"] = 1 - me
            cond.notify_all()
ts = [threading.Thread(target=worker, args=(i,)) for i in (0, 1)]
[t.start() for t in ts]
[t.join() for t in ts]
PY
split=$(( $(cs_stat /dev/coop coop_split) - split0 ))
cs_log "$split splits after the threads went apart"
[ "$split" -ge 1 ] || cs_fail "the merged queue was not split"
cs_check_idle /dev/coop
cat /sys/kernel/debug/ctxsched/coop/stats
echo ok
