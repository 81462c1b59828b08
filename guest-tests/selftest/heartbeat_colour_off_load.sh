#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# heartbeat_rgb.check with every load the sampler marked halved, as if the
# trigger showed the colour of another load than the one in force (twice
# the CPUs counted, a reading never refreshed): idle_color_matches_load
# and busy_color_matches_load must fail.  With every load 0.6 higher, past
# the suite's settle on 2 CPUs, idle_green_beats must fail.  The unplanted
# data passes.  Real data where this run has it, else a fixture of a
# 2-CPU boot.
. "$(dirname "$0")/lib/selftest.sh"
check=$ST_TESTS/heartbeat_rgb.check
boot=$(python3 "$ST_TESTS/selftest/lib/plant.py" find "$ST_RESULTS" heartbeat_rgb)
if [ -n "$boot" ]; then
	python3 "$ST_TESTS/selftest/lib/plant.py" part "$boot/timeline.txt" hb.txt \
		"heartbeat_rgb begin" "heartbeat_rgb end"
	ktap=$boot/heartbeat_rgb.ktap
else
	cp "$ST_DATA/heartbeat_rgb.txt" hb.txt
	ktap=$ST_DATA/heartbeat_rgb.ktap
	echo "no heartbeat_rgb run in $ST_RESULTS: the fixture"
fi
"$check" hb.txt "$ktap" > real.out 2>&1
st_accepts "the unplanted run (${boot:-fixture})" real.out $?
# plant <out> <awk expression of the marked load l>
plant() {
	awk -v e="$2" '$3 == "mark" && $4 == "hbrgb" && $5 == "load" {
		l = $6; $6 = sprintf("%.2f", e == "half" ? l / 2 : l + 0.6) } 1' hb.txt > "$1"
	grep -q 'hbrgb load' "$1" || st_fail "no load marks to plant into"
}
plant half.txt half
"$check" half.txt "$ktap" > half.out 2>&1
rc=$?
st_rejects "idle beats in the colour of half their load" \
	"^not ok [0-9]* idle_color_matches_load" half.out $rc
st_rejects "busy beats in the colour of half their load" \
	"^not ok [0-9]* busy_color_matches_load" half.out $rc
plant more.txt more
"$check" more.txt "$ktap" > more.out 2>&1
st_rejects "idle beats at a load past the settle" \
	"^not ok [0-9]* idle_green_beats" more.out $?
