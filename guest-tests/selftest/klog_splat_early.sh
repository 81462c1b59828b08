#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A WARN in the first suite of a long run (then 30000 refusal lines, as a
# fuzz run logs): the scan of the whole kernel log must fail that suite,
# and keep the log complete.
. "$(dirname "$0")/lib/selftest.sh"
scan=$ST_TESTS/lib/kernel-log-scan.sh
real=$(st_real_klog)
"$scan" "$real" > real.out 2>&1
st_accepts "$real" real.out $?
first=$(sed -n 's/^[0-9,]*[^;]*;lptest: begin \([^ ]*\)$/\1/p' "$real" | head -1)
[ -n "$first" ] || st_fail "$real: no suite began"
st_klog_edit "$real" planted.log '
	rec(t)
	if (t == "lptest: begin '"$first"'") {
		rec("------------[ cut here ]------------")
		rec("WARNING: CPU: 0 PID: 97 at drivers/leds/led-class-pattern.c:400 state_store+0x40/0x1a0")
		rec("Call trace:")
		rec(" state_store+0x40/0x1a0")
		for (i = 0; i < 30000; i++)
			rec("led_pattern software0: pattern: '\''x'\'' is not a value 0-255 or #rrggbb")
	}'
"$scan" planted.log > planted.out 2>&1
st_rejects "a WARN early in $first" "^not ok [0-9]+ no_splat_in_$first\$" planted.out $?
grep -q '^ok 1 kernel_log_complete' planted.out || st_fail "the planted log reads as incomplete"
