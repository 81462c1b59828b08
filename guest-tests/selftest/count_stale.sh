#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Results from an earlier run: a suite KTAP in a boot directory that this
# boot's console did not produce must fail the count, not add its passes.
# (Host results: run-checks.sh fails one the Makefile names that is
# missing, and the Makefile names make check-series' only when they were
# made from the series as it is now.)
. "$(dirname "$0")/lib/selftest.sh"
st_plant_real_suite
set -- "$ST_BOOT" "$ST_SUITE"
cp "$1/$2.ktap" planted/smp1/old_suite.ktap
count planted planted.expected > planted.out 2>&1
st_rejects "old_suite.ktap, not on this console" "old_suite.ktap: a result this run did not produce" planted.out $?
[ "$(grep -o '[0-9]* passed' planted.out | tail -1)" = "$(grep -o '[0-9]* passed' real.out | tail -1)" ] ||
	st_fail "the stale file's passes were counted"
