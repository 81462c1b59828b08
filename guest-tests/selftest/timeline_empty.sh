#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every host timeline check fails on an empty timeline, and on none at all,
# naming what is missing, unless the guest suite said it skipped (then it
# skips too).  The unplanted input: where this run has a suite's real
# timeline, the check's gate (open_check) finds the suite in it.
. "$(dirname "$0")/lib/selftest.sh"
plant=$ST_TESTS/selftest/lib/plant.py
python3 "$plant" gate "$ST_RESULTS" "$ST_TESTS"/*.check > real.out 2>&1
grep -q FAIL real.out && { sed 's/^/  | /' real.out | head -20; st_fail "a real timeline is not taken as holding its suite (above)"; }
echo "real timelines that hold their suite: $(grep -c . real.out)"
: > empty.txt
printf 'TAP version 13\n1..0 # SKIP needs what this board lacks\n' > skipped.ktap
n=0
for chk in "$ST_TESTS"/*.check; do
	suite=$(basename "$chk" .check)
	# the guest ran the suite (its real KTAP where there is one)
	ktap=$(awk -v s="$suite" '$1 == s { print $2 "/" s ".ktap"; exit }' real.out)
	if [ -z "$ktap" ]; then
		printf 'TAP version 13\n1..1\nok 1 %s_ran\n' "$suite" > ran.ktap
		ktap=ran.ktap
	fi
	"$chk" empty.txt "$ktap" > empty.out 2>&1
	st_rejects "$suite on an empty timeline" "lacks the mark" empty.out $?
	"$chk" missing.txt "$ktap" > none.out 2>&1
	st_rejects "$suite without a timeline" "no timeline" none.out $?
	"$chk" empty.txt skipped.ktap > skip.out 2>&1
	st_accepts "$suite skipped by the guest" skip.out $?
	grep -q '^1\.\.0 # SKIP' skip.out || st_fail "$suite: the guest skipped, the check did not say so"
	n=$((n + 1))
done
[ $n -gt 0 ] || st_fail "no .check found in $ST_TESTS"
echo "$n checks: each failed an empty timeline and a missing one, and skipped with its guest suite"
