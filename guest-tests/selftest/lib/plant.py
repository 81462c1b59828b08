#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Planted timelines for the self-test cases of the host timeline checks.

  plant.py find <results dir> <suite>   the boot directory holding real data
                                        for the suite (its guest KTAP, not a
                                        skip, and a timeline), the one whose
                                        check passed first; nothing if none
  plant.py marks <check>                the suite's first and last marks, as
                                        the check's open_check() names them
  plant.py gate <results dir> <check>...
                                        for each check with real data in the
                                        results, open_check() on it, each
                                        timeline read once: "<suite> <boot>"
                                        when it holds the suite, else "FAIL
                                        <suite> <boot>" after what it printed
  plant.py cut <timeline> <mark> <out>  the timeline up to the line before
                                        the mark: a timeline cut short there
  plant.py cuts <results dir> <out dir> <check>...
                                        for each check with real data, the
                                        suite's part of its timeline, from
                                        its first mark to the line before
                                        its last: <out dir>/<suite>.txt, and
                                        "<suite> <boot> <last mark>" lines
  plant.py part <timeline> <out> <first mark> <last mark>
                                        the timeline from the first mark to
                                        the last, both kept: one suite's
  plant.py rotate <timeline> <out> <a> <b> <c>
                                        outputs a, b, c carry what b, c, a
                                        did (a rotation of an LED's channels)
  plant.py still <timeline> <out> <begin mark> <end mark>
                                        of the output changes between the
                                        marks only the first is left
  plant.py wheel <out>                  an ideal ring suite's timeline (the
                                        colour wheel as ring.sh runs it), for
                                        a results directory without one
  plant.py stress <out>                 sysfs_fuzz's and unbind_storm's
                                        marks, with the nine outputs changing
                                        all along, likewise
  plant.py stall <timeline> <out> <begin mark> <end mark> <cause> <held> <ms>
                                        after each change of output <cause>
                                        between the marks, output <held>
                                        shows nothing new for <ms> ms, then
                                        its latest level (a software engine's
                                        timer stalled that long: its schedule
                                        is absolute, its worker writes the
                                        latest level)
  plant.py freeze <timeline> <out> <begin mark> <end mark> <s> [<ktap> <ktap out>]
                                        the board stops for <s> seconds half
                                        way between the marks: every line
                                        after that instant comes <s> s later;
                                        with a KTAP, lp-fuzz's summary says
                                        its run took <s> s longer
"""

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "lib"))
import timeline  # noqa: E402
from timeline import GuestKtap  # noqa: E402


def mark_of(line):
    """The text of a "# <t> mark <text> [| i2c ...]" line, or None."""
    w = line.split()
    if len(w) < 4 or w[0] != "#" or not w[1].isdigit() or w[2] != "mark":
        return None
    text = " ".join(w[3:])
    return text.rsplit(" | i2c ", 1)[0] if " | i2c " in text else text


def find(results, suite):
    boot = find_boot(results, suite)
    if boot:
        print(boot)


def find_boot(results, suite):
    found = []
    for root, dirs, files in sorted(os.walk(results)):
        if "timeline.txt" not in files or f"{suite}.ktap" not in files:
            continue
        guest = GuestKtap(os.path.join(root, f"{suite}.ktap"))
        if guest.skip_all is not None:
            continue
        try:
            with open(os.path.join(root, f"{suite}_timeline.ktap")) as f:
                passed = not any(line.startswith("not ok") for line in f)
        except OSError:
            passed = False
        found.append((not passed, root))
    return sorted(found)[0][1] if found else None


def marks(check):
    with open(check) as f:
        m = re.search(r'open_check\("([^"]*)", "([^"]*)"\)', f.read())
    if m:
        print(m.group(1))
        print(m.group(2))


def gate(results, *checks):
    cache, real = {}, timeline.Timeline

    def cached(path):
        if path not in cache:
            cache[path] = real(path)
        return cache[path]

    timeline.Timeline = cached
    for check in checks:
        suite = os.path.basename(check).rsplit(".", 1)[0]
        boot = find_boot(results, suite)
        if boot is None:
            continue
        with open(check) as f:
            m = re.search(r'open_check\("([^"]*)", "([^"]*)"\)', f.read())
        if m is None:
            print(f"FAIL {suite} {boot}: {check} has no open_check() gate")
            continue
        argv = [check, os.path.join(boot, "timeline.txt"),
                os.path.join(boot, f"{suite}.ktap")]
        try:
            timeline.open_check(m.group(1), m.group(2), argv)
            print(f"{suite} {boot}")
        except SystemExit:
            print(f"FAIL {suite} {boot}")
    timeline.Timeline = real


def cut(path, mark, out):
    with open(path) as f, open(out, "w") as o:
        for line in f:
            if mark_of(line) == mark:
                break
            o.write(line)


def cuts(results, outdir, *checks):
    """One pass over each boot's timeline for all the suites in it."""
    todo = {}                   # boot -> [(suite, first, last)]
    for check in checks:
        suite = os.path.basename(check).rsplit(".", 1)[0]
        boot = find_boot(results, suite)
        with open(check) as f:
            m = re.search(r'open_check\("([^"]*)", "([^"]*)"\)', f.read())
        if boot and m:
            todo.setdefault(boot, []).append((suite, m.group(1), m.group(2)))
    for boot, suites in todo.items():
        outs = {}               # suite -> open file while inside its part
        firsts = {}
        for s, first, last in suites:
            firsts.setdefault(first, []).append((s, last))
        ends = {last: s for s, first, last in suites}
        with open(os.path.join(boot, "timeline.txt")) as f:
            for line in f:
                m = mark_of(line)
                if m in ends and ends[m] in outs:
                    outs.pop(ends[m]).close()
                for s, last in firsts.pop(m, []) if m else []:
                    outs[s] = open(os.path.join(outdir, f"{s}.txt"), "w")
                    print(f"{s} {boot} {last}")
                for o in outs.values():
                    o.write(line)
        for o in outs.values():
            o.close()


