# SPDX-License-Identifier: GPL-2.0
"""Read the LP5523 emulator's timeline for the host-side suite checks.

Timeline format (qemu/lp5523-emu/README.md): "<t_us> <output 1-9> <pwm 0-255>" per
output change; other lines start with "#", events as "# <t_us> <event> ...".
Guest tests drop "mark <text>" events to delimit what they did; the
emulator appends each chip's count of answered I2C messages to a mark,
"mark <text> | i2c 0x32=<n> 0x33=<m>", which Timeline keeps apart
(events see the bare text, i2c_between() the counts).
"""

import os
import sys


class Timeline:
    def __init__(self, path):
        self.changes = []       # (t_us, output, pwm)
        self.events = []        # (t_us, words)
        self.mark_i2c = {}      # mark text -> {"0x32": n, ...}
        self.lines = 0
        with open(path) as f:
            for line in f:
                self.lines += 1
                words = line.split()
                if not words:
                    continue
                if words[0] == "#":
                    if len(words) >= 3 and words[1].isdigit():
                        ev = words[2:]
                        if ev[0] == "mark" and "|" in ev:
                            cut = len(ev) - 1 - ev[::-1].index("|")
                            if ev[cut + 1:cut + 2] == ["i2c"]:
                                text = " ".join(ev[1:cut])
                                self.mark_i2c.setdefault(text, dict(
                                    w.split("=", 1) for w in ev[cut + 2:]))
                                ev = ev[:cut]
                        self.events.append((int(words[1]), ev))
                    continue
                if len(words) == 3 and all(w.isdigit() for w in words):
                    self.changes.append(tuple(int(w) for w in words))

    def mark(self, text):
        """Time of the first mark whose text is `text`, or None."""
        for t, words in self.events:
            if words[:1] == ["mark"] and " ".join(words[1:]) == text:
                return t
        return None

    def between(self, begin, end):
        """Changes between two marks (texts), or None if a mark is missing."""
        t0, t1 = self.mark(begin), self.mark(end)
        if t0 is None or t1 is None:
            return None
        return [c for c in self.changes if t0 <= c[0] <= t1]

    def i2c_between(self, begin, end, addr="0x32"):
        """I2C messages chip `addr` answered between two marks, or None."""
        a, b = self.mark_i2c.get(begin), self.mark_i2c.get(end)
        if a is None or b is None or addr not in a or addr not in b:
            return None
        return int(b[addr]) - int(a[addr])

    def level_at(self, output, t_us):
        """PWM of an output at a time (0 before its first change)."""
        level = 0
        for t, out, pwm in self.changes:
            if t > t_us:
                break
            if out == output:
                level = pwm
        return level


def edges(changes, output, threshold=128):
    """Rising-edge times of an output crossing `threshold`."""
    rising, level = [], 0
    for t, out, pwm in changes:
        if out != output:
            continue
        if level < threshold <= pwm:
            rising.append(t)
        level = pwm
    return rising


class Ktap:
    """KTAP for one host check; exit status 1 when anything failed."""

    def __init__(self, plan):
        self.n = 0
        self.failed = 0
        print("TAP version 13")
        print(f"1..{plan}")

    def result(self, name, ok, why=()):
        self.n += 1
        print(f"{'ok' if ok else 'not ok'} {self.n} {name}")
        if not ok:
            self.failed += 1
            for line in ([why] if isinstance(why, str) else why):
                print(f"# {line}")

    def skip(self, name, why):
        self.n += 1
        print(f"ok {self.n} {name} # SKIP {why}")

    def finish(self):
        sys.exit(1 if self.failed else 0)


