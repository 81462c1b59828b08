#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The clients people already use for LEDs, Debian's own arm64 builds of
# brightnessctl and light (unpacked into the initramfs with the C library
# they link to), on the board's LEDs: they list them, set them, and read
# back what a pattern engine shows; setting 0 unlinks the LED from its
# engine, as the ABI says.  clients.check finds the values on the chip's
# outputs in the emulator timeline.  And a daemon's udev rule of
# feedbackd's shape (lib/led-rule.sh, run for every uevent by the
# kernel's uevent helper, as udevd runs rules): as shipped it undoes a
# link to a pattern engine, with the distribution's line from the user
# guide it leaves the link alone.
. /tests/lib/ktap.sh

ENG=/sys/class/led_pattern/software0
LEDS=/sys/class/leds

trigger_of() {
	sed -n 's/.*\[\([^]]*\)\].*/\1/p' "$LEDS/$1/trigger"
}

# brightnessctl -l -m: one "name,class,value,percent,max" line per device
brightnessctl_lists_leds() {
	local out ok=0 led
	out=$(brightnessctl -l -m 2>&1) || { echo "# brightnessctl -l -m: $out"; return 1; }
	for led in lp5523:kb1 lp5523:r lp5523:g lp5523:b board:green:user0; do
		echo "$out" | grep -q "^$led,leds," ||
			{ echo "# brightnessctl -l -m has no $led: $(echo "$out" | head -3)"; ok=1; }
	done
	echo "$out" | grep -q '^lp5523:kb1,leds,[0-9]*,[0-9]*%,255$' ||
		{ echo "# lp5523:kb1 line: $(echo "$out" | grep '^lp5523:kb1,')"; ok=1; }
	return $ok
}

light_lists_leds() {
	local out ok=0 led
	out=$(light -L 2>&1) || { echo "# light -L: $out"; return 1; }
	for led in lp5523:kb1 lp5523:r board:green:user0; do
		echo "$out" | grep -q "sysfs/leds/$led\$" ||
			{ echo "# light -L has no sysfs/leds/$led: $(echo "$out" | head -3)"; ok=1; }
	done
	return $ok
}

# set with the client, read back from sysfs and with the client
brightnessctl_sets() {
	local ok=0
	emu_mark "clients brightnessctl kb1 128"
	brightnessctl -q -d lp5523:kb1 set 128 || { echo "# brightnessctl set failed"; ok=1; }
	want_eq "kb1 brightness" 128 "$(cat $LEDS/lp5523:kb1/brightness)" || ok=1
	want_eq "brightnessctl get" 128 "$(brightnessctl -d lp5523:kb1 get)" || ok=1
	brightnessctl -q -d lp5523:kb1 set 25% || ok=1
	case $(cat $LEDS/lp5523:kb1/brightness) in
	63 | 64) ;;
	*) echo "# kb1 brightness after 25%: want 63 or 64 got $(cat $LEDS/lp5523:kb1/brightness)"; ok=1 ;;
	esac
	brightnessctl -q -d lp5523:kb1 set 0 || ok=1
	want_eq "kb1 brightness after 0" 0 "$(cat $LEDS/lp5523:kb1/brightness)" || ok=1
	emu_mark "clients brightnessctl end"
	return $ok
}

light_sets() {
	local ok=0
	emu_mark "clients light kb2 64"
	light -r -s sysfs/leds/lp5523:kb2 -S 64 || { echo "# light -S failed"; ok=1; }
	want_eq "kb2 brightness" 64 "$(cat $LEDS/lp5523:kb2/brightness)" || ok=1
	want_eq "light -G" 64 "$(light -r -s sysfs/leds/lp5523:kb2 -G)" || ok=1
	light -r -s sysfs/leds/lp5523:kb2 -S 0 || ok=1
	want_eq "kb2 brightness after 0" 0 "$(cat $LEDS/lp5523:kb2/brightness)" || ok=1
	emu_mark "clients light end"
	return $ok
}

