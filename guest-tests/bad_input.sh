#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Bad input to the stock LED files fails with EINVAL and changes nothing.
# An out-of-range number is not an error in Linux (6.1 and 6.12): brightness_store()
# clamps it to max_brightness (checked here so a change is noticed).
. /tests/lib/ktap.sh

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

ktap_print_header
ktap_set_plan 4
ktap_test_result brightness_garbage_refused_unchanged refused_unchanged
ktap_test_result brightness_above_max_clamped clamped
ktap_test_result led_current_bad_refused_unchanged current_refused
ktap_test_result trigger_unknown_refused_unchanged trigger_refused
ktap_finished
