#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lptest-board: family
# lptest-timeout: 300
# The LP5523's family on one bus (dts/family.dts, issue 22): the LP5569
# ("notify", 0x34) and the LP8501 ("keys", 0x35) offer their three engines
# as "<label>:engineN", as the LP5523 does, with nothing learned: each
# chip's boot pattern runs from the device tree, a blink and a colour
# (three curves on three engines, in lock-step) run from the engine
# files, ledtrig-pattern's hw_pattern runs in the chip, the legacy engine
# files (engineN_mode on the LP5569, select_engine on the LP8501) refuse
# an engine a pattern holds, an unbind while patterns run
# leaves nothing behind, and each chip's boot pattern yields to every
# claim its driver offers (lib/boot_claims.sh).  lp55xx_family.check judges the timeline between
# the "family <chip> <case> begin|end" marks.
. /tests/lib/ktap.sh
. /tests/lib/lp5523.sh
. /tests/lib/boot_claims.sh

CLASS=/sys/class/led_pattern
LEDS=/sys/class/leds
BLINK="255 100 255 0 0 100 0 0"
COLOUR="#000000 500 #ff40c0 500"
HW_RAMP="0 500 255 500"

# chip <label>: I2C address, driver, the boot pattern's LED, a white LED,
# the red, green and blue LEDs (or one multicolor LED) of the chip
chip_info() {
	case $1 in
	notify) echo "0034 lp5569 notify:white:1 notify:white:2 notify:rgb" ;;
	keys) echo "0035 lp8501 keys:g keys:kb1 keys:r keys:g keys:b" ;;
	esac
}

# three white LEDs of the chip
whites() {
	case $1 in
	notify) echo "notify:white:1 notify:white:2 notify:white:3" ;;
	keys) echo "keys:kb1 keys:kb2 keys:kb3" ;;
	esac
}

chip_dir() {
	ls -d /sys/bus/i2c/drivers/"$2"/*-"$1" 2>/dev/null | head -1
}

window() {
	emu_mark "family $1 begin"
	sleep "$2"
	emu_mark "family $1 end"
}

# reset <label>: the chip's engines stopped and empty, its LEDs unlinked
# and off
reset() {
	local led
	lp5523_engines_reset "$1"
	for led in $LEDS/"$1":*; do
		echo 0 > "$led/brightness" 2>/dev/null
	done
}

# engines <label>: three hardware engines named after the label
engines() {
	local e ok=0
	for e in 1 2 3; do
		want_eq "$1:engine$e type" hardware "$(cat "$CLASS/$1:engine$e/type" 2>&1)" || ok=1
	done
	return $ok
}

# boot_pattern <label>: the device tree's pattern runs in engine 1 on the
# boot LED from the probe on
boot_pattern() {
	local led ok=0
	# shellcheck disable=SC2046
	set -- "$1" $(chip_info "$1")
	led=$4
	want_eq "$led trigger" "$1:engine1" \
		"$(sed -n 's/.*\[\([^]]*\)\].*/\1/p' "$LEDS/$led/trigger")" || ok=1
	want_eq "$1:engine1 state" running "$(cat "$CLASS/$1:engine1/state")" || ok=1
	window "$1 boot" 2.2
	reset "$1"
	return $ok
}

# run_engine <label> <pattern> <led>...: engine 2 runs the pattern on the LEDs
run_engine() {
	local label=$1 p=$2 e=$CLASS/$1:engine2 ok=0
	shift 2
	for led in "$@"; do
		write_ok "$label:engine2" "$LEDS/$led/trigger" || ok=1
	done
	write_ok "$p" "$e/pattern" || ok=1
	write_ok run "$e/state" || ok=1
	return $ok
}

blink() {
	local ok=0
	# shellcheck disable=SC2046
	set -- "$1" $(chip_info "$1")
	run_engine "$1" "$BLINK" "$5" || ok=1
	window "$1 blink" 1.2
	want_eq "$1:engine2 state" running "$(cat "$CLASS/$1:engine2/state")" || ok=1
	reset "$1"
	return $ok
}

