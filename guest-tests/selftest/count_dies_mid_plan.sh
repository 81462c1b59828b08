#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A suite that plans N results and dies after two (its KTAP cut there):
# the count must fail it, not score 2 passed, 0 failed.
. "$(dirname "$0")/lib/selftest.sh"
st_plant_real_suite
set -- "$ST_BOOT" "$ST_SUITE"
awk '/^(not )?ok [0-9]/ && ++n > 2 { exit } { print }' "$1/$2.ktap" > "planted/smp1/$2.ktap"
count planted planted.expected > planted.out 2>&1
st_rejects "$2 cut after 2 results" "2 results of its plan of [0-9]+" planted.out $?
grep -q ' 0 failed$' planted.out && st_fail "the last line says 0 failed"
exit 0
