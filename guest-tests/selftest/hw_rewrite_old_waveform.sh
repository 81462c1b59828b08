#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lp5523_hw_engines.check on a rewrite of a running chip pattern (kb1 and
# kb4 on lp5523:engine1, a 200 ms blink rewritten to a 400 ms one) with
# the old blink going on after the rewrite, as if the new program were
# never loaded while the pattern file read the new one: the relink
# window's blink moved into the rewrite's.  timeline_rewrite_runs_the_new_waveform
# must fail it, and pass the unplanted data.  Real data where this run
# has it, else a cut of a real run (data/lp5523_hw_engines_relink_rewrite.txt:
# the marks the check needs and kb1's and kb4's changes from the relink
# to the rewrite's end).
. "$(dirname "$0")/lib/selftest.sh"
check=$ST_TESTS/lp5523_hw_engines.check
result=timeline_rewrite_runs_the_new_waveform
st_timeline_or_cut lp5523_hw_engines lp5523_hw_engines_relink_rewrite.txt
st_check_passes "$check" $result rewrite '^# hw rewrite:'
python3 "$ST_TESTS/selftest/lib/transplant.py" "$tl" planted.txt "hw relink begin" \
	"hw rewrite begin" "hw rewrite end" 1 4
"$check" planted.txt "$ktap" > planted.out 2>&1
st_rejects "the old 200 ms blink on after the rewrite" "^not ok [0-9]* $result\$" planted.out $?
grep -A1 "^not ok [0-9]* $result\$" planted.out | tail -1