def part(path, out, first, last):
    inside = False
    with open(path) as f, open(out, "w") as o:
        for line in f:
            m = mark_of(line)
            inside = inside or m == first
            if inside:
                o.write(line)
            if inside and m == last:
                break


def rotate(path, out, a, b, c):
    to = {b: a, c: b, a: c}     # a now shows what b showed, ...
    with open(path) as f, open(out, "w") as o:
        for line in f:
            w = line.split()
            if len(w) == 3 and all(x.isdigit() for x in w) and w[1] in to:
                line = f"{w[0]} {to[w[1]]} {w[2]}\n"
            o.write(line)


def lag(path, out, begin, end, us, *outs):
    """The changes of outs between two marks, us microseconds later, the
    file kept in time order as the emulator writes it."""
    lines, inside, t = [], False, 0
    with open(path) as f:
        for line in f:
            m = mark_of(line)
            inside = (inside or m == begin) and m != end
            w = line.split()
            change = len(w) == 3 and all(x.isdigit() for x in w)
            if change:
                t = int(w[0])
            elif len(w) > 1 and w[0] == "#" and w[1].isdigit():
                t = int(w[1])
            if inside and change and w[1] in outs:
                line = f"{t + int(us)} {w[1]} {w[2]}\n"
                lines.append((t + int(us), len(lines), line))
            else:
                lines.append((t, len(lines), line))
    with open(out, "w") as o:
        o.writelines(line for _, _, line in sorted(lines))


def still(path, out, begin, end):
    inside, kept = False, False
    with open(path) as f, open(out, "w") as o:
        for line in f:
            m = mark_of(line)
            if m == begin:
                inside = True
            elif m == end:
                inside = False
            w = line.split()
            if inside and len(w) == 3 and all(x.isdigit() for x in w):
                if kept:
                    continue
                kept = True
            o.write(line)


def timed_lines(path):
    """(t_us, line, change) for each line of a timeline, a line without a
    time of its own (a comment) at the time of the one before it."""
    t = 0
    with open(path) as f:
        for line in f:
            w = line.split()
            change = len(w) == 3 and all(x.isdigit() for x in w)
            if change:
                t = int(w[0])
            elif len(w) > 1 and w[0] == "#" and w[1].isdigit():
                t = int(w[1])
            yield t, line, w if change else None


def stall(path, out, begin, end, cause, held, ms):
    lines = list(timed_lines(path))
    stall_us = int(float(ms) * 1000)
    t0 = t1 = None
    for t, line, _ in lines:
        if mark_of(line) == begin and t0 is None:
            t0 = t
        elif mark_of(line) == end and t0 is not None and t1 is None:
            t1 = t
    if t0 is None or t1 is None:
        sys.exit(f"plant.py stall: no marks {begin!r} and {end!r} in {path}")
    # the stalls: [change, change + ms) after each change of the cause,
    # merged where they overlap (a ramp's few levels in 1 ms)
    stalls = []
    for t, _, w in lines:
        if w and w[1] == cause and t0 <= t <= t1:
            if stalls and t <= stalls[-1][1]:
                stalls[-1][1] = t + stall_us
            else:
                stalls.append([t, t + stall_us])
    kept, level, shown, k = [], None, None, 0
    for t, line, w in lines:
        while k < len(stalls) and t >= stalls[k][1]:
            # the stall ends: the latest level, if it is not the one shown
            if level != shown:
                kept.append((stalls[k][1], f"{stalls[k][1]} {held} {level}\n"))
                shown = level
            k += 1
        if w and w[1] == held:
            level = w[2]
            if k < len(stalls) and stalls[k][0] < t:
                continue
            shown = level
        kept.append((t, line))
    with open(out, "w") as o:
        o.writelines(line for _, line in sorted(kept, key=lambda x: x[0]))


