#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A software engine running grey patterns on the LP5523 keyboard LEDs
# (kb1 on D1, kb2 on D2): repeat N, stop, relink, late join, rewrite while
# running, unlink.  led_pattern_run.check finds each on the emulator's
# timeline between the marks.
. /tests/lib/ktap.sh

ENG=/sys/class/led_pattern/software0
KB1=/sys/class/leds/lp5523:kb1
KB2=/sys/class/leds/lp5523:kb2

# 0 for 100 ms, 255 for 100 ms: the run ends on 255, which is then held
SQUARE="0 100 0 0 255 100 255 0"
TRIANGLE="0 500 255 500"
# 4 s: slow enough that 50 ms is 6 levels (late join)
RAMP="0 2000 255 2000"

cleanup() {
	printf 'stop\n' > $ENG/state
	printf '\n' > $ENG/pattern
	printf -- '-1\n' > $ENG/repeat
	printf 'none\n' > $KB1/trigger
	printf 'none\n' > $KB2/trigger
}

repeat_3_then_finished() {
	local ok=0
	write_ok software0 $KB1/trigger || return 1
	write_ok "$SQUARE" $ENG/pattern || ok=1
	write_ok 3 $ENG/repeat || ok=1
	emu_mark "repeat 3 run"
	write_ok run $ENG/state || ok=1
	want_eq "state while running" running "$(cat $ENG/state)" || ok=1
	sleep 1
	emu_mark "repeat 3 end"
	want_eq "state after 3 runs" finished "$(cat $ENG/state)" || ok=1
	want_eq "held brightness" 255 "$(cat $KB1/brightness)" || ok=1
	cleanup
	return $ok
}

# Clearing the pattern of a finished engine stops it: LEDs off.
clear_finished_stops() {
	local ok=0
	write_ok software0 $KB1/trigger || return 1
	write_ok "$SQUARE" $ENG/pattern || ok=1
	write_ok 1 $ENG/repeat || ok=1
	write_ok run $ENG/state || ok=1
	sleep 0.4
	want_eq "state after 1 run" finished "$(cat $ENG/state)" || ok=1
	write_ok "" $ENG/pattern || ok=1
	want_eq "state after clearing" stopped "$(cat $ENG/state)" || ok=1
	want_eq brightness 0 "$(cat $KB1/brightness)" || ok=1
	cleanup
	return $ok
}

stop_turns_off() {
	local ok=0
	write_ok software0 $KB1/trigger || return 1
	write_ok "$SQUARE" $ENG/pattern || ok=1
	write_ok run $ENG/state || ok=1
	sleep 0.35
	write_ok stop $ENG/state || ok=1
	emu_mark "stop"
	want_eq state stopped "$(cat $ENG/state)" || ok=1
	want_eq brightness 0 "$(cat $KB1/brightness)" || ok=1
	sleep 0.3
	emu_mark "stop end"
	cleanup
	return $ok
}

# kb2 is linked 1 s into a slow ramp that kb1 runs (127 of 255, rising
# 0.13 levels a ms, so a phase 50 ms off is 6 levels off): it joins at the
# level the run's clock says.  The marks around the run's write tell the
# check where that clock starts; the one before the link where to look.
late_join_in_phase() {
	local ok=0
	write_ok software0 $KB1/trigger || return 1
	write_ok "$RAMP" $ENG/pattern || ok=1
	emu_mark "late join run"
	write_ok run $ENG/state || ok=1
	emu_mark "late join running"
	sleep 1
	emu_mark "late join"
	write_ok software0 $KB2/trigger || ok=1
	# past the top and down the other side: both directions are judged
	sleep 3.2
	emu_mark "late join end"
	want_eq "leds/ entries" "lp5523:kb1 lp5523:kb2" "$(ls $ENG/leds | tr '\n' ' ' | sed 's/ $//')" || ok=1
	cleanup
	return $ok
}

# A new pattern while running restarts with it: 60 steady afterwards.
rewrite_while_running() {
	local ok=0
	write_ok software0 $KB1/trigger || return 1
	write_ok "$TRIANGLE" $ENG/pattern || ok=1
	write_ok run $ENG/state || ok=1
	sleep 0.3
	write_ok "60 100 60 100" $ENG/pattern || ok=1
	emu_mark "rewrite"
	want_eq state running "$(cat $ENG/state)" || ok=1
	want_eq pattern "60 100 60 100" "$(cat $ENG/pattern)" || ok=1
	sleep 0.5
	emu_mark "rewrite end"
	want_eq brightness 60 "$(cat $KB1/brightness)" || ok=1
	cleanup
	return $ok
}

# Unlinked (trigger none) the LED goes off and stops changing; linked
# again it follows the running pattern.
unlink_and_relink() {
	local ok=0
	write_ok software0 $KB1/trigger || return 1
	write_ok "$SQUARE" $ENG/pattern || ok=1
	write_ok run $ENG/state || ok=1
	sleep 0.3
	write_ok none $KB1/trigger || ok=1
	emu_mark "unlink"
	want_eq brightness 0 "$(cat $KB1/brightness)" || ok=1
	sleep 0.5
	emu_mark "relink"
	write_ok software0 $KB1/trigger || ok=1
	sleep 0.5
	emu_mark "relink end"
	cleanup
	return $ok
}

ktap_print_header
[ -e /proc/lockdep ] && ktap_print_msg "kernel: debug (lockdep), I2C writes slower"
if [ ! -d $ENG ] || [ ! -d $KB1 ]; then
	echo "1..0 # SKIP no software0 or no lp5523:kb1"
	exit 0
fi
ktap_set_plan 6
emu_mark "led_pattern_run begin"
ktap_test_result repeat_3_then_finished repeat_3_then_finished
ktap_test_result clear_finished_stops clear_finished_stops
ktap_test_result stop_turns_off stop_turns_off
ktap_test_result late_join_in_phase late_join_in_phase
ktap_test_result rewrite_while_running rewrite_while_running
ktap_test_result unlink_and_relink unlink_and_relink
emu_mark "led_pattern_run end"
ktap_finished
