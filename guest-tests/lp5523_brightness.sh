#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A brightness write on each LP5523 channel: sysfs reads it back here, and
# lp5523_brightness.check finds it on the right output of the emulator's
# timeline between the marks.
. /tests/lib/ktap.sh

# LED name, output D1..D9, value written (distinct per output)
CHANNELS='lp5523:kb1 1 11
lp5523:kb2 2 22
lp5523:kb3 3 33
lp5523:kb4 4 44
lp5523:b 5 55
lp5523:g 6 66
lp5523:r 7 77
lp5523:kb5 8 88
lp5523:kb6 9 99'

write_each() {
	local name out val ok=0
	while read -r name out val; do
		emu_mark "brightness $name $val"
		write_ok "$val" "/sys/class/leds/$name/brightness" || ok=1
		want_eq "$name brightness" "$val" "$(cat /sys/class/leds/$name/brightness)" || ok=1
		sleep 0.05
	done <<-EOF2
	$CHANNELS
	EOF2
	return $ok
}

clear_all() {
	local name out val ok=0
	while read -r name out val; do
		write_ok 0 "/sys/class/leds/$name/brightness" || ok=1
	done <<-EOF2
	$CHANNELS
	EOF2
	return $ok
}

# a mark while another process holds the control port (a suite's load
# sampler marking): the port opens once at a time, emu_ctl waits for it
mark_shared_port() {
	local holder ok=0
	(exec 3<>/dev/lp5523-ctl; sleep 0.5) &
	holder=$!
	sleep 0.1
	emu_mark "lp5523_brightness shared port" || ok=1
	wait $holder
	return $ok
}

ktap_print_header
ktap_set_plan 4
ktap_test_result control_channel_present test -e /dev/lp5523-ctl
ktap_test_result mark_while_port_held mark_shared_port
emu_mark "lp5523_brightness begin"
ktap_test_result brightness_readback_each_channel write_each
sleep 0.05
emu_mark "brightness clear"
ktap_test_result brightness_zero_each_channel clear_all
sleep 0.05
emu_mark "lp5523_brightness end"
ktap_finished