# Link r and g to software0, a pattern that holds red 64 / green 16,
# then red 192 / green 48, half a second each.
start_engine() {
	echo stop > $ENG/state
	write_ok '#401000 500 #401000 0 #c03000 500 #c03000 0' $ENG/pattern || return 1
	write_ok software0 $LEDS/lp5523:r/trigger || return 1
	write_ok software0 $LEDS/lp5523:g/trigger || return 1
	write_ok run $ENG/state
}

stop_engine() {
	echo stop > $ENG/state
	echo none > $LEDS/lp5523:r/trigger
	echo none > $LEDS/lp5523:g/trigger
	echo > $ENG/pattern
}

# Reading a linked LED with a client shows the engine's level: only the
# pattern's two levels, and both of them over two periods.
clients_read_engine_level() {
	local i v w seen_lo=0 seen_hi=0 ok=0
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
		v=$(brightnessctl -d lp5523:r get)
		w=$(light -r -s sysfs/leds/lp5523:g -G)
		case $v in
		64) seen_lo=1 ;;
		192) seen_hi=1 ;;
		*) echo "# brightnessctl get on linked r: $v, want 64 or 192"; ok=1 ;;
		esac
		case $w in
		16 | 48) ;;
		*) echo "# light -G on linked g: $w, want 16 or 48"; ok=1 ;;
		esac
		sleep 0.25
	done
	[ $seen_lo = 1 ] && [ $seen_hi = 1 ] ||
		{ echo "# levels seen: 64 $seen_lo, 192 $seen_hi"; ok=1; }
	return $ok
}

# brightnessctl set 0 (and light -S 0) on a linked LED unlinks it: trigger
# none, gone from the engine's leds/, off; the other LED keeps running.
clients_zero_unlinks() {
	local ok=0
	emu_mark "clients unlink r"
	brightnessctl -q -d lp5523:r set 0 || { echo "# brightnessctl set 0 failed"; ok=1; }
	want_eq "r trigger" none "$(trigger_of lp5523:r)" || ok=1
	want_eq "r in $ENG/leds" no "$([ -e $ENG/leds/lp5523:r ] && echo yes || echo no)" || ok=1
	want_eq "r brightness" 0 "$(cat $LEDS/lp5523:r/brightness)" || ok=1
	want_eq "g trigger" software0 "$(trigger_of lp5523:g)" || ok=1
	want_eq "$ENG state" running "$(cat $ENG/state)" || ok=1
	sleep 1
	want_eq "r brightness 1 s later" 0 "$(cat $LEDS/lp5523:r/brightness)" || ok=1
	light -r -s sysfs/leds/lp5523:g -S 0 || { echo "# light -S 0 failed"; ok=1; }
	want_eq "g trigger" none "$(trigger_of lp5523:g)" || ok=1
	want_eq "g brightness" 0 "$(cat $LEDS/lp5523:g/brightness)" || ok=1
	emu_mark "clients unlink end"
	return $ok
}

# start_rule <shipped|distribution>: lib/led-rule.sh on every uevent, run
# by the kernel's uevent helper (the board has no networking, so no
# netlink for a udevd), with the uevent's variables as udevd gets them
start_rule() {
	echo "$1" > /tmp/led-rule
	: > /tmp/led-rule.log
	echo /tests/lib/led-rule.sh > /sys/kernel/uevent_helper
}

stop_rule() {
	echo > /sys/kernel/uevent_helper
	echo none > $LEDS/lp5523:r/trigger
}

