#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench, host side: one table from the emulator timeline and the
console of a guest-tests/bench/bench.sh run.

Each case ran alone on the indicator (D7 r, D6 g, D5 b; the multicolor
peers on the chip at 0x33: OUTPUTS), between the marks
"bench <case> <impl> <n> begin|run|end"; "# bench cost ..." console lines
carry the guest's timer interrupts and busy CPU ticks of each window.
Every figure comes from what the chip's outputs did (the timeline), except
the guest's costs.  Repeats give the median and the spread (max - min).

Usage: bench.py <timeline> <console log> [--markdown]
"""

import bisect
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(__file__))
from timeline import Timeline  # noqa: E402

# implementations, in table order: mainline's ledtrig-pattern with its
# timer, its hrtimer (hr_pattern) and the LED's pattern_set (hw_pattern,
# the LP5523's engines with the series), then the series' engines
IMPLS = [("ledtrig", "ledtrig-pattern"), ("ledtrighr", "ledtrig-pattern hr_pattern"),
         ("hwpattern", "ledtrig-pattern hw_pattern"),
         ("ledtrigmc", "ledtrig-pattern on ring:rgb"),
         ("groupmc", "ledtrig-pattern on leds-group-multicolor"),
         ("software", "software engine"),
         ("groupsw", "software engine on leds-group-multicolor"),
         ("hardware", "LP5523 engine"),
         ("lp5569", "LP5569 engine"), ("lp8501", "LP8501 engine")]
# ratio columns: each engine against ledtrig-pattern and its hrtimer
RATIOS = [("software", "ledtrig"), ("software", "ledtrighr"), ("hardware", "ledtrig")]
RGB = [7, 6, 5]                 # lp5523:r, g, b
# the outputs (red, green, blue) and chip of each implementation: the
# indicator's LEDs; ring:rgb, the multicolor LED on D1-D3 of the chip at
# 0x33 (timeline outputs 10-18); the leds-group-multicolor LED that
# dts/bench.dts makes of that chip's D4-D6; the LP5569's notify:rgb
# (LED0-LED2 at 0x34: 19-21) and the LP8501's keys:r, g, b (D7-D9 at
# 0x35: 34-36)
OUTPUTS = {"ledtrigmc": ([10, 11, 12], "0x33"), "groupmc": ([13, 14, 15], "0x33"),
           "groupsw": ([13, 14, 15], "0x33"),
           "lp5569": ([19, 20, 21], "0x34"), "lp8501": ([34, 35, 36], "0x35")}
OTHER_ENGINE = 9                # lp5523:kb6 on software1 (1 Hz blink)

# the patterns of bench.sh: per output, (value, ms) tuples
BLINK = [(255, 500), (255, 0), (0, 500), (0, 0)]
BREATHE = [(0, 1000), (255, 1000)]
ODD16 = [(0, 37), (200, 113), (200, 0), (40, 251), (255, 61), (90, 7), (90, 0),
         (255, 149), (30, 301), (30, 13), (180, 89), (0, 0), (128, 503), (128, 0),
         (10, 97), (60, 431)]
# the same shape with every ramp within the LP5523's one level per 0.488 ms
ODD16C = [(0, 137), (200, 113), (200, 0), (40, 251), (255, 89), (90, 7), (90, 0),
          (255, 149), (30, 301), (30, 79), (180, 97), (0, 0), (128, 503), (128, 0),
          (10, 97), (60, 431)]
COLOUR_PEAKS = [255, 64, 192]    # red, green, blue of #ff40c0
CASE_PATTERNS = {"blink": BLINK, "breathe": BREATHE, "colour": BREATHE,
                 "odd16": ODD16, "odd16c": ODD16C, "odd16cc": ODD16C}
# the cases in colour (#ff40c0 at full scale): each LED its own curve
COLOUR_CASES = ("colour", "odd16cc")


def scaled(pattern, peak):
    return [(v * peak // 255, d) for v, d in pattern]


def ideal_table(pattern, step_us=1000):
    """The ideal output of a pattern every step_us (default every ms) of one
    period (ABI: ramp from each tuple's value to the next one's over its
    duration), and the period in ms."""
    period = sum(d for v, d in pattern)
    table = []
    for i, (v, d) in enumerate(pattern):
        nv = pattern[(i + 1) % len(pattern)][0]
        for j in range(d * 1000 // step_us):
            table.append(v + (nv - v) * j * step_us / (d * 1000))
    return table, period


class Output:
    """One output's level as a step function of time (us)."""

    def __init__(self, changes, output, t0, t1):
        self.t, self.p = [t0], [0]
        level = 0
        for t, o, p in changes:
            if o != output:
                continue
            if t < t0:
                level = p
                self.p[0] = level
                continue
            if t > t1:
                break
            self.t.append(t)
            self.p.append(p)

    def at(self, t):
        return self.p[bisect.bisect_right(self.t, t) - 1]

    def changes(self):
        return list(zip(self.t[1:], self.p[1:]))


