#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Readahead workloads for tests/vm/ra-stats.sh, one per pattern.

ra-work.py MODE FILE [N]
  seq         read FILE from start to end in 64 KiB read() calls
  big         1 MiB pread() calls, larger than a 128 KiB window, at every
              other MiB from the second on
  mid         read N MiB from the middle of FILE in 64 KiB calls
  random      N reads of 4 KiB at random page offsets (fixed seed)
  interleave  one descriptor, two streams (from 0 and from the middle)
              read in turns, 16 KiB each
  fadv-random posix_fadvise(RANDOM), then read FILE in 64 KiB calls
  willneed    posix_fadvise(WILLNEED) over the first N MiB
  mmap        map FILE and touch every page in order
"""
import mmap
import os
import random
import sys

PAGE = 4096


def main():
    mode, path = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    fd = os.open(path, os.O_RDONLY)
    size = os.fstat(fd).st_size
    if mode == "seq":
        while os.read(fd, 65536):
            pass
    elif mode == "big":
        for off in range(1 << 20, size, 2 << 20):
            os.pread(fd, 1 << 20, off)
    elif mode == "mid":
        os.lseek(fd, size // 2, os.SEEK_SET)
        for _ in range(n * 16):
            os.read(fd, 65536)
    elif mode == "random":
        rng = random.Random(1)
        for _ in range(n):
            os.pread(fd, PAGE, rng.randrange(size // PAGE) * PAGE)
    elif mode == "interleave":
        a, b, half = 0, size // 2, size // 2
        while a < half:
            os.pread(fd, 16384, a)
            os.pread(fd, 16384, b)
            a += 16384
            b += 16384
    elif mode == "fadv-random":
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)
        while os.read(fd, 65536):
            pass
    elif mode == "willneed":
        os.posix_fadvise(fd, 0, n << 20, os.POSIX_FADV_WILLNEED)
    elif mode == "mmap":
        m = mmap.mmap(fd, size, prot=mmap.PROT_READ)
        total = 0
        for off in range(0, size, PAGE):
            total += m[off]
        m.close()
    else:
        sys.exit("unknown mode " + mode)
    os.close(fd)


main()
