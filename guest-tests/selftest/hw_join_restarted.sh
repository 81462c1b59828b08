#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lp5523_hw_engines.check on an LED linked to a running chip engine
# (kb2 to engine2's ramp on kb1, for ever and then in a finite run):
# planted, both LEDs restart the pattern at the link (the run's changes
# from the link on 1 s later: a restart 1 s into the run), and kb2 alone
# joining 50 ms late (over the 33 ms budget of the ramp's levels).
# timeline_link_joins_on_the_run_clock must fail both and pass the
# unplanted data.  Real data where this run has it, else a cut of a real
# run (data/lp5523_hw_engines_late_join.txt: the marks the check needs
# and kb1's and kb2's changes from the first run to the finite run's end).
. "$(dirname "$0")/lib/selftest.sh"
check=$ST_TESTS/lp5523_hw_engines.check
result=timeline_link_joins_on_the_run_clock
st_timeline_or_cut lp5523_hw_engines lp5523_hw_engines_late_join.txt
st_check_passes "$check" $result join '^# link while running'

# plant <what> <timeline> <reason regex>: the check fails the join
plant() {
	local failed=0
	"$check" "$2" "$ktap" > "$2.out" 2>&1
	grep -q "^not ok [0-9]* $result\$" "$2.out" && failed=1
	st_rejects "$1" "$3" "$2.out" $failed
}
python3 "$ST_TESTS/selftest/lib/plant.py" lag "$tl" restarted.txt "hw late joined" \
	"hw late end" 1000000 1 2
plant "a restart at the link" restarted.txt "D1: [0-9]+ of [0-9]+ changes beyond"
python3 "$ST_TESTS/selftest/lib/plant.py" lag "$tl" late.txt "hw late finite join" \
	"hw late finite end" 50000 2
plant "kb2 joining the finite run 50 ms late" late.txt \
	"D2 from its link: [0-9]+ of [0-9]+ changes beyond"