class GuestKtap:
    """What the guest's KTAP for the suite (a check's second argument) says:
    `skip_all` is the reason when the whole suite skipped ("1..0 # SKIP
    why", or every result a SKIP, as a wedged board reports each suite),
    else None; `skipped` the names of results that skipped; `debug` that
    the suite ran on the debug kernel."""

    def __init__(self, path):
        self.skip_all, self.skipped, self.debug = None, set(), False
        self.found = False
        results, skips = 0, []
        try:
            with open(path) as f:
                lines = f.read().splitlines()
            self.found = True
        except (OSError, TypeError):
            lines = []
        for line in lines:
            w = line.split()
            if line.startswith("1..0") and "# SKIP" in line:
                self.skip_all = line.split("# SKIP", 1)[1].strip() or "no reason given"
            elif line.startswith("# kernel: debug"):
                self.debug = True
            elif w[:1] in (["ok"], ["not"]):
                results += 1
                if w[0] == "ok" and len(w) >= 3 and "# SKIP" in line:
                    self.skipped.add(w[2])
                    skips.append(line.split("# SKIP", 1)[1].strip())
        if self.skip_all is None and results and len(skips) == results:
            self.skip_all = skips[0] or "no reason given"


def open_check(first_mark, last_mark, argv=None):
    """The timeline of a suite's host check and the guest's KTAP, once the
    timeline is known to hold the whole suite.

    A check must fail on missing data.  A timeline that is missing, or
    that lacks the suite's first or last mark (empty, cut short when the
    emulator or the board died, or a suite that died half way), gives
    one failed result naming what is missing, and the check exits; so
    does a guest suite that did not say it skipped.  A suite the guest
    skipped as a whole gives "1..0 # SKIP" with the guest's reason.
    Returns (Timeline, GuestKtap)."""
    argv = sys.argv if argv is None else argv
    suite = os.path.basename(argv[0]).rsplit(".", 1)[0]
    guest = GuestKtap(argv[2] if len(argv) > 2 else None)
    if guest.skip_all is not None:
        print("TAP version 13")
        print(f"1..0 # SKIP the guest suite skipped: {guest.skip_all}")
        sys.exit(0)
    why = None
    try:
        tl = Timeline(argv[1])
    except (OSError, IndexError) as e:
        why = [f"no timeline: {e}"]
    else:
        missing = [m for m in (first_mark, last_mark) if tl.mark(m) is None]
        if missing:
            last = max([t for t, _ in tl.events] + [c[0] for c in tl.changes],
                       default=None)
            why = [f"the timeline lacks the mark(s) {missing}: "
                   f"{tl.lines} lines, {len(tl.changes)} output changes, "
                   f"the last at {last} us (empty, cut short, or the suite "
                   "did not get there)"]
    if why:
        if not guest.found:
            why.append("and no guest KTAP says the suite skipped")
        print("TAP version 13")
        print("1..1")
        print(f"not ok 1 {suite}_timeline_holds_the_suite")
        for line in why:
            print(f"# {line}")
        sys.exit(1)
    return tl, guest


def guest_passed(ktap_path, name):
    """True if the guest's KTAP for the suite reports `ok N name`."""
    try:
        with open(ktap_path) as f:
            for line in f:
                w = line.split()
                if len(w) >= 3 and w[0] == "ok" and w[2] == name:
                    return True
    except OSError:
        pass
    return False


# ---------------------------------------------------------------------------
# Chip engines against the ideal curve, within the documented error budget.
#
# The chips' engines count time in quanta of 16 cycles of their clock.  The
# LP5523's is 32768 Hz (shared/reference/lp5523.md, [DS] "Engine clock");
# the LP5569's and the LP8501's too, prescale 16 / 512 cycles like the
# LP5523's: TI SNVSAP8A (LP5569) §1 "LP5523- and LP55231-device-compatible
# command set" and §7.11 (a 32 kHz CLK input), TI SNVS548D (LP8501) p. 1
# "Program execution is clocked with 32 768Hz clock" (the facts and their
# sources: Documentation/lp5569-lp8501-emulator.md, "Both chips").  The
# emulator runs them on that clock exactly, so a chip's waveform can be held
# to the budget itself, with no allowance for a guest.
ENGINE_HZ = {"lp5523": 32768, "lp5569": 32768, "lp8501": 32768}


def quantum_us(chip="lp5523"):
    """One engine quantum, 16 cycles of the chip's clock, in us."""
    return 16 * 1e6 / ENGINE_HZ[chip]


