#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A suite whose results all passed but whose script exited 1 (/init's
# "### end <suite> 1"): the count must fail it.
. "$(dirname "$0")/lib/selftest.sh"
set -- $(st_real_suite)
[ $# -eq 2 ] || st_fail "no passing suite with a plan of 3 or more, even in data/"
st_one_suite_results real "$1" "$2"
count real real.expected > real.out 2>&1
st_accepts "$2 as it ran" real.out $?
st_one_suite_results planted "$1" "$2"
echo "# suite exited with status 1" >> "planted/smp1/$2.ktap"
count planted planted.expected > planted.out 2>&1
st_rejects "$2 exiting 1" "exited with status 1" planted.out $?
