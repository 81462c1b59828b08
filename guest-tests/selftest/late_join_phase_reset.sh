#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The late join check of software0 on the LP5523's LEDs
# (led_pattern_run.check; a chip engine's join is hw_join_restarted's),
# with the late LED running the pattern restarted from its link while the
# LED already running keeps the run's clock: timeline_late_join_in_phase
# must fail at the late LED's first level, and pass the unplanted data.
# Real data where this run has it, else the ideal late join.
. "$(dirname "$0")/lib/selftest.sh"
. "$ST_TESTS/selftest/lib/late_join.sh"
lj_data led_pattern_run
lj_accepts led_pattern_run
python3 "$LJ_PY" reset led_pattern_run.txt reset.txt led_pattern_run
lj_judge "led_pattern_run: the late LED restarted at its link" reset.txt led_pattern_run \
	"D2 joined at [0-9]+ .* off, want"