# colour: three curves (red 255 levels, green 64, blue 192) on engines 2,
# 1 and 3 (the pattern's engine borrows the free ones), started together
colour() {
	local label=$1 ok=0
	# shellcheck disable=SC2046
	set -- "$1" $(chip_info "$1")
	shift 5
	if [ $# -eq 3 ]; then
		write_ok red "$LEDS/$1/color_component" || ok=1
		write_ok green "$LEDS/$2/color_component" || ok=1
		write_ok blue "$LEDS/$3/color_component" || ok=1
	fi
	run_engine "$label" "$COLOUR" "$@" || ok=1
	window "$label colour" 2.2
	want_eq "$label:engine2 state" running "$(cat "$CLASS/$label:engine2/state")" || ok=1
	reset "$label"
	return $ok
}

# hw_pattern: ledtrig-pattern's hw_pattern on the white LED, in the chip
hw_pattern() {
	local led ok=0
	# shellcheck disable=SC2046
	set -- "$1" $(chip_info "$1")
	led=$LEDS/$5
	write_ok pattern "$led/trigger" || ok=1
	write_ok -1 "$led/repeat" || ok=1
	write_ok "$HW_RAMP" "$led/hw_pattern" || ok=1
	window "$1 hw" 2.2
	write_ok none "$led/trigger" || ok=1
	reset "$1"
	return $ok
}

# memory <label>: the odd 16 tuples on engines 1, 2 and 3, a white LED
# each.  The LP5569's memory (254 words) holds the three programs, one of
# them in the words above 127 that only programs can use; the LP8501's
# (96) holds one: the second is E2BIG and the first runs on.
memory() {
	local label=$1 e=1 led words ok=0
	for led in $(whites "$label"); do
		write_ok "$label:engine$e" "$LEDS/$led/trigger" || ok=1
		write_ok "$ODD16" "$CLASS/$label:engine$e/pattern" || ok=1
		e=$((e + 1))
	done
	emu_mark "family $label memory begin"
	write_ok run "$CLASS/$label:engine1/state" || ok=1
	if [ "$label" = notify ]; then
		write_ok run "$CLASS/$label:engine2/state" || ok=1
		write_ok run "$CLASS/$label:engine3/state" || ok=1
		words=$(cat "$(pattern_program "$CLASS/$label:engine1")" \
			"$(pattern_program "$CLASS/$label:engine2")" \
			"$(pattern_program "$CLASS/$label:engine3")" |
			awk '{ w += NF - 1; split($1, a, "[@:]"); if (a[2] > 127) high = a[2] }
			END { print w, high + 0 }')
		echo "# notify: program words, a start above 127: $words"
		[ "${words% *}" -gt 96 ] && [ "${words#* }" -gt 127 ] ||
			{ echo "# want more than 96 words and a program above word 127"; ok=1; }
	else
		write_err E2BIG run "$CLASS/$label:engine2/state" || ok=1
	fi
	sleep 4.4
	emu_mark "family $label memory end"
	want_eq "$label:engine1 state" running "$(cat "$CLASS/$label:engine1/state")" || ok=1
	reset "$label"
	return $ok
}

# max_steps <label>: what engine 1's program holds with the chip's memory
# to itself, 3 words besides the tuples (the LP5569: a program spans 128
# of its 254 words; the LP8501: 96 words less a mapping row): a pattern of
# max_steps tuples of a word each runs, one more is -E2BIG at the write
# and changes nothing
max_steps() {
	local label=$1 e n p want led ok=0
	e=$CLASS/$label:engine1
	case $label in
	notify) want=125 ;;
	keys) want=92 ;;
	esac
	n=$(cat "$e/max_steps")
	want_eq "$label:engine1 max_steps" "$want" "$n" || ok=1
	led=$(whites "$label")
	write_ok "$label:engine1" "$LEDS/${led%% *}/trigger" || ok=1
	p=$(steps_pattern "$n")
	write_ok "$p" "$e/pattern" || ok=1
	write_ok run "$e/state" || ok=1
	want_eq "$label:engine1 state, $n tuples" running "$(cat "$e/state")" || ok=1
	write_err E2BIG "$p 0 10" "$e/pattern" || ok=1
	want_eq "$label:engine1 pattern kept" "$p" "$(cat "$e/pattern")" || ok=1
	reset "$label"
	return $ok
}

