#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A software engine's writes to one LP5523 (issue 21): the outputs of the
# chip that change at one instant change in one I2C message, through the
# chip's master faders (the LP5523 does not auto-increment over its PWM
# registers), at the same instant on the emulator's timeline; the faders
# go back to their other users (a master_fader file, a legacy engine,
# selftest, a pattern of the chip's engines) whenever those want them,
# and the software engine then writes output by output, as before.
# Meanwhile the master_fader files read what their user left in them,
# and get it back.  lp5523_batch.check judges the timeline between the
# marks (which outputs are on the faders: the one message per change).
. /tests/lib/ktap.sh
. /tests/lib/lp5523.sh

SW=/sys/class/led_pattern/software0
E2=/sys/class/led_pattern/lp5523:engine2
RGB="lp5523:r lp5523:g lp5523:b"
# D1-D8: the keyboard's kb1-kb5 and the indicator
EIGHT="lp5523:kb1 lp5523:kb2 lp5523:kb3 lp5523:kb4 lp5523:b lp5523:g lp5523:r lp5523:kb5"
# the three outputs on one curve: 510 level changes a second, each of
# all three at once
GREY="#000000 500 #ffffff 500"
# three curves: red 255 levels each way, green 64, blue 192; at most
# instants one or two of them change
COLOUR="#000000 500 #ff40c0 500"

# window <name>: a second of the running pattern between two marks
window() {
	emu_mark "batch $1 begin"
	sleep 1
	emu_mark "batch $1 end"
}

# run_on_rgb <pattern> [<window>]: software0 runs it on r, g and b; the
# window, if named, is the run's first 0.3 s
run_on_rgb() {
	local ok=0
	engine_link software0 $RGB || return 1
	write_ok "$1" $SW/pattern || ok=1
	[ -n "$2" ] && emu_mark "batch $2 begin"
	write_ok run $SW/state || ok=1
	# past the first write, which puts the outputs on the faders
	sleep 0.3
	[ -n "$2" ] && emu_mark "batch $2 end"
	return $ok
}

stop_sw() {
	echo stop > $SW/state
	echo "" > $SW/pattern
	lp5523_engines_reset
}

# want_user_faders <when> <chip> <fader1> <fader2> <fader3>: the
# master_fader files of <chip> read what their user left: no output
# mapped, the faders at those values, whichever outputs a batch put on
# the faders (issue 32: a brightness write showed in master_fader_leds)
want_user_faders() {
	local when=$1 c=$2 f ok=0
	want_eq "master_fader_leds $when" 000000000 "$(cat "$c/master_fader_leds")" || ok=1
	for f in 1 2 3; do
		want_eq "master_fader$f $when" "$3" "$(cat "$c/master_fader$f")" || ok=1
		shift
	done
	return $ok
}

# await_rgb_faders: outputs go on the faders as they pass 0 or full scale
# (joining at another level would show a dip), and GREY passes one every
# 500 ms: two periods, however the take and give writes fell, leave r, g,
# b on one fader (the timeline's windows check that they are)
await_rgb_faders() {
	sleep 2
}

one_message() {
	local ok=0
	run_on_rgb "$GREY" || ok=1
	window grey
	want_eq "software0 state" running "$(cat $SW/state)" || ok=1
	want_user_faders "while r, g, b run" "$(lp5523_chip)" 0 0 0 || ok=1
	stop_sw
	# from outputs on their PWM (as a chip engine or hw_pattern leaves
	# them), then from outputs left on the faders by the stop
	lp5523_free_faders || ok=1
	run_on_rgb "$COLOUR" fresh || ok=1
	stop_sw
	run_on_rgb "$COLOUR" start || ok=1
	window colour
	stop_sw
	# eight outputs on one curve share one fader: still one message
	engine_link software0 $EIGHT || return 1
	write_ok "$GREY" $SW/pattern || ok=1
	write_ok run $SW/state || ok=1
	sleep 0.3
	window eight
	want_user_faders "while eight LEDs run" "$(lp5523_chip)" 0 0 0 || ok=1
	stop_sw
	return $ok
}

