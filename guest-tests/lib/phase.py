# SPDX-License-Identifier: GPL-2.0
"""A late-linked LED against the run's own clock, for the host checks.

An LED linked while an engine runs must join at the level the run's
clock says (Documentation/led-pattern.md: "joins in phase").  Comparing
it with the LED already running proves less: a fault that shifts both
LEDs, or a clock that restarts at the link, keeps them equal.  So the
run's start t0 is fitted from the running LED's changes over the whole
run (never from the late LED), t0 must lie where the guest's
`echo run > state` put it (between the marks written just before and
just after that write), and each change of both LEDs is judged against
the pattern's ideal curve from t0.
"""

import bisect

GRID_US = 100           # the ideal output every 0.1 ms: far below any bound


class Curve:
    """The ideal output of a pattern ([(value, ms)], ABI: a linear ramp
    from each tuple's value to the next one's over its duration) as an
    engine shows it in whole levels: `rounding` "round" for the software
    engine (the nearest level: it changes half way between two levels),
    "chip" for the LP5523 (a ramp steps at the end of each step, so the
    level trails the line: down on the way up, up on the way down)."""

    def __init__(self, pattern, rounding):
        self.period = sum(d for _, d in pattern) * 1000
        self.line, self.levels = [], []
        for i, (v, d) in enumerate(pattern):
            nv = pattern[(i + 1) % len(pattern)][0]
            for j in range(d * 1000 // GRID_US):
                x = v + (nv - v) * j * GRID_US / (d * 1000)
                self.line.append(x)
                if rounding == "round":
                    self.levels.append(int(x + 0.5))
                else:
                    self.levels.append(v + int(x - v))
        self.n = len(self.levels)
        self.where = {}         # level -> grid indexes showing it
        self.entries = {}       # level -> grid indexes where it begins
        for i, lv in enumerate(self.levels):
            self.where.setdefault(lv, []).append(i)
            if self.levels[i - 1] != lv:
                self.entries.setdefault(lv, []).append(i)

    def index(self, t0, t):
        """Grid position (float) of time t in a run started at t0."""
        return ((t - t0) % self.period) / GRID_US

    def level(self, t0, t):
        return self.levels[int(self.index(t0, t)) % self.n]

    def _nearest(self, idx, p):
        """Signed grid distance from the nearest of the indexes idx
        (sorted) to position p, around the period."""
        if not idx:
            return None
        k = bisect.bisect_left(idx, p)
        best = None
        for i in (idx[k % len(idx)], idx[k - 1]):
            d = (p - i + self.n / 2) % self.n - self.n / 2
            if best is None or abs(d) < abs(best):
                best = d
        return best

    def error_us(self, t0, t, v):
        """How far (us) a change to level v at time t is from the instants
        the ideal output shows v: 0 when it shows v at t, > 0 when v was
        due earlier (t late), < 0 when v is due later; None if the curve
        never shows v."""
        p = self.index(t0, t)
        if self.levels[int(p) % self.n] == v:
            return 0.0
        d = self._nearest(self.where.get(v, []), p)
        if d is None:
            return None
        # grid point i stands for [i, i + 1): a set that ends before p
        # ends at i + 1
        return (d - 1 if d > 0 else d) * GRID_US

    def entry_us(self, t0, t, v):
        """Time from the nearest instant the ideal output enters level v
        to t: a running LED changes at those instants, plus its
        engine's latency."""
        d = self._nearest(self.entries.get(v, []), self.index(t0, t))
        return None if d is None else d * GRID_US


def median(v):
    v = sorted(v)
    return v[len(v) // 2] if v else None


def fit_t0(curve, changes, rough):
    """The run's start as the running LED's changes put it: the median
    of each change's time less the instant the ideal output enters its
    level, from a rough start (the mark before the run), twice (the
    second pass from the first's estimate).  The median includes the
    engine's usual latency, so the LEDs' errors are measured from the
    start they actually show."""
    t0 = rough
    for _ in range(2):
        off = [e for e in (curve.entry_us(t0, t, v) for t, v in changes)
               if e is not None]
        if not off:
            return None
        t0 += median(off)
    return t0


def late_join(tl, curve, first, late, marks, tol):
    """Judge a late join on the timeline.

    marks: (before run, after run, before link, end): the guest writes
    the first two around `echo run > state` and the third just before
    it links the late LED.  tol: a dict of bounds (us):
      start_early, start_late  where t0 may lie around the run's marks
      early, late              a change against the ideal from t0
      late_share               share of the changes after each LED's
                               first that may be later than `late` (a
                               host that did not run the guest for a
                               while makes a few late once, anywhere;
                               a phase error makes all of them late)
      median                   the median |error| of those changes
    Returns (ok, diagnostics, summary)."""
    ts = [tl.mark(m) for m in marks]
    if None in ts:
        return False, [f"marks missing: {[m for m, t in zip(marks, ts) if t is None]}"], ""
    t_run0, t_run1, t_link, t_end = ts
    one = [(t, p) for t, o, p in tl.changes if o == first and t_run0 < t <= t_end]
    two = [(t, p) for t, o, p in tl.changes if o == late and t_link < t <= t_end]
    if len(one) < 50 or len(two) < 50:
        return False, [f"want a ramp on D{first} and D{late}: "
                       f"{len(one)} and {len(two)} changes"], ""
    t0 = fit_t0(curve, one, t_run0)
    why = []
    if t0 is None:
        return False, [f"D{first} shows no level of the pattern"], ""
    # the run's clock starts at the run: a clock shifted or restarted
    # moves t0 away from the marks around the write
    lo, hi = t_run0 - tol["start_early"], t_run1 + tol["start_late"]
    start = t0 - t_run0
    if not lo <= t0 <= hi:
        why.append(f"D{first} puts the run's start {start / 1000:+.1f} ms from the "
                   f"mark before 'run' ({(t0 - t_link) / 1000:+.1f} ms from the link "
                   f"mark; the write took {(t_run1 - t_run0) / 1000:.1f} ms); "
                   f"want {-tol['start_early'] / 1000:+.1f} .. "
                   f"{(t_run1 - t_run0 + tol['start_late']) / 1000:+.1f} ms")
    stats = {}
    for name, out, ch in (("running", first, one), ("late", late, two)):
        err = [curve.error_us(t0, t, v) for t, v in ch]
        if None in err:
            t, v = ch[err.index(None)]
            why.append(f"D{out} ({name}) shows {v} at {t}, a level the pattern never has")
            continue
        bad = [(t, v, e) for (t, v), e in zip(ch, err)
               if not -tol["early"] <= e <= tol["late"]]
        rest = [e for (t, v), e in zip(ch[1:], err[1:])]
        n_bad_rest = sum(1 for e in rest if not -tol["early"] <= e <= tol["late"])
        med = median([abs(e) for e in rest])
        # the phase the LED shows against the clock: its changes after
        # the first land at the instants the ideal enters their levels
        # plus this (the running LED's is its latency less the median's)
        phase = median([e for e in (curve.entry_us(t0, t, v) for t, v in ch[1:])
                        if e is not None])
        stats[name] = (err[0], med, max(err, key=abs), len(ch), len(bad), phase)
        if name == "late" and not -tol["early"] <= err[0] <= tol["late"]:
            t, v = ch[0]
            why.append(f"D{out} joined at {v} ({(t - t_link) / 1000:.1f} ms after the link "
                       f"mark), the ideal there is {curve.line[int(curve.index(t0, t)) % curve.n]:.1f}: "
                       f"{err[0] / 1000:+.1f} ms off, want {-tol['early'] / 1000:+.1f} .. "
                       f"{tol['late'] / 1000:+.1f}")
        if n_bad_rest > tol["late_share"] * len(rest) or med > tol["median"]:
            why.append(f"D{out} ({name}): {n_bad_rest} of {len(rest)} changes off the ideal "
                       f"beyond {-tol['early'] / 1000:+.1f} .. {tol['late'] / 1000:+.1f} ms "
                       f"(want at most {tol['late_share'] * 100:g} %), median "
                       f"{med / 1000:.2f} ms (want <= {tol['median'] / 1000:.2f}); first: "
                       f"{[(t, v, round(e / 1000, 1)) for t, v, e in bad[:3]]}")
    summary = (f"run's start {start / 1000:+.2f} ms from the mark before 'run' "
               f"(write {(t_run1 - t_run0) / 1000:.1f} ms); " + "; ".join(
                   f"{name} D{out}: first {s[0] / 1000:+.2f} ms, then phase "
                   f"{s[5] / 1000:+.2f} ms, median |err| {s[1] / 1000:.2f} ms, "
                   f"worst {s[2] / 1000:+.2f} ms, {s[4]} of {s[3]} beyond"
                   for (name, out), s in zip((("running", first), ("late", late)),
                                             (stats.get("running"), stats.get("late")))
                   if s))
    return not why, why, summary