# legacy <label>: each of the chip's own files that would stop or drive
# what a pattern holds refuses (EBUSY, a log line naming the owner) while
# engine 2 blinks on the LED, and the blink goes on, unchanged, on the
# chip (the check holds the output to the ideal through the window).
# The LP5569: engine2_mode, engine2_load, engine2_leds, select_engine 2,
# master_fader_leds over the LED's output, selftest (standby stops every
# engine); then, after the window, engine 3's files and run_engine 0
# (engine 3 selected after the probe) work and leave the blink running.  The LP8501's driver has no
# engineN_* files: select_engine 2, and run_engine 0, which stops every
# engine there.  Engine 3 is not selected on the LP8501: that would
# request firmware the board does not have.
legacy() {
	local c sel ok=0
	# shellcheck disable=SC2046
	set -- "$1" $(chip_info "$1")
	c=$(chip_dir "$2" "$3")
	run_engine "$1" "$BLINK" "$5" || ok=1
	dmesg_mark
	emu_mark "family $1 legacy begin"
	sel=$(cat "$c/select_engine")
	write_err EBUSY 2 "$c/select_engine" || ok=1
	want_eq "select_engine after the refusal" "$sel" "$(cat "$c/select_engine")" || ok=1
	if [ "$3" = lp8501 ]; then
		[ ! -e "$c/engine2_mode" ] || { echo "# lp8501: an engine2_mode file"; ok=1; }
		write_err EBUSY 0 "$c/run_engine" || ok=1
	else
		write_err EBUSY load "$c/engine2_mode" || ok=1
		write_err EBUSY 9d8040ffc000 "$c/engine2_load" || ok=1
		write_err EBUSY 000010000 "$c/engine2_leds" || ok=1
		# notify:white:2 is D5
		write_err EBUSY 000010000 "$c/master_fader_leds" || ok=1
		want_eq master_fader_leds 000000000 "$(cat "$c/master_fader_leds")" || ok=1
		read_err EBUSY "$c/selftest" || ok=1
	fi
	sleep 1
	emu_mark "family $1 legacy end"
	# outside the judged window: while an engine is in LOAD the chip
	# holds all three (datasheet), engine 2's blink included, for as long
	# as the files leave engine 3 there (8 ms on the debug kernel)
	if [ "$3" != lp8501 ]; then
		write_ok load "$c/engine3_mode" || ok=1
		write_ok disabled "$c/engine3_mode" || ok=1
		write_ok 0 "$c/run_engine" || ok=1
	fi
	dmesg_since | grep -q "$1:engine2" ||
		{ echo "# no log line naming $1:engine2"; ok=1; }
	want_eq "$1:engine2 state" running "$(cat "$CLASS/$1:engine2/state")" || ok=1
	want_eq "$1:engine2 pattern" "$BLINK" "$(cat "$CLASS/$1:engine2/pattern")" || ok=1
	reset "$1"
	return $ok
}

# unbind <label>: unbind the chip while engine 2 blinks; its engines go,
# then come back, with no splat
unbind() {
	local c name drv ok=0
	# shellcheck disable=SC2046
	set -- "$1" $(chip_info "$1")
	c=$(chip_dir "$2" "$3")
	name=${c##*/}
	drv=/sys/bus/i2c/drivers/$3
	run_engine "$1" "$BLINK" "$5" || ok=1
	dmesg_mark
	write_ok "$name" "$drv/unbind" || ok=1
	[ ! -d "$CLASS/$1:engine2" ] || { echo "# $1:engine2 still there"; ok=1; }
	write_ok "$name" "$drv/bind" || ok=1
	engines "$1" || ok=1
	dmesg_since | grep -E "WARNING|BUG|Oops|KASAN" && ok=1
	reset "$1"
	return $ok
}

# boot_claims <label>: the boot pattern, started again by a bind before
# each, yields to each claim the chip's files allow (lib/boot_claims.sh;
# the check holds the boot LED's output to it).  The LP5569 has the
# engineN_* files: engine1_mode, engine1_load, engine2_leds with the boot
# LED's output (notify:white:1, D4), select_engine 1 with its firmware,
# run_engine 0 (the probe left engine 3 selected: it need not stop the
# boot pattern, but the chip must then show it running), a hw_pattern
# finding only engine 1.  The LP8501 has only select_engine and
# run_engine; its run_engine 0 stops every engine (no engine is selected
# after its probe), the boot pattern's too: the boot pattern must yield.
boot_claims() {
	local claim claims ok=0
	# shellcheck disable=SC2046
	set -- "$1" $(chip_info "$1")
	if [ "$3" = lp8501 ]; then
		bc_chip "$1" lp8501 "$2" - keys:kb1 keys:kb2 keys:kb3
		claims="select_engine run_engine hw_pattern"
	else
		bc_chip "$1" lp5569 "$2" 000100000 notify:white:2 notify:white:3 notify:white:4
		claims="engine_mode engine_load engine_leds select_engine run_engine:any hw_pattern"
	fi
	for claim in $claims; do
		bc_claim "${claim%:*}" "$([ "${claim#*:}" = any ] && echo any)" || ok=1
	done
	echo 60 > $FW/timeout
	reset "$1"
	return $ok
}

ktap_print_header
for label in notify keys; do
	# shellcheck disable=SC2046
	set -- $(chip_info $label)
	if [ -z "$(chip_dir "$1" "$2")" ]; then
		echo "1..0 # SKIP needs the family board's $2 at 0x$1"
		exit 0
	fi
done
ktap_set_plan 20
for label in notify keys; do
	ktap_test_result "${label}_engines" engines $label
	ktap_test_result "${label}_boot_pattern" boot_pattern $label
	ktap_test_result "${label}_blink" blink $label
	ktap_test_result "${label}_colour" colour $label
	ktap_test_result "${label}_hw_pattern" hw_pattern $label
	ktap_test_result "${label}_memory" memory $label
	ktap_test_result "${label}_max_steps_fills_the_program_memory" max_steps $label
	ktap_test_result "${label}_legacy_files" legacy $label
	ktap_test_result "${label}_unbind" unbind $label
	ktap_test_result "${label}_boot_pattern_yields_to_each_claim" boot_claims $label
done
ktap_finished
