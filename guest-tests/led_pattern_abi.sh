#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# /sys/class/led_pattern: the software engines' attributes, pattern
# read-back, every error of the ABI (errno, one log line naming what to
# change, nothing changed), and linking through the LED trigger.
. /tests/lib/ktap.sh

ENG=/sys/class/led_pattern/software0
LED=lp5523:kb1
LEDDIR=/sys/class/leds/$LED

# software0..N-1 and no softwareN, N from led_pattern_software.engines on
# the command line (make check's 1-CPU boot asks for 3), else the default 2
engines_listed() {
	local n i ok=0
	n=$(sed -n 's/.*led_pattern_software\.engines=\([0-9]*\).*/\1/p' /proc/cmdline)
	n=${n:-2}
	i=0
	while [ $i -lt "$n" ]; do
		want_eq software$i yes "$([ -d /sys/class/led_pattern/software$i ] && echo yes)" || ok=1
		i=$((i + 1))
	done
	want_eq software$n no "$([ -e /sys/class/led_pattern/software$n ] && echo yes || echo no)" || ok=1
	return $ok
}

software_attributes() {
	local ok=0
	want_eq type software "$(cat $ENG/type)" || ok=1
	want_eq max_steps 1023 "$(cat $ENG/max_steps)" || ok=1
	want_eq resolution_us 1 "$(cat $ENG/resolution_us)" || ok=1
	want_eq channels 3 "$(cat $ENG/channels)" || ok=1
	want_eq repeat -1 "$(cat $ENG/repeat)" || ok=1
	want_eq state stopped "$(cat $ENG/state)" || ok=1
	want_eq "leds/ directory" yes "$([ -d $ENG/leds ] && echo yes)" || ok=1
	want_eq "program file" absent "$([ -e $ENG/program ] && echo present || echo absent)" || ok=1
	want_eq "debugfs directory" absent \
		"$([ -e /sys/kernel/debug/led_pattern/software0 ] && echo present || echo absent)" || ok=1
	want_eq "device link" absent "$([ -e $ENG/device ] && echo present || echo absent)" || ok=1
	return $ok
}

trigger_offered() {
	grep -q '\bsoftware0\b' $LEDDIR/trigger &&
		grep -q '\bsoftware1\b' /sys/class/leds/board::user1/trigger
}

pattern_readback_normalised() {
	local ok=0
	write_ok "  0255 500	#FF00fF  0
 00 500 #000000 0 " $ENG/pattern || ok=1
	want_eq pattern "255 500 #ff00ff 0 0 500 #000000 0" "$(cat $ENG/pattern)" || ok=1
	write_ok "" $ENG/pattern || ok=1
	want_eq "empty pattern" "" "$(cat $ENG/pattern)" || ok=1
	return $ok
}

# bad_write <errno> <value> <file> <log text>: the write fails with errno,
# the kernel logs one line containing the text, the file reads as before.
bad_write() {
	local before ok=0
	before=$(cat "$3")
	dmesg_mark
	write_err "$1" "$2" "$3" || ok=1
	if [ -n "$4" ] && ! dmesg_since | grep -qF -- "$4"; then
		echo "# write \"$(shorten "$2")\" to $3: no log line with \"$4\""
		ok=1
	fi
	want_eq "$3 after the failed write" "$before" "$(cat "$3")" || ok=1
	return $ok
}

pattern_errors_einval() {
	local ok=0
	write_ok "0 500 255 500" $ENG/pattern || return 1
	bad_write EINVAL "256 100 0 100" $ENG/pattern "'256' is not a value" || ok=1
	bad_write EINVAL "-1 100 0 100" $ENG/pattern "'-1' is not a value" || ok=1
	bad_write EINVAL "#ff00f 100 0 100" $ENG/pattern "'#ff00f' is not a value" || ok=1
	bad_write EINVAL "purple 100 0 100" $ENG/pattern "'purple' is not a value" || ok=1
	bad_write EINVAL "255 1.5 0 100" $ENG/pattern "'1.5' is not a duration" || ok=1
	bad_write EINVAL "255 100 0" $ENG/pattern "has no duration" || ok=1
	bad_write EINVAL "255 100" $ENG/pattern "at least two tuples" || ok=1
	bad_write EINVAL "255 0 0 0" $ENG/pattern "every duration is 0 ms" || ok=1
	write_ok "" $ENG/pattern || ok=1
	return $ok
}

# The longest pattern: 1023 tuples "0 0", whose normal form and newline
# read back in one page.  A 1024th tuple is -E2BIG, naming the count.
pattern_longest() {
	local i s ok=0
	s=
	i=0
	while [ $i -lt 1022 ]; do
		s="${s}0 0 "
		i=$((i + 1))
	done
	# 4091 bytes, no newline; one duration above 0
	if ! (printf '%s' "${s}0 1" > $ENG/pattern) 2>/dev/null; then
		echo "# 1023 tuples: write failed"
		ok=1
	fi
	want_eq "words read back" 2046 "$(wc -w < $ENG/pattern)" || ok=1
	bad_write E2BIG "${s}0 0 0 1" $ENG/pattern "1024 tuples, this engine takes at most 1023" || ok=1
	write_ok "" $ENG/pattern || ok=1
	return $ok
}

