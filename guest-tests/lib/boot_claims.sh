#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The device tree's boot pattern yields to each claim from user space
# (Documentation/leds/leds-class-pattern.rst: "the first claim from user
# space on its engines or LEDs takes them over"), seen on the chip: each
# claim on a fresh boot pattern (the driver bound again runs the probe,
# which starts it), between marks the host check reads
# (lib/boot_claims.py):
#   "boot claim <label> <claim> before"   the boot pattern still runs
#   "boot claim <label> <claim>"          the claim is made
#   "boot claim <label> <claim> end <state>"   a window later, with the
#                                         boot engine's state then
# The state goes to the host because the kernel's word is what the chip
# must agree with: "stopped" wants the boot output dark and still,
# "running" wants its waveform on.  Source after ktap.sh and lp5523.sh.

FW=/sys/class/firmware
# long enough that a boot output still changing (a level every 8 ms on its
# ramps, a 16 ms hold at the top) shows many times over
BC_WINDOW_S=1.2
# a boot pattern left running is judged against its ideal curve, which
# needs a window holding a run's end and the next one's start: more than
# its 2 s run
BC_RUN_WINDOW_S=2.2

# bc_chip <label> <driver> <address> <boot LED's engineN_leds row> <LED>
# <LED> <LED>: the chip the next bc_claim works on (its I2C address as in
# its device name, e.g. 0032); the three LEDs are the chip's, not the
# boot LED, for the hw_pattern claim
bc_chip() {
	BC_LABEL=$1
	BC_DRV=/sys/bus/i2c/drivers/$2
	BC_NAME=$(basename "$(ls -d "$BC_DRV"/*-"$3" 2>/dev/null | head -1)")
	BC_CHIP=$BC_DRV/$BC_NAME
	BC_ENGINE=/sys/class/led_pattern/$1:engine1
	BC_ROW=$4
	BC_HW="$5 $6 $7"
}

# bc_state: the boot engine's state
bc_state() {
	cat "$BC_ENGINE/state" 2>&1
}

# bc_rebind: the driver bound again, the boot pattern running from the probe
bc_rebind() {
	local i
	write_ok "$BC_NAME" "$BC_DRV/unbind" || return 1
	write_ok "$BC_NAME" "$BC_DRV/bind" || return 1
	for i in $(seq 30); do
		[ "$(bc_state)" = running ] && break
		sleep 0.1
	done
	want_eq "$BC_LABEL:engine1 state after bind" running "$(bc_state)" || return 1
	# the check wants the boot output changing before the claim
	sleep 0.4
}

# bc_cleanup: what a claim left behind undone: LEDs unlinked and off,
# engines stopped, the engineN_* files disabled
bc_cleanup() {
	local e led
	for led in /sys/class/leds/"$BC_LABEL":*; do
		echo none > "$led/trigger" 2>/dev/null
		echo 0 > "$led/brightness" 2>/dev/null
	done
	for e in 1 2 3; do
		[ -e "$BC_CHIP/engine${e}_mode" ] &&
			echo disabled > "$BC_CHIP/engine${e}_mode" 2>/dev/null
	done
	lp5523_engines_reset "$BC_LABEL"
	return 0
}

# bc_took_over <claim>: the boot engine reads stopped, and one log line
# since dmesg_mark names it (the claimant's own compiler may log beside)
bc_took_over() {
	local ok=0 n
	want_eq "$BC_LABEL:engine1 state after $1" stopped "$(bc_state)" || ok=1
	n=$(dmesg_since | grep -c "$BC_LABEL:engine1: the device tree's pattern stopped")
	if [ "$n" != 1 ]; then
		echo "# $1: want one log line saying $BC_LABEL:engine1's pattern stopped, got $n:"
		dmesg_since | grep -E 'led|lp55' | sed 's/^/#   /'
		ok=1
	fi
	return $ok
}

