#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lptest-timeout: 300
# One owner per LP5523 engine, on every path (issue 20): the stock lp5523
# files (run_engine, select_engine and its firmware callback, engineN_mode,
# selftest) act only on engines and outputs they own, or refuse with EBUSY
# and one log line naming the owner; no legacy action freezes, overwrites
# or blanks a running pattern; finished bits are never lost; POLLPRI on
# "state" arrives whenever a run ends, however late; programs load with
# multi-byte writes; the device tree's boot pattern is a default that the
# first claim from user space takes over.  lp5523_ownership.check judges
# the emulator's timeline between the marks (outputs that must keep
# changing or keep their level, I2C messages per program load, the boot
# pattern's output after each claim).
. /tests/lib/ktap.sh
. /tests/lib/lp5523.sh
. /tests/lib/boot_claims.sh

CLS=/sys/class/led_pattern
E1=$CLS/lp5523:engine1
E2=$CLS/lp5523:engine2
E3=$CLS/lp5523:engine3
L=/sys/class/leds
POLL=/usr/bin/poll-state
FW=/sys/class/firmware

# A blink of 250 ms on, 250 ms off: the check wants a change of its output
# at least every 400 ms while it runs (the chip keeps its 250 ms to the
# tick; 150 ms is room for a legitimate pause of a few loads)
BLINK="255 250 255 0 0 250 0 0"
# a constant level: written to the PWM register, no engine output moves
STEADY="255 1000 255 1000"

# lp5523_engines_reset, then the colour components, the engineN_*
# files and the emulator's faults as the suite found them
reset_all() {
	local e led c
	lp5523_engines_reset
	for led in kb1 kb2 kb3 kb4 kb5 kb6; do
		echo none > $L/lp5523:$led/color_component 2>/dev/null
	done
	c=$(lp5523_chip)
	for e in 1 2 3; do
		echo disabled > "$c/engine${e}_mode" 2>/dev/null
	done
	emu_ctl faults off > /dev/null
	return 0
}

# the lines of the LED drivers and classes since dmesg_mark
led_log_since() {
	dmesg_since | grep -E 'led|lp55'
}

# legacy_try <value> <file> <owners (ERE)>: a legacy write (or, with value
# "-", a read) either succeeds (TRY=taken) or fails with EBUSY and exactly
# one log line naming one of the owners (TRY=refused); anything else fails
TRY=
legacy_try() {
	local err n
	TRY=bad
	dmesg_mark
	if [ "$1" = - ]; then
		err=$(cat "$2" 2>&1 >/dev/null) && [ -z "$err" ] && TRY=taken
	else
		err=$( (echo "$1" > "$2") 2>&1) && TRY=taken
	fi
	[ $TRY = taken ] && return 0
	case $err in
	*"$(errno_text EBUSY)"*) ;;
	*)
		echo "# ${1#-} ${2##*/}: want success or EBUSY, got \"${err##*: }\""
		return 1 ;;
	esac
	n=$(led_log_since | grep -c .)
	if [ "$n" != 1 ] || ! led_log_since | grep -Eq -- "$3"; then
		echo "# ${2##*/} refused with EBUSY: want one log line naming $3, got $n"
		led_log_since | sed 's/^/#   /'
		return 1
	fi
	TRY=refused
}

# uptime_ds: the guest's uptime in tenths of a second
uptime_ds() {
	local up
	read -r up _ < /proc/uptime
	echo $((${up%.*} * 10 + $(echo "${up#*.}" | cut -c1)))
}

# wait_state <engine dir> <state> <tenths of a second>
wait_state() {
	local i=0
	while [ "$(cat $1/state)" != "$2" ] && [ $i -lt $3 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ "$(cat $1/state)" = "$2" ]
}

