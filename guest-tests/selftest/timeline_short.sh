#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A timeline cut short (the emulator or the board died) fails each check
# whose suite it no longer holds whole: for every suite with a real
# timeline in this run, its part of the timeline from its first mark to
# just before its last must fail its check; the whole timeline holds it
# (timeline_empty.sh asserts that on the same data).
. "$(dirname "$0")/lib/selftest.sh"
plant=$ST_TESTS/selftest/lib/plant.py
mkdir -p cut
python3 "$plant" cuts "$ST_RESULTS" cut "$ST_TESTS"/*.check > cuts.out 2>&1 ||
	{ sed 's/^/  | /' cuts.out | tail -8; st_fail "plant.py cuts failed"; }
n=0
while read -r suite boot last; do
	"$ST_TESTS/$suite.check" "cut/$suite.txt" "$boot/$suite.ktap" > short.out 2>&1
	st_rejects "$suite's timeline cut before \"$last\"" "lacks the mark.*$last" short.out $?
	n=$((n + 1))
done < cuts.out
if [ $n -eq 0 ]; then
	# no real timeline in this run: cut the fixture wheel of the ring suite
	python3 "$plant" wheel wheel.txt
	printf 'TAP version 13\n1..1\nok 1 ring_ran\n' > ran.ktap
	python3 "$plant" cut wheel.txt "ring idle end" short.txt
	"$ST_TESTS/ring.check" short.txt ran.ktap > short.out 2>&1
	st_rejects "the fixture ring timeline cut before \"ring idle end\"" "lacks the mark" short.out $?
fi
echo "$n suites' timelines cut before their last mark: each check failed"
