#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read a device with several threads, each with its own I/O context.

  turns.py DEV --threads N --chunk BYTES --offset BYTES --bytes BYTES
           [--mode turns|areas] [--seconds S]

turns: the threads read one stream in turn, CHUNK bytes each (thread i reads
chunks i, i + N, ...), one request at a time, as a server's thread pool
reading one client's file.
areas: each thread reads its own BYTES / N part of the range sequentially,
all at the same time.
Reads use O_DIRECT.  Prints "MB/s <rate>" and the bytes read.
"""
import argparse
import mmap
import os
import sys
import threading
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dev")
    ap.add_argument("--threads", type=int, default=5)
    ap.add_argument("--chunk", type=int, default=64 * 1024)
    ap.add_argument("--offset", type=int, default=0)
    ap.add_argument("--bytes", type=int, default=64 << 20)
    ap.add_argument("--mode", choices=("turns", "areas"), default="turns")
    ap.add_argument("--seconds", type=float, default=0)
    a = ap.parse_args()

    fd = os.open(a.dev, os.O_RDONLY | os.O_DIRECT)
    cond = threading.Condition()
    state = {"turn": 0, "pos": a.offset, "done": 0, "err": None}
    end = a.offset + a.bytes
    deadline = time.monotonic() + a.seconds if a.seconds else None

    def expired():
        return deadline is not None and time.monotonic() >= deadline

    def in_turns(me):
        buf = mmap.mmap(-1, a.chunk)
        while True:
            with cond:
                while state["turn"] != me and state["pos"] < end and not expired():
                    cond.wait(0.5)
                if state["pos"] >= end or expired():
                    cond.notify_all()
                    return
                pos = state["pos"]
            n = os.preadv(fd, [buf], pos)
            with cond:
                if n != a.chunk:
                    state["err"] = f"short read {n} at {pos}"
                    state["pos"] = end
                state["done"] += n
                state["pos"] = pos + a.chunk
                state["turn"] = (me + 1) % a.threads
                cond.notify_all()

    def in_area(me):
        buf = mmap.mmap(-1, a.chunk)
        part = a.bytes // a.threads
        pos, stop = a.offset + me * part, a.offset + (me + 1) * part
        while pos + a.chunk <= stop and not expired():
            n = os.preadv(fd, [buf], pos)
            if n != a.chunk:
                state["err"] = f"short read {n} at {pos}"
                return
            pos += n
            with cond:
                state["done"] += n

    work = in_turns if a.mode == "turns" else in_area
    threads = [threading.Thread(target=work, args=(i,)) for i in range(a.threads)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    secs = time.monotonic() - start
    os.close(fd)
    if state["err"]:
        sys.exit(state["err"])
    print(f"MB/s {state['done'] / secs / 1e6:.2f}")
    print(f"bytes {state['done']}")


if __name__ == "__main__":
    main()
