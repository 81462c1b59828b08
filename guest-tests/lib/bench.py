#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench, host side: figures from the emulator timeline of a
guest-tests/bench/bench.sh run.

ledtrig-pattern drives kb1-kb3 (D1-D3), one trigger per LED started one
after another; the software engine drives r, g, b (D7, D6, D5) from one
engine.  With the emulator's --cpu-report lines in the timeline, also
its CPU use while idle and while the patterns run.
Usage: bench.py <timeline> <console log>
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from timeline import Timeline, edges  # noqa: E402

GROUPS = [("ledtrig-pattern", [1, 2, 3]), ("led_pattern software0", [7, 6, 5])]
BLINK_PERIOD_MS = 1000.0
RAMP_MS = 1000.0


def blink_figures(seg, outputs):
    rises = [edges(seg, o) for o in outputs]
    if any(len(r) < 3 for r in rises):
        return None
    r = rises[0]
    periods = [(b - a) / 1000 for a, b in zip(r, r[1:])]
    n = len(periods)
    drift = (r[-1] - r[0]) / 1000 - n * BLINK_PERIOD_MS
    minutes = (r[-1] - r[0]) / 60e6
    # skew: the largest spread of the k-th rising edge across the outputs
    k = min(len(x) for x in rises)
    skew = max(max(x[i] for x in rises) - min(x[i] for x in rises) for i in range(k)) / 1000
    updates = sum(1 for t, o, p in seg if o == outputs[0])
    span_s = (seg[-1][0] - seg[0][0]) / 1e6 if seg else 1
    return {
        "periods": n,
        "mean_period_ms": sum(periods) / n,
        "period_error_pct": (sum(periods) / n - BLINK_PERIOD_MS) / BLINK_PERIOD_MS * 100,
        "drift_ms": drift,
        "drift_ms_per_min": drift / minutes if minutes else 0.0,
        "skew_ms": skew,
        "updates_per_s": updates / span_s if span_s else 0.0,
    }


def ramp_figures(seg, output):
    """Levels and duration of each 0->255 ramp on one output."""
    ramps, cur = [], None
    for t, o, p in seg:
        if o != output:
            continue
        if cur is None or p < cur[-1][1]:
            if cur and len(cur) > 2:
                ramps.append(cur)
            cur = [(t, p)]
        else:
            cur.append((t, p))
    if not ramps:
        return None
    levels = sum(len(r) for r in ramps) / len(ramps)
    dur = sum((r[-1][0] - r[0][0]) / 1000 for r in ramps) / len(ramps)
    steps = [(b[0] - a[0]) / 1000 for r in ramps for a, b in zip(r, r[1:])]
    return {"levels_per_ramp": levels, "ramp_ms": dur,
            "mean_step_ms": sum(steps) / len(steps) if steps else 0.0}


def cpu_samples(tl):
    """(t_us, cpu_ticks, cpu_us) of the emulator's --cpu-report lines."""
    return [(t, int(w[1]), int(w[2])) for t, w in tl.events
            if w[0] == "cpu" and len(w) == 3 and w[1].isdigit()]


def cpu_hz(tl):
    for t, w in tl.events:
        if w[0] == "cpu-report" and w[1].isdigit():
            return int(w[1])
    return 100


def cpu_figures(tl, begin, end):
    """Emulator CPU use between two marks, % of one core: from the first
    report after the begin mark to the last one before the end mark."""
    t0, t1 = tl.mark(begin), tl.mark(end)
    if t0 is None or t1 is None:
        return None
    s = [c for c in cpu_samples(tl) if t0 <= c[0] <= t1]
    if len(s) < 2:
        return None
    dt = (s[-1][0] - s[0][0]) / 1e6
    return {"seconds": dt,
            "cpu_pct": (s[-1][2] - s[0][2]) / 1e4 / dt,
            "cpu_pct_ticks": (s[-1][1] - s[0][1]) / cpu_hz(tl) * 100 / dt}


def cpu_table(tl):
    cases = [("idle", "nothing running in the guest"),
             ("blink", "the 1 Hz blink of both groups"),
             ("ramp", "the 1000 ms ramp of both groups")]
    print("\nlp5523-emu CPU use, % of one core (utime + stime; issue 4: idle < 1 %)")
    print(f"  {'case':8}{'seconds':>10}{'cpu_pct':>10}{'ticks_pct':>10}  what")
    for name, what in cases:
        f = cpu_figures(tl, f"bench {name} begin", f"bench {name} end")
        if f is None:
            print(f"  {name:8}{'n/a':>10}{'n/a':>10}{'n/a':>10}  {what}")
            continue
        print(f"  {name:8}{f['seconds']:10.1f}{f['cpu_pct']:10.2f}"
              f"{f['cpu_pct_ticks']:10.2f}  {what}")


def fmt(v):
    return f"{v:10.2f}" if isinstance(v, float) else f"{v:10}"


def table(title, rows):
    print(f"\n{title}")
    names = [g for g, _ in GROUPS]
    keys = []
    for r in rows.values():
        if r:
            keys = list(r.keys())
            break
    print(f"  {'figure':22}" + "".join(f"{n:>24}" for n in names) + f"{'ratio':>10}")
    for key in keys:
        vals = [rows[n][key] if rows.get(n) else None for n in names]
        line = f"  {key:22}" + "".join(f"{fmt(v) if v is not None else 'n/a':>24}" for v in vals)
        if all(v is not None for v in vals) and vals[1]:
            line += f"{vals[0] / vals[1]:10.2f}"
        print(line)


def main():
    tl = Timeline(sys.argv[1])
    blink = tl.between("bench blink begin", "bench blink end")
    ramp = tl.between("bench ramp begin", "bench ramp end")
    if blink is None or ramp is None:
        print("bench: marks missing from the timeline", file=sys.stderr)
        return 1
    table("1 Hz blink (255 500 255 0 0 500 0 0); drift = elapsed - periods x 1000 ms",
          {n: blink_figures(blink, outs) for n, outs in GROUPS})
    table("0->255 ramp over 1000 ms (0 1000 255 0), first output of each group",
          {n: ramp_figures(ramp, outs[0]) for n, outs in GROUPS})
    if len(sys.argv) > 2:
        with open(sys.argv[2]) as f:
            for line in f:
                if line.startswith("# bench ") and "per_s" in line:
                    print("  guest " + line[2:].strip())
    if cpu_samples(tl):
        cpu_table(tl)
    return 0


if __name__ == "__main__":
    sys.exit(main())
