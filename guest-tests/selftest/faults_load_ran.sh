#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lp5523_faults.check on one page of a program load NACKed: a kernel that
# ran the half-loaded program (D1 moves in the sysfs window, engine 1
# enters run after the NACK at the probe and D6 moves), one that ran what
# engine 2 held after a NACKed engine2_load (engine 2 enters run, D1
# moves), a NACK that never
# hit (the fault event gone), and retries that did not run (D1, D6 still)
# must each fail the result that looks at it; the unplanted timeline
# passes.  Real data where this run has lp5523_faults, else the fixture
# data/lp5523_faults.txt (a board run's part of the suite).
. "$(dirname "$0")/lib/selftest.sh"
check=$ST_TESTS/lp5523_faults.check
tl= ktap=
for b in $(st_boots); do
	[ -s "$b/lp5523_faults.ktap" ] && [ -s "$b/timeline.txt" ] || continue
	"$check" "$b/timeline.txt" "$b/lp5523_faults.ktap" > /dev/null 2>&1 || continue
	tl=$b/timeline.txt ktap=$b/lp5523_faults.ktap
	break
done
if [ -z "$tl" ]; then
	tl=$ST_DATA/lp5523_faults.txt ktap=ran.ktap
	st_ok "$ktap" control_channel_present
fi
"$check" "$tl" "$ktap" > real.out 2>&1
st_accepts "lp5523_faults' timeline ($tl)" real.out $?

# plant <out> <begin mark> <end mark> <what>: rewrite the window between
# the marks: "move <output>" adds a ramp on the output right after the
# begin mark (a program that ran), "still <output>" drops the output's
# changes, "unfault" drops the fault events, "run [<engine>]" adds
# "engine<engine> run" (engine 1 by default) after the window's fault
plant() {
	python3 - "$tl" "$@" <<'PY'
import sys
src, out, begin, end, what = sys.argv[1:6]
arg = sys.argv[6] if len(sys.argv) > 6 else None
lines = open(src).read().splitlines(True)
t_of = lambda l: int(l.split()[1] if l.startswith("#") else l.split()[0])


def is_mark(w, text):
    return w[:1] == ["#"] and w[2:3] == ["mark"] and \
        " ".join(w[3:]).split(" | ")[0] == text


inside, res = None, []
for l in lines:
    w = l.split()
    if is_mark(w, begin):
        inside = t_of(l)
        res.append(l)
        if what == "move":
            res += [f"{inside + 1000 * i} {arg} {10 * i}\n" for i in (1, 2, 3)]
        continue
    if is_mark(w, end):
        inside = None
    if inside is not None:
        if what == "still" and not l.startswith("#") and w[1] == arg:
            continue
        if what == "unfault" and l.startswith("#") and w[2] == "fault":
            continue
        if what == "run" and l.startswith("#") and w[2] == "fault":
            res.append(l)
            res.append(f"# {t_of(l) + 100} engine{arg or 1} run\n")
            continue
    res.append(l)
open(out, "w").writelines(res)
PY
}

# rejects <test> <what it plants> <window> <plant...>: the window's plant
# (plant's <what> [<arg>]) must fail the check's <test>
rejects() {
	local test=$1 why=$2 window=$3
	shift 3
	plant planted.txt "faults $window begin" "faults $window end" "$@"
	"$check" planted.txt "$ktap" > planted.out 2>&1
	st_rejects "$why" "^not ok [0-9]* $test" planted.out $?
}

rejects timeline_mid_load_nothing_runs \
	"D1 moving after a NACK in the middle of the load" mid-load move 1
rejects timeline_mid_load_nothing_runs \
	"a mid-load window in which no NACK hit" mid-load unfault
rejects timeline_legacy_load_engine_disabled \
	"engine 2 run after its NACKed engine2_load" "legacy load" run 2
rejects timeline_legacy_load_engine_disabled \
	"D1 lit after the NACKed engine2_load" "legacy load" move 1
rejects timeline_boot_load_nothing_runs \
	"engine 1 run after the boot pattern's NACKed load" "boot load" run
rejects timeline_boot_load_nothing_runs \
	"D6 lit after the boot pattern's NACKed load" "boot load" move 6
rejects timeline_mid_load_retry_runs \
	"the retry with the faults off not running" "mid-load retry" still 1
rejects timeline_boot_load_retry_runs \
	"the boot pattern not running once the faults are off" "boot retry" still 6
