#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# One record missing from the middle of the kernel log (the ring overwrote
# it before the host had it): the boot's log must fail as incomplete.
. "$(dirname "$0")/lib/selftest.sh"
scan=$ST_TESTS/lib/kernel-log-scan.sh
real=$(st_real_klog)
"$scan" "$real" > real.out 2>&1
st_accepts "$real" real.out $?
n=$(grep -c '^[0-9]*,[0-9]*,' "$real")
awk -v drop=$((n / 2)) '/^[0-9]+,[0-9]+,/ { if (k++ == drop) { skip = 1; next } skip = 0 }
	/^ / && skip { next } { print }' "$real" > planted.log
"$scan" planted.log > planted.out 2>&1
st_rejects "record $((n / 2)) of $n missing" "^not ok 1 kernel_log_complete|a gap after record" planted.out $?
grep -q 'a gap after record' planted.out || st_fail "the gap is not named"