# 1. run_engine 1 and 0 while patterns run: run_engine 0 stops the last
# selected engine (engine3 here, selected through engine3_mode) and zeroes
# all nine PWM registers, without the chip's lock, whoever owns them.
# engine3 blinks kb3 for 8 s (repeat 16), engine1 holds lp5523:r at 255
# (direct PWM).  Whatever run_engine answers, the blink goes on and
# finishes on time ("finished" 1.5 s after its end), and r stays 255
# (lp5523_ownership.check: kb3 and r between the marks).
run_engine() {
	local c ok=0
	c=$(lp5523_chip)
	write_ok disabled "$c/engine3_mode" || ok=1	# the selected engine
	engine_link lp5523:engine3 lp5523:kb3 || return 1
	engine_link lp5523:engine1 lp5523:r || return 1
	write_ok "$BLINK" $E3/pattern || ok=1
	write_ok 16 $E3/repeat || ok=1
	write_ok "$STEADY" $E1/pattern || ok=1
	write_ok run $E1/state || ok=1
	write_ok run $E3/state || ok=1
	sleep 0.5
	emu_mark "own run_engine 1"
	legacy_try 1 "$c/run_engine" "lp5523:engine[13]" || ok=1
	echo "# run_engine 1: $TRY"
	sleep 1
	emu_mark "own run_engine 0"
	legacy_try 0 "$c/run_engine" "lp5523:engine[13]" || ok=1
	echo "# run_engine 0: $TRY"
	sleep 1.5
	emu_mark "own run_engine end"
	want_eq "lp5523:engine1 state" running "$(cat $E1/state)" || ok=1
	# the run ends 8 s after its start (the chip's clock, the host's),
	# about 5 s from here; a slow guest only reads later
	sleep 6.5
	want_eq "lp5523:engine3 state 1.5 s after its 8 s run" finished "$(cat $E3/state)" || ok=1
	reset_all
	return $ok
}

# 2. select_engine claims engine2 and requests its firmware; the firmware
# arrives (the sysfs fallback, fed by hand) after a pattern took engine2.
# Either the pattern is refused (EBUSY, one line naming the firmware
# load's owner), or the pattern keeps the engine: the callback loads
# nothing into it (engine2_mode stays "disabled", one log line names
# lp5523:engine2) and kb2 keeps blinking (the check).
firmware_callback() {
	local c i d ok=0
	c=$(lp5523_chip)
	[ -e $FW/timeout ] || { echo "# no firmware sysfs fallback ($FW)"; return 1; }
	echo 30 > $FW/timeout
	write_ok 2 "$c/select_engine" || return 1
	for i in $(seq 50); do
		d=$(ls -d $FW/lp5523* 2>/dev/null | head -1)
		[ -n "$d" ] && break
		sleep 0.1
	done
	[ -n "$d" ] || { echo "# no firmware request in $FW after select_engine"; return 1; }
	engine_link lp5523:engine2 lp5523:kb2 || ok=1
	write_ok "$BLINK" $E2/pattern || ok=1
	legacy_try run $E2/state "select_engine|firmware|engineN" || ok=1
	echo "# the pattern on engine2 while its firmware is requested: $TRY"
	[ $TRY = refused ] && emu_mark "own firmware pattern refused"
	sleep 0.5
	emu_mark "own firmware begin"
	dmesg_mark
	# mux_map_next; set_pwm 255; end
	echo 1 > $d/loading
	printf '9d8040ffc000' > $d/data
	echo 0 > $d/loading
	for i in $(seq 30); do
		[ -e $d ] || break
		sleep 0.1
	done
	sleep 1
	emu_mark "own firmware end"
	if [ $TRY = refused ]; then
		want_eq "engine2_mode after the firmware" load "$(cat $c/engine2_mode)" || ok=1
	else
		want_eq "lp5523:engine2 state" running "$(cat $E2/state)" || ok=1
		want_eq "engine2_mode (lp5523:engine2 owns it)" disabled "$(cat $c/engine2_mode)" || ok=1
		if [ "$(led_log_since | grep -c 'lp5523:engine2')" != 1 ]; then
			echo "# the firmware for an engine lp5523:engine2 owns: want one log line naming it, got:"
			led_log_since | sed 's/^/#   /'
			ok=1
		fi
	fi
	echo 60 > $FW/timeout
	reset_all
	return $ok
}

