#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The late join check of software0 on the LP5523's LEDs
# (led_pattern_run.check; a chip engine restarts its pattern at a link,
# lp5523_hw_engines.check judges that),
# with both LEDs 100 ms behind the run's start all along (a clock that
# does not start at the run, the late LED in step with the running one):
# timeline_late_join_in_phase must fail on the run's start, and pass the
# unplanted data.  Real data where this run has it, else the ideal late
# join.
. "$(dirname "$0")/lib/selftest.sh"
. "$ST_TESTS/selftest/lib/late_join.sh"
for suite in led_pattern_run; do
	lj_data $suite
	"$ST_TESTS/$suite.check" $suite.txt "$ktap" > real.out 2>&1
	grep -q "^ok [0-9]* $LJ_RESULT\$" real.out ||
		{ sed 's/^/  | /' real.out | grep -A4 "$LJ_RESULT"; st_fail "$suite: the unplanted late join fails"; }
	echo "passed: $suite's unplanted late join"
	case $suite in
	led_pattern_run) run="late join run" end="late join end" ;;
	*) run="hw late run" end="hw late join end" ;;
	esac
	python3 "$LJ_PLANT" lag $suite.txt shifted.txt "$run" "$end" 100000 1 2
	lj_judge "$suite: both LEDs 100 ms behind the run's start" shifted.txt $suite \
		"puts the run's start \+1[0-9][0-9]\.[0-9] ms from the mark"
done
