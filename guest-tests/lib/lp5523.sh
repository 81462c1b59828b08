#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The board's LP5523 as the guest suites see it (source after ktap.sh).

LP5523_DRV=/sys/bus/i2c/drivers/lp5523x

# lp5523_chip: the bound chip's sysfs directory (empty if none is bound)
lp5523_chip() {
	ls -d $LP5523_DRV/*-0032 2>/dev/null | head -1
}

# lp5523_chip_name: its I2C device name, e.g. 0-0032
lp5523_chip_name() {
	local c
	c=$(lp5523_chip)
	[ -n "$c" ] && basename "$c"
}

# lp5523_free_faders: outputs earlier suites left on the master faders (a
# fader stays with its outputs after their engine stops) go back to their
# PWM: master_fader_leds written all zeros takes the faders and gives them
# back.  A brightness write then reaches the output's own PWM register.
lp5523_free_faders() {
	write_ok 000000000 "$(lp5523_chip)/master_fader_leds"
}

# lp5523_engines_reset [<label>]: the chip's three pattern engines
# stopped, their pattern empty and repeat -1, and every LED of the chip
# unlinked; <label> names another lp55xx chip (its LEDs and engines are
# "<label>:..."), the LP5523 ("lp5523") by default
lp5523_engines_reset() {
	local label=${1:-lp5523} e led
	for e in 1 2 3; do
		e=/sys/class/led_pattern/$label:engine$e
		[ -d "$e" ] || continue
		echo stop > "$e/state"
		echo "" > "$e/pattern"
		echo -1 > "$e/repeat"
	done
	for led in /sys/class/leds/"$label":*; do
		echo none > "$led/trigger" 2>/dev/null
	done
}

# engine_link <engine name> <led>...: link the LEDs to the engine (their
# trigger), each write checked
engine_link() {
	local eng=$1 led ok=0
	shift
	for led in "$@"; do
		write_ok "$eng" "/sys/class/leds/$led/trigger" || ok=1
	done
	return $ok
}

# 16 tuples of odd durations (ramps, holds, steps; 1403 ms, as
# lp5523_hw_engines.check's ODD16), 78-80 words of an engine: the
# suites that fill program memory use it
# shellcheck disable=SC2034
ODD16="0 137 180 113 180 0 40 151 255 251 255 0 10 63 60 29 60 0 200 147 60 83 0 0 255 177 255 0 90 219 0 33"

# steps_pattern <n>: n tuples of a word of program each: steps between 0
# and 255, each held 10 ms ("<v> 10 <v> 0"), then "0 10" when n is odd
steps_pattern() {
	local i=0 v=0 p=
	while [ $((i + 2)) -le "$1" ]; do
		p="$p$v 10 $v 0 "
		v=$((255 - v))
		i=$((i + 2))
	done
	[ "$i" -lt "$1" ] && p="${p}0 10 "
	echo "${p% }"
}

# pattern_program <engine dir>: the file showing the program an engine's
# pattern compiled to (debugfs: a debugging aid, not ABI)
pattern_program() {
	echo "/sys/kernel/debug/led_pattern/${1##*/}/program"
}

# The board's device tree starts a breathe on the indicator's green LED in
# engine 1 at every probe (dts/board.dts; boot_pattern checks it, first of
# all suites).  lp5523_boot_pattern_off stops it, for suites that want an
# idle chip; lp5523_bind <chip> binds the driver and stops it.
LP5523_BOOT_LED=/sys/class/leds/lp5523:g
LP5523_BOOT_ENGINE=/sys/class/led_pattern/lp5523:engine1

lp5523_boot_pattern_off() {
	echo stop > $LP5523_BOOT_ENGINE/state 2>/dev/null
	echo none > $LP5523_BOOT_LED/trigger 2>/dev/null
	echo "" > $LP5523_BOOT_ENGINE/pattern 2>/dev/null
	return 0
}

lp5523_bind() {
	write_ok "$1" $LP5523_DRV/bind || return 1
	lp5523_boot_pattern_off
}

# lp5523_check_idle: succeed when every engine is disabled and every LP5523
# LED is at 0, as each suite must leave the chip
lp5523_check_idle() {
	local c e led ok=0
	c=$(lp5523_chip)
	for e in 1 2 3; do
		want_eq "engine${e}_mode" disabled "$(cat "$c/engine${e}_mode")" || ok=1
	done
	for led in /sys/class/leds/lp5523:*; do
		want_eq "${led##*/} brightness" 0 "$(cat "$led/brightness")" || ok=1
	done
	return $ok
}
