#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The board's second LP5523 (0x33, label "ring", dts/board.dts): a
# multicolor LED ring:rgb on D1-D3 and six white segments.  Its engines are
# ring:engine1..3, offered to its own LEDs only; a colour pattern shows on
# the multicolor LED through its channels, from a software engine and from
# the chip's engines, alike to the same pattern on the N900 indicator's
# three separate LEDs; patterns run on both chips at once, and one chip
# unbound leaves the other running.  ring.check compares the channels on
# the emulator's timeline (0x33's D1-D9 are outputs 10-18).
. /tests/lib/ktap.sh
. /tests/lib/lp5523.sh

CLS=/sys/class/led_pattern
L=/sys/class/leds
SW=$CLS/software0
RE1=$CLS/ring:engine1
NE1=$CLS/lp5523:engine1
RGB=$L/ring:rgb
SEP="lp5523:r lp5523:g lp5523:b"
# each component rises while the one before falls: every channel differs
WHEEL="#ff0000 500 #00ff00 500 #0000ff 500"
RING_CHIP=0-0033

trigger_of() {
	sed -n 's/.*\[\([^]]*\)\].*/\1/p' "$1/trigger"
}

quiet() {
	local led e
	for led in $L/ring:* $L/lp5523:r $L/lp5523:g $L/lp5523:b; do
		echo none > "$led/trigger" 2>/dev/null
		echo 0 > "$led/brightness" 2>/dev/null
	done
	for e in $SW $RE1 $NE1; do
		echo stop > $e/state 2>/dev/null
		echo "" > $e/pattern 2>/dev/null
	done
}

ring_bound() {
	[ -e $LP5523_DRV/$RING_CHIP ]
}

names() {
	local ok=0 e led
	for e in 1 2 3; do
		[ -d $CLS/ring:engine$e ] || { echo "# no ring:engine$e"; ok=1; }
		[ -d $CLS/lp5523:engine$e ] || { echo "# no lp5523:engine$e"; ok=1; }
	done
	want_eq "ring:rgb multi_index" "red green blue" "$(cat $RGB/multi_index)" || ok=1
	for led in ring:white:1 ring:white:6; do
		[ -d $L/$led ] || { echo "# no $led"; ok=1; }
	done
	return $ok
}

# each chip's engines are offered to its own LEDs only
trigger_lists() {
	local ok=0 led
	for led in ring:rgb ring:white:1; do
		grep -q 'ring:engine1' $L/$led/trigger || { echo "# $led: no ring:engine1"; ok=1; }
		grep -q 'lp5523:engine' $L/$led/trigger && { echo "# $led offers lp5523's engines"; ok=1; }
	done
	grep -q 'ring:engine' $L/lp5523:kb1/trigger && { echo "# lp5523:kb1 offers ring's engines"; ok=1; }
	grep -q 'software0' $L/ring:rgb/trigger || { echo "# ring:rgb: no software0"; ok=1; }
	write_err EINVAL ring:engine1 $L/lp5523:kb1/trigger || ok=1
	return $ok
}

# software0 runs the wheel on the multicolor LED and on the indicator's
# three LEDs in the same ticks
software_wheel() {
	local ok=0 a b
	engine_link software0 ring:rgb $SEP || ok=1
	write_ok "$WHEEL" $SW/pattern || ok=1
	# the wheel starts at red with the run: ring.check fits its phase
	# against this mark, which a rotation of the channels moves by 500 ms
	emu_mark "ring sw run"
	write_ok run $SW/state || ok=1
	sleep 0.3
	emu_mark "ring sw begin"
	a=$(cat $RGB/multi_intensity)
	sleep 3
	b=$(cat $RGB/multi_intensity)
	emu_mark "ring sw end"
	want_eq "ring:rgb brightness" 255 "$(cat $RGB/brightness)" || ok=1
	[ "$a" != "$b" ] || { echo "# multi_intensity stayed \"$a\""; ok=1; }
	echo "# multi_intensity \"$a\" then \"$b\""
	quiet
	return $ok
}

# colour_seen: within 2 s, a read of ring:rgb's multi_intensity with a
# channel at 255
colour_seen() {
	local i=0
	while [ $i -lt 100 ]; do
		case " $(cat $RGB/multi_intensity) " in
		*" 255 "*) return 0 ;;
		esac
		sleep 0.02
		i=$((i + 1))
	done
	return 1
}

