#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The late join check of software0 on the LP5523's LEDs
# (led_pattern_run.check; a chip engine's join is hw_join_restarted's),
# with both LEDs 100 ms behind the run's start all along (a clock that
# does not start at the run, the late LED in step with the running one):
# timeline_late_join_in_phase must fail on the run's start, and pass the
# unplanted data.  Real data where this run has it, else the ideal late
# join.
. "$(dirname "$0")/lib/selftest.sh"
. "$ST_TESTS/selftest/lib/late_join.sh"
lj_data led_pattern_run
lj_accepts led_pattern_run
python3 "$LJ_PLANT" lag led_pattern_run.txt shifted.txt "late join run" "late join end" \
	100000 1 2
lj_judge "led_pattern_run: both LEDs 100 ms behind the run's start" shifted.txt \
	led_pattern_run "puts the run's start \+1[0-9][0-9]\.[0-9] ms from the mark"