def freeze(path, out, begin, end, s, ktap=None, ktap_out=None):
    lines = list(timed_lines(path))
    marks = {mark_of(line): t for t, line, _ in reversed(lines) if mark_of(line)}
    if begin not in marks or end not in marks:
        sys.exit(f"plant.py freeze: no marks {begin!r} and {end!r} in {path}")
    at, shift = (marks[begin] + marks[end]) // 2, int(float(s) * 1e6)
    with open(out, "w") as o:
        for t, line, w in lines:
            e = line.split(" ", 2)
            if t > at and w:
                line = f"{t + shift} {w[1]} {w[2]}\n"
            elif t > at and len(e) == 3 and e[0] == "#" and e[1].isdigit():
                line = f"# {t + shift} {e[2]}"
            o.write(line)
    if ktap:
        with open(ktap) as f, open(ktap_out, "w") as o:
            for line in f:
                m = re.match(r"(# lp-fuzz: seed \d+, \d+ writes .* in )([0-9.]+)( s.*)", line, re.S)
                if m:
                    line = f"{m.group(1)}{float(m.group(2)) + float(s):.1f}{m.group(3)}"
                o.write(line)


def wheel(out):
    """ring.sh's suite as an ideal chip would show it: software0 and then
    the chips run the wheel from their run marks on the ring's outputs
    10-12 and the indicator's 7, 6, 5; then the ring unbound and idle."""
    period = 1500000

    def ideal(t, ch):
        x = (t % period) / 500000.0
        seg, f = int(x), x - int(x)
        rise, fall = round(255 * f), round(255 * (1 - f))
        return {"red": (fall, 0, rise), "green": (rise, fall, 0),
                "blue": (0, rise, fall)}[ch][seg]

    lines = []

    def mark(t, text):
        lines.append((t, f"# {t} mark {text} | i2c 0x32=0 0x33=0"))

    def run(start, t1, outs):
        last = {}
        for t in range(start, t1, 2000):
            for ch, o in outs.items():
                v = ideal(t - start, ch)
                if last.get(o) != v:
                    lines.append((t, f"{t} {o} {v}"))
                    last[o] = v
        for o in outs.values():
            lines.append((t1 + 1000, f"{t1 + 1000} {o} 0"))

    ring = {"red": 10, "green": 11, "blue": 12}
    sep = {"red": 7, "green": 6, "blue": 5}
    mark(1000000, "ring sw run")
    mark(1300000, "ring sw begin")
    run(1005000, 4300000, ring)
    run(1005000, 4300000, sep)
    mark(4300000, "ring sw end")
    mark(5000000, "ring hw run")
    for e in (1, 2, 3):
        lines.append((5010000, f"# 5010000 0x33 engine{e} exec free-run"))
        lines.append((5040000, f"# 5040000 engine{e} exec free-run"))
    mark(5300000, "ring hw begin")
    run(5010000, 8500000, ring)
    run(5040000, 8500000, sep)
    mark(8500000, "ring hw end")
    mark(8600000, "ring unbound begin")
    run(8600000, 10200000, sep)
    mark(10200000, "ring unbound end")
    mark(10500000, "ring idle begin")
    mark(11000000, "ring idle end")
    with open(out, "w") as o:
        for _, line in sorted(lines, key=lambda x: x[0]):
            o.write(line + "\n")


def stress(out):
    """The fuzz (30 s) and a storm of 10 cycles, every output changing every
    100 ms while the fuzzer runs and while each cycle's LEDs are linked;
    both end idle."""
    lines = []

    def mark(t, text):
        lines.append(f"# {t} mark {text} | i2c 0x32=0 0x33=0")

    def changes(t0, t1):
        for t in range(t0, t1, 100000):
            for o in range(1, 10):
                lines.append(f"{t + o} {o} {(t // 100000 + o) % 2 * 255}")
        for o in range(1, 10):
            lines.append(f"{t1 + o} {o} 0")

    mark(1000000, "fuzz begin")
    changes(1000000, 31000000)
    mark(31100000, "fuzz end")
    mark(31300000, "fuzz idle begin")
    mark(32300000, "fuzz idle end")
    t = 33000000
    mark(t, "storm begin")
    for i in range(1, 11):
        mark(t + 10, f"storm cycle {i} unbind")
        mark(t + 200000, f"storm cycle {i} linked")
        changes(t + 200000, t + 500000)
        t += 600000
    mark(t, "storm end")
    mark(t + 200000, "storm idle begin")
    mark(t + 1200000, "storm idle end")
    with open(out, "w") as o:
        o.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"find": find, "marks": marks, "gate": gate, "cut": cut, "cuts": cuts, "part": part, "rotate": rotate,
     "lag": lag, "still": still, "wheel": wheel, "stress": stress,
     "stall": stall, "freeze": freeze}[cmd](*args)
