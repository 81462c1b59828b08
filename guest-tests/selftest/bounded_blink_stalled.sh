#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# led_pattern_bounded.check on the blink beside the long pattern with a
# 15 ms stall of software1's blink after every change of the long
# pattern's red LED (kb1's edges due in it come at its end, as the
# engine's absolute schedule and latest-level worker show them): the
# gap there is 15-30 ms, half the fault this suite was written for, and
# timeline_blink_keeps_time_under_load must fail; the unplanted timeline
# passes.  Real data where this run has it, else data/led_pattern_bounded.txt
# (the suite's part of the timeline of a one-CPU boot on 2026-12-07, the
# host at load 4.8: 27 gaps over 14 ms in the blink's 4 s alone).
. "$(dirname "$0")/lib/selftest.sh"
plant=$ST_TESTS/selftest/lib/plant.py
check=$ST_TESTS/led_pattern_bounded.check
result=timeline_blink_keeps_time_under_load
boot=$(python3 "$plant" find "$ST_RESULTS" led_pattern_bounded)
if [ -n "$boot" ]; then
	python3 "$plant" part "$boot/timeline.txt" blink.txt "stall base" "stall end"
	ktap=$boot/led_pattern_bounded.ktap
else
	cp "$ST_DATA/led_pattern_bounded.txt" blink.txt
	printf 'TAP version 13\n1..1\nok 1 other_engine_while_long_pattern\n' > ran.ktap
	ktap=ran.ktap
	echo "no led_pattern_bounded run in $ST_RESULTS: data/led_pattern_bounded.txt"
fi
"$check" blink.txt "$ktap" > real.out 2>&1
grep -q "^ok [0-9]* $result" real.out ||
	{ sed 's/^/  | /' real.out | head -12; st_fail "the unplanted timeline fails $result"; }
echo "passed: the unplanted blink (${boot:-data/led_pattern_bounded.txt}): $(grep -m1 '^# kb1 edges' real.out | sed 's/.*; longest/longest/')"
# 7 is the red LED (lp5523:r, D7), 1 the blink's kb1.  On the debug
# kernel the check holds the blink to 25 ms, not 14 (its own gaps): there
# the plant is the 30 ms stall the suite was written for.
ms=15
! grep -q '^# kernel: debug' "$ktap" || ms=30
python3 "$plant" stall blink.txt stalled.txt "stall load" "stall end" 7 1 $ms
"$check" stalled.txt "$ktap" > stalled.out 2>&1
rc=$?
grep -q "^not ok [0-9]* $result" stalled.out ||
	{ sed 's/^/  | /' stalled.out | head -12; st_fail "a $ms ms stall at every red change passed $result"; }
st_rejects "a $ms ms stall of the blink after every red change" \
	"^# [0-9]+ of [0-9]+ red changes in a blink gap over" stalled.out $rc
# a debug boot's data judged the 30 ms stall: the 15 ms one on the fixture
# of a normal kernel's boot, always
if [ $ms = 30 ]; then
	printf 'TAP version 13\n1..1\nok 1 other_engine_while_long_pattern\n' > ran.ktap
	python3 "$plant" stall "$ST_DATA/led_pattern_bounded.txt" stalled15.txt \
		"stall load" "stall end" 7 1 15
	"$check" stalled15.txt ran.ktap > stalled15.out 2>&1
	st_rejects "a 15 ms stall of the blink after every red change (data/led_pattern_bounded.txt)" \
		"^# [0-9]+ of [0-9]+ red changes in a blink gap over" stalled15.out $?
fi
