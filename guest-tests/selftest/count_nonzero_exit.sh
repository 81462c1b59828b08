#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A suite whose results all passed but whose script exited 1 (/init's
# "### end <suite> 1"): the count must fail it.
. "$(dirname "$0")/lib/selftest.sh"
st_plant_real_suite
set -- "$ST_BOOT" "$ST_SUITE"
echo "# suite exited with status 1" >> "planted/smp1/$2.ktap"
count planted planted.expected > planted.out 2>&1
st_rejects "$2 exiting 1" "exited with status 1" planted.out $?
