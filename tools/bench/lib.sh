# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The sizes (S1_NS ...) are for the scenarios that source this file:
# shellcheck disable=SC2034
# Helpers for the benchmark scenarios (sourced by tools/bench/guest and
# tools/bench/scenarios/*.sh, inside the VM).  Unlike tests/lib.sh nothing
# here ends the scenario on a failure: a failed run is recorded with
# bench_error and the scenario goes on with the next scheduler, so that one
# failure does not lose the other numbers.  The scenario's exit status says
# whether anything failed.
#
# Every number is kept as raw data: fio's JSON output and the records that
# bench_record appends to $BENCH_RAW/<scenario>.jsonl; tools/bench/report
# turns them into tables and plots on the host.
#
# Under TCG every exec costs 40-100 ms and starting fio 1-1.5 s (plus
# about 0.2 s per job, 47 s for 256 threads), so the helpers read /proc and
# /sys with shell builtins, and the scenarios whose workload is the same for
# every scheduler (S1, S5, S6) start it once and switch the scheduler under
# it, measuring one window per scheduler from the disk's counters
# (bench_windows).

BENCH_TOP=${BENCH_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
BENCH_OUT=${BENCH_OUT:-/results}
BENCH_RAW=$BENCH_OUT/raw
BENCH_FIO=$BENCH_TOP/tools/bench/fio
BENCH_PROFILE=${BENCH_PROFILE:-full}
BENCH_SCHEDS=${BENCH_SCHEDS:-ctxsched bfq mq-deadline kyber none}
BENCH_S2=${BENCH_S2:-$BENCH_TOP/build/bench/s2-turns}
BENCH_S8=${BENCH_S8:-$BENCH_TOP/build/bench/s8-pool}
BENCH_MNT=/mnt/bench

# Sizes and durations per profile.  "full" fits all scenarios, five
# schedulers and three repetitions into about an hour under TCG; "quick"
# is a smoke test (every scenario and scheduler, one repetition, short
# runs) for CI.  Times are seconds.  BENCH_RAMP: settling time after a
# scheduler switch before a window opens; *_WIN: window lengths.
case $BENCH_PROFILE in
quick)
	: "${BENCH_REPS:=1}"
	BENCH_RAMP=0.5
	S1_PROFILES=${BENCH_S1_PROFILES:-sata array12 ssd virtio} S1_NS="1 4" S1_WIN=1
	S1_ROUNDS=2
	S2_SECS=1.5 S2_THREADS=5
	S3_FILES=200 S3_TIMEOUT=30 S3_WARMUP=2 S3_SOLO=0
	S4_SECS=2 S4_PAIRS="be0-be7 be-idle" S4_DEVS="sata"
	S5_JOBS="1 64" S5_WIN=1 S5_RAMP=0.5 S5_ROUNDS=2
	S6_RAS="128 4096" S6_WIN=1 S6_STREAMS=2
	S7_SECS=7 S7_RATE=40
	S10_DEVS=${BENCH_S10_DEVS:-virtio} S10_SECS=4 S10_ROUNDS=2
	S8_SECS=2
	S9_KINDS="idle both" S9_TIMEOUT=30 S9_WARMUP=2
	S8_CASES="sata:8:2:256:128:buf sata:8:2:256:128:direct sata:8:2:256:128:auto"
	;;
