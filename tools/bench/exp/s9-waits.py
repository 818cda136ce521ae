#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""s9-waits.py TRACE: where S9's program spent its time.

TRACE is a block trace from tools/bench/exp/s9trace.sh (full-<bg>.txt in
its results directory).  For the program's reads (queued by a process
whose name starts with "python"): how many, the time from insertion to
dispatch and from dispatch to completion, the latter by how many other
requests were in the driver when each was dispatched, and the program's
own time between a completion and its next read (its thinking).  Requests
in the driver before the trace began are not counted in the depth.
"""
import collections
import re
import statistics
import sys

EVENT = re.compile(r'\s*(\S+)-\d+\s+\[\d+\]\s+\S+\s+([\d.]+):\s+\S+\s+'
                   r'([QIDC])\s+\S+\s+(\d+) \+ (\d+)')


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: s9-waits.py TRACE')
    pending = {}
    done = []
    depth = 0
    with open(sys.argv[1], encoding='utf-8', errors='replace') as f:
        for line in f:
            m = EVENT.match(line)
            if not m:
                continue
            comm, t, ev, sector = m.group(1), float(m.group(2)), \
                m.group(3), m.group(4)
            if ev == 'Q':
                pending[sector] = {'who': comm, 'q': t}
            elif sector not in pending:
                continue
            elif ev == 'I':
                pending[sector]['i'] = t
            elif ev == 'D':
                pending[sector]['d'] = t
                pending[sector]['depth'] = depth
                depth += 1
            elif ev == 'C' and 'd' in pending[sector]:
                r = pending.pop(sector)
                r['c'] = t
                done.append(r)
                depth -= 1
    prog = sorted((r for r in done if r['who'].startswith('python')),
                  key=lambda r: r['q'])
    if not prog:
        sys.exit('s9-waits.py: no reads of the program in the trace')
    span = prog[-1]['c'] - prog[0]['q']
    wait = sum(r['d'] - r.get('i', r['d']) for r in prog)
    service = sum(r['c'] - r['d'] for r in prog)
    print(f'program: {len(prog)} reads over {span:.2f} s; queued '
          f'{wait:.2f} s, in the driver {service:.2f} s')
    by_depth = collections.defaultdict(list)
    for r in prog:
        by_depth[min(r['depth'], 4)].append(r['c'] - r['d'])
    for d in sorted(by_depth):
        v = by_depth[d]
        print(f'  {d}{"+" if d == 4 else ""} others in the driver: '
              f'{len(v)} reads, {1000 * statistics.mean(v):.1f} ms mean, '
              f'{1000 * max(v):.1f} ms max')
    think = sorted(b['q'] - a['c'] for a, b in zip(prog, prog[1:])
                   if b['q'] > a['c'])
    if think:
        q = [1000 * think[int(len(think) * p)] for p in (0.5, 0.9, 0.95, 0.99)]
        print(f'thinking: {sum(think):.2f} s; median / 90% / 95% / 99% '
              f'{q[0]:.1f} / {q[1]:.1f} / {q[2]:.1f} / {q[3]:.1f} ms')


if __name__ == '__main__':
    main()
