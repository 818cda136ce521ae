# SPDX-License-Identifier: GPL-2.0
# Cooperating threads.  Five threads, each its own I/O context, read one
# stream in turn, 64 KiB each, on a serialising disk: ctxsched serves the
# stream as one queue (it merges their queues, or, where slices own the
# disk, moves each thread's request into the stream's queue), so the
# stream keeps its slice and idle window.  The hand-over
# between threads costs time of its own (Python threads under TCG, and it
# varies with the host's load), so the yardstick is "none", which never
# idles: five threads in turn must get at least half of what they get under
# none.  Unmerged, every turn would wait out another context's idle window
# and get about a fifth (the bench measures the real ratio on hddsim).  Then
# two threads leave the stream for areas far apart: a merged queue turns
# seeky and is split, and no request is moved any more.  Both in the mode
# the disk is learnt to need and in serial mode.
# timeout: 400
. tests/lib.sh

cs_load
cs_serial_disk coop
turns() { python3 tests/tools/turns.py /dev/coop "$@" | awk '/MB\/s/ {print $2}'; }
five() { # scheduler [device_mode] -> best MB/s of two runs of five threads in turn
	local a b
	cs_sched_set /dev/coop "$1"
	if [ -n "${2:-}" ]; then
		echo "$2" > /sys/block/coop/queue/iosched/device_mode ||
			cs_fail "device_mode $2"
	fi
	a=$(turns --threads 5 --bytes $((24 << 20))) || cs_fail "$1: read"
	b=$(turns --threads 5 --offset $((256 << 20)) --bytes $((24 << 20))) ||
		cs_fail "$1: read"
	python3 -c "print(max($a, $b))"
}

# Two threads read one stream together, then each its own far area: the
# second half makes every request of a merged queue a seek.  Prints the
# requests moved into another queue in the second half.
together_apart() {
	STATS="$CS_DEBUGFS/coop/stats" python3 - <<'PY'
import mmap, os, threading
fd = os.open("/dev/coop", os.O_RDONLY | os.O_DIRECT)
cond = threading.Condition()
st = {"turn": 0, "step": 0}
CH = 64 * 1024
def moved():
    with open(os.environ["STATS"]) as f:
        return next(int(l.split()[1]) for l in f
                    if l.startswith("stream_moved "))
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
            if step == 100:
                st["moved"] = moved()
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
print(moved() - st["moved"])
PY
}

# check MODE MB/s: the stream was served as one queue, the threads that
# went apart were not.
check() {
	local merged moved split apart m0 s0
	merged=$(( $(cs_stat /dev/coop coop_merged) - merged0 ))
	moved=$(( $(cs_stat /dev/coop stream_moved) - moved0 ))
	cs_log "$1: five threads in turn: none $base MB/s, ctxsched $2 MB/s; $merged merges, $moved requests moved"
	[ $((merged + moved)) -ge 4 ] ||
		cs_fail "$1: only $merged queue merges and $moved requests moved"
	python3 -c "import sys; sys.exit(not $2 >= 0.5 * $base)" ||
		cs_fail "$1: five threads in turn: ctxsched $2 MB/s, none $base MB/s"
	m0=$(cs_stat /dev/coop coop_merged)
	s0=$(cs_stat /dev/coop coop_split)
	apart=$(together_apart) || cs_fail "$1: split workload"
	merged=$(( $(cs_stat /dev/coop coop_merged) - m0 ))
	split=$(( $(cs_stat /dev/coop coop_split) - s0 ))
	cs_log "$1: together: $merged merges; apart: $split splits, $apart requests moved"
	[ "$merged" -eq 0 ] || [ "$split" -ge 1 ] ||
		cs_fail "$1: the merged queue was not split"
	# One or two at the turn, while the stream's last end is still near.
	[ "$apart" -le 2 ] ||
		cs_fail "$1: $apart requests moved after the threads went apart"
}

base=$(five none)
merged0=0 moved0=0
ours=$(five ctxsched)
check auto "$ours"
# Where slices own the disk the threads' requests move to the stream's
# queue (the disk above is learnt to be parallel: no seek cost).
merged0=$(cs_stat /dev/coop coop_merged)
moved0=$(cs_stat /dev/coop stream_moved)
ours=$(five ctxsched serial)
check serial "$ours"
[ $(( $(cs_stat /dev/coop stream_moved) - moved0 )) -ge 4 ] ||
	cs_fail "serial: no requests moved"
cs_check_idle /dev/coop
cat /sys/kernel/debug/ctxsched/coop/stats
echo ok