# 3. engine3_mode "load" while a pattern and a hw_pattern run on engines 1
# and 2: an engine in LOAD holds all three.  Either the write is refused
# (EBUSY, one line naming the owners) or the others keep running: kb2's
# fast hw_pattern blink (100 ms holds, ledtrig-pattern's hw_pattern in the
# first free engine, engine2) changes all the time (the check) and kb1's
# 4 s blink (repeat 8) on lp5523:engine1 finishes on time.  Both are
# small, so that engine3's pages of program memory (its program page 2,
# words 32-47, and its mapping row's page 5, words 80-95) stay free:
# engine3 is free in every way (engine1's program is checked; the
# hw_pattern's, 8 words, follows it).
legacy_load() {
	local c ok=0
	c=$(lp5523_chip)
	engine_link lp5523:engine1 lp5523:kb1 || return 1
	write_ok "$BLINK" $E1/pattern || ok=1
	write_ok 8 $E1/repeat || ok=1
	write_ok run $E1/state || ok=1
	write_ok pattern $L/lp5523:kb2/trigger || ok=1
	write_ok "255 100 255 0 0 100 0 0" $L/lp5523:kb2/hw_pattern || ok=1
	want_eq "lp5523:engine2 channels (the hw_pattern's)" 0 "$(cat $E2/channels)" || ok=1
	if awk '{ split($1, a, "@"); s = a[2] - 1
		for (w = s; w < s + NF + 8; w++) if (int(w / 16) == 2 || int(w / 16) == 5) bad = 1 }
		END { exit !bad }' "$(pattern_program $E1)"; then
		echo "# lp5523:engine1's program leaves engine3 no memory: $(cat "$(pattern_program $E1)")"
		ok=1
	fi
	sleep 0.3
	emu_mark "own legacy load begin"
	legacy_try load "$c/engine3_mode" "lp5523:engine1|lp5523:kb2" || ok=1
	echo "# engine3_mode load beside a pattern and a hw_pattern: $TRY"
	# kb1's run ends 4 s after its start
	sleep 5.2
	want_eq "lp5523:engine1 state 1.5 s after its 4 s run" finished "$(cat $E1/state)" || ok=1
	emu_mark "own legacy load end"
	[ $TRY != taken ] || write_ok disabled "$c/engine3_mode" || ok=1
	reset_all
	return $ok
}

# 4. selftest writes 255 then 0 into the PWM register of every output and
# reads STATUS, whose ENGx_INT bits (a run's end) clear on read.  While
# lp5523:r is held at 255 (engine1) and kb1 blinks 0/200 (engine2):
# either refused (EBUSY, one line naming an owner) or r and kb1 untouched
# (the check).  Then selftests back to back across the end of a 1 s run
# (repeat 2) on engine3, before anyone read its state: it reads
# "finished" afterwards, and still after one more selftest.
selftest() {
	local c t0 out ok=0
	c=$(lp5523_chip)
	engine_link lp5523:engine1 lp5523:r || return 1
	engine_link lp5523:engine2 lp5523:kb1 || return 1
	write_ok "$STEADY" $E1/pattern || ok=1
	write_ok "200 1000 200 0 0 1000 0 0" $E2/pattern || ok=1
	write_ok run $E1/state || ok=1
	write_ok run $E2/state || ok=1
	sleep 0.3
	emu_mark "own selftest begin"
	legacy_try - "$c/selftest" "lp5523:engine[12]" || ok=1
	echo "# selftest beside two patterns: $TRY"
	sleep 0.3
	emu_mark "own selftest end"
	reset_all
	engine_link lp5523:engine3 lp5523:kb3 || return 1
	write_ok "0 250 255 250" $E3/pattern || ok=1
	write_ok 2 $E3/repeat || ok=1
	write_ok run $E3/state || ok=1
	# selftests for 2.5 s of the guest's clock: the run's end (1 s) and
	# the 100 ms after it, when the driver first looks, fall inside
	t0=$(uptime_ds)
	while [ $(($(uptime_ds) - t0)) -lt 25 ]; do
		cat "$c/selftest" > /dev/null 2>&1
		sleep 0.05
	done
	sleep 0.5
	want_eq "lp5523:engine3 state after selftests across its end" finished "$(cat $E3/state)" || ok=1
	out=$(cat "$c/selftest" 2>&1)
	want_eq "lp5523:engine3 state after one more selftest ($out)" finished "$(cat $E3/state)" || ok=1
	reset_all
	return $ok
}

