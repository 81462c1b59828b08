# SPDX-License-Identifier: GPL-2.0
"""The device tree's boot pattern yielding to a claim, on the timeline
(the guest side: lib/boot_claims.sh, whose marks are read here).

For each claim, on a boot pattern the probe just started:
- before: the boot output changes in the 300 ms before the claim's
  "before" mark (the breathe changes a level every 8 ms; 10 changes at
  least), so that a dark output after the claim is the claim's doing;
- after: the guest wrote the boot engine's state into the end mark.
  "stopped" (the claim took the pattern over) wants the boot output at 0
  from the claim's mark on and not one change up to the end mark, which
  is at least 1 s later: the chip must be idle, not just the kernel say
  so.  "running" (allowed for a write that need not claim the boot
  engine) wants the boot waveform on over more than a run (2 s), every
  change the ideal's within the error budget (ChipJudge) and at least
  100 of them;
- what the claim asks for: outputs it leaves dark (an LED linked to the
  stopped engine) likewise at 0 and still; outputs it drives (its own
  pattern) against the ideal of that pattern from the "before" mark on.
"""

from timeline import ChipJudge, parse_pattern

BOOT = parse_pattern("0 1000 128 1000")
# the boot breathe changes every 7.8 ms on its ramps
PRE_US = 300000
PRE_MIN = 10
WINDOW_MIN_US = 1000000
# a running boot pattern is judged from a run's end to the next one's
# start: a window longer than its 2 s run
RUN_WINDOW_MIN_US = 2050000


def claim_marks(tl, label, claim):
    """(before, claim, end, state) of a claim's marks, or None."""
    head = f"boot claim {label} {claim}"
    t_before, t_at = tl.mark(f"{head} before"), tl.mark(head)
    for t, words in tl.events:
        text = " ".join(words[1:])
        if words[:1] == ["mark"] and text.startswith(f"{head} end "):
            if t_before is None or t_at is None:
                return None
            return t_before, t_at, t, text[len(head) + 5:]
    return None


def _track(tl, o, t0, t1):
    return [(t, p) for t, oo, p in tl.changes if oo == o and t0 < t <= t1]


def _dark(tl, o, t0, t1):
    """(ok, words): output o at 0 at t0 and unchanged up to t1."""
    lvl, after = tl.level_at(o, t0), _track(tl, o, t0, t1)
    return (lvl == 0 and not after,
            f"output {o} at {lvl} from the claim, {len(after)} changes in "
            f"the {(t1 - t0) / 1000:.0f} ms after (first {after[:3]})")


def judge_claim(tl, label, claim, boot_out, q_us, dark=(), drives=(),
                any_state=False):
    """(ok, diagnostics, summary) of one claim; drives: [[(output,
    pattern)]], each list one pattern's curves in lock-step."""
    m = claim_marks(tl, label, claim)
    if m is None:
        return False, [f"{label} {claim}: the claim's marks are missing"], ""
    t_before, t_at, t_end, state = m
    why = []
    pre = _track(tl, boot_out, t_before - PRE_US, t_before)
    if len(pre) < PRE_MIN:
        why.append(f"{label} {claim}: output {boot_out} changed {len(pre)} "
                   f"times in the {PRE_US // 1000} ms before the claim (want "
                   f"{PRE_MIN}): no boot pattern to take over")
    if t_end - t_at < WINDOW_MIN_US:
        why.append(f"{label} {claim}: {(t_end - t_at) / 1000:.0f} ms after the "
                   f"claim, want {WINDOW_MIN_US // 1000} at least")
    if state == "stopped":
        ok, words = _dark(tl, boot_out, t_at, t_end)
        summary = f"stopped, boot {words}"
        if not ok:
            why.append(f"{label} {claim}: engine1 reads stopped but the boot "
                       f"{words}")
    elif state == "running" and any_state:
        after = _track(tl, boot_out, t_at, t_end)
        j = ChipJudge([(after, BOOT)], q_us, min_runs=0)
        summary = f"running, boot output {boot_out}: {j.summary()}"
        if not j.ok or len(after) < 100 or t_end - t_at < RUN_WINDOW_MIN_US:
            why.append(f"{label} {claim}: engine1 reads running but its "
                       f"output {boot_out} changed {len(after)} times in "
                       f"{(t_end - t_at) / 1000:.0f} ms (want its breathe, 100 "
                       f"changes at least, over {RUN_WINDOW_MIN_US // 1000} ms "
                       "at least)")
            why += [f"{label} {claim}: {w}" for w in j.why]
    else:
        summary = f"state {state}"
        why.append(f"{label} {claim}: engine1 reads \"{state}\" after the "
                   "claim, want stopped")
    for o in dark:
        ok, words = _dark(tl, o, t_at, t_end)
        if not ok:
            why.append(f"{label} {claim}: {words}, want it dark")
    for curves in drives:
        j = ChipJudge([(_track(tl, o, t_before, t_end), p) for o, p in curves],
                      q_us, min_runs=1)
        summary += f"; outputs {[o for o, _ in curves]}: {j.summary()}"
        why += [f"{label} {claim}: outputs {[o for o, _ in curves]}: {w}"
                for w in j.why]
    return not why, why, f"{len(pre)} boot changes before; {summary}"