def parse_pattern(text, component=None):
    """[(value, ms)] of a pattern as written ("v ms v ms ...", values 0-255
    or #rrggbb); `component` ("red", "green", "blue") picks a colour's
    channel, else a colour shows max(r, g, b) as on an LED without one."""
    words = text.split()
    res = []
    for v, ms in zip(words[0::2], words[1::2]):
        if v.startswith("#"):
            rgb = [int(v[i:i + 2], 16) for i in (1, 3, 5)]
            v = rgb[("red", "green", "blue").index(component)] if component else max(rgb)
        res.append((int(v), int(ms)))
    return res


def ideal_run(pattern, q_us):
    """The changes of one run of `pattern` ([(value, ms)]) as the ABI
    defines them, each with its error budget, counted from the run's start:
    [(t_us, value, budget_us)], and the run's length in us.

    Documentation/leds/leds-class-pattern.rst (series/6-lp55xx-engines 7),
    "Error budget", written here, not taken from the compiler: for every
    tuple that lasts, with ideal start S and length T, of d levels, the
    step to its value (if the output is not there) is within 4 q of S; its
    level k (1 <= k <= d) changes within (4 + d / 4) q of S + k T / d (a
    level shows at the end of its step); its end is the last level's.  The
    output ramps from each tuple's value to the next tuple's."""
    n = len(pattern)
    lasting = [j for j in range(n) if pattern[j][1]]
    cur = pattern[(lasting[-1] + 1) % n][0] if lasting else None
    out, start = [], 0.0
    for j in lasting:
        v, ms = pattern[j]
        if v != cur:
            out.append((start, v, 4 * q_us))
            cur = v
        to = pattern[(j + 1) % n][0]
        d = abs(to - cur)
        for k in range(1, d + 1):
            out.append((start + ms * 1000.0 * k / d,
                        cur + (k if to > cur else -k), (4 + d / 4) * q_us))
        cur = to
        start += ms * 1000.0
    return out, start


def _fit_ratio(points):
    """The run start t0 that brings every (t_obs, t_ideal, budget) closest
    to its budget: (worst |t_obs - t0 - t_ideal| / budget at that t0, t0).
    Bisection on the ratio r: some t0 holds every change within r budgets
    when max(t_obs - t_ideal - r b) <= min(t_obs - t_ideal + r b)."""
    lo, hi = 0.0, 1.0
    while True:
        if (max(t - s - hi * b for t, s, b in points) <=
                min(t - s + hi * b for t, s, b in points)):
            break
        lo, hi = hi, hi * 2
        if hi > 1e6:
            break
    for _ in range(50):
        mid = (lo + hi) / 2
        if (max(t - s - mid * b for t, s, b in points) <=
                min(t - s + mid * b for t, s, b in points)):
            hi = mid
        else:
            lo = mid
    t0 = (max(t - s - hi * b for t, s, b in points) +
          min(t - s + hi * b for t, s, b in points)) / 2
    return hi, t0


