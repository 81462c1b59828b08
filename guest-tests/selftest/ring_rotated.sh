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
st_ring_timeline
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
