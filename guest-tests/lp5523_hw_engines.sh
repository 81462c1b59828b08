#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The LP5523's three program engines as pattern engines (lp5523:engine1..3):
# patterns compiled to microcode and run by the chip.  The guest side checks
# sysfs, errno and the kernel log; lp5523_hw_engines.check checks the
# emulator's timeline between the marks (waveforms, lock-step, I2C silence).
. /tests/lib/ktap.sh
. /tests/lib/lp5523.sh

CLS=/sys/class/led_pattern
E1=$CLS/lp5523:engine1
E2=$CLS/lp5523:engine2
E3=$CLS/lp5523:engine3
L=/sys/class/leds
DRV=/sys/bus/i2c/drivers/lp5523x
# write_err matches the errno's text; the guest's libc says
# "Device or resource busy" and "Input/output error"

# one log line naming $1 since dmesg_mark
want_log() {
	dmesg_since | grep -q -- "$1" && return 0
	echo "# no log line with \"$1\"; log since: $(dmesg_since | tail -3 | tr '\n' '|')"
	return 1
}

registered() {
	local ok=0 e
	for e in $E1 $E2 $E3; do
		want_eq "${e##*/} type" hardware "$(cat $e/type)" || ok=1
		want_eq "${e##*/} state" stopped "$(cat $e/state)" || ok=1
		want_eq "${e##*/} channels" 3 "$(cat $e/channels)" || ok=1
	done
	grep -q 'lp5523:engine1' $L/lp5523:kb1/trigger ||
		{ echo "# lp5523:kb1 does not offer lp5523:engine1"; ok=1; }
	for e in $L/*; do
		case ${e##*/} in lp5523:*) continue ;; esac
		if grep -q 'lp5523:engine1' $e/trigger; then
			echo "# ${e##*/} (not the chip's) offers lp5523:engine1"
			ok=1
		fi
	done
	return $ok
}

# blink on kb1, breathe on kb2 (engine2): the timeline checks the shapes
# and that no I2C message passes between the marks
blink_breathe() {
	local ok=0
	engine_link lp5523:engine1 lp5523:kb1 || return 1
	engine_link lp5523:engine2 lp5523:kb2 || return 1
	write_ok "255 500 255 0 0 500 0 0" $E1/pattern || ok=1
	write_ok "0 1000 255 1000" $E2/pattern || ok=1
	write_ok run $E1/state || ok=1
	write_ok run $E2/state || ok=1
	emu_mark "hw quiet begin"
	sleep 6.3
	emu_mark "hw quiet end"
	want_eq "engine1 state" running "$(cat $E1/state)" || ok=1
	want_eq "engine2 state" running "$(cat $E2/state)" || ok=1
	[ -n "$(cat $(pattern_program $E1))" ] || { echo "# engine1 program empty"; ok=1; }
	# a debugging aid, in debugfs only: no sysfs ABI
	want_eq "engine1 sysfs program" absent \
		"$([ -e $E1/program ] && echo present || echo absent)" || ok=1
	echo "# engine1 program: $(cat $(pattern_program $E1))"
	echo "# engine2 program: $(cat $(pattern_program $E2))"
	write_ok stop $E1/state || ok=1
	write_ok stop $E2/state || ok=1
	want_eq "engine1 state" stopped "$(cat $E1/state)" || ok=1
	lp5523_engines_reset
	return $ok
}

# #ff00ff 500 #000000 500 on the indicator: red and blue share one engine
purple() {
	local ok=0
	engine_link lp5523:engine1 lp5523:r lp5523:g lp5523:b || return 1
	write_ok "#ff00ff 500 #000000 500" $E1/pattern || ok=1
	write_ok run $E1/state || ok=1
	emu_mark "hw purple begin"
	sleep 5.2
	emu_mark "hw purple end"
	want_eq "engine1 state" running "$(cat $E1/state)" || ok=1
	want_eq "engine2 channels (red and blue share engine1)" 2 "$(cat $E2/channels)" || ok=1
	echo "# program: $(cat $(pattern_program $E1) | tr '\n' '|')"
	lp5523_engines_reset
	return $ok
}

