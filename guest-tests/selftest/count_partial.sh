#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What a run must hold follows what run-checks.sh was asked (its "asked"
# record): without the debug kernel (DEBUG=0) no debug boot; with --only
# the suites it names and those /init always runs, and the family board
# only for its own suites.  Those runs count clean; a boot or a suite they
# asked for and lack still fails, and so does a run without the record.
. "$(dirname "$0")/lib/selftest.sh"
st_run nodebug "1 2" no "" yes
count nodebug > nodebug.out 2>&1
st_accepts "make check DEBUG=0" nodebug.out $?
sed -i 's/^debug no$/debug yes/' nodebug/asked
count nodebug > lost.out 2>&1
st_rejects "a debug kernel that never booted" "debug-smp2: expected-results lists this boot.*did not boot" lost.out $?

st_run ring 1 no ring yes
count ring > ring.out 2>&1
st_accepts "make check ONLY=ring (no family board)" ring.out $?
st_run family 1 no lp55xx_family yes
count family > family.out 2>&1
st_accepts "make check ONLY=lp55xx_family" family.out $?
rm family/family-smp1/lp55xx_family.ktap
count family > family-lost.out 2>&1
st_rejects "ONLY=lp55xx_family without it" "family-smp1/lp55xx_family.ktap: expected-results asks for it" family-lost.out $?

rm ring/asked
count ring > unasked.out 2>&1
st_rejects "no record of what was asked" "asked: no record of what run-checks.sh was asked" unasked.out $?
