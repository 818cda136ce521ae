#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""s3-waits.py TRACE...: how S3's disk time went to reads and writes.

Each TRACE is a block trace from tools/bench/exp/s3trace.sh
(full-SCHED-N.txt in its results directory).  For every trace: the reads
and writes dispatched and their mean size; the writes in the driver when
the first read went in; over the reads' span (first read dispatched to
last read completed) the writes dispatched and completed; switches between
reading and writing in dispatch order; the time the driver held reads
only, writes only, both or nothing, and its writes on average while busy;
the reads' time from dispatch to completion by how many writes were in the
driver when they went in; and the reads and writes completed in each
250 ms of the reads' span.  Requests in the driver before the trace began
are not counted.
"""
import re
import statistics
import sys

EVENT = re.compile(r'\s*\S+-\d+\s+\[\d+\]\s+\S+\s+([\d.]+):\s+\S+\s+'
                   r'([DC])\s+(\S+)\s+(\d+) \+ (\d+)')
BIN = 0.25


def load(path):
    """(time, event, is_write, sector, sectors) of every D and C."""
    ev = []
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            m = EVENT.match(line)
            if m and 'N' not in m.group(3) and 'F' not in m.group(3):
                ev.append((float(m.group(1)), m.group(2),
                           'W' in m.group(3), m.group(4), int(m.group(5))))
    return ev


def mbs(sectors, secs):
    return sectors * 512 / 1e6 / max(secs, 1e-9)


def one(path):
    ev = load(path)
    out = {}          # sector -> (is_write, dispatch time, writes ahead)
    lat = {}
    nr = nw = 0
    n = {False: 0, True: 0}
    size = {False: 0, True: 0}
    spans = {'reads': 0.0, 'writes': 0.0, 'both': 0.0, 'idle': 0.0}
    w_area = 0.0
    switches = 0
    last_t = last_dir = None
    first_read = ahead_first = None
    for t, e, is_w, sector, sectors in ev:
        if last_t is not None:
            key = ('both' if nr and nw else 'reads' if nr else
                   'writes' if nw else 'idle')
            spans[key] += t - last_t
            w_area += nw * (t - last_t)
        last_t = t
        if e == 'D':
            out[sector] = (is_w, t, nw)
            n[is_w] += 1
            size[is_w] += sectors
            if is_w:
                nw += 1
            else:
                nr += 1
                if first_read is None:
                    first_read, ahead_first = t, nw
            if last_dir is not None and last_dir != is_w:
                switches += 1
            last_dir = is_w
        elif sector in out:
            w, d, ahead = out.pop(sector)
            if w:
                nw -= 1
            else:
                nr -= 1
                lat.setdefault(min(ahead, 3), []).append(t - d)
    if first_read is None:
        print('%s: no reads' % path)
        return
    last_read = max(t for t, e, w, _, _ in ev if e == 'C' and not w)
    span = last_read - first_read
    within = [x for x in ev if x[2] and first_read <= x[0] <= last_read]
    busy = spans['reads'] + spans['writes'] + spans['both']
    print('%s:' % path)
    print('  reads %d (%.1f KiB each), writes %d (%.0f KiB each); '
          'switches %d' % (n[False], size[False] / 2 / max(n[False], 1),
                           n[True], size[True] / 2 / max(n[True], 1),
                           switches))
    print('  the reads\' span %.2f s; writes in the driver at the first '
          'read %d; in the span %.1f MB/s of writes dispatched, %.1f MB/s '
          'completed' % (
              span, ahead_first,
              mbs(sum(x[4] for x in within if x[1] == 'D'), span),
              mbs(sum(x[4] for x in within if x[1] == 'C'), span)))
    print('  driver held: reads only %.2f s, writes only %.2f s, both %.2f s, '
          'nothing %.2f s; writes in it %.2f on average while busy' % (
              spans['reads'], spans['writes'], spans['both'], spans['idle'],
              w_area / max(busy, 1e-9)))
    for k in sorted(lat):
        v = lat[k]
        print('  reads with %s%d writes ahead: %4d, %3d under 2 ms, median '
              '%.1f ms, mean %.1f ms, max %.1f ms, %.2f s in all' % (
                  '>=' if k == 3 else '', k, len(v),
                  sum(1 for x in v if x < 0.002), statistics.median(v) * 1e3,
                  statistics.mean(v) * 1e3, max(v) * 1e3, sum(v)))
    bins = []
    t = first_read
    while t < last_read:
        done = [x for x in ev if x[1] == 'C' and t <= x[0] < t + BIN]
        bins.append('%d/%d' % (sum(1 for x in done if not x[2]),
                               sum(1 for x in done if x[2])))
        t += BIN
    print('  reads/writes completed per %d ms: %s' % (BIN * 1000,
                                                     ' '.join(bins)))


def main():
    if len(sys.argv) < 2:
        sys.exit('usage: s3-waits.py TRACE...')
    for p in sys.argv[1:]:
        one(p)


if __name__ == '__main__':
    main()