# takes_back <user> <take window> <give window> <take>... -- <give>...:
# while r, g, b run on the faders, the chip's file writes <take> (value
# file pairs) take the faders back (no EBUSY: the stock files' users come
# first); the <give> writes let the engine take them again
takes_back() {
	local user=$1 taken=$2 given=$3 c ok=0
	c=$(lp5523_chip)
	shift 3
	run_on_rgb "$GREY" || ok=1
	while [ "$1" != -- ]; do
		write_ok "$1" "$c/$2" || ok=1
		shift 2
	done
	shift
	[ -n "$taken" ] && window "$taken"
	while [ $# -gt 0 ]; do
		write_ok "$1" "$c/$2" || ok=1
		shift 2
	done
	await_rgb_faders
	want_user_faders "once $user gave them back" "$c" 0 0 0 || ok=1
	window "$given"
	stop_sw
	return $ok
}

# busy_faders: kb1 and kb2, linked to software1 (the board's boot LED
# engine), hold a fader of their own; software0's three curves on r, g, b
# (red up while green goes down, blue up at half their rate: two or three
# of them change at every instant) get the two faders left and one PWM,
# and keep them: at most two messages an instant (no output leaves its
# fader to make room at every change)
CROSS="#00ff00 500 #ff0080 500"
busy_faders() {
	local ok=0
	[ -d /sys/class/led_pattern/software1 ] || { echo "# no software1"; return 1; }
	lp5523_free_faders || ok=1
	engine_link software1 lp5523:kb1 lp5523:kb2 || ok=1
	sleep 1.1
	run_on_rgb "$CROSS" || ok=1
	window busy
	stop_sw
	return $ok
}

# a write of master_fader1: the engine keeps running, output by output,
# until master_fader_leds maps no output again
master_fader_file() {
	takes_back master_fader1 taken given 255 master_fader1 -- \
		0 master_fader1 000000000 master_fader_leds
}

# engine3_mode "load", while it is not disabled (a firmware program may
# map any output, reset any fader); the outputs hold meanwhile (the chip
# freezes them while an engine is in load)
legacy_engine() {
	takes_back engine3_mode "" legacy load engine3_mode -- \
		disabled engine3_mode
}

# selftest drives every output on its own PWM: the faders go back, and
# the engine takes them again with its next change
selftest() {
	local c out ok=0
	c=$(lp5523_chip)
	run_on_rgb "$GREY" || ok=1
	out=$(cat "$c/selftest" 2>&1)
	want_eq "selftest beside software0" OK "$out" || ok=1
	await_rgb_faders
	want_user_faders "after selftest" "$c" 0 0 0 || ok=1
	window selftest
	stop_sw
	return $ok
}

# chip_pattern: r, left on a fader by software0, linked to a chip engine:
# the engine's blink reaches full scale (a fader at the level software0
# left would scale it)
chip_pattern() {
	local ok=0
	run_on_rgb "$GREY" || ok=1
	sleep 0.13
	echo none > /sys/class/leds/lp5523:r/trigger
	engine_link lp5523:engine2 lp5523:r || ok=1
	write_ok "255 250 255 0 0 250 0 0" $E2/pattern || ok=1
	write_ok run $E2/state || ok=1
	window chip
	stop_sw
	return $ok
}

# relinked: r alone on a fader (three curves: one fader each) moves to a
# stopped chip engine and back; letting it go, the chip engine turns r
# off through its fader, not with its PWM at 0 under it, so back on
# software0 r shows the pattern again
relinked() {
	local ok=0
	run_on_rgb "$COLOUR" || ok=1
	engine_link lp5523:engine2 lp5523:r || ok=1
	engine_link software0 lp5523:r || ok=1
	# r joins a fader at its next 0 or full scale, within 500 ms
	sleep 0.6
	window relinked
	stop_sw
	return $ok
}

# user_faders: the user's faders (1 at 100, 2 at 7, no output mapped)
# read as such while software0 runs r, g, b through them and after a
# multicolor LED's brightness write on the ring's chip, and come back
# when the user maps an output: b at full brightness on fader 1 shows
# 100 (the timeline's window "user"; with the last level software0 left
# in fader 1, it showed 0)
user_faders() {
	local c ring mi ok=0
	c=$(lp5523_chip)
	ring=$(readlink -f /sys/class/leds/ring:rgb/device)
	write_ok 100 "$c/master_fader1" || ok=1
	write_ok 7 "$c/master_fader2" || ok=1
	write_ok 000000000 "$c/master_fader_leds" || ok=1
	run_on_rgb "$GREY" || ok=1
	await_rgb_faders
	want_user_faders "while software0 runs r, g, b" "$c" 100 7 0 || ok=1
	stop_sw
	want_user_faders "after software0's stop" "$c" 100 7 0 || ok=1
	if [ -d "$ring" ]; then
		# the ring's chip's faders free for a batch, its three
		# channels lit
		mi=$(cat /sys/class/leds/ring:rgb/multi_intensity)
		write_ok 000000000 "$ring/master_fader_leds" || ok=1
		write_ok "255 64 192" /sys/class/leds/ring:rgb/multi_intensity || ok=1
		write_ok 255 /sys/class/leds/ring:rgb/brightness || ok=1
		want_user_faders "after ring:rgb's brightness write" "$ring" 0 0 0 || ok=1
		write_ok 0 /sys/class/leds/ring:rgb/brightness || ok=1
		echo "$mi" > /sys/class/leds/ring:rgb/multi_intensity
	else
		echo "# no ring:rgb"
		ok=1
	fi
	emu_mark "batch user begin"
	write_ok 000010000 "$c/master_fader_leds" || ok=1
	write_ok 255 /sys/class/leds/lp5523:b/brightness || ok=1
	sleep 0.1
	emu_mark "batch user end"
	want_eq "master_fader_leds mapped by the user" 000010000 \
		"$(cat "$c/master_fader_leds")" || ok=1
	want_eq "master_fader1 mapped by the user" 100 "$(cat "$c/master_fader1")" || ok=1
	echo 0 > /sys/class/leds/lp5523:b/brightness
	echo 0 > "$c/master_fader1"
	echo 0 > "$c/master_fader2"
	lp5523_free_faders || ok=1
	return $ok
}

ktap_print_header
[ -e /proc/lockdep ] && ktap_print_msg "kernel: debug (lockdep), I2C writes slower"
if [ -z "$(lp5523_chip)" ] || [ ! -d $SW ]; then
	echo "1..0 # SKIP needs software0 and a bound lp5523"
	exit 0
fi
lp5523_boot_pattern_off
lp5523_free_faders
ktap_set_plan 9
ktap_test_result one_message_per_change one_message
ktap_test_result faders_held_by_other_leds busy_faders
ktap_test_result master_fader_file_takes_the_faders master_fader_file
ktap_test_result legacy_engine_takes_the_faders legacy_engine
ktap_test_result selftest_beside_software_writes selftest
ktap_test_result chip_pattern_unscaled_after_faders chip_pattern
ktap_test_result relinked_through_a_chip_engine relinked
ktap_test_result master_fader_files_read_the_users user_faders
ktap_test_result chip_idle_after lp5523_check_idle
ktap_finished