# poll_start <engine dir> <timeout ms> <out file>: poll-state in the
# background; returns once it has read the state (its ready file)
POLL_PID=
poll_start() {
	local ready=/tmp/own-poll.ready i=0
	rm -f $ready $3
	$POLL $1/state $2 $ready > $3 &
	POLL_PID=$!
	while [ ! -e $ready ] && [ $i -lt 500 ]; do
		sleep 0.01
		i=$((i + 1))
	done
}

# 5. poll() on "state" wakes when a run finishes: a 10 s run (repeat 1),
# then a 20 s run that ends late because another engine's program load
# held it (the datasheet: any engine in LOAD holds all three) for longer
# than the driver's 5 s of polling after the end it predicted.  The load
# is slowed by the emulator's reply delay: 150 ms a message.  On the 6.1
# driver engine2's 23 words, one byte a message, held engine1 8 s and the
# whole load took 9.5-10 s, well inside the 20 s run: the driver looked
# at the end it predicted and gave up 5 s later, before the held run
# ended.  A load of fewer messages holds it less: POLLPRI must arrive
# either way.
poll_late_finish() {
	local out t0 t1 ok=0
	[ -x $POLL ] || { echo "# $POLL missing"; return 1; }
	engine_link lp5523:engine1 lp5523:kb1 || return 1
	write_ok "255 5000 255 0 0 5000 0 0" $E1/pattern || ok=1
	write_ok 1 $E1/repeat || ok=1
	write_ok run $E1/state || ok=1
	poll_start $E1 15000 /tmp/own-poll.out
	wait $POLL_PID
	out=$(cat /tmp/own-poll.out)
	echo "# 10 s run: $out"
	case $out in
	"running -> finished after "*" ms") ;;
	*) echo "# 10 s run: want \"running -> finished\" within 15 s"; ok=1 ;;
	esac
	write_ok stop $E1/state || ok=1
	engine_link lp5523:engine2 lp5523:kb2 || ok=1
	write_ok "0 300 255 300" $E2/pattern || ok=1
	write_ok "255 10000 255 0 0 10000 0 0" $E1/pattern || ok=1
	write_ok run $E1/state || ok=1
	poll_start $E1 45000 /tmp/own-poll.out
	sleep 0.5
	t0=$(cut -d' ' -f1 /proc/uptime)
	emu_ctl delay 150 || ok=1
	write_ok run $E2/state || ok=1
	emu_ctl delay 0 || ok=1
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "# engine2's load with 150 ms replies took $t0 -> $t1 s (uptime)"
	wait $POLL_PID
	out=$(cat /tmp/own-poll.out)
	echo "# 20 s run held by a slow load: $out"
	case $out in
	"running -> finished after "*" ms") ;;
	*) echo "# want \"running -> finished\" when the held run ends"; ok=1 ;;
	esac
	want_eq "lp5523:engine1 state" finished "$(cat $E1/state)" || ok=1
	reset_all
	return $ok
}

