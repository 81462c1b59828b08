#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run last by /init: after every suite, the kernel log must hold no
# warning, oops, lockdep, KASAN, UBSAN, sleeping-in-atomic, hung-task or
# stall report, and kmemleak (debug kernel) must find no leak.
. /tests/lib/ktap.sh

SPLATS='WARNING:|BUG:|Oops|Unable to handle|Call trace:|KASAN|UBSAN|circular locking|inconsistent lock|lock held when returning|sleeping function called|unreferenced object|hung_task|INFO: task|detected stall|soft lockup|workqueue lockup'

check_no_splat() {
	local hits
	# the blocked tasks' stacks /init's watchdog asked for are no splat
	hits=$(dmesg | sed '/sysrq: Show Blocked State/,/lptest: watchdog dump end/d' |
		grep -E "$SPLATS" | head -5)
	[ -z "$hits" ] && return 0
	echo "$hits" | sed 's/^/# /'
	return 1
}

check_no_leak() {
	local f=/sys/kernel/debug/kmemleak leaks
	[ -w $f ] || return 0
	echo scan > $f
	sleep 6
	echo scan > $f
	leaks=$(grep -c unreferenced $f)
	[ "$leaks" -eq 0 ] && return 0
	head -20 $f | sed 's/^/# /'
	return 1
}

ktap_print_header
ktap_set_plan 2
ktap_test_result no_kernel_splat check_no_splat
if [ -w /sys/kernel/debug/kmemleak ]; then
	ktap_test_result no_kmemleak_report check_no_leak
else
	ktap_test_skip no_kmemleak_report "kernel without kmemleak"
fi
ktap_finished
