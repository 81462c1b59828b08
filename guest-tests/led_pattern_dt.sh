#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# An LED whose device tree node has linux,default-trigger = "software<N>"
# and a led-pattern property runs that pattern from boot, and again when
# "default" is written to its trigger (mainline's keyword since 6.16),
# from no trigger or from another one.
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

# levels <led>: the distinct brightness levels the LED shows in 1.2 s
levels() {
	local i=0 seen=""
	while [ $i -lt 12 ]; do
		seen="$seen $(cat "/sys/class/leds/$1/brightness")"
		sleep 0.1
		i=$((i + 1))
	done
	echo $seen | tr ' ' '\n' | sort -un | tr '\n' ' '
}

# back_on_default <node> <engine> <trigger before>: stop the engine, clear
# its pattern, leave the LED on <trigger before> ("none" or another), then
# write "default": the LED is linked to its engine again and the
# device tree's pattern runs (the board's <255 500 255 0 0 500 0 0>: the
# LED shows 0 and its max_brightness)
back_on_default() {
	local node=$1 eng=$2 before=$3 name want e=/sys/class/led_pattern/$2 l ok=0
	name=$(led_name "$node") || { echo "# no label for $node"; return 1; }
	l=/sys/class/leds/$name
	want=$(cat $e/pattern)
	write_ok "$before" $l/trigger || ok=1
	write_ok stop $e/state || ok=1
	write_ok "" $e/pattern || ok=1
	want_eq "$eng state before default" stopped "$(cat $e/state)" || ok=1
	write_ok default $l/trigger || return 1
	grep -q "\[$eng\]" $l/trigger || { echo "# $name trigger: $(cat $l/trigger)"; ok=1; }
	want_eq "$eng pattern after default" "$want" "$(cat $e/pattern)" || ok=1
	want_eq "$eng state after default" running "$(cat $e/state)" || ok=1
	want_eq "$eng/leds/$name" yes "$([ -L "$e/leds/$name" ] && echo yes)" || ok=1
	want_eq "$name levels in 1.2 s" "0 $(cat $l/max_brightness) " "$(levels $name)" || ok=1
	return $ok
}

ktap_print_header
found=$(find_dt_led) || {
	echo "1..0 # SKIP no LED in the device tree starts a software engine"
	exit 0
}
ktap_set_plan 3
# shellcheck disable=SC2086
ktap_test_result dt_default_pattern_running default_pattern_running $found
# shellcheck disable=SC2086
ktap_test_result dt_default_pattern_back_from_none back_on_default $found none
# shellcheck disable=SC2086
ktap_test_result dt_default_pattern_back_from_timer back_on_default $found timer
ktap_finished
