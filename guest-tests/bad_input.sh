#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Bad input to the stock LED files fails with EINVAL and changes nothing.
# A refusal user space can repeat at will logs a bounded number of lines.
# An out-of-range number is not an error in Linux (6.1 and 6.12): brightness_store()
# clamps it to max_brightness (checked here so a change is noticed).
. /tests/lib/ktap.sh
. /tests/lib/lp5523.sh

LED=/sys/class/leds/lp5523:g
GARBAGE=$(head -c 4096 /dev/zero | tr '\0' 'x')

refused_unchanged() {
	local before ok=0 bad
	write_ok 42 $LED/brightness || return 1
	for bad in abc -1 "12 34" 0x10 "$GARBAGE" ""; do
		write_err EINVAL "$bad" $LED/brightness || ok=1
	done
	want_eq brightness 42 "$(cat $LED/brightness)" || ok=1
	write_ok 0 $LED/brightness
	return $ok
}

clamped() {
	local ok=0
	write_ok 256 $LED/brightness || ok=1
	want_eq "brightness after 256" 255 "$(cat $LED/brightness)" || ok=1
	write_ok 0 $LED/brightness
	return $ok
}

current_refused() {
	local before ok=0 bad
	before=$(cat $LED/led_current)
	for bad in abc 101 "$GARBAGE"; do
		write_err EINVAL "$bad" $LED/led_current || ok=1
	done
	want_eq led_current "$before" "$(cat $LED/led_current)" || ok=1
	return $ok
}

trigger_refused() {
	local before ok=0
	before=$(cat $LED/trigger)
	write_err EINVAL no-such-trigger $LED/trigger || ok=1
	want_eq trigger "$before" "$(cat $LED/trigger)" || ok=1
	return $ok
}

# A call site logs 10 lines in 5 s at most (dev_*_ratelimited): the
# lines a burst may log, from the uptime (s) before it and after it, 10
# for each 5 s window it may touch
log_budget() {
	echo $(((${2%.*} - ${1%.*} + 1) / 5 * 10 + 10))
}

# log_bounded <text> <uptime before>: the lines with the text since
# dmesg_mark are at least one (the first refusal is logged) and within
# the budget of the time the burst took
log_bounded() {
	local n budget now
	read -r now _ < /proc/uptime
	n=$(dmesg_since | grep -c -F -- "$1")
	budget=$(log_budget "$2" "$now")
	[ "$n" -ge 1 ] && [ "$n" -le "$budget" ] && return 0
	echo "# \"$1\": $n log lines, want 1 to $budget"
	return 1
}

# 200 bad patterns to a software engine and 200 to a chip's: each is
# -EINVAL, the log bounded
pattern_burst_log_bounded() {
	local e i t0 ok=0
	dmesg_mark
	read -r t0 _ < /proc/uptime
	for e in software0 lp5523:engine1; do
		[ -d /sys/class/led_pattern/$e ] || continue
		i=0
		while [ $i -lt 200 ]; do
			echo "256 100 0 100" > /sys/class/led_pattern/$e/pattern 2>/dev/null &&
				{ echo "# $e took a bad pattern"; ok=1; }
			i=$((i + 1))
		done
	done
	log_bounded "'256' is not a value" "$t0" || ok=1
	return $ok
}

# 60 selftests while a pattern runs on kb1: each tests the other outputs
# and names kb1's pattern in the log, within the budget
selftest_burst_log_bounded() {
	local chip i t0 ok=0
	chip=$(lp5523_chip)
	[ -n "$chip" ] || { echo "# no LP5523 bound"; return 1; }
	engine_link lp5523:engine1 lp5523:kb1 || return 1
	write_ok "0 500 255 500" /sys/class/led_pattern/lp5523:engine1/pattern || ok=1
	write_ok run /sys/class/led_pattern/lp5523:engine1/state || ok=1
	dmesg_mark
	read -r t0 _ < /proc/uptime
	i=0
	while [ $i -lt 60 ]; do
		cat "$chip/selftest" > /dev/null || ok=1
		i=$((i + 1))
	done
	log_bounded "selftest: leaves the outputs of patterns alone" "$t0" || ok=1
	lp5523_engines_reset
	# a new window for the next suite's first refusals
	sleep 6
	return $ok
}

ktap_print_header
ktap_set_plan 6
ktap_test_result brightness_garbage_refused_unchanged refused_unchanged
ktap_test_result brightness_above_max_clamped clamped
ktap_test_result led_current_bad_refused_unchanged current_refused
ktap_test_result trigger_unknown_refused_unchanged trigger_refused
ktap_test_result bad_pattern_burst_log_bounded pattern_burst_log_bounded
ktap_test_result selftest_burst_log_bounded selftest_burst_log_bounded
ktap_finished
