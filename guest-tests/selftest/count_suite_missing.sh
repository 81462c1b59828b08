#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every suite accounted for (guest-tests/expected-results): a suite that
# did not run in a boot (renamed, deleted, dropped from the initramfs)
# fails the count once for its KTAP and once for its timeline check's; a
# boot that never booted fails it too.
. "$(dirname "$0")/lib/selftest.sh"
st_run real 1 no "" no
count real > real.out 2>&1
st_accepts "a run of 1 CPU as expected-results lists it" real.out $?

# ring, which has a timeline check, gone from smp1
st_run planted 1 no "" no
rm planted/smp1/ring.ktap planted/smp1/ring_timeline.ktap
sed -i '/^### begin ring$/d; /^### end ring [0-9]*$/d' planted/smp1/console.log
count planted > planted.out 2>&1
st_rejects "ring missing from smp1" "smp1/ring.ktap: expected-results asks for it" planted.out $?
grep -q "smp1/ring_timeline.ktap: expected-results asks for it" planted.out ||
	st_fail "ring's timeline check is not missed"
grep -q ' 0 failed$' planted.out && st_fail "the last line says 0 failed"

# the family board's boot never happened
st_run noboot 1 no "" no
rm -r noboot/family-smp1
count noboot > noboot.out 2>&1
st_rejects "no family-smp1 boot" "family-smp1: expected-results lists this boot.*did not boot" noboot.out $?
exit 0
