#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A boot in which no suite ran (an initramfs without the tests, a guest
# that powered off at once) must fail the count, never read "0 passed,
# 0 failed"; so must a run in which no boot happened at all.
. "$(dirname "$0")/lib/selftest.sh"
st_run real 1 no none no
count real > real.out 2>&1
st_accepts "a run of --only, naming no guest suite" real.out $?

# the guest ran no suite but powered off; run-checks.sh still wrote the
# kernel log's scan
st_run planted 1 no none no
rm planted/smp1/*.ktap
echo "### done" > planted/smp1/console.log
st_ok planted/smp1/kernel_log_stream.ktap kernel_log_complete
count planted > planted.out 2>&1
st_rejects "a boot with no suite" "smp1: no suite began in this boot" planted.out $?
grep -q ' 0 failed$' planted.out && st_fail "the last line says 0 failed"

# nothing at all in the boot's directory
rm planted/smp1/*
: > planted/smp1/console.log
count planted > bare.out 2>&1
st_rejects "an empty boot directory" "smp1: no suite began in this boot" bare.out $?
grep -q '^0 passed, 0 failed$' bare.out && st_fail "the count reads 0 passed, 0 failed"

# no boot directory, nor any result
mkdir none
printf 'smp 1\ndebug no\nonly \nhost no\n' > none/asked
count none > none.out 2>&1
st_rejects "a run without a boot" "smp1: expected-results lists this boot.*did not boot" none.out $?
grep -q '^0 passed, 0 failed$' none.out && st_fail "the count reads 0 passed, 0 failed"
exit 0
