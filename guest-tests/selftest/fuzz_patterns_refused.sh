#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A fuzz run whose pattern writes were all refused (the kernel took none,
# where software engines had to take hundreds): sysfs_fuzz.check must fail
# fuzz_writes_taken_of_every_kind for "pattern", from lp-fuzz's summary in
# the guest's KTAP; the unplanted summary passes it.  Real data where this
# run has it, else data/sysfs_fuzz.ktap (a 1-CPU run's) on the timeline of
# plant.py stress.
. "$(dirname "$0")/lib/selftest.sh"
plant=$ST_TESTS/selftest/lib/plant.py
check=$ST_TESTS/sysfs_fuzz.check
boot=$(python3 "$plant" find "$ST_RESULTS" sysfs_fuzz)
if [ -n "$boot" ]; then
	tl=$boot/timeline.txt ktap=$boot/sysfs_fuzz.ktap
else
	python3 "$plant" stress stress.txt
	tl=stress.txt ktap=$ST_DATA/sysfs_fuzz.ktap
	echo "no sysfs_fuzz run in $ST_RESULTS: data/sysfs_fuzz.ktap"
fi
grep -q '^# lp-fuzz: pattern ' "$ktap" || st_fail "$ktap has no lp-fuzz summary"
"$check" "$tl" "$ktap" > real.out 2>&1
grep -q "^ok [0-9]* fuzz_writes_taken_of_every_kind" real.out ||
	{ sed 's/^/  | /' real.out | head -12; st_fail "the unplanted summary fails"; }
echo "passed: the unplanted summary ($ktap)"
sed -E 's/^(# lp-fuzz: pattern +[0-9]+ writes +[0-9]+ valid +[0-9]+ must-take +)[0-9]+ accepted/\10 accepted/' \
	"$ktap" > planted.ktap
cmp -s "$ktap" planted.ktap && st_fail "could not plant: no pattern line to change"
"$check" "$tl" planted.ktap > planted.out 2>&1
st_rejects "every pattern write refused" "^# pattern: 0 of [0-9]+ writes taken" planted.out $?
grep -q "^not ok [0-9]* fuzz_writes_taken_of_every_kind" planted.out ||
	st_fail "the planted summary did not fail fuzz_writes_taken_of_every_kind"
