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
