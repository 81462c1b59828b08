#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The fuzz and the storm with one change of one output left between their
# begin and end marks (the chip stopped seeing the writes, or the patterns
# stopped, after the first): sysfs_fuzz.check must fail
# fuzz_outputs_keep_changing and unbind_storm.check
# storm_outputs_keep_changing; the unplanted timelines pass both.
# Real data where this run has it, else plant.py stress with the guest
# KTAPs of data/.
. "$(dirname "$0")/lib/selftest.sh"
plant=$ST_TESTS/selftest/lib/plant.py
python3 "$plant" stress stress.txt
for s in "sysfs_fuzz fuzz fuzz_outputs_keep_changing" \
	"unbind_storm storm storm_outputs_keep_changing"; do
	set -- $s
	suite=$1 m=$2 result=$3
	boot=$(python3 "$plant" find "$ST_RESULTS" "$suite")
	if [ -n "$boot" ]; then
		tl=$boot/timeline.txt ktap=$boot/$suite.ktap
	else
		tl=stress.txt ktap=$ST_DATA/$suite.ktap
		echo "no $suite run in $ST_RESULTS: plant.py stress"
	fi
	"$ST_TESTS/$suite.check" "$tl" "$ktap" > real.out 2>&1
	grep -q "^ok [0-9]* $result" real.out ||
		{ sed 's/^/  | /' real.out | head -12; st_fail "$suite: the unplanted timeline fails $result"; }
	echo "passed: $suite's unplanted timeline ($tl)"
	python3 "$plant" still "$tl" still.txt "$m begin" "$m end"
	"$ST_TESTS/$suite.check" still.txt "$ktap" > still.out 2>&1
	rc=$?
	grep -q "^not ok [0-9]* $result" still.out ||
		{ sed 's/^/  | /' still.out | head -12; st_fail "$suite: one change passed $result"; }
	st_rejects "$suite with one change between \"$m begin\" and \"$m end\"" \
		"^# D[0-9]: ([01] changes, still for|changed in [01] of)" still.out $rc
done
