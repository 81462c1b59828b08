#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Nokia N900 LED patterns loaded the way MCE (the N900's mode control
# entity) loads them, through the stock engineN_{mode,leds,load} files;
# lp5523_n900_patterns.check compares the emulator's timeline with the
# timing the programs encode, to within one step.
#
# Pattern data: maemo-leste/mce, config/mce.ini, section
# [LEDPatternLystiRX51] (mux; engine 1 program; engine 2 program).
. /tests/lib/ktap.sh
. /tests/lib/lp5523.sh

# MCE's name, mux field, engine 1 program, engine 2 program
ERROR='PatternError r 9d8040007f007f0040ff7f007f000000 9d800000'
CALL='PatternCommunicationCall b 9d80400002ff03ff02ff03ff71080000 9d800000'


# mce_mux <mux field> <engine 1|2>: MCE's engineN_leds string.  Lower
# case r, g, b go to engine 1, upper case to engine 2; red is bit 2, green
# bit 3, blue bit 4, written most significant bit (of nine) first.
mce_mux() {
	local m=0 i s=
	case $2 in
	1) case $1 in *r*) m=$((m | 4)) ;; esac
	   case $1 in *g*) m=$((m | 8)) ;; esac
	   case $1 in *b*) m=$((m | 16)) ;; esac ;;
	2) case $1 in *R*) m=$((m | 4)) ;; esac
	   case $1 in *G*) m=$((m | 8)) ;; esac
	   case $1 in *B*) m=$((m | 16)) ;; esac ;;
	esac
	for i in 8 7 6 5 4 3 2 1 0; do
		s=$s$(( (m >> i) & 1 ))
	done
	printf '%s' "$s"
}

# MCE's disable: both engines off, red, green and blue at 0
mce_disable() {
	local c=$1 led ok=0
	write_ok disabled "$c/engine1_mode" || ok=1
	write_ok disabled "$c/engine2_mode" || ok=1
	for led in r g b; do
		write_ok 0 /sys/class/leds/lp5523:$led/brightness || ok=1
	done
	return $ok
}

# MCE's program: disable, load engine 1 (mode, leds, program), then
# engine 2, then run engine 2 and engine 1
mce_program() {
	local c=$1 mux=$2 ok=0
	mce_disable "$c" || ok=1
	write_ok load "$c/engine1_mode" || ok=1
	write_ok "$(mce_mux "$mux" 1)" "$c/engine1_leds" || ok=1
	write_ok "$3" "$c/engine1_load" || ok=1
	write_ok load "$c/engine2_mode" || ok=1
	write_ok "$(mce_mux "$mux" 2)" "$c/engine2_leds" || ok=1
	write_ok "$4" "$c/engine2_load" || ok=1
	write_ok run "$c/engine2_mode" || ok=1
	write_ok run "$c/engine1_mode" || ok=1
	want_eq engine1_mode run "$(cat "$c/engine1_mode")" || ok=1
	want_eq engine2_mode run "$(cat "$c/engine2_mode")" || ok=1
	return $ok
}

# run_pattern <seconds> <name> <mux> <engine 1> <engine 2>
run_pattern() {
	local secs=$1 name=$2 mux=$3 e1=$4 e2=$5 c ok=0
	c=$(lp5523_chip)
	emu_mark "n900 $name run"
	mce_program "$c" "$mux" "$e1" "$e2" || ok=1
	sleep "$secs"
	emu_mark "n900 $name stop"
	mce_disable "$c" || ok=1
	return $ok
}

left_as_found() {
	local ok=0
	lp5523_check_idle || ok=1
	emu_mark "lp5523_n900_patterns end"
	return $ok
}

ktap_print_header
ktap_set_plan 3
if [ -z "$(lp5523_chip)" ]; then
	ktap_exit_fail_msg "no lp5523 at 0x32"
fi
# two periods of PatternError (1.94 s), one of PatternCommunicationCall
# (3.5 s) and its first pulse again
# shellcheck disable=SC2086
ktap_test_result mce_pattern_error run_pattern 4.1 $ERROR
# shellcheck disable=SC2086
ktap_test_result mce_pattern_communication_call run_pattern 3.8 $CALL
ktap_test_result chip_left_as_found left_as_found
ktap_finished