# await <command>...: true within 2 s, a uevent's rule run taking well
# under that on the board; else false
await() {
	local i=0
	while [ $i -lt 20 ]; do
		"$@" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

trigger_is() {
	[ "$(trigger_of "$1")" = "$2" ]
}

rule_logged() {
	grep -q "^$1\$" /tmp/led-rule.log ||
		{ echo "# the rule did not log \"$1\": $(tr '\n' ';' < /tmp/led-rule.log)"; return 1; }
}

# rule_links <rule>: r set up as the daemon does at coldplug (a "change"
# uevent, as `udevadm trigger` sends: the rule sets "pattern"), then
# linked to software0; true when the rule logged its answer to the
# link's uevent ("change lp5523:r software0 <what it did>")
rule_links() {
	local ok=0
	echo none > $LEDS/lp5523:r/trigger
	start_rule "$1"
	write_ok change $LEDS/lp5523:r/uevent || ok=1
	await trigger_is lp5523:r pattern ||
		{ echo "# coldplug: r's trigger is $(trigger_of lp5523:r), not pattern"; ok=1; }
	# the uevent helper runs apart from the writer (and the debug kernel
	# slowly): wait for the rule's answer to its own write of "pattern",
	# the end of the coldplug's chain, before the link
	await grep -q "^change lp5523:r pattern \(kept\|left\)$" /tmp/led-rule.log ||
		await grep -q "^change lp5523:r pattern \(kept\|left\)$" /tmp/led-rule.log ||
		{ echo "# no answer of the rule to its own write: $(tr '\n' ';' < /tmp/led-rule.log)"; ok=1; }
	write_ok software0 $LEDS/lp5523:r/trigger || ok=1
	await grep -q "^change lp5523:r software0 " /tmp/led-rule.log ||
		{ echo "# no answer of the rule to the link's uevent: $(tr '\n' ';' < /tmp/led-rule.log)"; ok=1; }
	return $ok
}

udev_rule_undoes_link() {
	local ok=0
	rule_links shipped || ok=1
	rule_logged "change lp5523:r software0 set" || ok=1
	await trigger_is lp5523:r pattern ||
		{ echo "# the shipped rule left r on $(trigger_of lp5523:r)"; ok=1; }
	stop_rule
	return $ok
}

udev_rule_keeps_link() {
	local ok=0
	rule_links distribution || ok=1
	rule_logged "change lp5523:r software0 left" || ok=1
	# a second for the rule to act on anything else
	sleep 1
	want_eq "r's trigger under the distribution's rule" software0 \
		"$(trigger_of lp5523:r)" || ok=1
	stop_rule
	return $ok
}

ktap_print_header
ktap_set_plan 8
for c in brightnessctl light; do
	command -v $c > /dev/null || ktap_exit_fail_msg "no $c in the initramfs"
done
ktap_test_result brightnessctl_lists_leds brightnessctl_lists_leds
ktap_test_result light_lists_leds light_lists_leds
ktap_test_result brightnessctl_sets brightnessctl_sets
ktap_test_result light_sets light_sets
# The board always has software0: an engine that is missing or will not
# take the pattern and the LEDs is a failure of both tests, never a skip.
if [ ! -d $ENG ]; then
	ktap_test_fail clients_read_engine_level "no $ENG on the board"
	ktap_test_fail clients_zero_unlinks "no $ENG on the board"
elif ! start_engine; then
	ktap_test_fail clients_read_engine_level "start_engine: a write above failed"
	ktap_test_fail clients_zero_unlinks "$ENG did not start"
else
	ktap_test_result clients_read_engine_level clients_read_engine_level
	ktap_test_result clients_zero_unlinks clients_zero_unlinks
fi
stop_engine 2> /dev/null
if [ ! -d $ENG ] || [ ! -w /sys/kernel/uevent_helper ]; then
	ktap_test_fail udev_rule_undoes_link "no $ENG or no uevent helper"
	ktap_test_fail udev_rule_keeps_link "no $ENG or no uevent helper"
else
	ktap_test_result udev_rule_undoes_link udev_rule_undoes_link
	ktap_test_result udev_rule_keeps_link udev_rule_keeps_link
fi
ktap_finished
