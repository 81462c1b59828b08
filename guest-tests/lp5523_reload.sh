#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A reloaded engine starts clean: the same program loaded into engine 1
# twice, with a different program run in between, through the stock
# engineN_{mode,leds,load} files; lp5523_reload.check compares the two
# runs on the emulator's timeline (identical output, step for step).
. /tests/lib/ktap.sh
. /tests/lib/lp5523.sh

# mux_map_next; ramp up 127 x 2.44 ms; ramp down 127 x 2.44 ms; end
RAMP=9d800a7f0b7fc000
# mux_map_next; set_pwm 200; ld A, 7; branch 3 x to 2; end: leaves the
# engine's PWM value, a variable and a loop counter behind
OTHER=9d8040c89007a182c000

# load_run <program> <mark>: engine 1 on D7 (red); marks around the run
load_run() {
	local c ok=0
	c=$(lp5523_chip)
	write_ok disabled "$c/engine1_mode" || ok=1
	write_ok load "$c/engine1_mode" || ok=1
	write_ok 000000100 "$c/engine1_leds" || ok=1
	write_ok "$1" "$c/engine1_load" || ok=1
	[ -z "$2" ] || emu_mark "reload $2 run"
	write_ok run "$c/engine1_mode" || ok=1
	sleep 1
	[ -z "$2" ] || emu_mark "reload $2 end"
	write_ok disabled "$c/engine1_mode" || ok=1
	write_ok 0 /sys/class/leds/lp5523:r/brightness || ok=1
	return $ok
}

ktap_print_header
ktap_set_plan 4
if [ -z "$(lp5523_chip)" ]; then
	ktap_exit_fail_msg "no lp5523 at 0x32"
fi
ktap_test_result reload_first_run load_run $RAMP first
ktap_test_result reload_other_program load_run $OTHER ""
ktap_test_result reload_second_run load_run $RAMP second
ktap_test_result reload_leaves_chip_idle lp5523_check_idle
ktap_finished