def crossings(out, threshold, rising=True):
    res, prev = [], out.p[0]
    for t, p in out.changes():
        if rising and prev < threshold <= p:
            res.append(t)
        elif not rising and prev >= threshold > p:
            res.append(t)
        prev = p
    return res


def fit(xs, ys):
    """Least squares y = a + b x: (a, b, residuals)."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    a = my - b * mx
    return a, b, [y - (a + b * x) for x, y in zip(xs, ys)]


def period_figures(edges_us, nominal_ms, drift=True):
    """Drift from the slope of a least-squares fit of edge times against
    their index, residual spread, mean and worst period error.  Drift only
    where the window holds enough periods (the blink): from five edges a
    few ms of jitter reads as hundreds of ms a minute."""
    if len(edges_us) < 4:
        return {}
    ms = [t / 1000 for t in edges_us]
    _, slope, res = fit(list(range(len(ms))), ms)
    periods = [b - a for a, b in zip(ms, ms[1:])]
    f = {
        "drift_ms_per_min": (slope - nominal_ms) / nominal_ms * 60000,
        "fit_residual_ms": statistics.pstdev(res),
        "period_error_ms": statistics.mean(periods) - nominal_ms,
        "worst_period_error_ms": max(abs(p - nominal_ms) for p in periods),
    }
    if not drift:
        del f["drift_ms_per_min"], f["fit_residual_ms"]
    return f


# How each implementation rounds a ramp to levels, for the instant it
# should reach one: the software engine to the nearest (a level L is due
# when the ideal passes L - 1/2 going up), ledtrig-pattern by integer
# division toward the ramp's start, the LP5523's ramp a step at the end of
# each step time (L is due when the ideal reaches L).
ROUNDS_TO_NEAREST = {"software", "groupsw"}


def ideal_passes(pattern, x, direction):
    """Where (ms into one period) the ideal of @pattern passes value x going
    up (direction 1) or down (-1): a ramp crossing it, or a step over it."""
    res, start = [], 0
    for i, (v, d) in enumerate(pattern):
        nv = pattern[(i + 1) % len(pattern)][0]
        if (nv - v) * direction > 0 and min(v, nv) <= x <= max(v, nv):
            res.append(start + (x - v) / (nv - v) * d)
        start += d
    return res


def wrap(x, period):
    """x folded into one period around 0."""
    return (x + period / 2) % period - period / 2


def change_lags(out, pattern, t_run, half):
    """[(t, lag us)]: each change of @out against the instant the ideal,
    started at the run mark, is due at the new level (with the rounding of
    @half: 0.5 to the nearest); lags fold into one period around 0."""
    period_us = sum(d for _, d in pattern) * 1000
    res, prev = [], out.p[0]
    for t, p in out.changes():
        direction = 1 if p > prev else -1
        prev = p
        due = ideal_passes(pattern, p - direction * half, direction)
        if not due:
            continue
        rel = t - t_run
        res.append((t, min((wrap(rel - d * 1000, period_us) for d in due), key=abs)))
    return res


def skew_figures(outs, patterns, t_run, impl, pair_us=20000, due_us=1):
    """Timing between LEDs on curves of their own, from each change's lag
    against its own ideal instant (so that LEDs with fewer levels, changing
    less often, do not read as late).

    Skew: changes of two LEDs due at one instant (green's level L and
    blue's 3L in the colour case: their ideals within due_us) and how far
    apart they land; median and worst (ms).  What setting LEDs together
    promises, so 0 where they go to the chip in one message.

    Relative lag: for each change of the first LED and the nearest change
    (within pair_us) of each other one, the difference of their lags,
    folded into one period (an implementation whose period is off drifts
    from the ideal, all its LEDs alike), for changes due at different
    instants too: how each LED's timing wanders against the others'.
    Median: the spread of the LEDs' median differences, the first LED's
    being 0; worst: the largest difference (ms)."""
    half = 0.5 if impl in ROUNDS_TO_NEAREST else 0
    period_us = sum(d for _, d in patterns[0]) * 1000
    lags = [change_lags(o, pat, t_run, half) for o, pat in zip(outs, patterns)]
    if not all(lags):
        return {}
    f = {}
    apart = []
    for i, mine in enumerate(lags):
        due = [(t - lag, t) for t, lag in mine]
        for other in lags[i + 1:]:
            theirs = sorted((t - lag, t) for t, lag in other)
            for d, t in due:
                k = bisect.bisect_left(theirs, (d - due_us,))
                if k < len(theirs) and abs(theirs[k][0] - d) <= due_us:
                    apart.append(abs(theirs[k][1] - t))
    if apart:
        f["skew_median_ms"] = statistics.median(apart) / 1000
        f["skew_worst_ms"] = max(apart) / 1000
        f["skew_pairs"] = len(apart)
    medians, worst = [0], 0
    for other in lags[1:]:
        diffs = []
        for t, lag in lags[0]:
            i = bisect.bisect_left(other, (t,))
            near = min(other[max(i - 1, 0):i + 1], key=lambda c: abs(c[0] - t))
            if abs(near[0] - t) <= pair_us:
                diffs.append(wrap(near[1] - lag, period_us))
        if not diffs:
            return f
        medians.append(statistics.median(diffs))
        worst = max(worst, max(abs(d) for d in diffs))
    f["relative_lag_median_ms"] = (max(medians) - min(medians)) / 1000
    f["relative_lag_worst_ms"] = worst / 1000
    return f


def crossing_skew(edge_lists, window_us=250000):
    """LEDs on one curve, whose ideal instants are the same: for each edge
    of the first list, the spread of the nearest edges of the others;
    median and worst (ms)."""
    spreads = []
    for t in edge_lists[0]:
        group = [t]
        for other in edge_lists[1:]:
            if not other:
                return {}
            i = bisect.bisect_left(other, t)
            near = min(other[max(i - 1, 0):i + 1], key=lambda x: abs(x - t))
            if abs(near - t) > window_us:
                break
            group.append(near)
        else:
            spreads.append((max(group) - min(group)) / 1000)
    if not spreads:
        return {}
    return {"skew_median_ms": statistics.median(spreads), "skew_worst_ms": max(spreads)}


def ramp_figures(out, peak, nominal_ms):
    """Up-ramps 0 -> peak: distinct levels, duration (reaching 0 to
    reaching the peak) and its error."""
    levels, durs, t_zero, cur = [], [], None, None
    for t, p in out.changes():
        if p == 0:
            t_zero, cur = t, set()
        elif cur is not None:
            cur.add(p)
            if p >= peak:
                levels.append(len(cur))
                durs.append((t - t_zero) / 1000)
                cur = None
    if not durs:
        return {}
    return {"levels_per_ramp": statistics.mean(levels),
            "ramp_ms_error": statistics.mean(durs) - nominal_ms}


def waveform_error(out, pattern, t_run, t_end, max_start_ms=200):
    """Mean |output - ideal| in levels; the ideal starts at the run mark
    plus the start offset (0..max_start_ms) that fits best, so a constant
    latency is forgiven but drift and shape are not."""
    table, period = ideal_table(pattern)
    span_ms = int((t_end - t_run) / 1000) - max_start_ms
    if span_ms < period:
        return {}

    def err(offset, step):
        samples = range(max_start_ms, max_start_ms + span_ms, step)
        return sum(abs(out.at(t_run + k * 1000) - table[(k - offset) % period])
                   for k in samples) / len(samples)

    best = min(range(0, max_start_ms + 1, 10), key=lambda o: err(o, 10))
    best = min(range(max(best - 10, 0), best + 11), key=lambda o: err(o, 10))
    return {"waveform_mae_levels": err(best, 1)}


def mean_waveform_error(outs, patterns, t_run, t_end):
    """Each LED against its own curve (a colour case): the mean of their
    waveform errors, or nothing if one has none."""
    maes = [waveform_error(o, pat, t_run, t_end) for o, pat in zip(outs, patterns)]
    if not all(maes):
        return {}
    return {"waveform_mae_levels": statistics.mean(m["waveform_mae_levels"] for m in maes)}


def first_change_ms(outs, t_run):
    ts = [c[0] for o in outs for c in o.changes() if c[0] >= t_run]
    return {"start_latency_ms": (min(ts) - t_run) / 1000} if ts else {}


class Bench:
    def __init__(self, timeline, console):
        self.tl = Timeline(timeline)
        self.marks = {}
        for t, w in self.tl.events:
            if w[:2] == ["mark", "bench"] and len(w) == 6:
                self.marks[(w[2], w[3], w[4], w[5])] = t
        self.cost = {}
        self.refused = set()    # (case, impl) an engine refused the pattern of
        with open(console or os.devnull) as f:
            for line in f:
                m = re.match(r"# bench: \S+ refused (\S+) (\S+) \d+", line)
                if m:
                    self.refused.add(m.group(1, 2))
                m = re.match(r"# bench cost (\S+) (\S+) (\d+) (.*)", line)
                if m:
                    kv = dict(x.split("=") for x in m.group(4).split())
                    self.cost[m.group(1, 2, 3)] = {k: float(v) for k, v in kv.items()}
        self.cpu = [(t, int(w[2])) for t, w in self.tl.events
                    if w[0] == "cpu" and len(w) == 3 and w[2].isdigit()]
        self.idle = self._idle()

    def runs(self, case, impl):
        return sorted({k[2] for k in self.marks if k[:2] == (case, impl)}, key=int)

    def window(self, case, impl, n):
        m = self.marks
        key = (case, impl, n)
        if any(key + (x,) not in m for x in ("begin", "end")):
            return None
        return m[key + ("begin",)], m.get(key + ("run",), m[key + ("begin",)]), m[key + ("end",)]

    def emu_cpu_pct(self, t0, t1):
        s = [c for c in self.cpu if t0 <= c[0] <= t1]
        if len(s) < 2:
            return None
        return (s[-1][1] - s[0][1]) / (s[-1][0] - s[0][0]) * 100

    def guest_cost(self, case, impl, n):
        c = self.cost.get((case, impl, n))
        if not c or not c.get("seconds"):
            return None
        return (c["wakeups"] / c["seconds"],
                c["cpu_ticks"] / c["hz"] / c["seconds"] * 100)

    def i2c_per_s(self, case, impl, n, chip="0x32"):
        """I2C messages a chip answered a second between the run and end
        marks (the emulator's counters on marks), or None."""
        w = self.window(case, impl, n)
        begin = f"bench {case} {impl} {n} " + ("run" if (case, impl, n, "run") in self.marks
                                                else "begin")
        msgs = self.tl.i2c_between(begin, f"bench {case} {impl} {n} end", chip)
        return None if msgs is None else msgs / ((w[2] - w[1]) / 1e6)

    def _idle(self):
        wk, cpu, emu, i2c = [], [], [], []
        for n in self.runs("idle", "base"):
            g = self.guest_cost("idle", "base", n)
            if g:
                wk.append(g[0])
                cpu.append(g[1])
            w = self.window("idle", "base", n)
            e = w and self.emu_cpu_pct(w[0], w[2])
            if e is not None:
                emu.append(e)
            m = self.i2c_per_s("idle", "base", n)
            if m is not None:
                i2c.append(m)
        mean = (lambda xs: statistics.mean(xs) if xs else 0.0)
        return {"wakeups": mean(wk), "cpu": mean(cpu), "emu": mean(emu), "i2c": mean(i2c)}

    def cost_figures(self, case, impl, n, outputs, chip="0x32"):
        w = self.window(case, impl, n)
        f = {}
        g = self.guest_cost(case, impl, n)
        if g:
            f["guest_wakeups_per_s"] = g[0] - self.idle["wakeups"]
            f["guest_cpu_pct"] = g[1] - self.idle["cpu"]
        e = self.emu_cpu_pct(w[0], w[2])
        if e is not None:
            f["emulator_cpu_pct"] = e - self.idle["emu"]
        m = self.i2c_per_s(case, impl, n, chip)
        if m is not None:
            # the idle baseline is the chip at 0x32's (software1's kb6)
            f["i2c_msgs_per_s"] = m - (self.idle["i2c"] if chip == "0x32" else 0)
        secs = (w[2] - w[1]) / 1e6
        changes = sum(1 for t, o, p in self.tl.changes if w[1] <= t <= w[2] and o in outputs)
        f["output_changes_per_s"] = changes / secs
        return f

    def other_engine_latency(self, case, impl, n):
        """The other engine's rising edges in the window against a line
        fitted through them (its own schedule, whatever the guest and host
        clocks do over minutes): spread and worst |residual| (ms)."""
        w = self.window(case, impl, n)
        edges = crossings(Output(self.tl.changes, OTHER_ENGINE, w[0], w[2]), 128)
        if len(edges) < 4:
            return {}
        idx = [round((t - edges[0]) / 1e6) for t in edges]
        _, _, res = fit(idx, [t / 1000 for t in edges])
        return {"other_engine_jitter_ms": statistics.pstdev(res),
                "other_engine_worst_ms": max(abs(r) for r in res)}

    def figures(self, case, impl, n):
        w = self.window(case, impl, n)
        if w is None or (case, impl) in self.refused:
            return None
        rgb, chip = OUTPUTS.get(impl, (RGB, "0x32"))
        outs = [Output(self.tl.changes, o, w[1], w[2]) for o in rgb]
        f = {}
        pats = [CASE_PATTERNS[case]] * len(rgb)
        if case in COLOUR_CASES:
            pats = [scaled(CASE_PATTERNS[case], peak) for peak in COLOUR_PEAKS]
            f.update(skew_figures(outs, pats, w[1], impl))
        else:
            # one curve on all: their crossings of mid-scale are due at once
            f.update(crossing_skew([crossings(o, 128) for o in outs]))
        if case == "blink":
            rises = [crossings(o, 128) for o in outs]
            f.update(period_figures(rises[0], 1000))
            f.update(first_change_ms(outs, w[1]))
            f.update(waveform_error(outs[0], BLINK, w[1], w[2]))
        elif case == "breathe":
            rises = [crossings(o, 128) for o in outs]
            f.update(period_figures(rises[0], 2000, drift=False))
            f.update(ramp_figures(outs[0], 255, 1000))
            f.update(waveform_error(outs[0], BREATHE, w[1], w[2]))
        elif case == "colour":
            rises = [crossings(o, peak // 2) for o, peak in zip(outs, COLOUR_PEAKS)]
            f.update(period_figures(rises[0], 2000, drift=False))
            f.update(ramp_figures(outs[0], 255, 1000))
            f.update(mean_waveform_error(outs, pats, w[1], w[2]))
        elif case in ("odd16", "odd16c"):
            f.update(waveform_error(outs[0], CASE_PATTERNS[case], w[1], w[2]))
        elif case == "odd16cc":
            f.update(mean_waveform_error(outs, pats, w[1], w[2]))
        f.update(self.cost_figures(case, impl, n, rgb, chip))
        return f


# ------------------------------------------------------------------ output

CASES = [
    ("blink", "1 Hz blink `255 500 255 0 0 500 0 0` on r, g, b"),
    ("breathe", "breathe `0 1000 255 1000` on r, g, b"),
    ("colour", "colour breathe `#000000 1000 #ff40c0 1000` on r, g, b"
     " (ledtrig-pattern: one grey pattern per LED; on a multicolor LED"
     " `0 1000 255 1000`, multi_intensity `255 64 192`)"),
    ("odd16", "16 tuples, odd durations (2.052 s) on r, g, b"),
    ("odd16c", "the same with ramps the LP5523 can step (2.254 s) on r, g, b"),
    ("odd16cc", "the same in colour, #ff40c0 at full scale: three curves, each as long"
     " a program as odd16c's (ledtrig-pattern: a scaled grey pattern per LED; on a"
     " multicolor LED, multi_intensity `255 64 192`)"),
]
SCALING = [
    ("leds1", "breathe, 1 LED"), ("leds3", "breathe, 3 LEDs"),
    ("leds9", "breathe, 9 LEDs (8 on I2C, 1 GPIO)"),
    ("chips2", "breathe, two engines at once: 3 LEDs of each LP5523"),
    ("tuples2", "triangle 0-9-0, 2 tuples, 3 LEDs"), ("tuples64", "the same in 64 tuples"),
]


def summary(values):
    """(median, spread) of a figure over the repeats."""
    vals = [v for v in values if v is not None]
    if not vals:
        return None
    return statistics.median(vals), max(vals) - min(vals)


def cell(s, impl, spread=True, refused=False):
    if s is None:
        if refused:
            return "refused"
        return "pending" if impl in ("hardware", "lp5569", "lp8501") else "n/a"
    med, spr = s
    txt = num(med)
    if spread and spr / 2 >= 0.005:
        txt += " ±" + num(spr / 2)
    return txt


def num(v):
    if v is None:
        return ""
    if abs(v) >= 100:
        return f"{v:.0f}"
    return f"{v:.1f}" if abs(v) >= 10 else f"{v:.2f}"


def ratio(a, b):
    if a is None or b is None or a[0] == 0:
        return ""
    return f"{b[0] / a[0]:.3g}"


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    b = Bench(args[0], args[1])
    if not b.marks:
        print("bench: no bench marks in the timeline", file=sys.stderr)
        return 1
    names = dict(IMPLS)
    head = ["figure"] + [name for _, name in IMPLS] + \
        [f"{names[a]} / {names[b]}" for a, b in RATIOS]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for case, title in CASES:
        print(f"| **{title}** |" + " |" * (len(head) - 1))
        per = {}
        for impl, _ in IMPLS:
            runs = [b.figures(case, impl, n) for n in b.runs(case, impl)]
            per[impl] = [r for r in runs if r]
        keys = []
        for impl, _ in IMPLS:
            for r in per[impl]:
                keys += [k for k in r if k not in keys]
        for k in keys:
            s = {impl: summary([r.get(k) for r in per[impl]]) for impl, _ in IMPLS}
            row = [k] + [cell(s[i], i, refused=(case, i) in b.refused)
                         for i, _ in IMPLS]
            row += [ratio(s[b_], s[a]) if per[a] and per[b_] else ""
                    for a, b_ in RATIOS]
            print("| " + " | ".join(row) + " |")
    print()
    print("Software engine cost growth (median ± half the spread of the repeats;"
          " other engine: software1's 1 Hz blink on kb6)")
    print()
    keys = ["guest_wakeups_per_s", "guest_cpu_pct", "emulator_cpu_pct",
            "i2c_msgs_per_s", "output_changes_per_s", "other_engine_jitter_ms",
            "other_engine_worst_ms"]
    print("| case | " + " | ".join(keys) + " |")
    print("|" + "---|" * (len(keys) + 1))
    longest = sorted({k[0] for k in b.marks if re.fullmatch(r"tuples\d+", k[0])}
                     - {c for c, _ in SCALING}, key=lambda c: int(c[6:]))
    scaling = SCALING + [(c, f"the same in {c[6:]} tuples (max_steps)") for c in longest]
    for case, title in scaling + [("idle", "idle (baseline)")]:
        impl = "base" if case == "idle" else "software"
        runs = []
        for n in b.runs(case, impl):
            w = b.window(case, impl, n)
            if case == "idle":
                g = b.guest_cost(case, impl, n)
                f = {"guest_wakeups_per_s": g[0] if g else None,
                     "guest_cpu_pct": g[1] if g else None,
                     "emulator_cpu_pct": b.emu_cpu_pct(w[0], w[2]),
                     "i2c_msgs_per_s": b.i2c_per_s(case, impl, n)}
            elif case == "chips2":
                f = b.cost_figures(case, impl, n, [1, 2, 3, 16, 17, 18])
                m = b.i2c_per_s(case, impl, n, "0x33")
                if "i2c_msgs_per_s" in f and m is not None:
                    f["i2c_msgs_per_s"] += m
            else:
                f = b.cost_figures(case, impl, n,
                                   [1, 2, 3, 4, 5, 6, 7, 8] if case == "leds9" else [1, 2, 3])
            f.update(b.other_engine_latency(case, impl, n))
            runs.append(f)
        if runs:
            print(f"| {title} | " + " | ".join(
                cell(summary([f.get(k) for f in runs]), impl) for k in keys) + " |")
    for n in b.runs("n900", "legacy"):
        f = b.cost_figures("n900", "legacy", n, [7])
        print(f"| N900 PatternError in the chip (stock engineN_* files) | "
              + " | ".join(num(f.get(k)) for k in keys) + " |")
    print()
    print(f"Idle baseline subtracted: {b.idle['wakeups']:.1f} timer interrupts/s,"
          f" {b.idle['cpu']:.2f} % guest CPU, {b.idle['emu']:.2f} % emulator CPU,"
          f" {b.idle['i2c']:.1f} I2C messages/s (software1 blinking the boot LED and kb6).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
