#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ledtrig-pattern's hw_pattern on LP5523 LEDs: the pattern runs in a free
# program engine of the chip (compiled like a pattern engine's), shares the
# engines with the pattern engines and the engineN_* files under -EBUSY,
# and stops with the trigger, the LED or the driver.  The guest side checks
# sysfs, errno and the kernel log; lp5523_hw_pattern.check checks the
# emulator's timeline between the marks (the blink's edges and the ramp's
# levels, no I2C message while they run, outputs off after).
. /tests/lib/ktap.sh
. /tests/lib/lp5523.sh

CLS=/sys/class/led_pattern
E1=$CLS/lp5523:engine1
L=/sys/class/leds
KB1=$L/lp5523:kb1
KB2=$L/lp5523:kb2
KB3=$L/lp5523:kb3
KB4=$L/lp5523:kb4
BLINK="255 500 255 0 0 500 0 0"
RAMP="0 1000 255 1000"

# hw_pattern <led> <pattern>: the pattern trigger and the pattern, with
# ledtrig-pattern's default repeat (for ever); kb4 below writes -1 itself
hw_pattern() {
	write_ok pattern "$1/trigger" && write_ok "$2" "$1/hw_pattern"
}

clear_all() {
	local led
	for led in $L/lp5523:*; do
		echo none > "$led/trigger" 2>/dev/null
		echo 0 > "$led/brightness" 2>/dev/null
	done
	echo stop > $E1/state 2>/dev/null
	echo "" > $E1/pattern 2>/dev/null
}

want_log() {
	dmesg_since | grep -q -- "$1" && return 0
	echo "# no log line with \"$1\"; log since: $(dmesg_since | tail -3 | tr '\n' '|')"
	return 1
}

offered() {
	local ok=0
	[ -e $KB1/hw_pattern ] || { write_ok pattern $KB1/trigger || ok=1; }
	[ -e $KB1/hw_pattern ] || { echo "# no hw_pattern on lp5523:kb1"; ok=1; }
	clear_all
	return $ok
}

# a blink on kb1 and a ramp on kb2 run in two engines; the timeline is
# checked between the marks
runs_in_the_chip() {
	local ok=0
	hw_pattern $KB1 "$BLINK" || ok=1
	hw_pattern $KB2 "$RAMP" || ok=1
	want_eq "kb1 hw_pattern" "$BLINK" "$(cat $KB1/hw_pattern)" || ok=1
	sleep 0.2
	emu_mark "hwp run begin"
	sleep 4.2
	emu_mark "hwp run end"
	return $ok
}

# kb1 and kb2 hold engines 1 and 2: the pattern engine of engine1 and the
# engineN_* files get -EBUSY naming kb1's hw_pattern; a third hw_pattern
# takes engine3, a fourth finds none
arbitrates() {
	local ok=0 c
	c=$(lp5523_chip)
	dmesg_mark
	write_ok "$RAMP" $E1/pattern || ok=1
	write_err EBUSY run $E1/state || ok=1
	want_log "engine1 is used by lp5523:kb1's hw_pattern" || ok=1
	want_eq "engine1 channels" 0 "$(cat $E1/channels)" || ok=1
	write_err EBUSY 2 "$c/select_engine" || ok=1
	hw_pattern $KB3 "$RAMP" || ok=1
	dmesg_mark
	write_ok pattern $KB4/trigger || ok=1
	write_ok -1 $KB4/repeat || ok=1
	write_err EBUSY "$RAMP" $KB4/hw_pattern || ok=1
	want_log "lp5523:kb4: hw_pattern: no free engine; used: engine1 (lp5523:kb1's hw_pattern)" || ok=1
	return $ok
}

# a pattern engine that runs first keeps its engine from hw_pattern
engine_first() {
	local ok=0
	clear_all
	write_ok "$RAMP" $E1/pattern || ok=1
	write_ok lp5523:engine1 $KB4/trigger || ok=1
	write_ok run $E1/state || ok=1
	hw_pattern $KB1 "$BLINK" || ok=1
	dmesg_mark
	hw_pattern $KB2 "$BLINK" || ok=1
	want_eq "engine1 state" running "$(cat $E1/state)" || ok=1
	write_ok pattern $KB3/trigger || ok=1
	write_err EBUSY "$BLINK" $KB3/hw_pattern || ok=1
	want_log "used: engine1 (lp5523:engine1)" || ok=1
	clear_all
	return $ok
}

# a ramp steeper than the chip's step refuses with -EINVAL and a log line;
# the LED's previous pattern is gone (ledtrig-pattern clears it first)
refuses_bad() {
	local ok=0
	dmesg_mark
	write_ok pattern $KB1/trigger || ok=1
	write_err EINVAL "0 10 255 10" $KB1/hw_pattern || ok=1
	[ -n "$(dmesg_since)" ] || { echo "# no log line"; ok=1; }
	clear_all
	return $ok
}

# the trigger cleared, the LED's brightness written, or the driver unbound
# while it runs: outputs go off and the engines are free again
stops() {
	local ok=0 c
	c=$(lp5523_chip_name)
	hw_pattern $KB1 "$BLINK" || ok=1
	hw_pattern $KB2 "$RAMP" || ok=1
	hw_pattern $KB3 "$RAMP" || ok=1
	sleep 0.3
	# each stop seen on the chip before the next (the check): the output
	# dark and still while the others run on
	write_ok none $KB1/trigger || ok=1
	emu_mark "hwp trigger none begin"
	sleep 1.2
	emu_mark "hwp trigger none end"
	write_ok 0 $KB2/brightness || ok=1
	emu_mark "hwp brightness 0 begin"
	sleep 1.2
	emu_mark "hwp brightness 0 end"
	# engines 1 and 2 are free again, kb3 holds the third
	want_eq "engine1 channels" 2 "$(cat $E1/channels)" || ok=1
	write_ok "$c" $LP5523_DRV/unbind || return 1
	lp5523_bind "$c" || return 1
	for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		[ -d $KB3 ] && [ -d $E1 ] && break
		sleep 0.1
	done
	want_eq "engine1 channels after rebind" 3 "$(cat $E1/channels)" || ok=1
	emu_mark "hwp idle begin"
	sleep 0.5
	emu_mark "hwp idle end"
	lp5523_check_idle || ok=1
	return $ok
}

ktap_print_header
if [ -z "$(lp5523_chip)" ] || [ ! -d $E1 ]; then
	echo "1..0 # SKIP needs a bound lp5523 with its pattern engines"
	exit 0
fi
clear_all
ktap_set_plan 6
ktap_test_result hw_pattern_offered offered
ktap_test_result hw_pattern_runs_in_the_chip runs_in_the_chip
ktap_test_result hw_pattern_arbitrates_with_ebusy arbitrates
ktap_test_result hw_pattern_after_an_engine engine_first
ktap_test_result hw_pattern_refuses_too_steep refuses_bad
ktap_test_result hw_pattern_stops_with_trigger_brightness_unbind stops
clear_all
ktap_finished