# 6. a state change the provider makes on its own: linking an LED to a
# running engine restarts its pattern; with the program memory's writes
# NACKed the restart fails, and the engine reads "error".  poll() on state
# wakes with that change.
poll_restart_error() {
	local out ok=0
	[ -x $POLL ] || { echo "# $POLL missing"; return 1; }
	engine_link lp5523:engine1 lp5523:kb1 || return 1
	write_ok "$BLINK" $E1/pattern || ok=1
	write_ok run $E1/state || ok=1
	poll_start $E1 5000 /tmp/own-poll.out
	emu_ctl nack reg 50-6f || ok=1
	echo lp5523:engine1 > $L/lp5523:kb4/trigger
	emu_ctl nack off || ok=1
	wait $POLL_PID
	out=$(cat /tmp/own-poll.out)
	echo "# link while running, restart NACKed: $out"
	case $out in
	"running -> error after "*" ms") ;;
	*) echo "# want \"running -> error\" within 5 s"; ok=1 ;;
	esac
	want_eq "lp5523:engine1 state" error "$(cat $E1/state)" || ok=1
	reset_all
	return $ok
}

# program_shape <engine dir>: "<words> <pages> <engines>" its program
# takes in memory (each engine's mux row and words; pages of 16 words)
program_shape() {
	awk '{ split($1, a, "@"); s = a[2] - 1; k = NF - 1
		w += k + 1; p += int((s + k) / 16) - int(s / 16) + 1; e++ }
		END { print w + 0, p + 0, e + 0 }' "$(pattern_program $1)"
}

# 16 words, a whole page of the engineN_load files: a blink on the
# engine's mapping row, padded with branches to its start
LEGACY16=9d8040ff7e00420040007e004200a001a001a001a001a001a001a001a001a001

# 7. the I2C messages of program loads, counted by the check from the
# marks: the 16 odd tuples on one engine (80 words), a three-engine
# gradient, and engine2_load's 16 words.  The guest says each load's
# words, pages and engines in its end mark.
load_messages() {
	local ok=0 c shape
	c=$(lp5523_chip)
	engine_link lp5523:engine1 lp5523:kb1 || return 1
	write_ok "$ODD16" $E1/pattern || ok=1
	emu_mark "own load odd16 begin"
	write_ok run $E1/state || ok=1
	shape=$(program_shape $E1)
	emu_mark "own load odd16 end $shape"
	echo "# odd 16 tuples: words pages engines $shape"
	reset_all
	engine_link lp5523:engine1 lp5523:r lp5523:g lp5523:b || return 1
	write_ok "#ff0000 300 #00ff00 300 #0000ff 300" $E1/pattern || ok=1
	emu_mark "own load gradient begin"
	write_ok run $E1/state || ok=1
	shape=$(program_shape $E1)
	emu_mark "own load gradient end $shape"
	echo "# gradient: words pages engines $shape"
	reset_all
	write_ok load "$c/engine2_mode" || ok=1
	emu_mark "own load legacy begin"
	write_ok "$LEGACY16" "$c/engine2_load" || ok=1
	emu_mark "own load legacy end 16 1 1"
	write_ok disabled "$c/engine2_mode" || ok=1
	reset_all
	return $ok
}

# 9. A pattern for which no program memory is left is -E2BIG and loads
# nothing: the programs already loaded stay as they are.  The odd 16
# tuples take 79 words on engine 1 and FILL17 the 17 left on engine 2 (as
# the compiler builds them today: checked, so that a compiler change
# that frees a word shows here rather than passing untested); with no
# word free, engine 3's retry "with all that is free" once took its size
# of 0 as unlimited and loaded a blink over engine 1's program.
FILL17="20 100 20 0 40 300 255 300 0 0"
program_words() {
	awk '{ w += NF } END { print w + 0 }' "$(pattern_program $1)"
}
full_memory() {
	local ok=0 p1 p2
	engine_link lp5523:engine1 lp5523:kb1 || return 1
	engine_link lp5523:engine2 lp5523:kb2 || return 1
	engine_link lp5523:engine3 lp5523:kb3 || return 1
	write_ok "$ODD16" $E1/pattern && write_ok run $E1/state || ok=1
	write_ok "$FILL17" $E2/pattern && write_ok run $E2/state || ok=1
	want_eq "words loaded (engines 1 and 2)" 96 \
		$(($(program_words $E1) + $(program_words $E2))) || ok=1
	p1=$(cat "$(pattern_program $E1)") p2=$(cat "$(pattern_program $E2)")
	write_ok "$BLINK" $E3/pattern || ok=1
	write_err E2BIG run $E3/state || ok=1
	want_eq "engine1 program" "$p1" "$(cat "$(pattern_program $E1)")" || ok=1
	want_eq "engine2 program" "$p2" "$(cat "$(pattern_program $E2)")" || ok=1
	want_eq "engine3 program" "" "$(cat "$(pattern_program $E3)")" || ok=1
	want_eq "engine1 state" running "$(cat $E1/state)" || ok=1
	reset_all
	return $ok
}

