#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# One colour pattern on the N900 indicator (red D7, green D6, blue D5)
# through software0: led_pattern_rgb.check measures on the emulator's
# timeline that red and blue ramp together, green stays off, and the
# period is 1 s.
. /tests/lib/ktap.sh

ENG=/sys/class/led_pattern/software0
RGB="lp5523:r lp5523:g lp5523:b"
PURPLE="#ff00ff 500 #000000 500"

link_indicator() {
	local led ok=0
	for led in $RGB; do
		write_ok software0 /sys/class/leds/$led/trigger || ok=1
	done
	want_eq "leds/" "lp5523:b lp5523:g lp5523:r" "$(ls $ENG/leds | tr '\n' ' ' | sed 's/ $//')" || ok=1
	return $ok
}

run_purple() {
	local ok=0
	write_ok "$PURPLE" $ENG/pattern || return 1
	emu_mark "rgb run"
	write_ok run $ENG/state || ok=1
	sleep 4.2
	emu_mark "rgb end"
	want_eq state running "$(cat $ENG/state)" || ok=1
	want_eq "green brightness" 0 "$(cat /sys/class/leds/lp5523:g/brightness)" || ok=1
	return $ok
}

stop_and_unlink() {
	local led ok=0
	write_ok stop $ENG/state || ok=1
	write_ok "" $ENG/pattern || ok=1
	for led in $RGB; do
		write_ok none /sys/class/leds/$led/trigger || ok=1
		want_eq "$led brightness" 0 "$(cat /sys/class/leds/$led/brightness)" || ok=1
	done
	want_eq "leds/" "" "$(ls $ENG/leds)" || ok=1
	return $ok
}

ktap_print_header
[ -e /proc/lockdep ] && ktap_print_msg "kernel: debug (lockdep), I2C writes slower"
if [ ! -d $ENG ] || [ ! -d /sys/class/leds/lp5523:r ]; then
	echo "1..0 # SKIP no software0 or no lp5523:r"
	exit 0
fi
ktap_set_plan 3
ktap_test_result link_indicator link_indicator
ktap_test_result run_purple run_purple
ktap_test_result stop_and_unlink stop_and_unlink
ktap_finished