# bc_firmware <bytes>: feed the pending firmware request (the sysfs
# fallback, as a user without the file in /lib/firmware would)
bc_firmware() {
	local d
	for _ in $(seq 50); do
		d=$(ls -d $FW/*/ 2>/dev/null | head -1)
		[ -n "$d" ] && break
		sleep 0.1
	done
	[ -n "$d" ] || { echo "# no firmware request in $FW"; return 1; }
	echo 1 > "$d/loading"
	printf '%s' "$1" > "$d/data"
	echo 0 > "$d/loading"
	for _ in $(seq 30); do
		[ -e "$d" ] || return 0
		sleep 0.1
	done
	echo "# the firmware request $d still pending"
	return 1
}

# The claims: each makes its claim and succeeds when the writes did.
# engineN_mode and engineN_load on the boot engine itself; engineN_leds on
# another engine, its row holding the boot LED's output (engine 2 enters
# LOAD first, which claims neither engine 1 nor its output: the check
# wants the boot output changing up to the "before" mark, after it);
# select_engine 1 with its firmware fed; hw_pattern on three other LEDs,
# the third finding engine 1 the only one left.
bc_claim_engine_mode() {
	write_ok load "$BC_CHIP/engine1_mode"
}

# 16 words: a blink on the engine's mapping row, branches to its start
BC_PROGRAM=9d8040ff7e00420040007e004200a001a001a001a001a001a001a001a001a001

bc_claim_engine_load() {
	write_ok "$BC_PROGRAM" "$BC_CHIP/engine1_load"
}

bc_pre_engine_leds() {
	write_ok load "$BC_CHIP/engine2_mode"
}

bc_claim_engine_leds() {
	write_ok "$BC_ROW" "$BC_CHIP/engine2_leds"
}

bc_claim_select_engine() {
	[ -e $FW/timeout ] || { echo "# no firmware sysfs fallback ($FW)"; return 1; }
	write_ok 1 "$BC_CHIP/select_engine"
}

# after the claim's mark: the firmware lands inside the window
bc_post_select_engine() {
	# mux_map_next; set_pwm 255; end (lp5523_ownership's firmware)
	bc_firmware 9d8040ffc000
}

# run_engine 0 stops the engine selected last: after the probe, not the
# boot engine (the probe's own engine test leaves engine 3 selected on the
# LP5523 and the LP5569, none on the LP8501).  Either it takes the boot
# pattern over or it leaves it running: the host holds the chip's output
# to the state read after the window.
bc_claim_run_engine() {
	write_ok 0 "$BC_CHIP/run_engine"
}

BC_HW_BLINK="255 300 255 0 0 300 0 0"
# the claimant's own pattern, judged on the chip: 0.98 ms a level, within
# the LP55xx's slope (0.488 ms a level)
BC_HW_RAMP="0 250 255 250"

bc_pre_hw_pattern() {
	local led ok=0
	# shellcheck disable=SC2086
	set -- $BC_HW
	for led in "$1" "$2"; do
		write_ok pattern "/sys/class/leds/$led/trigger" || ok=1
		write_ok "$BC_HW_BLINK" "/sys/class/leds/$led/hw_pattern" || ok=1
	done
	return $ok
}

bc_claim_hw_pattern() {
	# shellcheck disable=SC2086
	set -- $BC_HW
	write_ok pattern "/sys/class/leds/$3/trigger" &&
		write_ok "$BC_HW_RAMP" "/sys/class/leds/$3/hw_pattern"
}

# bc_claim <claim> [any]: the boot pattern bound afresh, the claim's
# preparation (bc_pre_<claim>), the claim (bc_claim_<claim>) between the
# marks, BC_WINDOW_S on the chip (BC_RUN_WINDOW_S with "any"), then the
# state.  The boot engine must
# read stopped with one log line; with "any", running is fine too (the
# host then wants the boot waveform on).  Cleans up after itself.
bc_claim() {
	local claim=$1 ok=0 state win=$BC_WINDOW_S
	[ "$2" = any ] && win=$BC_RUN_WINDOW_S
	bc_rebind || return 1
	if command -v "bc_pre_$claim" > /dev/null; then
		"bc_pre_$claim" || ok=1
		sleep 0.3
	fi
	emu_mark "boot claim $BC_LABEL $claim before"
	dmesg_mark
	"bc_claim_$claim" || ok=1
	emu_mark "boot claim $BC_LABEL $claim"
	if command -v "bc_post_$claim" > /dev/null; then
		"bc_post_$claim" || ok=1
	fi
	sleep "$win"
	state=$(bc_state)
	emu_mark "boot claim $BC_LABEL $claim end $state"
	echo "# $BC_LABEL: $claim: $BC_LABEL:engine1 $state"
	if [ "$2" != any ] || [ "$state" != running ]; then
		bc_took_over "$claim" || ok=1
	fi
	bc_cleanup
	return $ok
}