# multi_intensity stays the user's: a colour shown through it (software0's
# wheel, heartbeat-rgb) changes it while the trigger runs, and the user's
# values come back with the trigger's removal.  A multicolor LED shows
# every colour through its channels: it has no color_component.
user_intensities() {
	local ok=0 before mine="200 100 50"
	before=$(cat $RGB/multi_intensity)
	[ ! -e $RGB/color_component ] || { echo "# ring:rgb has a color_component"; ok=1; }
	write_ok "$mine" $RGB/multi_intensity || ok=1
	engine_link software0 ring:rgb || ok=1
	write_ok "$WHEEL" $SW/pattern || ok=1
	write_ok run $SW/state || ok=1
	sleep 0.4
	[ "$(cat $RGB/multi_intensity)" != "$mine" ] ||
		{ echo "# the wheel left multi_intensity at \"$mine\""; ok=1; }
	write_ok none $RGB/trigger || ok=1
	want_eq "multi_intensity after the wheel" "$mine" "$(cat $RGB/multi_intensity)" || ok=1
	write_ok heartbeat-rgb $RGB/trigger || ok=1
	# inverted, the colour shows between the beats, most of the time: the
	# load's hue at full value, one channel at 255 (max_brightness)
	write_ok 1 $RGB/invert || ok=1
	if ! colour_seen; then
		echo "# heartbeat-rgb: no channel at 255 in 2 s of multi_intensity"
		ok=1
	fi
	write_ok none $RGB/trigger || ok=1
	want_eq "multi_intensity after heartbeat-rgb" "$mine" "$(cat $RGB/multi_intensity)" || ok=1
	write_ok "$before" $RGB/multi_intensity || ok=1
	quiet
	return $ok
}

# the same wheel in the chips: ring:engine1 on the multicolor LED (three
# curves, three engines), lp5523:engine1 on the three separate LEDs; both
# chips at once, no I2C while they run
hardware_wheel() {
	local ok=0
	engine_link ring:engine1 ring:rgb || ok=1
	engine_link lp5523:engine1 $SEP || ok=1
	write_ok "$WHEEL" $RE1/pattern || ok=1
	write_ok "$WHEEL" $NE1/pattern || ok=1
	emu_mark "ring hw run"
	write_ok run $RE1/state || ok=1
	write_ok run $NE1/state || ok=1
	want_eq "ring:engine2 channels (lent)" 0 "$(cat $CLS/ring:engine2/channels)" || ok=1
	want_eq "lp5523:engine2 channels (lent)" 0 "$(cat $CLS/lp5523:engine2/channels)" || ok=1
	sleep 0.3
	emu_mark "ring hw begin"
	sleep 3.2
	emu_mark "ring hw end"
	return $ok
}

# the ring chip unbound while both run: lp5523's engine goes on, the
# ring's LEDs and engines go; bound again, they come back stopped
unbind_ring() {
	local ok=0
	write_ok $RING_CHIP $LP5523_DRV/unbind || return 1
	[ -d $RE1 ] && { echo "# ring:engine1 still there"; ok=1; }
	[ -d $RGB ] && { echo "# ring:rgb still there"; ok=1; }
	want_eq "lp5523:engine1 state" running "$(cat $NE1/state)" || ok=1
	emu_mark "ring unbound begin"
	sleep 1.6
	emu_mark "ring unbound end"
	want_eq "lp5523:engine1 state" running "$(cat $NE1/state)" || ok=1
	write_ok $RING_CHIP $LP5523_DRV/bind || return 1
	want_eq "ring:engine1 state" stopped "$(cat $RE1/state)" || ok=1
	want_eq "ring:rgb trigger" none "$(trigger_of $RGB)" || ok=1
	quiet
	emu_mark "ring idle begin"
	sleep 0.5
	emu_mark "ring idle end"
	return $ok
}

ktap_print_header
[ -e /proc/lockdep ] && ktap_print_msg "kernel: debug (lockdep, KASAN), writes held longer"
if ! ring_bound || [ -z "$(lp5523_chip)" ] || [ ! -d $SW ]; then
	echo "1..0 # SKIP needs both LP5523s bound and software0"
	exit 0
fi
quiet
ktap_set_plan 6
ktap_test_result ring_names names
ktap_test_result ring_trigger_lists_per_chip trigger_lists
ktap_test_result ring_multicolor_software software_wheel
ktap_test_result ring_multicolor_user_intensities user_intensities
ktap_test_result ring_multicolor_hardware_both_chips hardware_wheel
ktap_test_result ring_unbind_one_chip_other_runs unbind_ring
quiet
ktap_finished
