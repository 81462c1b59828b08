#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# An LED whose device tree node has linux,default-trigger = "software<N>"
# and a led-pattern property runs that pattern from boot.
. /tests/lib/ktap.sh

# The first LED node naming a software engine: "<node dir> <engine>"
find_dt_led() {
	local f trig
	for f in $(find /proc/device-tree/ -name linux,default-trigger 2>/dev/null); do
		trig=$(tr -d '\000' < "$f")
		case $trig in
		software[0-9]*)
			[ -e "${f%/*}/led-pattern" ] && { echo "${f%/*} $trig"; return 0; }
			;;
		esac
	done
	return 1
}

# Its LED class name: label (gpio-leds) or chan-name (lp55xx)
led_name() {
	local p
	for p in label chan-name; do
		[ -e "$1/$p" ] && { tr -d '\000' < "$1/$p"; return 0; }
	done
	return 1
}

default_pattern_running() {
	local node=$1 eng=$2 name tuples ok=0
	name=$(led_name "$node") || { echo "# no label for $node"; return 1; }
	grep -q "\[$eng\]" "/sys/class/leds/$name/trigger" ||
		{ echo "# $name trigger: $(cat "/sys/class/leds/$name/trigger")"; ok=1; }
	want_eq "$eng state" running "$(cat /sys/class/led_pattern/$eng/state)" || ok=1
	want_eq "$eng/leds/$name" yes "$([ -L "/sys/class/led_pattern/$eng/leds/$name" ] && echo yes)" || ok=1
	# led-pattern is 8 bytes a tuple
	tuples=$(($(wc -c < "$node/led-pattern") / 8))
	want_eq "tuples in $eng/pattern" $((tuples * 2)) "$(wc -w < /sys/class/led_pattern/$eng/pattern)" || ok=1
	return $ok
}

ktap_print_header
found=$(find_dt_led) || {
	echo "1..0 # SKIP no LED in the device tree starts a software engine"
	exit 0
}
ktap_set_plan 1
# shellcheck disable=SC2086
ktap_test_result dt_default_pattern_running default_pattern_running $found
ktap_finished
