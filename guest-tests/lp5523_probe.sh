#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The stock leds-lp5523 driver probes the emulated chip and registers the
# nine N900 LEDs with their names and colours from the board's tree.
. /tests/lib/ktap.sh
. /tests/lib/lp5523.sh

# reg chan-name color (LED_COLOR_ID_*: white 0, red 1, green 2, blue 3)
N900_LEDS='0 lp5523:kb1 0
1 lp5523:kb2 0
2 lp5523:kb3 0
3 lp5523:kb4 0
4 lp5523:b 3
5 lp5523:g 2
6 lp5523:r 1
7 lp5523:kb5 0
8 lp5523:kb6 0'


check_probed() {
	[ -n "$(lp5523_chip)" ] && return 0
	echo "# no lp5523x device bound at 0x32"
	boot_log | grep -i lp55 | sed 's/^/# /'
	return 1
}

# The kernel log of the boot, up to /init: later suites provoke errors on
# purpose (lp5523_faults rebinds the driver against a stuck chip).
boot_log() {
	dmesg | sed '/Run \/init as init process/q'
}

check_no_probe_error() {
	local err
	# (not KUnit's summary of a suite named lp55..., "pass:N fail:0")
	err=$(boot_log | grep -i -E 'lp55.*(fail|error|could not)' |
	      grep -v -E 'pass:[0-9]+ fail:0 ')
	[ -z "$err" ] && return 0
	echo "$err" | sed 's/^/# /'
	return 1
}

# The DT colour of each LED node, read as a 32-bit big-endian cell.
dt_color() {
	local node
	for node in /sys/firmware/devicetree/base/virtio_mmio@a003e00/i2c/led-controller@32/led@"$1"; do
		od -An -tx1 "$node/color" | tr -d ' \n'
	done
}

check_leds() {
	local reg name color dir ok=0 got
	while read -r reg name color; do
		dir=/sys/class/leds/$name
		if [ ! -d "$dir" ]; then
			echo "# $name: missing"
			ok=1
			continue
		fi
		want_eq "$name max_brightness" 255 "$(cat "$dir/max_brightness")" || ok=1
		got=$(dt_color "$reg")
		want_eq "$name DT color" "$(printf '%08x' "$color")" "$got" || ok=1
	done <<-EOF2
	$N900_LEDS
	EOF2
	return $ok
}

check_count() {
	want_eq "LP5523 LEDs" 9 "$(ls -d /sys/class/leds/lp5523:* | wc -l)"
}

ktap_print_header
ktap_set_plan 4
ktap_test_result lp5523_probed check_probed
ktap_test_result lp5523_no_probe_error check_no_probe_error
ktap_test_result lp5523_nine_leds check_count
ktap_test_result lp5523_n900_names_and_colors check_leds
ktap_finished