# 30 s on the normal kernel with 2 CPUs (lock-step and drift over 33
# periods: the chip's clock does not care which kernel runs, and the
# check's 0.5 % bound on the mean period does not depend on the run's
# length), 9 s elsewhere
gradient_seconds() {
	if [ -e /sys/kernel/debug/kmemleak ] ||
		[ "$(grep -c '^processor' /proc/cpuinfo)" -lt 2 ]; then
		echo 9
	else
		echo 30
	fi
}

# three different curves: three engines in lock-step, the others read busy
gradient() {
	local ok=0
	engine_link lp5523:engine1 lp5523:r lp5523:g lp5523:b || return 1
	write_ok "#ff0000 300 #00ff00 300 #0000ff 300" $E1/pattern || ok=1
	write_ok run $E1/state || ok=1
	emu_mark "hw gradient begin"
	want_eq "engine1 program engines" 3 "$(grep -c engine $(pattern_program $E1))" || ok=1
	want_eq "engine2 channels" 0 "$(cat $E2/channels)" || ok=1
	write_ok "0 200 255 200" $E2/pattern || ok=1
	dmesg_mark
	write_err "esource busy" run $E2/state || ok=1
	want_log "engine2 is used by lp5523:engine1" || ok=1
	want_eq "engine2 state" stopped "$(cat $E2/state)" || ok=1
	sleep "$(gradient_seconds)"
	emu_mark "hw gradient end"
	want_eq "engine1 state" running "$(cat $E1/state)" || ok=1
	lp5523_engines_reset
	return $ok
}

# the guest's timer interrupts so far (arch_timer, all CPUs)
timer_irqs() {
	awk '/arch_timer/ { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) n += $i }
		END { print n + 0 }' /proc/interrupts
}

# the guest's timer interrupts over 2 s
timer_irqs_2s() {
	local a
	a=$(timer_irqs)
	sleep 2
	echo $(($(timer_irqs) - a))
}

# the odd pattern in the chip (kb5) wakes the guest no more than idle
# does and sends no I2C; then beside it on software0 (kb4): the timeline
# compares both with the ideal waveform
odd16() {
	local ok=0 idle busy
	idle=$(timer_irqs_2s)
	engine_link lp5523:engine1 lp5523:kb5 || return 1
	write_ok "$ODD16" $E1/pattern || ok=1
	write_ok run $E1/state || ok=1
	emu_mark "hw odd begin"
	busy=$(timer_irqs_2s)
	emu_mark "hw odd end"
	echo "# timer interrupts in 2 s: $idle idle, $busy with the pattern in the chip"
	# the shell's own sleeps and marks; a software engine makes hundreds
	[ "$busy" -le $((idle * 3 / 2 + 20)) ] ||
		{ echo "# the chip's pattern woke the guest: $busy vs $idle"; ok=1; }
	engine_link software0 lp5523:kb4 || ok=1
	write_ok "$ODD16" $CLS/software0/pattern || ok=1
	write_ok run $CLS/software0/state || ok=1
	emu_mark "hw odd compare begin"
	# five periods of 1403 ms after the 100 ms the check skips: the check
	# needs a phase off in three of them (lp5523_hw_engines.check)
	sleep 7.3
	emu_mark "hw odd compare end"
	echo "# program: $(cat $(pattern_program $E1) | tr '\n' '|')"
	write_ok stop $CLS/software0/state || ok=1
	write_ok "" $CLS/software0/pattern || ok=1
	echo none > $L/lp5523:kb4/trigger
	lp5523_engines_reset
	return $ok
}

# repeat 2 ends "finished" holding the last value
finished() {
	local ok=0
	engine_link lp5523:engine1 lp5523:kb3 || return 1
	write_ok 2 $E1/repeat || ok=1
	write_ok "0 300 255 300 255 0" $E1/pattern || ok=1
	write_ok run $E1/state || ok=1
	emu_mark "hw finite begin"
	want_eq "state while running" running "$(cat $E1/state)" || ok=1
	sleep 2
	want_eq "state after 2 runs" finished "$(cat $E1/state)" || ok=1
	emu_mark "hw finite end"
	lp5523_engines_reset
	return $ok
}

