#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A timeline cut short (the emulator or the board died) fails each check
# whose suite it no longer holds whole: for every suite with a real
# timeline in this run, the timeline cut just before the suite's last
# mark must fail its check; the whole one holds it (timeline_empty.sh
# asserts that on the same data).
. "$(dirname "$0")/lib/selftest.sh"
plant=$ST_TESTS/selftest/lib/plant.py
python3 "$plant" gate "$ST_RESULTS" "$ST_TESTS"/*.check > real.out 2>&1
grep -q FAIL real.out && { sed 's/^/  | /' real.out | head -20; st_fail "a real timeline is not taken as holding its suite (above)"; }
n=0
while read -r suite boot; do
	last=$(python3 "$plant" marks "$ST_TESTS/$suite.check" | tail -1)
	[ -n "$last" ] || st_fail "$suite.check names no marks for open_check()"
	python3 "$plant" cut "$boot/timeline.txt" "$last" short.txt
	"$ST_TESTS/$suite.check" short.txt "$boot/$suite.ktap" > short.out 2>&1
	st_rejects "$suite's timeline cut before \"$last\"" "lacks the mark.*$last" short.out $?
	n=$((n + 1))
done < real.out
if [ $n -eq 0 ]; then
	# no real timeline in this run: cut the fixture wheel of the ring suite
	python3 "$plant" wheel wheel.txt
	printf 'TAP version 13\n1..1\nok 1 ring_ran\n' > ran.ktap
	python3 "$plant" cut wheel.txt "ring idle end" short.txt
	"$ST_TESTS/ring.check" short.txt ran.ktap > short.out 2>&1
	st_rejects "the fixture ring timeline cut before \"ring idle end\"" "lacks the mark" short.out $?
fi