*)
	: "${BENCH_REPS:=3}"
	BENCH_RAMP=1
	S1_PROFILES=${BENCH_S1_PROFILES:-sata array12 array8 ssd virtio}
	S1_NS="1 2 4 8" S1_WIN=3
	S1_ROUNDS=6
	S2_SECS=5 S2_THREADS=5
	S3_FILES=600 S3_TIMEOUT=60 S3_WARMUP=3 S3_SOLO=1
	S4_SECS=4 S4_PAIRS="be0-be7 be-idle rt-be" S4_DEVS="sata ssd"
	S5_JOBS="1 4 16 64 256" S5_WIN=1 S5_RAMP=0.5 S5_ROUNDS=6
	S6_RAS="128 512 1024 2048 4096" S6_WIN=3 S6_STREAMS=2
	S7_SECS=16 S7_RATE=40
	S10_DEVS=${BENCH_S10_DEVS:-virtio sata} S10_SECS=10 S10_ROUNDS=6
	S8_SECS=4
	S9_KINDS="idle readers writer both" S9_TIMEOUT=60 S9_WARMUP=3
	S8_CASES="sata:4:1:256:128:buf sata:4:2:256:128:buf sata:4:4:256:128:buf
		sata:16:1:256:128:buf sata:16:2:256:128:buf sata:16:4:256:128:buf
		sata:8:2:256:128:direct sata:8:2:256:512:buf sata:8:2:256:1024:buf
		sata:8:2:256:4096:buf sata:8:2:256:128:auto
		array12:8:1:256:128:buf array12:8:2:256:128:buf"
	;;
esac
# Sequential readers of S1: O_DIRECT, one request in flight, the request
# size of the hddsim calibration (tests/vm/hddsim-calibrate.sh).
S1_BS=384k
# S1 on the virtio disk (a host file): the host's page cache and the
# guest's speed move its rate within seconds (none at 8 readers: 1398 /
# 592 / 1180 MB/s in three 3 s windows), so there the schedulers take
# S1_ROUNDS rounds of 1 s turns (bench_rounds) instead of one S1_WIN turn.
S1_ROUNDED="virtio" S1_TURN=1 S1_TURN_RAMP=0.5
# S10's mix on the virtio disk, the same way: rounds of 2 s turns.
S10_ROUNDED="virtio" S10_TURN=2 S10_TURN_RAMP=0.5
# S3/S7: write-back limits low enough that a flood starts within seconds
# and a sync after it ends quickly, high enough to keep the disk busy.  S7
# halves them: its fio run ends with a sync of all that is dirty (the last
# close of a block device writes it back).
BENCH_DIRTY_BG=$((64 << 20)) BENCH_DIRTY=$((256 << 20))

bench_log() {
	printf '# [%4ds] %s\n' "$SECONDS" "$*"
}

# shellcheck disable=SC2153 # BENCH_S: set by the guest for each scenario
# bench_error MSG: note a failure of the current scenario ($BENCH_S); it
# goes to the log, to $BENCH_RAW/errors.txt and into the raw records.
bench_error() {
	echo "ERROR: $BENCH_S: $*" >&2
	echo "$BENCH_S: $*" >> "$BENCH_RAW/errors.txt"
	bench_record error="$*"
	BENCH_FAILED=1
}

