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
