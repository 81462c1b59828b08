#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lp5523_hw_engines.check on the chip's breathe (kb2, 0 1000 255 1000)
# with each rising ramp squeezed about its middle, as if its steps ran
# short at both ends: its first and last levels land off the ideal line
# by the documented error budget ((4 + 255 / 4) q = 33.1 ms,
# leds-class-pattern.rst "Error budget") and 2 % more.  The budget over
# the ramp (1 s) is 3.31 %, so a ramp 6.75 % short puts its ends 1.02
# budgets in: timeline_breathe_matches_ideal must fail it, and pass 0.9
# budgets (5.95 %) and the unplanted data.  (Squeezed, not
# stretched: a stretched ramp's ends would cross the falling ramps beside
# it, and the check would fail on the order of the levels instead.)  Real
# data where this run has it, else an ideal chip timeline.
. "$(dirname "$0")/lib/selftest.sh"
stretch=$ST_TESTS/selftest/lib/chip_stretch.py
check=$ST_TESTS/lp5523_hw_engines.check
boot=$(python3 "$ST_TESTS/selftest/lib/plant.py" find "$ST_RESULTS" lp5523_hw_engines)
if [ -n "$boot" ]; then
	tl=$boot/timeline.txt
	ktap=$boot/lp5523_hw_engines.ktap
else
	python3 "$stretch" breathe ideal.txt
	st_ok ran.ktap lp5523_hw_engines_ran
	tl=ideal.txt ktap=ran.ktap
	echo "no lp5523_hw_engines run in $ST_RESULTS: an ideal chip breathe"
fi
"$check" "$tl" "$ktap" > real.out 2>&1
grep -q "^ok [0-9]* timeline_breathe_matches_ideal" real.out ||
	{ sed 's/^/  | /' real.out | head -12; st_fail "the unplanted breathe fails"; }
echo "passed: the unplanted breathe (${boot:-the ideal}): $(grep '^# breathe' real.out)"
# 2 x 3.31 % x 0.90 and x 1.02: the ramp's ends 0.90 and 1.02 budgets out
python3 "$stretch" stretch "$tl" within.txt "hw quiet begin" "hw quiet end" 2 -5.95
"$check" within.txt "$ktap" > within.out 2>&1
grep -q "^ok [0-9]* timeline_breathe_matches_ideal" within.out ||
	{ sed 's/^/  | /' within.out | grep -A3 breathe | head -8; st_fail "a ramp 0.9 budgets out fails"; }
echo "passed: the ramp's ends 0.9 budgets out: $(grep '^# breathe' within.out)"
python3 "$stretch" stretch "$tl" over.txt "hw quiet begin" "hw quiet end" 2 -6.75
"$check" over.txt "$ktap" > over.out 2>&1
st_rejects "the ramp's ends 1.02 budgets out" \
	"^not ok [0-9]* timeline_breathe_matches_ideal" over.out $?
grep -A2 "^not ok [0-9]* timeline_breathe_matches_ideal" over.out
