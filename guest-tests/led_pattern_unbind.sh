#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The LP5523's driver goes away (unbind) while software0 drives two of its
# LEDs and a GPIO LED, and the chip's engine2 a finite run on a third: no
# oops, the engine's leds/ loses the LP5523 LEDs and keeps running the GPIO
# one.  Binding the driver again brings the LEDs back, and they link
# again.  The driver also goes away while select_engine's firmware request
# is pending; the firmware arriving afterwards loads nothing.  Once unbind
# returns, nothing writes to the chip until the next bind
# (led_pattern_unbind.check: the emulator's I2C counts between the marks).
. /tests/lib/ktap.sh
. /tests/lib/lp5523.sh

ENG=/sys/class/led_pattern/software0
HW=/sys/class/led_pattern/lp5523:engine2
FW=/sys/class/firmware
DRV=/sys/bus/i2c/drivers/lp5523x
GPIO_LED=board:green:user0
SPLATS='WARNING:|BUG:|Oops|Unable to handle|Call trace:|KASAN|circular locking|sleeping function called'

chip_name() {
	local c
	c=$(ls -d $DRV/*-0032 2>/dev/null | head -1)
	[ -n "$c" ] && basename "$c"
}

leds_of_engine() {
	ls $ENG/leds | tr '\n' ' ' | sed 's/ $//'
}

link_three() {
	local led ok=0
	for led in lp5523:kb1 lp5523:kb2 $GPIO_LED; do
		write_ok software0 /sys/class/leds/$led/trigger || ok=1
	done
	write_ok "0 200 255 200" $ENG/pattern || ok=1
	write_ok run $ENG/state || ok=1
	want_eq "leds/" "$GPIO_LED lp5523:kb1 lp5523:kb2" "$(leds_of_engine)" || ok=1
	return $ok
}

# The GPIO LED blinks (on from 128): sample it over a few periods.
gpio_led_blinks() {
	local i seen=
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		seen="$seen$(cat /sys/class/leds/$GPIO_LED/brightness)"
		sleep 0.07
	done
	case $seen in
	*0*1* | *1*0*) return 0 ;;
	esac
	echo "# $GPIO_LED brightness samples: $seen"
	return 1
}

# the chip's engine2 on kb3, a 10 s run: its end is still ahead at the
# unbind, so the driver's wake-up for it (finish_work) is pending
hw_finite_run() {
	[ -d $HW ] || return 0
	write_ok lp5523:engine2 /sys/class/leds/lp5523:kb3/trigger &&
		write_ok "0 250 255 250" $HW/pattern &&
		write_ok 20 $HW/repeat &&
		write_ok run $HW/state
}

unbind_while_running() {
	local chip ok=0
	chip=$(chip_name)
	[ -n "$chip" ] || { echo "# no lp5523 bound"; return 1; }
	hw_finite_run || ok=1
	sleep 0.3
	dmesg_mark
	write_ok "$chip" $DRV/unbind || return 1
	emu_mark "unbind unbound"
	want_eq "leds/ after unbind" "$GPIO_LED" "$(leds_of_engine)" || ok=1
	want_eq state running "$(cat $ENG/state)" || ok=1
	gpio_led_blinks || ok=1
	emu_mark "unbind unbound end"
	if dmesg_since | grep -qE "$SPLATS"; then
		dmesg_since | grep -E "$SPLATS" | head -3 | sed 's/^/# /'
		ok=1
	fi
	lp5523_bind "$chip" || ok=1
	return $ok
}

relink_after_bind() {
	local i ok=0
	for i in 1 2 3 4 5 6 7 8 9 10; do
		[ -d /sys/class/leds/lp5523:kb1 ] && break
		sleep 0.1
	done
	write_ok software0 /sys/class/leds/lp5523:kb1/trigger || return 1
	want_eq "leds/ after bind" "$GPIO_LED lp5523:kb1" "$(leds_of_engine)" || ok=1
	return $ok
}

# select_engine 2 requests the chip's firmware; the board has none in
# /lib/firmware, so the request waits in the firmware loader's sysfs
# fallback (up to its timeout).  The driver goes away, then the firmware
# arrives: it loads nothing (no I2C message between the marks, the check),
# one line says so, no splat.
unbind_cancels_firmware() {
	local c chip d i n ok=0
	chip=$(chip_name)
	c=$DRV/$chip
	[ -e $FW/timeout ] || { echo "# no firmware sysfs fallback ($FW)"; return 1; }
	echo 30 > $FW/timeout
	write_ok 2 "$c/select_engine" || return 1
	for i in $(seq 50); do
		d=$(ls -d $FW/lp5523* 2>/dev/null | head -1)
		[ -n "$d" ] && break
		sleep 0.1
	done
	[ -n "$d" ] || { echo "# no firmware request in $FW after select_engine"; return 1; }
	dmesg_mark
	write_ok "$chip" $DRV/unbind || return 1
	emu_mark "unbind firmware unbound"
	# mux_map_next; set_pwm 255; end
	echo 1 > "$d/loading"
	printf '9d8040ffc000' > "$d/data"
	echo 0 > "$d/loading"
	for i in $(seq 30); do
		[ -e "$d" ] || break
		sleep 0.1
	done
	sleep 0.5
	emu_mark "unbind firmware fed"
	[ ! -e "$d" ] || { echo "# the firmware request $d still pending"; ok=1; }
	if dmesg_since | grep -qE "$SPLATS"; then
		dmesg_since | grep -E "$SPLATS" | head -3 | sed 's/^/# /'
		ok=1
	fi
	n=$(dmesg_since | grep -c 'firmware for engine2 not loaded: the driver was unbound')
	if [ "$n" != 1 ]; then
		echo "# want one line saying the firmware was not loaded, got $n:"
		dmesg_since | grep -E 'lp55|firmware' | head -5 | sed 's/^/#   /'
		ok=1
	fi
	echo 60 > $FW/timeout
	lp5523_bind "$chip" || ok=1
	want_eq "engine2_mode after the bind" disabled "$(cat "$DRV/$chip/engine2_mode" 2>&1)" || ok=1
	return $ok
}

cleanup() {
	local led ok=0
	write_ok stop $ENG/state || ok=1
	write_ok "" $ENG/pattern || ok=1
	for led in lp5523:kb1 $GPIO_LED; do
		write_ok none /sys/class/leds/$led/trigger || ok=1
	done
	want_eq "leds/ at the end" "" "$(leds_of_engine)" || ok=1
	return $ok
}

ktap_print_header
if [ ! -d $ENG ] || [ -z "$(chip_name)" ] || [ ! -d /sys/class/leds/$GPIO_LED ]; then
	echo "1..0 # SKIP needs software0, a bound lp5523 and $GPIO_LED"
	exit 0
fi
ktap_set_plan 6
ktap_test_result link_lp5523_and_gpio_leds link_three
ktap_test_result gpio_led_runs gpio_led_blinks
ktap_test_result unbind_lp5523_while_running unbind_while_running
ktap_test_result relink_after_bind relink_after_bind
ktap_test_result unbind_cancels_select_engine_firmware unbind_cancels_firmware
ktap_test_result cleanup cleanup
ktap_finished
