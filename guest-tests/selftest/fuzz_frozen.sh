#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# sysfs_fuzz.check on a fuzz whose board stopped half way for a second
# more than the check's written freeze bound (every line of the timeline
# after that instant comes later, and lp-fuzz's summary says its run took
# that much longer): fuzz_outputs_keep_changing must fail, where a bound
# of so many writes at the run's own mean rate grew with the freeze; the
# unplanted timeline passes.  Real data where this run has it, else
# plant.py stress with data/sysfs_fuzz.ktap.
. "$(dirname "$0")/lib/selftest.sh"
plant=$ST_TESTS/selftest/lib/plant.py
check=$ST_TESTS/sysfs_fuzz.check
result=fuzz_outputs_keep_changing
boot=$(python3 "$plant" find "$ST_RESULTS" sysfs_fuzz)
if [ -n "$boot" ]; then
	tl=$boot/timeline.txt ktap=$boot/sysfs_fuzz.ktap
else
	python3 "$plant" stress stress.txt
	tl=stress.txt ktap=$ST_DATA/sysfs_fuzz.ktap
	echo "no sysfs_fuzz run in $ST_RESULTS: plant.py stress"
fi
"$check" "$tl" "$ktap" > real.out 2>&1
grep -q "^ok [0-9]* $result" real.out ||
	{ sed 's/^/  | /' real.out | head -12; st_fail "the unplanted timeline fails $result"; }
bound=$(sed -n 's/^# an output may stay still \([0-9]*\) s.*/\1/p' real.out)
[ -n "$bound" ] || { sed 's/^/  | /' real.out | head -12; st_fail "the check names no freeze bound"; }
echo "passed: the unplanted fuzz (${boot:-plant.py stress}), $bound s allowed"
python3 "$plant" freeze "$tl" frozen.txt "fuzz begin" "fuzz end" $((bound + 1)) "$ktap" frozen.ktap
"$check" frozen.txt frozen.ktap > frozen.out 2>&1
rc=$?
grep -q "^not ok [0-9]* $result" frozen.out ||
	{ sed 's/^/  | /' frozen.out | head -12; st_fail "a freeze of $((bound + 1)) s passed $result"; }
st_rejects "the board stopped $((bound + 1)) s half way through the fuzz" \
	"^# D[0-9]: [0-9]+ changes, still for" frozen.out $rc
