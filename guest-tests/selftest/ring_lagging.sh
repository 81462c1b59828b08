#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ring.check on software0's run with the ring's three outputs 30 ms behind
# the indicator's all along, as if the multicolor LED were written a few
# ticks after the separate LEDs (its own timer, a work item queued after
# them): ring_timeline_software_alike must fail, and pass the unplanted
# data.  Real data where this run has it, else an ideal wheel.
. "$(dirname "$0")/lib/selftest.sh"
plant=$ST_TESTS/selftest/lib/plant.py
check=$ST_TESTS/ring.check
st_ring_timeline
"$check" "$tl" "$ktap" > real.out 2>&1
grep -q "^ok [0-9]* ring_timeline_software_alike" real.out ||
	{ sed 's/^/  | /' real.out | head -12; st_fail "the unplanted software run fails as not alike"; }
echo "passed: the unplanted software run (${boot:-$tl})"
python3 "$plant" lag "$tl" lagging.txt "ring sw run" "ring sw end" 30000 10 11 12
"$check" lagging.txt "$ktap" > lagging.out 2>&1
st_rejects "the ring 30 ms behind the indicator" \
	"^not ok [0-9]* ring_timeline_software_alike" lagging.out $?
grep "^# software: multicolor" lagging.out
