#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The board's boot pattern in the chip (dts/board.dts): lp5523:g has
# linux,default-trigger "lp5523:engine1" and a led-pattern, so the engine
# runs it from the probe on, before user space.  The runner takes this
# suite first, whatever the others (qemu/board/init), and it leaves the
# chip idle as the other suites expect.  boot_pattern.check finds the
# breathe on D6 on the timeline from the probe and no I2C message while it
# runs, and the breathe again once "default" is written to the LED's
# trigger (mainline's keyword since 6.16: the firmware's default trigger,
# here the engine with the LED's led-pattern).
. /tests/lib/ktap.sh
. /tests/lib/lp5523.sh

ENG=$LP5523_BOOT_ENGINE
LED=$LP5523_BOOT_LED
WANT="0 1000 128 1000"

trigger_of() {
	sed -n 's/.*\[\([^]]*\)\].*/\1/p' "$1/trigger"
}

running_from_boot() {
	local ok=0
	want_eq "lp5523:g trigger" lp5523:engine1 "$(trigger_of $LED)" || ok=1
	want_eq "engine1 leds/" lp5523:g "$(ls $ENG/leds)" || ok=1
	want_eq "engine1 pattern" "$WANT" "$(cat $ENG/pattern)" || ok=1
	want_eq "engine1 state" running "$(cat $ENG/state)" || ok=1
	want_eq "engine1 repeat" -1 "$(cat $ENG/repeat)" || ok=1
	emu_mark "boot pattern begin"
	# the check wants two 2 s periods of rising edges since the probe: on
	# a quick boot this suite starts well within the first period, so 4.2 s
	# saw only two edges (seen on an idle host); 6.2 s holds three
	sleep 6.2
	emu_mark "boot pattern end"
	return $ok
}

stops() {
	local ok=0
	lp5523_boot_pattern_off
	want_eq "engine1 state" stopped "$(cat $ENG/state)" || ok=1
	want_eq "lp5523:g trigger" none "$(trigger_of $LED)" || ok=1
	want_eq "lp5523:g brightness" 0 "$(cat $LED/brightness)" || ok=1
	return $ok
}

# stopped, its pattern cleared and the LED unlinked (stops): "default"
# links the LED to engine1 again and the device tree's pattern runs
back_on_default() {
	local ok=0
	emu_mark "boot pattern default begin"
	write_ok default $LED/trigger || ok=1
	want_eq "lp5523:g trigger" lp5523:engine1 "$(trigger_of $LED)" || ok=1
	want_eq "engine1 leds/" lp5523:g "$(ls $ENG/leds)" || ok=1
	want_eq "engine1 pattern" "$WANT" "$(cat $ENG/pattern)" || ok=1
	want_eq "engine1 state" running "$(cat $ENG/state)" || ok=1
	# two rising edges 2 s apart, the first 0.5 s into the run
	sleep 4.7
	emu_mark "boot pattern default end"
	lp5523_boot_pattern_off
	want_eq "engine1 state after" stopped "$(cat $ENG/state)" || ok=1
	want_eq "lp5523:g brightness after" 0 "$(cat $LED/brightness)" || ok=1
	return $ok
}

ktap_print_header
if [ -z "$(lp5523_chip)" ] || [ ! -d $ENG ]; then
	echo "1..0 # SKIP needs a bound lp5523 with its pattern engines"
	exit 0
fi
ktap_set_plan 3
ktap_test_result boot_pattern_runs_in_the_chip running_from_boot
ktap_test_result boot_pattern_stops stops
ktap_test_result boot_pattern_back_on_default back_on_default
ktap_finished
