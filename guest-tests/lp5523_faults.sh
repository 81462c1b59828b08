#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Faults injected into the emulated LP5523 from the guest through
# /dev/lp5523-ctl: NACKs on a register range and on every Nth transfer, a
# delayed reply, one page of a program load NACKed (from a pattern engine,
# the stock engine2_load and the probe's boot pattern), a stuck engine.  The guest never hangs, the
# driver logs what it can, and lp5523_faults.check finds each fault (and
# the missing output change) on the emulator's timeline.  The 6.1 driver reports a
# NACKed brightness write as a success to the writer: only the kernel log
# and the timeline tell.  The chip is left as found: no fault, engines
# disabled, brightness 0.
. /tests/lib/ktap.sh
. /tests/lib/lp5523.sh

DRV=$LP5523_DRV
RED=/sys/class/leds/lp5523:r
KB1=/sys/class/leds/lp5523:kb1
E1=/sys/class/led_pattern/lp5523:engine1
# the driver's line for a program load an I2C error cut short
LOAD_FAILED="lp5523:engine1: I2C error while loading the program (-5)"


# ctl <command...>: a control command; emu_ctl returns once the emulator
# has applied it, so it is in place for the next I2C transfer
ctl() {
	emu_ctl "$@"
}

kmsg() {
	[ -w /dev/kmsg ] && echo "$*" > /dev/kmsg
}