# link while running (joins, restarted), rewrite while running
relink_rewrite() {
	local ok=0
	engine_link lp5523:engine1 lp5523:kb1 || return 1
	write_ok "255 200 255 0 0 200 0 0" $E1/pattern || ok=1
	write_ok run $E1/state || ok=1
	sleep 0.5
	engine_link lp5523:engine1 lp5523:kb4 || ok=1
	emu_mark "hw relink begin"
	sleep 2.1
	emu_mark "hw relink end"
	local before
	before=$(cat $(pattern_program $E1))
	write_ok "255 400 255 0 0 400 0 0" $E1/pattern || ok=1
	want_eq "state after rewrite" running "$(cat $E1/state)" || ok=1
	[ "$before" != "$(cat $(pattern_program $E1))" ] || { echo "# program unchanged by rewrite"; ok=1; }
	emu_mark "hw rewrite begin"
	sleep 2.5
	emu_mark "hw rewrite end"
	echo none > $L/lp5523:kb4/trigger
	want_eq "leds/ after unlink" lp5523:kb1 "$(ls $E1/leds)" || ok=1
	lp5523_engines_reset
	return $ok
}

# a slow ramp on engine2 with kb1, then kb2 linked 1 s in (127 of 255,
# 0.13 levels a ms: 50 ms off the clock is 6 levels); then a finite run
# (3 runs of a 1 s ramp) with kb2 linked in its second run.  The engine
# loads its program again with the new output map, started where the
# run's clock is (leds-lp55xx.rst): kb2 joins at the level the run's
# own clock says, kb1 goes on as if nothing happened.  The marks around
# the run's write tell the check where the clock starts; those around
# the link, where the join happens.
# join_run <marks> <pattern> <repeat> <s to the link> <s after> <state>:
# kb1 runs the pattern on engine2, kb2 is linked that many seconds in;
# "<marks> run", "running", "join", "joined" and "end" frame the run's
# write and the link; engine2 then reads <state>
join_run() {
	local ok=0
	engine_link lp5523:engine2 lp5523:kb1 || return 1
	write_ok "$2" $E2/pattern || ok=1
	write_ok "$3" $E2/repeat || ok=1
	emu_mark "$1 run"
	write_ok run $E2/state || ok=1
	emu_mark "$1 running"
	sleep "$4"
	emu_mark "$1 join"
	engine_link lp5523:engine2 lp5523:kb2 || ok=1
	emu_mark "$1 joined"
	sleep "$5"
	emu_mark "$1 end"
	want_eq "engine2 state" "$6" "$(cat $E2/state)" || ok=1
	want_eq "leds/ entries" "lp5523:kb1 lp5523:kb2" "$(ls $E2/leds | tr '\n' ' ' | sed 's/ $//')" || ok=1
	write_ok -1 $E2/repeat || ok=1
	lp5523_engines_reset
	return $ok
}

late_join() {
	local ok=0
	# past the top and down the other side
	join_run "hw late" "0 2000 255 2000" -1 1 3.2 running || ok=1
	# the three runs end 3 s after the run's start: 1.7 s on, and more
	join_run "hw late finite" "0 500 255 500" 3 1.3 2.5 finished || ok=1
	return $ok
}

# errors: errno, one log line, nothing changed (running pattern untouched)
errors() {
	local ok=0 p i big=""
	engine_link lp5523:engine1 lp5523:kb1 || return 1
	p="255 500 255 0 0 500 0 0"
	write_ok "$p" $E1/pattern || return 1
	write_ok run $E1/state || return 1
	dmesg_mark
	write_err EINVAL "0 100 255 100" $E1/pattern || ok=1
	want_log "shortest that works" || ok=1
	# 40 tuples, under max_steps: 20 values held 3 s, a loop each
	for i in $(seq 1 20); do big="$big $((i * 4)) 3000 $((i * 4)) 0"; done
	dmesg_mark
	write_err E2BIG "$big" $E1/pattern || ok=1
	want_log "words of engine memory" || ok=1
	dmesg_mark
	write_err EINVAL "0 100 zz 100" $E1/pattern || ok=1
	want_eq "pattern kept" "$p" "$(cat $E1/pattern)" || ok=1
	want_eq "state kept" running "$(cat $E1/state)" || ok=1
	# and on the chip: kb1's 1 s blink goes on as it was (the check)
	emu_mark "hw refused begin"
	sleep 2.1
	emu_mark "hw refused end"
	# legacy files and engines, both ways
	c=$(lp5523_chip)
	dmesg_mark
	write_err "esource busy" load "$c/engine1_mode" || ok=1
	want_log "engine1 is used by lp5523:engine1" || ok=1
	write_err "esource busy" 9d80 "$c/engine1_load" || ok=1
	want_eq engine1_mode disabled "$(cat $c/engine1_mode)" || ok=1
	write_ok load "$c/engine2_mode" || ok=1
	write_ok "0 200 255 200" $E2/pattern || ok=1
	engine_link lp5523:engine2 lp5523:kb2 || ok=1
	dmesg_mark
	write_err "esource busy" run $E2/state || ok=1
	want_log "engine2 is used by the engineN_\* files" || ok=1
	want_eq "engine2 state" stopped "$(cat $E2/state)" || ok=1
	# not enough free engines: engine2 legacy, engine1 wants three curves
	write_ok load "$c/engine3_mode" || ok=1
	engine_link lp5523:engine1 lp5523:r lp5523:g lp5523:b || ok=1
	dmesg_mark
	write_err "esource busy" "#ff0000 300 #00ff00 300 #0000ff 300" $E1/pattern || ok=1
	want_log "needs 3 engines, 1 free" || ok=1
	want_eq "pattern kept" "$p" "$(cat $E1/pattern)" || ok=1
	want_eq "state kept" running "$(cat $E1/state)" || ok=1
	# kb1, r, g and b (linked above: restarted together) blink, no
	# gradient: three edges at least each, 500 ms apart
	emu_mark "hw refused busy begin"
	sleep 1.6
	emu_mark "hw refused busy end"
	write_ok disabled "$c/engine2_mode" || ok=1
	write_ok disabled "$c/engine3_mode" || ok=1
	lp5523_engines_reset
	return $ok
}