repeat_errors() {
	local ok=0
	write_ok 3 $ENG/repeat || ok=1
	want_eq repeat 3 "$(cat $ENG/repeat)" || ok=1
	bad_write EINVAL 0 $ENG/repeat "repeat: 0 is out of range" || ok=1
	bad_write EINVAL -2 $ENG/repeat "repeat: -2 is out of range" || ok=1
	bad_write EINVAL forever $ENG/repeat "repeat: 'forever' is not a number" || ok=1
	# a software engine counts up to what an int holds, as the ABI says
	write_ok 2147483647 $ENG/repeat || ok=1
	bad_write ERANGE 2147483648 $ENG/repeat "repeat: '2147483648' is not a number" || ok=1
	write_ok -1 $ENG/repeat || ok=1
	return $ok
}

state_errors() {
	local ok=0
	bad_write EINVAL go $ENG/state "state: 'go' is not a command" || ok=1
	bad_write EINVAL run $ENG/state "no pattern to run" || ok=1
	return $ok
}

# A failed pattern write leaves the running pattern running.
failed_write_keeps_running() {
	local ok=0
	write_ok "0 100 255 100" $ENG/pattern || return 1
	write_ok run $ENG/state || ok=1
	bad_write EINVAL "0 100 300 100" $ENG/pattern "'300'" || ok=1
	want_eq state running "$(cat $ENG/state)" || ok=1
	write_ok stop $ENG/state || ok=1
	want_eq state stopped "$(cat $ENG/state)" || ok=1
	write_ok "" $ENG/pattern || ok=1
	return $ok
}

link_by_trigger() {
	local ok=0
	write_ok software0 $LEDDIR/trigger || return 1
	grep -q '\[software0\]' $LEDDIR/trigger || { echo "# trigger not selected"; ok=1; }
	want_eq "leds/$LED" yes "$([ -L $ENG/leds/$LED ] && echo yes)" || ok=1
	want_eq "leds/$LED target" $LED "$(basename "$(readlink -f $ENG/leds/$LED)")" || ok=1
	return $ok
}

unlink_by_trigger_none() {
	local ok=0
	write_ok none $LEDDIR/trigger || ok=1
	want_eq "leds/$LED" absent "$([ -e $ENG/leds/$LED ] && echo present || echo absent)" || ok=1
	return $ok
}

unlink_by_other_trigger() {
	local ok=0
	write_ok software0 $LEDDIR/trigger || return 1
	write_ok software1 $LEDDIR/trigger || ok=1
	want_eq "software0/leds/$LED" absent "$([ -e $ENG/leds/$LED ] && echo present || echo absent)" || ok=1
	want_eq "software1/leds/$LED" yes "$([ -L /sys/class/led_pattern/software1/leds/$LED ] && echo yes)" || ok=1
	write_ok none $LEDDIR/trigger || ok=1
	return $ok
}

unlink_by_brightness_zero() {
	local ok=0
	write_ok software0 $LEDDIR/trigger || return 1
	write_ok 0 $LEDDIR/brightness || ok=1
	want_eq "leds/$LED" absent "$([ -e $ENG/leds/$LED ] && echo present || echo absent)" || ok=1
	grep -q '\[none\]' $LEDDIR/trigger || { echo "# trigger is not none"; ok=1; }
	return $ok
}

ktap_print_header
if [ ! -d /sys/class/led_pattern ]; then
	echo "1..0 # SKIP no /sys/class/led_pattern in this kernel"
	exit 0
fi
ktap_set_plan 14
ktap_test_result engines_listed engines_listed
ktap_test_result software_attributes software_attributes
ktap_test_result trigger_offered trigger_offered
ktap_test_result pattern_readback_normalised pattern_readback_normalised
ktap_test_result pattern_errors_einval pattern_errors_einval
ktap_test_result pattern_longest pattern_longest
ktap_test_result repeat_errors repeat_errors
ktap_test_result state_errors state_errors
ktap_test_result failed_write_keeps_running failed_write_keeps_running
ktap_test_result link_by_trigger link_by_trigger
ktap_test_result unlink_by_trigger_none unlink_by_trigger_none
ktap_test_result unlink_by_other_trigger unlink_by_other_trigger
ktap_test_result unlink_by_brightness_zero unlink_by_brightness_zero
ktap_test_result engine_stopped_after_suite want_eq state stopped "$(cat $ENG/state)"
ktap_finished