class ChipJudge:
    """A chip engine's output changes held to the ideal curve of the
    pattern written, within the documented error budget (ideal_run()).

    `curves`: [(changes [(t_us, level)], pattern [(value, ms)])], curves
    the engines of one pattern run in lock-step (one run start for all,
    as the rst says: "The engines of one colour pattern ... meet at a
    trigger at the start of every run").  Each curve's changes must be its
    ideal's, in order, run after run: a change to another level, a level
    missing or one too many fails.  The changes before a curve's first
    full run (the window opened mid-run, or the first run left out a step
    to where the output already was) and after its last full run must be
    the end and the start of a run, and are judged as runs of their own.
    For every run, one start t0 is fitted; every change must lie within
    its budget of t0 + its ideal time (`ratio` <= 1, the worst |error| /
    budget).  Each change comes the same time after its counterpart of the
    run before, the pattern's length within 4 q ("a run lasts what its
    last tuple's end says ... within 4 q, and the same for every run": 2 us
    apart at most, the emulator stamps whole microseconds), so a run fitted
    on its own cannot hide a late start."""

    def __init__(self, curves, q_us=None, min_runs=1):
        q_us = q_us or quantum_us()
        self.why, self.runs, self.ratio, self.worst_us = [], 0, None, None
        self.periods, self.full_runs, self.changes = [], 0, 0
        groups = {}                     # rough run start -> [points]
        period = None

        def add(pts):
            """A run's (t_obs, t_ideal, budget), under its rough start."""
            rough = sorted(t - s for t, s, _ in pts)[len(pts) // 2]
            key = next((k for k in groups if abs(k - rough) < period / 2), rough)
            groups.setdefault(key, []).extend(pts)

        for c, (changes, pattern) in enumerate(curves):
            ideal, period = ideal_run(pattern, q_us)
            m = len(ideal)
            vals = [v for _, v, _ in ideal]
            got = [p for _, p in changes]
            if not m:
                if got:
                    self.why.append(f"curve {c}: {len(got)} changes, the "
                                    "pattern is constant")
                continue
            # where the first run starts: the changes before it are the
            # end of a run, those after it the start of the next ones
            first = next((i for i in range(min(m, len(got)) + 1)
                          if got[:i] == vals[m - i:] and
                          got[i:i + m] == vals[:len(got[i:i + m])]), None)
            if first is None:
                self.why.append(f"curve {c}: the changes are not the ideal's "
                                f"{m} a run, from any point of a run: levels "
                                f"{got[:8]}..., the ideal's {vals[:8]}...")
                continue
            if first:
                add([(changes[j][0], ideal[m - first + j][0],
                      ideal[m - first + j][2]) for j in range(first)])
            i = first
            while i + m <= len(got) and got[i:i + m] == vals:
                add([(changes[i + j][0], ideal[j][0], ideal[j][2])
                     for j in range(m)])
                self.full_runs += 1
                i += m
            tail = got[i:]
            if tail != vals[:len(tail)]:
                k = next(j for j in range(len(tail)) if tail[j] != vals[j])
                self.why.append(
                    f"curve {c}: change {i + k + 1} at {changes[i + k][0]} us "
                    f"is to {tail[k]}, the ideal's to {vals[k]} (change "
                    f"{k + 1} of a run)")
            elif tail:
                add([(changes[i + j][0], ideal[j][0], ideal[j][2])
                     for j in range(len(tail))])
            # every change and its counterpart a run later: the runs
            # start the pattern's length apart within 4 q, and each of the
            # two changes is within its budget of its run's ideal (runs
            # of engines meeting at a trigger, or looping a hold, need not
            # be exact translates of one another)
            per = [changes[j + m][0] - changes[j][0] for j in range(len(got) - m)]
            if per:
                self.periods.append((min(per), max(per)))
            off = [(p, 4 * q_us + 2 * ideal[(m - first + j) % m][2])
                   for j, p in enumerate(per)]
            if any(abs(p - period) > b for p, b in off):
                p, b = max(off, key=lambda x: abs(x[0] - period) / x[1])
                self.why.append(
                    f"curve {c}: changes {min(per)}-{max(per)} us from their "
                    f"counterparts a run later; {p} us, want the pattern's "
                    f"{period:.0f} us within 4 q and the two changes' budgets "
                    f"({b:.0f} us)")
        self.period = period
        self.runs = len(groups)
        for key in sorted(groups):
            pts = groups[key]
            self.changes += len(pts)
            r, t0 = _fit_ratio(pts)
            if self.ratio is None or r > self.ratio:
                self.ratio, self.t0 = r, t0
                t, s, b = max(pts, key=lambda p: abs(p[0] - t0 - p[1]) / p[2])
                self.worst_us, self.worst = t - t0 - s, (t, s + t0, b)
        if self.full_runs < min_runs:
            self.why.append(f"{self.full_runs} full runs, want {min_runs}")
        if self.ratio is not None and self.ratio > 1:
            t, want, b = self.worst
            self.why.append(
                f"a change at {t} us, {t - want:+.0f} us off the ideal "
                f"{want:.0f} us, over its budget of {b:.0f} us "
                f"({self.ratio * 100:.1f} % of it)")
        self.ok = not self.why

    def summary(self):
        what = (f"{self.changes} changes in {self.runs} runs "
                f"({self.full_runs} curve runs whole)")
        if self.ratio is None:
            return what
        return (f"{what}, worst change {self.worst_us:+.0f} us off the "
                f"ideal, {self.ratio * 100:.1f} % of its budget")
