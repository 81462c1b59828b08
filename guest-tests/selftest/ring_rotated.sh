#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ring.check on the ring's colour channels rotated (output 10 showing what
# 11 did, 11 what 12 did, 12 what 10 did), then the indicator's (7, 6, 5):
# each output carries another component, so the check must fail both LEDs
# for it, the software and the chips' runs; the unplanted timeline must
# show no such failure.  Real data where this run has it, else an ideal
# wheel (selftest/lib/plant.py wheel).
. "$(dirname "$0")/lib/selftest.sh"
plant=$ST_TESTS/selftest/lib/plant.py
check=$ST_TESTS/ring.check
why="carry other components"
boot=$(python3 "$plant" find "$ST_RESULTS" ring)
if [ -n "$boot" ]; then
	# the ring suite's part: the check reads no other suite's changes
	python3 "$plant" part "$boot/timeline.txt" ring.txt "ring sw run" "ring idle end"
	tl=ring.txt ktap=$boot/ring.ktap
else
	python3 "$plant" wheel wheel.txt
	printf 'TAP version 13\n1..1\nok 1 ring_ran\n' > ran.ktap
	tl=wheel.txt ktap=ran.ktap
	echo "no ring run in $ST_RESULTS: the ideal wheel"
fi
"$check" "$tl" "$ktap" > real.out 2>&1
grep -q "$why" real.out && { sed 's/^/  | /' real.out | head -12; st_fail "the unplanted ring data fails as rotated"; }
grep -q "^ok [0-9]* ring_timeline_hardware_channels" real.out ||
	{ sed 's/^/  | /' real.out | head -12; st_fail "the unplanted ring data fails the chips' channels"; }
echo "passed: the unplanted channels (${boot:-$tl})"
for leds in "ring 10 11 12" "indicator 7 6 5"; do
	set -- $leds
	python3 "$plant" rotate "$tl" rotated.txt "$2" "$3" "$4"
	"$check" rotated.txt "$ktap" > rotated.out 2>&1
	rc=$?
	for run in software hardware; do
		grep -q "^not ok [0-9]* ring_timeline_${run}_channels" rotated.out ||
			{ sed 's/^/  | /' rotated.out | tail -12; st_fail "$1 rotated: ring_timeline_${run}_channels passed"; }
	done
	st_rejects "the $1's channels rotated" "^# $1: the wheel starts .* $why" rotated.out $rc
done
