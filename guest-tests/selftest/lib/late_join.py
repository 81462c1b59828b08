#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Planted late joins for the self-test cases late_join_*.sh.

  late_join.py ideal <suite> <out>      the suite's late join as an ideal
                                        engine shows it (only its marks and
                                        the suite's first and last): for a
                                        results directory without real data
  late_join.py reset <timeline> <out> <suite>
                                        the late LED, from its first change
                                        after the link on, runs the pattern
                                        restarted there: the running LED's
                                        changes from the run's mark on,
                                        moved to the link (a clock that
                                        restarts for the late LED)

A shift of both LEDs against the run's start is plant.py lag.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "lib"))
from phase import Curve  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plant import mark_of  # noqa: E402

RAMP = [(0, 2000), (255, 2000)]

# suite -> its first and last marks, the late join's marks (before run,
# after run, before link, end), the two outputs, the engine's rounding
# and its usual latency (us)
SUITES = {
    "led_pattern_run": (("led_pattern_run begin", "led_pattern_run end"),
                        ("late join run", "late join running", "late join",
                         "late join end"), 1, 2, "round", 600),
}


def ideal(suite, out):
    (first, last), (run0, run1, link, end), a, b, rounding, lat = SUITES[suite]
    curve = Curve(RAMP, rounding)
    t_run0, t0 = 1000000, 1001000
    t_link, t_end = t0 + 1000000, t0 + 4200000
    lines = [(500000, f"# 500000 mark {first} | i2c 0x32=0 0x33=0"),
             (t_run0, f"# {t_run0} mark {run0} | i2c 0x32=0 0x33=0"),
             (t_run0 + 2000, f"# {t_run0 + 2000} mark {run1} | i2c 0x32=0 0x33=0"),
             (t_link, f"# {t_link} mark {link} | i2c 0x32=0 0x33=0"),
             (t_end, f"# {t_end} mark {end} | i2c 0x32=0 0x33=0"),
             (t_end + 500000, f"# {t_end + 500000} mark {last} | i2c 0x32=0 0x33=0")]
    for out_, t1 in ((a, t0), (b, t_link + 1000)):
        shown = 0
        for t in range(t1, t_end, 100):
            v = curve.level(t0, t)
            if v != shown:
                tt = t + lat if t > t1 else t
                lines.append((tt, f"{tt} {out_} {v}"))
                shown = v
    with open(out, "w") as o:
        o.writelines(line + "\n" for _, line in sorted(lines, key=lambda x: x[0]))


def reset(path, out, suite):
    _, (run0, _, link, end), a, b, _, _ = SUITES[suite]
    lines, t = [], 0
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) == 3 and all(x.isdigit() for x in w):
                t = int(w[0])
            elif len(w) > 1 and w[0] == "#" and w[1].isdigit():
                t = int(w[1])
            lines.append((t, line))
    marks = {mark_of(line): t for t, line in reversed(lines) if mark_of(line)}
    if any(m not in marks for m in (run0, link, end)):
        sys.exit(f"late_join.py reset: {path} lacks the late join's marks")
    t_run, t_link, t_end = marks[run0], marks[link], marks[end]
    ch = [(t, line.split()) for t, line in lines
          if len(line.split()) == 3 and line.split()[0].isdigit()]
    joined = next((t for t, w in ch if w[1] == str(b) and t_link < t <= t_end), None)
    if joined is None:
        sys.exit(f"late_join.py reset: D{b} does not change after the link")
    # the late LED's changes after the link go; the running LED's from
    # the run on take their place, as far from the link as they were from
    # the run's mark
    kept = [(t, line) for t, line in lines
            if not (t_link < t <= t_end and line.split()[1:2] == [str(b)]
                    and line.split()[0].isdigit())]
    shift = joined - t_run
    for t, w in ch:
        if w[1] == str(a) and t_run <= t and t + shift <= t_end:
            kept.append((t + shift, f"{t + shift} {b} {w[2]}\n"))
    with open(out, "w") as o:
        o.writelines(line for _, line in sorted(kept, key=lambda x: x[0]))


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"ideal": ideal, "reset": reset}[cmd](*args)
