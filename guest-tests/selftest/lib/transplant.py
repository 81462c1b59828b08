#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""transplant.py <timeline> <out> <source mark> <begin mark> <end mark> <output>...

A planted timeline: between the begin and the end mark the outputs show
what they showed from the source mark on (each change shifted by the
time from the source mark to the begin mark), not what they showed
there.  The chip as if it kept running what it ran elsewhere: a boot
pattern still breathing after a claim, an old waveform still running
after a rewrite.  Marks are named by their text without the emulator's
" | i2c ..." tail; the end mark may be named by its first words."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plant import mark_of  # noqa: E402


def change_of(line):
    w = line.split()
    if len(w) == 3 and all(x.isdigit() for x in w):
        return int(w[0]), w[1], w[2]
    return None


def main(path, out, src, begin, end, *outs):
    with open(path) as f:
        lines = f.readlines()
    times = {}
    t = 0
    timed = []
    for line in lines:
        c = change_of(line)
        w = line.split()
        if c:
            t = c[0]
        elif len(w) > 1 and w[0] == "#" and w[1].isdigit():
            t = int(w[1])
        m = mark_of(line)
        if m is not None:
            for name in (src, begin):
                if m == name:
                    times.setdefault(name, t)
            if m.startswith(end):
                times.setdefault(end, t)
        timed.append((t, line, c))
    missing = [m for m in (src, begin, end) if m not in times]
    if missing:
        sys.exit(f"transplant.py: marks {missing} not in {path}")
    t0, t1, shift = times[begin], times[end], times[begin] - times[src]
    kept = [(t, i, line) for i, (t, line, c) in enumerate(timed)
            if not (c and c[1] in outs and t0 < t <= t1)]
    moved = [(t + shift, len(timed) + i, f"{t + shift} {c[1]} {c[2]}\n")
             for i, (t, line, c) in enumerate(timed)
             if c and c[1] in outs and t0 < t + shift <= t1 and t >= times[src]]
    with open(out, "w") as o:
        o.writelines(line for _, _, line in sorted(kept + moved))
    print(f"transplant: {len(moved)} changes of outputs {list(outs)} from "
          f"\"{src}\" into \"{begin}\" .. \"{end}\"")


if __name__ == "__main__":
    if len(sys.argv) < 7:
        sys.exit(__doc__.split("\n\n")[0])
    main(*sys.argv[1:])
