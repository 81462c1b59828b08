#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A skipped result ("ok N <test> # SKIP why") hides what it did not test:
# it fails the count unless a may-skip line of expected-results allows it
# on that kernel, with a reason.  The kmemleak test may skip on the normal
# kernel, which has no kmemleak, and not on the debug kernel, which must.
. "$(dirname "$0")/lib/selftest.sh"
st_plant_real_suite
set -- "$ST_BOOT" "$ST_SUITE"
test=$(awk '/^ok 2 / { print $3; exit }' "$1/$2.ktap")
[ -n "$test" ] || st_fail "$2 has no second result that passed"
sed "s/^ok 2 $test.*/ok 2 $test # SKIP needs a bound lp5523/" "$1/$2.ktap" > "planted/smp1/$2.ktap"
count planted planted.expected > planted.out 2>&1
st_rejects "$test of $2 skipped" "$test skipped \\(needs a bound lp5523\\): no may-skip" planted.out $?
grep -q '^1 skipped$' planted.out || st_fail "the skip is not counted as one skip"

echo "may-skip $2 $test normal the plant: a board without the chip" >> planted.expected
count planted planted.expected > allowed.out 2>&1
st_accepts "$test skipped where expected-results allows it" allowed.out $?

# an allowance without its reason is no allowance
cp "$ST_EXPECTED" noreason.expected
echo "may-skip $2 $test normal" >> noreason.expected
count planted noreason.expected > noreason.out 2>&1
st_rejects "a may-skip without a reason" "expected-results: line [0-9]+: may-skip $2 $test normal: not a line it knows" noreason.out $?

# kernel_log's kmemleak test on each kernel
st_run normal 1 no none no
st_run debug "" yes none no
for b in normal/smp1 debug/debug-smp2; do
	printf 'TAP version 13\n1..2\nok 1 no_kernel_splat\nok 2 no_kmemleak_report # SKIP kernel without kmemleak\n' \
		> "$b/kernel_log.ktap"
done
count normal > normal.out 2>&1
st_accepts "no kmemleak on the normal kernel" normal.out $?
count debug > debug.out 2>&1
st_rejects "no kmemleak on the debug kernel" "debug-smp2/kernel_log.ktap: no_kmemleak_report skipped .*\\(debug\\)" debug.out $?