# max_steps is what an engine's program holds with the chip's memory to
# itself (96 words: a mapping row, 3 words besides the tuples): a pattern
# of max_steps tuples of a word each is taken and runs; one tuple more is
# -E2BIG at the write, with a log line naming the count, and changes
# nothing
max_steps_fills_memory() {
	local n p ok=0
	n=$(cat $E1/max_steps)
	want_eq "engine1 max_steps" 92 "$n" || ok=1
	want_eq "engine3 max_steps" 92 "$(cat $E3/max_steps)" || ok=1
	engine_link lp5523:engine1 lp5523:kb1 || return 1
	p=$(steps_pattern "$n")
	write_ok "$p" $E1/pattern || ok=1
	write_ok run $E1/state || ok=1
	want_eq "state, $n tuples" running "$(cat $E1/state)" || ok=1
	dmesg_mark
	write_err E2BIG "$p 0 10" $E1/pattern || ok=1
	want_log "$((n + 1)) tuples, this engine takes at most $n" || ok=1
	want_eq "pattern kept" "$p" "$(cat $E1/pattern)" || ok=1
	want_eq "state kept" running "$(cat $E1/state)" || ok=1
	lp5523_engines_reset
	return $ok
}

# repeat_refused <engine dir> <state>: 256 is -EINVAL at the write of
# repeat (the engine counts runs in 8 bits), with one log line naming it;
# repeat and state stay
repeat_refused() {
	local ok=0
	dmesg_mark
	write_err EINVAL 256 "$1/repeat" || ok=1
	want_log "repeat: 256 is out of range, this engine runs a pattern -1 (forever) or 1-255 times" || ok=1
	want_eq "${1##*/} repeat kept" 255 "$(cat "$1/repeat")" || ok=1
	want_eq "${1##*/} state kept" "$2" "$(cat "$1/state")" || ok=1
	return $ok
}

# repeat on a chip's engine is -1 or 1-255, refused at the write
# (stopped or running), not at the next run
repeat_range() {
	local ok=0
	engine_link lp5523:engine1 lp5523:kb1 || return 1
	write_ok "0 500 255 500" $E1/pattern || ok=1
	write_ok 255 $E1/repeat || ok=1
	repeat_refused $E1 stopped || ok=1
	write_ok run $E1/state || ok=1
	repeat_refused $E1 running || ok=1
	write_ok -1 $E1/repeat || ok=1
	lp5523_engines_reset
	return $ok
}