# uptime in ms (10 ms resolution); the "1" keeps a fraction like 08 from
# reading as octal
now_ms() {
	local up
	read -r up _ < /proc/uptime
	echo $(( ${up%.*} * 1000 + 1${up#*.} * 10 - 1000 ))
}

brightness_failed_count() {
	dmesg_since | grep -c "lp5523:r: Setting an LED's brightness failed (-5)"
}

# nack reg: the PWM write of D7 never reaches the output; the writer is
# told it worked, the kernel log says it did not.  D7 left alone on a
# master fader by an earlier suite would take the write on its fader
# register instead: the faders let their outputs go first.
nack_reg() {
	local ok=0
	lp5523_free_faders || ok=1
	dmesg_mark
	ctl nack reg 0x16-0x1e
	emu_mark "faults nack reg begin"
	write_ok 200 $RED/brightness || ok=1
	sleep 0.2
	emu_mark "faults nack reg end"
	ctl nack off
	want_eq "brightness-failed lines" 1 "$(brightness_failed_count)" || ok=1
	write_ok 0 $RED/brightness || ok=1
	sleep 0.05
	return $ok
}

# nack every 2: of four single-message writes the 2nd and 4th fail
nack_every() {
	local v ok=0
	dmesg_mark
	ctl nack every 2
	emu_mark "faults nack every begin"
	for v in 10 20 30 40; do
		write_ok $v $RED/brightness || ok=1
		sleep 0.1
	done
	emu_mark "faults nack every end"
	ctl nack off
	want_eq "brightness-failed lines" 2 "$(brightness_failed_count)" || ok=1
	write_ok 0 $RED/brightness || ok=1
	sleep 0.05
	return $ok
}

# delay 200: a led_current write (one synchronous transfer) returns after
# the reply delay; a brightness write still lands.
delay_reply() {
	local cur t0 t1 ok=0
	cur=$(cat $RED/led_current)
	dmesg_mark
	ctl delay 200
	emu_mark "faults delay begin"
	t0=$(now_ms)
	write_ok 60 $RED/led_current || ok=1
	t1=$(now_ms)
	emu_mark "faults delay current done"
	write_ok 100 $RED/brightness || ok=1
	sleep 0.5
	emu_mark "faults delay end"
	ctl faults off
	if [ $((t1 - t0)) -lt 190 ] || [ $((t1 - t0)) -gt 2000 ]; then
		echo "# led_current write took $((t1 - t0)) ms, want 200..2000"
		ok=1
	fi
	want_eq led_current 60 "$(cat $RED/led_current)" || ok=1
	want_eq "brightness-failed lines" 0 "$(brightness_failed_count)" || ok=1
	write_ok 0 $RED/brightness || ok=1
	write_ok "$cur" $RED/led_current || ok=1
	return $ok
}

# nack reg 0x50-0x6f nth 2: a pattern that spans five pages of engine 1's
# program memory (ODD16, 78-80 words; the driver writes a page a message)
# loses its 2nd page.  "run" fails with EIO, the engine reads "error",
# the driver says so once, and kb1 (D1) stays dark: nothing half loaded
# runs.  The window holds more than one period of ODD16 (1403 ms), so a
# half-loaded program that ran would have moved D1 (the check looks).
mid_load_nack() {
	local ok=0 n
	lp5523_engines_reset
	lp5523_free_faders || ok=1
	write_ok -1 $E1/repeat || ok=1
	write_ok "$ODD16" $E1/pattern || ok=1
	engine_link lp5523:engine1 lp5523:kb1 || ok=1
	dmesg_mark
	ctl nack reg 0x50-0x6f nth 2
	emu_mark "faults mid-load begin"
	write_err "Input/output error" run $E1/state || ok=1
	sleep 1.6
	emu_mark "faults mid-load end"
	ctl faults off
	# kb1's brightness file does not follow a chip engine's output: the
	# check judges D1 on the timeline
	want_eq "engine1 state" error "$(cat $E1/state)" || ok=1
	n=$(dmesg_since | grep -cF "$LOAD_FAILED")
	want_eq "load-failed lines" 1 "$n" || ok=1
	# that line and nothing else: no splat, no second report
	n=$(dmesg_since | grep -v "lptest:" | wc -l)
	if [ "$n" -ne 1 ]; then
		echo "# kernel log since the fault: want 1 line got $n"
		dmesg_since | grep -v "lptest:" | head -5 | sed 's/^/# /'
		ok=1
	fi
	return $ok
}

# faults off: the same pattern, run again, loads whole and runs
mid_load_retry() {
	local ok=0
	emu_mark "faults mid-load retry begin"
	write_ok run $E1/state || ok=1
	want_eq "engine1 state" running "$(cat $E1/state)" || ok=1
	sleep 1.6
	emu_mark "faults mid-load retry end"
	lp5523_engines_reset
	write_ok 0 $KB1/brightness || ok=1
	sleep 0.05
	return $ok
}

# mux_map_next; set_pwm 255; wait 500 ms; set_pwm 0; wait 500 ms; branch
# forever to 1 (lp5523_legacy_engine's blink)
LEGACY_BLINK=9d8040ff7e00420040007e004200a001

# nack reg 0x50-0x6f nth 1 on the stock engine2_load (an LP5523 engine's
# program is one page, one message): engine 2 holds LEGACY_BLINK for D1
# (kb1) from a load before, is put in LOAD again by engine2_mode, and the
# load of a dark program is NACKed.  The write fails with EIO and leaves
# engine 2 disabled, on the chip too: the run_engine 1 after it, which
# runs every engine the chip holds in LOAD, does not run the old program
# (the check: engine 2 never enters run, D1 stays dark for more than the
# blink's period).
legacy_load_nack() {
	local c ok=0
	c=$(lp5523_chip)
	lp5523_engines_reset
	write_ok 0 $KB1/brightness || ok=1
	write_ok load "$c/engine2_mode" || ok=1
	write_ok 100000000 "$c/engine2_leds" || ok=1
	write_ok $LEGACY_BLINK "$c/engine2_load" || ok=1
	write_ok disabled "$c/engine2_mode" || ok=1
	write_ok load "$c/engine2_mode" || ok=1
	ctl nack reg 0x50-0x6f nth 1
	emu_mark "faults legacy load begin"
	# mux_map_next; set_pwm 0; end
	write_err "Input/output error" 9d804000c000 "$c/engine2_load" || ok=1
	ctl faults off
	want_eq "engine2_mode after the failed load" disabled \
		"$(cat "$c/engine2_mode")" || ok=1
	write_ok 1 "$c/run_engine" || ok=1
	sleep 1.2
	emu_mark "faults legacy load end"
	write_ok disabled "$c/engine2_mode" || ok=1
	write_ok 0 $KB1/brightness || ok=1
	return $ok
}

# The boot pattern's load at the probe: rebinding runs the probe and the
# device tree's pattern again (breathe on lp5523:g, D6).  The probe's
# engine self-check writes one program memory message per engine (3), the
# boot pattern (a few words, one page) is the 4th: nack it.  The bind
# still succeeds, the engine reads "error", the driver logs the failed
# load, D6 stays dark (the check looks at the timeline).
boot_load_nack() {
	local chip ok=0
	chip=$(lp5523_chip_name)
	[ -n "$chip" ] || { echo "# no lp5523 bound"; return 1; }
	write_ok "$chip" $DRV/unbind || return 1
	ctl nack reg 0x50-0x6f nth 4
	dmesg_mark
	emu_mark "faults boot load begin"
	write_ok "$chip" $DRV/bind || ok=1
	sleep 1.5
	emu_mark "faults boot load end"
	ctl faults off
	[ -n "$(lp5523_chip_name)" ] || { echo "# driver not bound"; return 1; }
	want_eq "engine1 state" error "$(cat $LP5523_BOOT_ENGINE/state)" || ok=1
	if ! dmesg_since | grep -qF "$LOAD_FAILED"; then
		echo "# no \"$LOAD_FAILED\" in the kernel log"
		ok=1
	fi
	return $ok
}

# after the failed boot load the driver is usable: the boot pattern,
# written again, runs (D6 breathes on the timeline); then it is stopped.
# Written again: after the failed load at the probe the engine's pattern
# reads empty, so "run" alone has nothing to run (EINVAL).
boot_load_retry() {
	local ok=0
	emu_mark "faults boot retry begin"
	write_ok "0 1000 128 1000" $LP5523_BOOT_ENGINE/pattern || ok=1
	write_ok run $LP5523_BOOT_ENGINE/state || ok=1
	want_eq "engine1 state" running "$(cat $LP5523_BOOT_ENGINE/state)" || ok=1
	sleep 1.5
	emu_mark "faults boot retry end"
	lp5523_boot_pattern_off
	lp5523_engines_reset
	sleep 0.05
	return $ok
}

# stuck on: the probe's engine self-check never sees the ENGx_INT bits,
# so binding the driver fails with the driver's own message.
stuck_probe_fails() {
	local chip ok=0
	chip=$(lp5523_chip_name)
	[ -n "$chip" ] || { echo "# no lp5523 bound"; return 1; }
	CHIP=$chip
	write_ok "$chip" $DRV/unbind || return 1
	ctl stuck on
	dmesg_mark
	emu_mark "faults stuck begin"
	if (echo "$chip" > $DRV/bind) 2>/dev/null; then
		echo "# bind with a stuck engine: want failure got success"
		ok=1
	fi
	emu_mark "faults stuck end"
	ctl stuck off
	[ -z "$(lp5523_chip_name)" ] || { echo "# driver bound with a stuck engine"; ok=1; }
	if ! dmesg_since | grep -q "could not configure LED engine"; then
		echo "# no \"could not configure LED engine\" in the kernel log"
		ok=1
	fi
	return $ok
}

# faults off: the driver binds again and a brightness write lands
faults_off_works() {
	local i ok=0
	ctl faults off
	dmesg_mark
	[ -n "$(lp5523_chip_name)" ] || lp5523_bind "${CHIP:-0-0032}" || return 1
	for i in 1 2 3 4 5 6 7 8 9 10; do
		[ -d $RED ] && break
		sleep 0.1
	done
	emu_mark "faults off begin"
	write_ok 77 $RED/brightness || ok=1
	sleep 0.1
	emu_mark "faults off end"
	want_eq brightness 77 "$(cat $RED/brightness)" || ok=1
	if dmesg_since | grep -qiE "failed|error|could not"; then
		dmesg_since | grep -iE "failed|error|could not" | head -3 | sed 's/^/# /'
		ok=1
	fi
	write_ok 0 $RED/brightness || ok=1
	return $ok
}

left_as_found() {
	local ok=0
	ctl faults off
	lp5523_check_idle || ok=1
	sleep 0.1
	emu_mark "lp5523_faults end"
	return $ok
}

ktap_print_header
ktap_set_plan 12
if [ -z "$(lp5523_chip_name)" ] || [ ! -e /dev/lp5523-ctl ]; then
	ktap_exit_fail_msg "needs a bound lp5523 at 0x32 and /dev/lp5523-ctl"
fi
ktap_test_result control_channel_present test -e /dev/lp5523-ctl
# The kernel log lines between these two are the ones the faults provoke.
kmsg "lp5523_faults: fault injection begin"
ktap_test_result nack_reg_brightness_dropped nack_reg
ktap_test_result nack_every_2nd_transfer nack_every
ktap_test_result delay_reply_completes_late delay_reply
ktap_test_result nack_mid_load_nothing_runs mid_load_nack
ktap_test_result nack_mid_load_retry_runs mid_load_retry
ktap_test_result nack_legacy_load_engine_disabled legacy_load_nack
ktap_test_result nack_boot_load_nothing_runs boot_load_nack
ktap_test_result nack_boot_load_driver_usable boot_load_retry
ktap_test_result stuck_engine_probe_fails stuck_probe_fails
ktap_test_result faults_off_all_works faults_off_works
ktap_test_result chip_left_as_found left_as_found
kmsg "lp5523_faults: fault injection end"
ktap_finished
