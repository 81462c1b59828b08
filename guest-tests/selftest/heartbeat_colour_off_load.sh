#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# heartbeat_rgb.check with the loads the sampler marked changed, as if the
# trigger showed the colour of another load than the one in force: at a
# quarter (four times the CPUs counted), busy_color_matches_load must
# fail; raised by the number of CPUs (every CPU counted busy on top),
# idle_color_matches_load must fail (a quarter of an idle 2-CPU board's
# 0.07 is the same green).  With
# D6 (green) at half its level all along, idle_green_beats must fail.
# The unplanted data passes them.  Real data where this run has it, else
# a fixture of a 2-CPU boot (the D6 plant: real data of a boot that
# settled, else the fixture).
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
for r in idle_color_matches_load busy_color_matches_load idle_green_beats; do
	grep -q "^ok [0-9]* $r\$" real.out ||
		{ sed 's/^/  | /' real.out | grep -A4 "$r"; st_fail "the unplanted run fails $r"; }
done
echo "passed: the unplanted run's colours (${boot:-fixture})"
awk '$3 == "mark" && $4 == "hbrgb" && $5 == "load" { $6 = sprintf("%.2f", $6 / 4) } 1' \
	hb.txt > quarter.txt
grep -q 'hbrgb load' quarter.txt || st_fail "no load marks to plant into"
"$check" quarter.txt "$ktap" > quarter.out 2>&1
st_rejects "busy beats in the colour of a quarter of their load" \
	"^not ok [0-9]* busy_color_matches_load" quarter.out $?
awk '$3 == "mark" && $4 == "hbrgb" && $5 == "load" { $6 = sprintf("%.2f", $6 + $8) } 1' \
	hb.txt > raised.txt
"$check" raised.txt "$ktap" > raised.out 2>&1
st_rejects "idle beats in the colour of their load with every CPU busy on top" \
	"^not ok [0-9]* idle_color_matches_load" raised.out $?
# D6 at half its level all along: the idle beats at a low load are no
# longer green at 255.  That needs calm beats: a board whose load never
# fell below 0.45 per CPU (a debug kernel on a busy host) has all its
# beats red, so the plant goes into a boot that settled, else the fixture.
settled= sktap=
for b in $(st_boots); do
	[ -s "$b/heartbeat_rgb.ktap" ] && [ -s "$b/timeline.txt" ] || continue
	python3 "$ST_TESTS/selftest/lib/plant.py" part "$b/timeline.txt" calm.txt \
		"heartbeat_rgb begin" "heartbeat_rgb end" 2> /dev/null || continue
	"$check" calm.txt "$b/heartbeat_rgb.ktap" > calm.out 2>&1 || continue
	grep -q "did not settle" calm.out && continue
	settled=$b sktap=$b/heartbeat_rgb.ktap
	break
done
if [ -z "$settled" ]; then
	cp "$ST_DATA/heartbeat_rgb.txt" calm.txt
	sktap=$ST_DATA/heartbeat_rgb.ktap
	settled=fixture
fi
echo "calm beats for the D6 plant: $settled"
awk '$2 == 6 && NF == 3 && $1 ~ /^[0-9]+$/ { $3 = int($3 / 2) } 1' calm.txt > dim.txt
"$check" dim.txt "$sktap" > dim.out 2>&1
st_rejects "idle beats with green at half its level" \
	"^not ok [0-9]* idle_green_beats" dim.out $?
