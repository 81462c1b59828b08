#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# gpio-leds on the PL061: a brightness write reaches the GPIO line, as the
# gpio debugfs view (which reads the PL061 data register back) shows.
. /tests/lib/ktap.sh

# LED name and PL061 line
GPIO_LEDS='board:green:user0 0
board::user1 1
board::user2 2'

# gpio_level <led name>: "hi" or "lo" as gpiolib reads the line back
gpio_level() {
	sed -n "s/.*(.*|$1 *) out \([a-z]*\).*/\1/p" /sys/kernel/debug/gpio
}

check_present() {
	local name line ok=0
	while read -r name line; do
		[ -d "/sys/class/leds/$name" ] || { echo "# $name missing"; ok=1; }
		want_eq "$name max_brightness" 1 "$(cat /sys/class/leds/$name/max_brightness)" || ok=1
	done <<-EOF2
	$GPIO_LEDS
	EOF2
	return $ok
}

check_on_off() {
	local name line ok=0
	while read -r name line; do
		write_ok 1 "/sys/class/leds/$name/brightness" || ok=1
		want_eq "$name line after 1" hi "$(gpio_level "$name")" || ok=1
		write_ok 0 "/sys/class/leds/$name/brightness" || ok=1
		want_eq "$name line after 0" lo "$(gpio_level "$name")" || ok=1
	done <<-EOF2
	$GPIO_LEDS
	EOF2
	return $ok
}

# Only the line of the LED written moves.
check_isolated() {
	local ok=0
	write_ok 1 /sys/class/leds/board::user1/brightness || ok=1
	want_eq "user0 line" lo "$(gpio_level board:green:user0)" || ok=1
	want_eq "user1 line" hi "$(gpio_level board::user1)" || ok=1
	want_eq "user2 line" lo "$(gpio_level board::user2)" || ok=1
	write_ok 0 /sys/class/leds/board::user1/brightness || ok=1
	return $ok
}

ktap_print_header
ktap_set_plan 3
ktap_test_result gpio_leds_present check_present
ktap_test_result gpio_leds_reach_pl061 check_on_off
ktap_test_result gpio_leds_lines_independent check_isolated
ktap_finished
