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
st_timeline_or_cut lp5523_ownership lp5523_ownership_boot_claim.txt \
	"boot claim lp5523 select_engine"
st_check_passes "$check" $result claim '^# boot pattern and select_engine'
python3 "$ST_TESTS/selftest/lib/transplant.py" "$tl" planted.txt "boot pattern begin" \
	"boot claim lp5523 select_engine" "boot claim lp5523 select_engine end" 6
"$check" planted.txt "$ktap" > planted.out 2>&1
st_rejects "D6 breathing on after select_engine's claim" "^not ok [0-9]* $result\$" planted.out $?
grep -A1 "^not ok [0-9]* $result\$" planted.out | tail -1