# bench_json KEY=VALUE...: one JSON object; values that look like numbers
# stay numbers.
bench_json() {
	local kv k v sep='' out='{'
	for kv in "$@"; do
		k=${kv%%=*}
		v=${kv#*=}
		if [[ $v =~ ^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$ ]]; then
			out+="$sep\"$k\": $v"
		else
			v=${v//\\/\\\\}
			v=${v//\"/\\\"}
			v=${v//$'\n'/ }
			v=${v//$'\t'/ }
			out+="$sep\"$k\": \"$v\""
		fi
		sep=', '
	done
	echo "$out}"
}

# bench_record KEY=VALUE...: append a record of the current scenario.
bench_record() {
	bench_json s="$BENCH_S" "$@" >> "$BENCH_RAW/$BENCH_S.jsonl"
}

# bench_order REP: the schedulers, rotated by REP so that no scheduler
# always runs first (a disk's and the host's state drift during a boot).
bench_order() {
	local -a s
	read -r -a s <<< "$BENCH_SCHEDS"
	local n=${#s[@]} i
	for ((i = 0; i < n; i++)); do
		echo "${s[$(((i + $1) % n))]}"
	done
}

bench_sched_of() { # dev
	local line
	read -r line < "/sys/block/$1/queue/scheduler"
	[[ $line =~ \[([^]]*)\] ]] && echo "${BASH_REMATCH[1]}"
}

# bench_set_sched DEV SCHED: select SCHED on /dev/DEV (a name without
# /dev/), or record an error and return 1.
bench_set_sched() {
	local dev=$1 sched=$2 line
	echo "$sched" > "/sys/block/$dev/queue/scheduler" 2>/dev/null
	read -r line < "/sys/block/$dev/queue/scheduler"
	if [[ $line != *"[$sched]"* ]]; then
		bench_error "cannot select $sched on $dev (offered: $line)"
		return 1
	fi
}

# bench_model DEV OUT: keep ctxsched's device model of DEV (debugfs) as
# $BENCH_RAW/OUT when ctxsched runs DEV: the mode, why, and the figures it
# rests on, beside the run it explains.
bench_model() {
	local f=/sys/kernel/debug/ctxsched/$1/model
	[ -r "$f" ] || return 0
	mkdir -p "$(dirname "$BENCH_RAW/$2")"
	cat "$f" > "$BENCH_RAW/$2" 2>/dev/null || true
}

# bench_settle DEV: wait until nothing is in flight on DEV (at most 30 s),
# so that one run's tail does not slow the next.
bench_settle() {
	local i r w
	for ((i = 0; i < 300; i++)); do
		read -r r w < "/sys/block/$1/inflight"
		[ $((r + w)) = 0 ] && return 0
		sleep 0.1
	done
	bench_error "$1: requests still in flight 30 s after a run"
	return 1
}

# bench_fio_check OUT RC [SIGNALLED]: judge a finished fio run; exit status
# 128 is fio's own after the SIGINT that bench_fio_stop sends.
bench_fio_check() {
	local out=$1 rc=$2 sig=${3:-0}
	if [ "$rc" != 0 ] && ! { [ "$sig" = 1 ] && [ "$rc" = 128 ]; }; then
		bench_error "fio -> $out exited $rc: $(tail -3 "$BENCH_RAW/$out.log" | tr '\n' ' ')"
		return 1
	fi
	if [ ! -s "$BENCH_RAW/$out" ] || grep -qE '"error" : [1-9]' "$BENCH_RAW/$out"; then
		bench_error "fio -> $out: no output, or a job reported an error"
		return 1
	fi
	# An empty log is noise: keep only ones that say something.
	[ -s "$BENCH_RAW/$out.log" ] || rm -f "$BENCH_RAW/$out.log"
	return 0
}

# bench_fio OUT JOBFILE [VAR=VALUE...]: run fio with the job file, the
# variables in its environment (fio expands ${VAR} in job files), JSON
# output to $BENCH_RAW/OUT.  Returns 1 (and records the error) when fio
# exits non-zero or reports an error for any job.
bench_fio() {
	local out=$1 job=$2 rc
	shift 2
	mkdir -p "$(dirname "$BENCH_RAW/$out")"
	env "$@" fio --output-format=json --output="$BENCH_RAW/$out" \
		"$BENCH_FIO/$job" > "$BENCH_RAW/$out.log" 2>&1
	rc=$?
	bench_fio_check "$out" "$rc"
}

# bench_fio_start OUT JOBFILE [VAR=VALUE...]: the same in the background;
# sets BENCH_FIO_PID and BENCH_FIO_OUT.  bench_fio_stop ends it.
bench_fio_start() {
	local out=$1 job=$2
	shift 2
	mkdir -p "$(dirname "$BENCH_RAW/$out")"
	# SCHED_OTHER even when started from S5's real-time shell (a task's
	# default I/O class follows its CPU policy).
	chrt -o 0 env "$@" fio --output-format=json --output="$BENCH_RAW/$out" \
		"$BENCH_FIO/$job" > "$BENCH_RAW/$out.log" 2>&1 &
	BENCH_FIO_PID=$! BENCH_FIO_OUT=$out
}

bench_fio_stop() {
	local rc sig=0
	if kill -0 "$BENCH_FIO_PID" 2>/dev/null; then
		kill -INT "$BENCH_FIO_PID"
		sig=1
	fi
	wait "$BENCH_FIO_PID"
	rc=$?
	bench_fio_check "$BENCH_FIO_OUT" "$rc" "$sig"
}

# bench_wait_io DEV: wait (at most 120 s: 256 fio threads take 50 s to
# start under TCG) until DEV completes requests, i.e. the workload runs.
bench_wait_io() {
	local -a f
	local r0 i
	read -r -a f < "/sys/block/$1/stat"
	r0=$((f[0] + f[4]))
	for ((i = 0; i < 1200; i++)); do
		sleep 0.1
		read -r -a f < "/sys/block/$1/stat"
		[ $((f[0] + f[4])) != "$r0" ] && return 0
		kill -0 "$BENCH_FIO_PID" 2>/dev/null || break
	done
	bench_error "$1: the workload did not start"
	return 1
}

# bench_fio_jobs N: the process ids of fio's jobs (its children), once N
# run; they go into BENCH_PIDS for per-reader counts, ascending (pgrep's
# order), which is the order of the job file as fio forks them one by one.
bench_fio_jobs() {
	local want=$1 i
	for ((i = 0; i < 300; i++)); do
		BENCH_PIDS=$(pgrep -P "$BENCH_FIO_PID" | tr '\n' ' ')
		[ "$(wc -w <<< "$BENCH_PIDS")" -ge "$want" ] && return 0
		sleep 0.2
	done
	BENCH_PIDS=
}

# bench_snap NAME DEV [PID...]: counters now, into the associative array
# NAME: time, the disk's requests and sectors, the CPUs' busy ticks, hddsim's
# model counters, and the bytes each PID read.
BENCH_HS_KEYS="reads read_bytes writes write_bytes seeks cache_hits service_ns achieved_ns completed"
# shellcheck disable=SC2154 # (keys of the associative array, not variables)
bench_snap() {
	local -n _s=$1
	local dev=$2 k v key val cpu user nice sys idle iow irq sirq steal
	local -a f
	shift 2
	_s=()
	_s[t_us]=${EPOCHREALTIME/./}
	read -r -a f < "/sys/block/$dev/stat"
	_s[rd_ios]=${f[0]} _s[rd_sectors]=${f[2]}
	_s[wr_ios]=${f[4]} _s[wr_sectors]=${f[6]}
	read -r cpu user nice sys idle iow irq sirq steal _ < /proc/stat
	_s[busy_ticks]=$((user + nice + sys + irq + sirq + steal))
	if [ -d "/sys/block/$dev/hddsim" ]; then
		for k in $BENCH_HS_KEYS; do
			read -r v < "/sys/block/$dev/hddsim/$k"
			_s[hs_$k]=$v
		done
	fi
	_s[pids]="$*"
	for k in "$@"; do
		v=0
		[ -r "/proc/$k/io" ] && while read -r key val; do
			[ "$key" = read_bytes: ] && v=$val
		done < "/proc/$k/io"
		_s[pid_$k]=$v
	done
}

# shellcheck disable=SC2004 # (keys of associative arrays need the $)
# bench_delta A B: what grew from snapshot A to B, as KEY=VALUE words in
# the array BENCH_D (window_s, rd_bytes, wr_bytes, ..., reader_bytes as a
# comma-separated list in the order bench_snap was given the PIDs).
bench_delta() {
	local -n _a=$1 _b=$2
	local k us readers=
	BENCH_D=()
	us=$((_b[t_us] - _a[t_us]))
	BENCH_D+=("window_s=$((us / 1000000)).$(printf '%06d' $((us % 1000000)))")
	BENCH_D+=("rd_ios=$((_b[rd_ios] - _a[rd_ios]))")
	BENCH_D+=("rd_bytes=$(((_b[rd_sectors] - _a[rd_sectors]) * 512))")
	BENCH_D+=("wr_ios=$((_b[wr_ios] - _a[wr_ios]))")
	BENCH_D+=("wr_bytes=$(((_b[wr_sectors] - _a[wr_sectors]) * 512))")
	BENCH_D+=("busy_ticks=$((_b[busy_ticks] - _a[busy_ticks]))")
	for k in "${!_b[@]}"; do
		[[ $k == hs_* ]] && BENCH_D+=("$k=$((_b[$k] - _a[$k]))")
	done
	for k in ${_b[pids]}; do
		k=pid_$k
		readers+=${readers:+,}$((_b[$k] - _a[$k]))
	done
	[ -n "$readers" ] && BENCH_D+=("reader_bytes=$readers")
}

# shellcheck disable=SC2153 # BENCH_WIN: set by the caller
# bench_windows DEV REP KEY=VALUE...: while a workload started with
# bench_fio_start runs, select each scheduler in turn (order rotated by
# REP, or BENCH_TURNS's when set), let it settle for BENCH_RAMP s and
# measure a window of BENCH_WIN s; one record per scheduler with the
# KEY=VALUEs, the deltas of bench_delta, and kind=window.  Per-reader
# bytes for the pids in BENCH_PIDS.
bench_windows() {
	local dev=$1 rep=$2 sched mbs fio='' a
	local -A wa wb
	shift 2
	for a in "$@"; do
		[[ $a == fio=* ]] && fio=${a#fio=}
	done
	for sched in ${BENCH_TURNS:-$(bench_order "$rep")}; do
		bench_set_sched "$dev" "$sched" || continue
		sleep "$BENCH_RAMP"
		# shellcheck disable=SC2086
		bench_snap wa "$dev" $BENCH_PIDS
		sleep "$BENCH_WIN"
		# shellcheck disable=SC2086
		bench_snap wb "$dev" $BENCH_PIDS
		if ! kill -0 "$BENCH_FIO_PID" 2>/dev/null; then
			bench_error "the workload ended before the $sched window closed"
			return 1
		fi
		bench_delta wa wb
		[ "$sched" = ctxsched ] && [ -n "$fio" ] &&
			bench_model "$dev" "${fio%.json}-ctxsched.model"
		bench_record kind=window sched="$sched" rep="$rep" "$@" \
			hz="$BENCH_HZ" cpus="$BENCH_CPUS" "${BENCH_D[@]}"
		mbs=$(((wb[rd_sectors] - wa[rd_sectors]) * 512 / ((wb[t_us] - wa[t_us]) / 1000)))
		bench_log "$BENCH_S $* $sched rep $rep: $((mbs / 1000)).$(printf '%03d' $((mbs % 1000))) MB/s read," \
			"$((((wb[rd_ios] - wa[rd_ios]) * 1000000) / (wb[t_us] - wa[t_us]))) reads/s"
	done
}
# bench_rounds DEV REP ROUNDS WIN RAMP KEY=VALUE...: ROUNDS rounds of
# bench_windows turns of WIN s (RAMP s after each switch) under one running
# workload, each round in another order and every other one backwards;
# records carry round=I.  Where the guest's speed moves within seconds
# (S5, the virtio disk), turns side by side see the same speed and the
# report compares schedulers round by round.
bench_rounds() {
	local dev=$1 rep=$2 rounds=$3 win=$4 ramp=$5 round order
	shift 5
	for ((round = 0; round < rounds; round++)); do
		order=$(bench_order $((rep + round)))
		((round % 2)) && order=$(tac <<< "$order")
		BENCH_TURNS=$order BENCH_RAMP=$ramp BENCH_WIN=$win \
			bench_windows "$dev" "$rep" round="$round" "$@" || return 1
	done
}
# bench_rt_shell: run the calling shell SCHED_FIFO, so that it switches
# and measures on time while the workload keeps the vCPUs busy (CPU-bound
# fio under TCG).  Only for scenarios whose I/O is all started with
# bench_fio_start, which puts fio back to SCHED_OTHER: a task's default
# I/O class follows its CPU policy, and RT would change the benchmark.
bench_rt_shell() {
	chrt -f -p 10 $$ || { bench_error "cannot make the $BENCH_S shell real-time"; exit 1; }
}
BENCH_HZ=$(getconf CLK_TCK)
BENCH_CPUS=$(nproc)

# bench_fio_mbs FILE [DIR]: total bandwidth of all jobs in MB/s (10^6) for
# the progress log; the report recomputes everything from the JSON.
bench_fio_mbs() {
	awk -v d="${2:-read}" '
		$0 ~ "\"" d "\" : [{]" { want = 1; next }
		want && /"bw_bytes"/ { gsub(/[,]/, ""); sum += $3; want = 0 }
		END { printf "%.1f", sum / 1e6 }' "$1"
}

# bench_hddsim: (re)load hddsim with a fresh sata, array12, ssd and array8
# disk as hddsim0..3.  Reloading frees the memory that earlier writes took.
BENCH_HDDSIM_DEVICES="sata,array12,ssd,array8"
bench_hddsim() {
	local i
	if lsmod | grep -q '^hddsim '; then
		rmmod hddsim || { bench_error "rmmod hddsim failed"; return 1; }
	fi
	modprobe hddsim devices="$BENCH_HDDSIM_DEVICES" ||
		{ bench_error "modprobe hddsim failed"; return 1; }
	udevadm settle 2>/dev/null
	for i in 0 1 2 3; do
		[ -b /dev/hddsim$i ] || {
			bench_error "no /dev/hddsim$i after modprobe hddsim"
			return 1
		}
	done
}

# bench_prefault: write most of the guest's free memory once.  QEMU maps
# and zeroes host memory at a guest page's first use, so the first
# buffered run of a boot, whose page cache grows into memory never used,
# ran slower than the next ones, and repetition 0 always starts with the
# same scheduler (tools/bench/exp/first-touch.sh: S8's first case 53.4
# MB/s, the next three 59.5-65.5; 64.5 first after this).
bench_prefault() {
	local mb dir=/tmp/bench-prefault
	mb=$(awk '/MemAvailable/ { print int($2 * 0.8 / 1024) }' /proc/meminfo)
	mkdir -p "$dir" && mount -t tmpfs -o "size=${mb}m" tmpfs "$dir" ||
		{ bench_error "prefault: no tmpfs"; return 1; }
	dd if=/dev/zero of="$dir/fill" bs=1M count="$mb" status=none ||
		bench_error "prefault: writing $mb MiB failed"
	rm -f "$dir/fill"
	umount "$dir"
}

# bench_hddsim_dev PROFILE: the device name of a profile; "virtio" is the
# VM's virtio-blk disk (tools/bench/run attaches a host file).
bench_hddsim_dev() {
	case $1 in
	sata) echo hddsim0 ;;
	array12) echo hddsim1 ;;
	ssd) echo hddsim2 ;;
	array8) echo hddsim3 ;;
	virtio) [ -b /dev/vda ] && echo vda ;;
	*) return 1 ;;
	esac
}

