#!/usr/bin/env python3
"""Where a server's RSS goes, round after round (issue 13, "RSS flat").

    python3 rss_rounds.py PID PORT [--rounds=8] [--connections=1000] [--seconds=2] [--stack-stride=324]

PID is a running server of this folder (server.php on the runtime), PORT its
port. Each round runs wrk twice (1 s, then --seconds) with --connections
keep-alive connections, like one round of bench.php, then prints the
server's RSS (/proc/PID/smaps_rollup), which of its mappings grew since the
round before (anonymous mappings are named by size: Zend MM chunks are
2 MiB mappings, the coroutine stack slabs the large ones, glibc's heap
[heap]), and how many pages of each coroutine stack are resident
(/proc/PID/pagemap; --stack-stride: the pool's stack stride in KiB, 256 KiB
of async.stack_size + the 64 KiB guard + one page by default).
Reading pagemap needs the same user as the server.
"""
import collections
import re
import struct
import subprocess
import sys
import time

PAGE = 4096


def parse_args(argv):
    opts = {'rounds': 8, 'connections': 1000, 'seconds': 2, 'stack-stride': 324}
    pos = []
    for a in argv[1:]:
        m = re.match(r'^--([a-z-]+)=(\d+)$', a)
        if m and m.group(1) in opts:
            opts[m.group(1)] = int(m.group(2))
        elif a.isdigit():
            pos.append(int(a))
        else:
            sys.exit(__doc__)
    if len(pos) != 2:
        sys.exit(__doc__)
    return pos[0], pos[1], opts


def mappings(pid):
    """start => [end, perms, name, rss kB] of every mapping."""
    out, cur = {}, None
    with open(f'/proc/{pid}/smaps') as f:
        for line in f:
            m = re.match(r'^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$', line)
            if m:
                cur = [int(m.group(2), 16), m.group(3), m.group(4) or '', 0]
                out[int(m.group(1), 16)] = cur
            elif cur is not None and line.startswith('Rss:'):
                cur[3] = int(line.split()[1])
    return out


def kind(start, v):
    end, perms, name, _ = v
    if name:
        return name.rsplit('/', 1)[-1]
    return 'no access' if perms.startswith('---') else f'anon {(end - start) // 1024} KiB'


def stack_pages(pid, stride):
    """(stacks, resident pages, Counter of resident pages per stack)."""
    slab = stride * max(1, min(64, (8 << 20) // stride))
    hist, stacks, total = collections.Counter(), 0, 0
    with open(f'/proc/{pid}/pagemap', 'rb') as pm:
        for start, (end, perms, name, _) in mappings(pid).items():
            if name or perms != 'rw-p' or (end - start) % slab != 0:
                continue
            pm.seek(start // PAGE * 8)
            data = pm.read((end - start) // PAGE * 8)
            present = [(struct.unpack_from('<Q', data, i * 8)[0] >> 63) & 1 for i in range((end - start) // PAGE)]
            per = stride // PAGE
            for k in range((end - start) // stride):
                c = sum(present[k * per:(k + 1) * per])
                stacks, total = stacks + 1, total + c
                hist[c] += 1
    return stacks, total, hist


def main():
    pid, port, o = parse_args(sys.argv)
    stride = o['stack-stride'] * 1024
    prev = mappings(pid)
    for r in range(1, o['rounds'] + 1):
        for secs in (1, o['seconds']):
            subprocess.run(['taskset', '-c', '1', 'wrk', '-t1', f"-c{o['connections']}", f'-d{secs}',
                            f'http://127.0.0.1:{port}/'], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           timeout=secs + 30)
        time.sleep(0.5)
        cur = mappings(pid)
        grew = collections.Counter()
        for start, v in cur.items():
            p = prev.get(start)
            grew[kind(start, v)] += v[3] - (p[3] if p is not None else 0)
        for start, p in prev.items():
            if start not in cur:
                grew[kind(start, p)] -= p[3]
        rss = sum(v[3] for v in cur.values())
        stacks, pages, hist = stack_pages(pid, stride)
        print(f'round {r}: RSS {rss / 1024:.1f} MiB; grew (KiB): '
              + (', '.join(f'{k} {v:+d}' for k, v in grew.most_common() if abs(v) >= 64) or 'nothing')
              + f'; {stacks} stacks hold {pages * PAGE / 1048576:.1f} MiB, resident pages per stack: '
              + ' '.join(f'{k}:{v}' for k, v in sorted(hist.items())), flush=True)
        prev = cur


if __name__ == '__main__':
    main()
