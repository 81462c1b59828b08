#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A kernel log that stops half way (the copy died, or poweroff cut it):
# no "lptest: log end", so the boot's log must fail as incomplete; and a
# log that does not start at record 0 (the copy started late) too.
. "$(dirname "$0")/lib/selftest.sh"
scan=$ST_TESTS/lib/kernel-log-scan.sh
real=$(st_real_klog)
"$scan" "$real" > real.out 2>&1
st_accepts "$real" real.out $?
n=$(wc -l < "$real")
head -n $((n / 2)) "$real" > cut.log
"$scan" cut.log > cut.out 2>&1
st_rejects "the log cut after half its lines" 'no "lptest: log end" record' cut.out $?
tail -n +$((n / 4)) "$real" | sed -n '/^[0-9]*,[0-9]*,/,$p' > late.log
"$scan" late.log > late.out 2>&1
st_rejects "the log without its first quarter" 'the copy started late' late.out $?
"$scan" /dev/null > empty.out 2>&1
st_rejects "no log at all" 'missing or empty' empty.out $?
