#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The stock lp5523 engine files: load a blink program into engine 1 for the
# red indicator (D7) and run it; lp5523_legacy_engine.check measures the
# blink period on the emulator's timeline against what the program encodes.
. /tests/lib/ktap.sh
. /tests/lib/lp5523.sh

# mux_map_next; set_pwm 255; wait 484.375 ms; wait 15.625 ms; set_pwm 0;
# wait 484.375 ms; wait 15.625 ms; branch forever to 1
BLINK=9d8040ff7e00420040007e004200a001


run_blink() {
	local c
	c=$(lp5523_chip)
	write_ok load "$c/engine1_mode" &&
	write_ok 000000100 "$c/engine1_leds" &&
	want_eq engine1_leds 000000100 "$(cat "$c/engine1_leds")" &&
	write_ok "$BLINK" "$c/engine1_load" &&
	emu_mark "legacy blink run" &&
	write_ok run "$c/engine1_mode" &&
	want_eq engine1_mode run "$(cat "$c/engine1_mode")"
}

stop_blink() {
	local c
	c=$(lp5523_chip)
	emu_mark "legacy blink stop"
	write_ok disabled "$c/engine1_mode" &&
	want_eq engine1_mode disabled "$(cat "$c/engine1_mode")" &&
	write_ok 0 /sys/class/leds/lp5523:r/brightness
}

# Engine-side faults are the driver's: a bad program is refused.
bad_program() {
	local c ok=0
	c=$(lp5523_chip)
	write_ok load "$c/engine2_mode" || ok=1
	write_err EINVAL 9d80f "$c/engine2_load" || ok=1
	write_err EINVAL zz80 "$c/engine2_load" || ok=1
	write_err EINVAL 00000000x "$c/engine2_leds" || ok=1
	write_ok disabled "$c/engine2_mode" || ok=1
	write_err EINVAL 000000001 "$c/engine2_leds" || ok=1
	return $ok
}

ktap_print_header
ktap_set_plan 3
if [ -z "$(lp5523_chip)" ]; then
	ktap_exit_fail_msg "no lp5523 at 0x32"
fi
ktap_test_result legacy_engine1_blink_runs run_blink
sleep 3.3
ktap_test_result legacy_engine1_stop stop_blink
ktap_test_result legacy_engine_bad_input_refused bad_program
ktap_finished
