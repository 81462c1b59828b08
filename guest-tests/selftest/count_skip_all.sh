#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A guest suite that skips everything ("1..0 # SKIP") on this board, which
# has what every suite needs: counted as skipped, and failed, unless
# expected-results lets it skip (may-skip).
. "$(dirname "$0")/lib/selftest.sh"
set -- $(st_real_suite)
[ $# -eq 2 ] || st_fail "no passing suite with a plan of 3 or more, even in data/"
st_one_suite_results planted "$1" "$2"
printf 'TAP version 13\n1..0 # SKIP needs a bound lp5523\n' > "planted/smp1/$2.ktap"
count planted planted.expected > planted.out 2>&1
st_rejects "$2 skipping all" "skipped every test" planted.out $?
grep -q '^1 skipped$' planted.out || st_fail "the skip is not counted as one skip"
echo "may-skip $2 one_test normal the plant: one test, not the suite" >> planted.expected
count planted planted.expected > one.out 2>&1
st_rejects "$2 skipping all where one test may skip" "skipped every test" one.out $?
echo "may-skip $2 * normal the plant: this board lacks what it needs" >> planted.expected
count planted planted.expected > allowed.out 2>&1
st_accepts "$2 skipping all where expected-results allows it" allowed.out $?
