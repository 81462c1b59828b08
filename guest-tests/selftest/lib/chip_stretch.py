#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Planted chip waveforms for the self-test of the chip-engine checks.

  chip_stretch.py breathe <out>
        an ideal lp5523_hw_engines timeline for a results directory
        without one: its first and last marks, and between "hw quiet
        begin" and "hw quiet end" kb2's breathe (0 1000 255 1000) as the
        chip steps it, each level at the end of its quantum, and kb1's
        blink
  chip_stretch.py stretch <timeline> <out> <begin mark> <end mark> <output> <pct>
        each rising ramp of <output> between the marks (its changes one
        level up each) stretched about its middle by <pct> % (squeezed
        when negative): its first and last levels land pct / 2 % of the
        ramp's length off where the chip put them, the rest of the run
        untouched (a chip whose steps ran short at a ramp's ends would do
        that).  Squeezed, the ramp's changes keep their order with the
        ramps before and after it; stretched, its ends may cross them
"""

import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "lib"))
from timeline import ideal_run, parse_pattern, quantum_us  # noqa: E402


def breathe(out):
    q = quantum_us("lp5523")
    lines = ["# 1000 mark hw quiet begin | i2c 0x32=0 0x33=0"]
    t0 = 2000
    for o, text in ((2, "0 1000 255 1000"), (1, "255 500 255 0 0 500 0 0")):
        ideal, per = ideal_run(parse_pattern(text), q)
        for r in range(3):
            for t, v, _ in ideal:
                lines.append((t0 + r * per + math.ceil(t / q) * q, o, v))
    ch = sorted(c for c in lines[1:])
    with open(out, "w") as f:
        print(lines[0], file=f)
        for t, o, v in ch:
            print(f"{int(t)} {o} {v}", file=f)
        end = int(ch[-1][0]) + 1000
        print(f"# {end} mark hw quiet end | i2c 0x32=0 0x33=0", file=f)
        print(f"# {end + 1000} mark hw unbound end | i2c 0x32=0 0x33=0", file=f)


def mark_time(line):
    w = line.split()
    if len(w) >= 4 and w[0] == "#" and w[1].isdigit() and w[2] == "mark":
        return int(w[1]), " ".join(w[3:]).split(" | i2c ")[0]
    return None, None


def stretch(path, out, begin, end, output, pct):
    output, f = int(output), float(pct) / 100
    lines = open(path).read().splitlines()
    t0 = t1 = None
    for line in lines:
        t, text = mark_time(line)
        if text == begin and t0 is None:
            t0 = t
        elif text == end and t0 is not None and t1 is None:
            t1 = t
    idx = [i for i, line in enumerate(lines)
           if len(line.split()) == 3 and line.split()[1] == str(output) and
           t0 <= int(line.split()[0]) <= t1]
    # the rising changes: one level up from the output's level before
    # (0 before its first change, outputs start dark)
    prev, rising = 0, []
    for a in idx:
        v = int(lines[a].split()[2])
        if v == prev + 1:
            rising.append(a)
        prev = v
    # the whole ramps (the longest runs of rising changes in a row) give
    # the ramp's levels and length; every rising change moves by its level
    # alone, so a ramp the window cuts moves as the whole ones do and the
    # runs stay alike
    ramps, cur = [], []
    for a in rising:
        if cur and idx.index(a) == idx.index(cur[-1]) + 1:
            cur.append(a)
        else:
            cur = [a]
            ramps.append(cur)
    whole = max(ramps, key=len)
    lo, hi = (int(lines[a].split()[2]) for a in (whole[0], whole[-1]))
    span = int(lines[whole[-1]].split()[0]) - int(lines[whole[0]].split()[0])
    for a in rising:
        w = lines[a].split()
        pos = (int(w[2]) - lo) / (hi - lo) * span
        lines[a] = f"{round(int(w[0]) + f * (pos - span / 2))} {w[1]} {w[2]}"
    # the file stays in time order, as the emulator writes it
    body = [(i, line) for i, line in enumerate(lines)]
    def key(item):
        w = item[1].split()
        if len(w) == 3 and all(x.isdigit() for x in w):
            return int(w[0]), item[0]
        t, _ = mark_time(item[1])
        if t is None and len(w) >= 2 and w[0] == "#" and w[1].isdigit():
            t = int(w[1])
        return (t if t is not None else -1), item[0]
    with open(out, "w") as fo:
        for _, line in sorted(body, key=key):
            print(line, file=fo)
    print(f"stretched the rising ramps of output {output} ({lo} to {hi} in "
          f"{span} us, {len(ramps)} in the window) by {pct} %")


if __name__ == "__main__":
    {"breathe": breathe, "stretch": stretch}[sys.argv[1]](*sys.argv[2:])