# bench_dirty_limits on [DIVISOR]|off: the write-back limits of S3 and S7.
bench_dirty_limits() {
	if [ "$1" = on ]; then
		echo $((BENCH_DIRTY_BG / ${2:-1})) > /proc/sys/vm/dirty_background_bytes
		echo $((BENCH_DIRTY / ${2:-1})) > /proc/sys/vm/dirty_bytes
	else
		echo 10 > /proc/sys/vm/dirty_background_ratio
		echo 20 > /proc/sys/vm/dirty_ratio
	fi
}

bench_drop_caches() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
}

# bench_python_app DIR: copy the host's python3 into DIR for a chroot: the
# interpreter, its standard library with the compiled .pyc (without tests,
# IDLE, Tk and the like, which BENCH_PY_CODE does not import) and every
# library that it or one of its extension modules links, at the host's
# paths.  Sets BENCH_PY (the interpreter's path inside DIR).
BENCH_PY_CODE="import json, email.parser, http.client, argparse, decimal, sqlite3, \
logging, asyncio, unittest, csv, zipfile, tarfile, subprocess, xml.etree.ElementTree"
bench_python_app() {
	local dir=$1 stdlib lib
	BENCH_PY=$(readlink -f "$(command -v python3)") ||
		{ bench_error "no python3 on the host"; return 1; }
	stdlib=$(python3 -c 'import sysconfig; print(sysconfig.get_path("stdlib"))') ||
		{ bench_error "python3 has no stdlib path"; return 1; }
	mkdir -p "$dir$(dirname "$BENCH_PY")" "$dir$stdlib" || return 1
	cp "$BENCH_PY" "$dir$BENCH_PY" ||
		{ bench_error "copying $BENCH_PY failed"; return 1; }
	tar -C "$stdlib" -cf - --exclude=./test --exclude=./idlelib \
		--exclude=./tkinter --exclude=./turtledemo --exclude=./lib2to3 \
		--exclude=./ensurepip --exclude=./site-packages \
		--exclude=./dist-packages . | tar -C "$dir$stdlib" -xf - ||
		{ bench_error "copying $stdlib failed"; return 1; }
	for lib in $(ldd "$BENCH_PY" "$stdlib"/lib-dynload/*.so 2>/dev/null |
		     awk '$2 == "=>" && $3 ~ /^\// { print $3 }
			  $1 ~ /^\// && $1 !~ /:$/ { print $1 }' | sort -u); do
		if ! mkdir -p "$dir$(dirname "$lib")" ||
		   ! cp -L "$lib" "$dir$lib"; then
			bench_error "copying $lib failed"
			return 1
		fi
	done
}

# bench_python_start DIR: one start-up of the copy in DIR.
bench_python_start() {
	chroot "$1" "$BENCH_PY" -c "$BENCH_PY_CODE"
}

# bench_s3_tree DIR N: S3's small files, a source tree's worth: N files of
# 0.5-64 KiB (log-uniform) in top-level directories of 50, which ext4
# spreads over the block groups.  Deterministic, so every boot reads the
# same tree.
bench_s3_tree() {
	python3 - "$1" "$2" <<'PY'
import os, random, sys
root, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(2005)
for i in range(n):
    d = os.path.join(root, "d%03d" % (i // 50))
    os.makedirs(d, exist_ok=True)
    size = int(2 ** rng.uniform(9, 16))
    with open(os.path.join(d, "f%04d" % i), "wb") as f:
        f.write(rng.randbytes(size))
PY
}

# bench_ext4 DEV: ext4 over DEV's first 16 GiB, mounted at BENCH_MNT (S3,
# S9).  Few inodes and a small journal keep mkfs short under TCG; every
# table is initialised now, so that no lazy-init thread writes during the
# runs.
bench_ext4() {
	local dev=$1
	bench_set_sched "$dev" mq-deadline || return 1
	mkdir -p "$BENCH_MNT"
	mkfs.ext4 -q -F -N 100000 -J size=64 \
		-E lazy_itable_init=0,lazy_journal_init=0 "/dev/$dev" 16G ||
		{ bench_error "mkfs.ext4 failed"; return 1; }
	mount -o noatime "/dev/$dev" "$BENCH_MNT" ||
		{ bench_error "mount failed"; return 1; }
}

# bench_overwrite FILE MB: in the background, the seed's dd loop that
# overwrites FILE's first MB MiB in place (S3, S9); BENCH_WPID is the
# loop's pid.  Its trap ends the running dd, so that kill stops it at once.
bench_overwrite() {
	local file=$1 mb=$2
	(
		trap 'kill $dd 2>/dev/null; exit 0' TERM
		while :; do
			dd if=/dev/zero of="$file" bs=4M count=$((mb / 4)) \
				conv=notrunc status=none &
			dd=$!
			wait $dd
		done
	) &
	BENCH_WPID=$!
}