# The board's boot pattern (device tree, lp5523:engine1 on lp5523:g) is a
# default: the first claim from user space takes engine1 over, stopping
# the boot pattern with one log line.  Each claim on a fresh boot pattern
# (lib/boot_claims.sh; lp5523_ownership.check holds the chip's outputs to
# it): engine1_mode "load"; a three-curve gradient on engine2 that needs
# engine1; kb4 linked to lp5523:engine1; engine1_load; engine2_leds with
# the boot LED's output; select_engine 1 and its firmware; run_engine 0
# (the probe left engine 3 selected: it need not stop the boot pattern,
# but the chip must then show it running); a hw_pattern that finds only
# engine1 left.
bc_pre_gradient() {
	local ok=0
	echo red > $L/lp5523:kb1/color_component
	echo green > $L/lp5523:kb2/color_component
	echo blue > $L/lp5523:kb3/color_component
	engine_link lp5523:engine2 lp5523:kb1 lp5523:kb2 lp5523:kb3 || ok=1
	write_ok "#ff0000 300 #00ff00 300 #0000ff 300" $E2/pattern || ok=1
	return $ok
}

bc_claim_gradient() {
	write_ok run $E2/state
}

bc_claim_link() {
	engine_link lp5523:engine1 lp5523:kb4
}

boot_default() {
	local claim ok=0
	for claim in engine_mode gradient link; do
		bc_claim $claim || ok=1
		reset_all
	done
	lp5523_boot_pattern_off
	return $ok
}

boot_yields_to_files_and_hw_pattern() {
	local claim ok=0
	for claim in engine_load engine_leds select_engine run_engine:any hw_pattern; do
		bc_claim "${claim%:*}" "$([ "${claim#*:}" = any ] && echo any)" || ok=1
		reset_all
	done
	echo 60 > $FW/timeout
	lp5523_boot_pattern_off
	return $ok
}

ktap_print_header
if [ -z "$(lp5523_chip)" ] || [ ! -d $E1 ]; then
	echo "1..0 # SKIP needs a bound lp5523 with its pattern engines"
	exit 0
fi
ktap_set_plan 11
bc_chip lp5523 lp5523x 0032 000001000 lp5523:kb1 lp5523:kb2 lp5523:kb3
lp5523_boot_pattern_off
reset_all
ktap_test_result run_engine_leaves_running_patterns run_engine
ktap_test_result select_engine_firmware_overwrites_no_pattern firmware_callback
ktap_test_result engine_mode_load_freezes_no_pattern legacy_load
ktap_test_result selftest_leaves_patterns_and_finished_runs selftest
ktap_test_result poll_wakes_when_a_late_run_finishes poll_late_finish
ktap_test_result poll_wakes_when_a_restart_fails poll_restart_error
ktap_test_result program_loads_counted load_messages
ktap_test_result boot_pattern_is_a_default boot_default
ktap_test_result boot_pattern_yields_to_files_and_hw_pattern boot_yields_to_files_and_hw_pattern
ktap_test_result full_memory_loads_over_no_program full_memory
ktap_test_result chip_idle_after lp5523_check_idle
emu_mark "own done"
ktap_finished
