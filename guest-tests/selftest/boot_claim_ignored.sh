#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lp5523_ownership.check on the boot pattern's claim by select_engine
# with the boot output (D6) breathing on after the claim, as if the driver
# only said the pattern stopped (engine1 reads "stopped") while the chip
# ran it on: the breathe of the boot_pattern suite's window moved into the
# claim's.  timeline_boot_pattern_yields_to_select_engine must fail it,
# and pass the unplanted data.  Real data where this run has it, else a
# cut of a real run (data/lp5523_ownership_boot_claim.txt: the marks the
# check needs, the boot breathe's first 1.6 s and the claim's window).
. "$(dirname "$0")/lib/selftest.sh"
check=$ST_TESTS/lp5523_ownership.check
result=timeline_boot_pattern_yields_to_select_engine
boot=$(python3 "$ST_TESTS/selftest/lib/plant.py" find "$ST_RESULTS" lp5523_ownership)
if [ -n "$boot" ] && grep -q "boot claim lp5523 select_engine" "$boot/timeline.txt"; then
	tl=$boot/timeline.txt
	ktap=$boot/lp5523_ownership.ktap
else
	tl=$ST_DATA/lp5523_ownership_boot_claim.txt
	st_ok ran.ktap lp5523_ownership_ran
	ktap=ran.ktap
	boot=
	echo "no lp5523_ownership run with boot claims in $ST_RESULTS: $tl"
fi
"$check" "$tl" "$ktap" > real.out 2>&1
grep -q "^ok [0-9]* $result\$" real.out ||
	{ sed 's/^/  | /' real.out | grep -A3 "$result"; st_fail "the unplanted claim fails"; }
echo "passed: the unplanted claim (${boot:-the cut}): $(grep '^# boot pattern and select_engine' real.out)"
python3 "$ST_TESTS/selftest/lib/transplant.py" "$tl" planted.txt "boot pattern begin" \
	"boot claim lp5523 select_engine" "boot claim lp5523 select_engine end" 6
"$check" planted.txt "$ktap" > planted.out 2>&1
st_rejects "D6 breathing on after select_engine's claim" "^not ok [0-9]* $result\$" planted.out $?
grep -A1 "^not ok [0-9]* $result\$" planted.out | tail -1