# an I2C error while loading: -EIO, state error, nothing half loaded runs
io_error() {
	local ok=0
	emu_ctl "nack reg 50-6f" || { echo "# no emulator control"; return 1; }
	sleep 0.1
	engine_link lp5523:engine1 lp5523:kb1 || ok=1
	write_ok "255 500 255 0 0 500 0 0" $E1/pattern || ok=1
	dmesg_mark
	write_err "Input/output error" run $E1/state || ok=1
	emu_ctl "nack off"
	sleep 0.1
	want_eq "state after EIO" error "$(cat $E1/state)" || ok=1
	want_log "I2C error while loading" || ok=1
	emu_mark "hw ioerror"
	sleep 0.6
	emu_mark "hw ioerror end"
	write_ok stop $E1/state || ok=1
	want_eq "state after stop" stopped "$(cat $E1/state)" || ok=1
	lp5523_engines_reset
	return $ok
}

unbind_rebind() {
	local ok=0 chip
	chip=$(lp5523_chip_name)
	engine_link lp5523:engine1 lp5523:kb1 lp5523:kb5 || return 1
	write_ok "0 200 255 200" $E1/pattern || ok=1
	write_ok run $E1/state || ok=1
	sleep 0.5
	dmesg_mark
	write_ok "$chip" $DRV/unbind || return 1
	emu_mark "hw unbound"
	[ -d $E1 ] && { echo "# lp5523:engine1 still there after unbind"; ok=1; }
	if dmesg_since | grep -E -q 'Oops|BUG|WARNING|Call trace'; then
		echo "# kernel log: $(dmesg_since | grep -E 'Oops|BUG|WARNING' | head -2)"
		ok=1
	fi
	sleep 0.5
	emu_mark "hw unbound end"
	lp5523_bind "$chip" || return 1
	[ -d $E1 ] && [ -d $E3 ] || { echo "# engines not back after bind"; ok=1; }
	want_eq "engine1 state after bind" stopped "$(cat $E1/state 2>/dev/null)" || ok=1
	return $ok
}

# "brightness" of an LED on a hardware engine fails with ENODATA, running
# or stopped (the chip sets its level; what the LED held before the engine
# took it is no answer); unlinked it reads 0, and on a software engine the
# level the engine set
brightness_read() {
	local ok=0 sw=$CLS/software0
	write_ok 200 $L/lp5523:kb4/brightness || ok=1
	engine_link lp5523:engine1 lp5523:kb4 || return 1
	write_ok "0 200 255 200" $E1/pattern || ok=1
	write_ok run $E1/state || ok=1
	read_err ENODATA $L/lp5523:kb4/brightness || ok=1
	write_ok stop $E1/state || ok=1
	read_err ENODATA $L/lp5523:kb4/brightness || ok=1
	write_ok none $L/lp5523:kb4/trigger || ok=1
	want_eq "kb4 brightness unlinked" 0 "$(cat $L/lp5523:kb4/brightness)" || ok=1
	engine_link software0 lp5523:kb4 || ok=1
	write_ok "100 100 100 0" $sw/pattern || ok=1
	write_ok run $sw/state || ok=1
	sleep 0.1
	want_eq "kb4 brightness on software0" 100 "$(cat $L/lp5523:kb4/brightness)" || ok=1
	write_ok stop $sw/state || ok=1
	write_ok "" $sw/pattern || ok=1
	write_ok none $L/lp5523:kb4/trigger || ok=1
	lp5523_engines_reset
	return $ok
}

ktap_print_header
if [ ! -d $E1 ]; then
	echo "1..0 # SKIP no LP5523 hardware pattern engines (lp5523:engine1)"
	exit 0
fi
ktap_set_plan 15
lp5523_engines_reset
ktap_test_result engines_registered_for_the_chip_only registered
ktap_test_result blink_and_breathe_run_in_the_chip blink_breathe
ktap_test_result purple_red_blue_share_an_engine purple
ktap_test_result gradient_three_engines_lock_step gradient
ktap_test_result odd_16_tuples_no_wakeups odd16
ktap_test_result repeat_2_ends_finished finished
ktap_test_result relink_and_rewrite_while_running relink_rewrite
ktap_test_result link_while_running_joins_in_phase late_join
ktap_test_result errors_change_nothing errors
ktap_test_result max_steps_fills_the_program_memory max_steps_fills_memory
ktap_test_result repeat_out_of_range_refused_at_write repeat_range
ktap_test_result io_error_leaves_nothing_running io_error
ktap_test_result unbind_while_running_rebind unbind_rebind
ktap_test_result brightness_reads_enodata_on_a_hardware_engine brightness_read
ktap_test_result chip_idle_after lp5523_check_idle
ktap_finished
