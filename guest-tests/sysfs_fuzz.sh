#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lptest-timeout: 780
# lptest-alone: the writes made in a time are counted, from every CPU
# sysfs fuzzing: lp-fuzz (guest-tests/helpers/lp-fuzz.c) writes random
# bytes, empty and huge writes, boundary numbers, malformed and maximal
# patterns into every attribute of every LED and every led_pattern engine
# from 4 threads, interleaved with link/unlink, run/stop, color_component
# changes and reads, while the fastest patterns run on all nine LP5523
# LEDs.  Every write returns, is taken or refused as the documented ABI
# says of the value written, every attribute reads back the normal form
# of its last accepted write, each kind of write is taken a minimum
# number of times, no read shows a kernel address; the kernel_log suite
# finds any splat.  Afterwards the chip goes idle (sysfs_fuzz.check:
# nothing stays lit on the timeline) and the board's LEDs and engines are
# put back as they were.  LP_FUZZ_SEED=n on the kernel command line
# (lptest.seed=n) repeats the values of a run (not their interleaving).
. /tests/lib/ktap.sh
. /tests/lib/lp5523.sh

FUZZ=/usr/bin/lp-fuzz
CLASS=/sys/class/led_pattern
LEDS=/sys/class/leds
SAVE=/tmp/sysfs_fuzz.saved

debug_kernel() {
	[ -e /sys/kernel/debug/kmemleak ]
}

# The full run (60000 writes) on the normal kernel with 2 CPUs, where
# the writers really race; shorter ones on 1 CPU and on the debug kernel.
# The run stops at the count or at the time limit, whichever comes first.
# The time limit only ends a run that is too slow; the count is what is
# asserted.  An idle host makes the short runs' writes in well under the
# limits, the debug kernel at load 7 made 4695 in 90 s.  The counts are
# CI's time (make check runs this suite alone, builds stopped): 100000
# writes took 143 s of a 52-minute CI run, 10000 on the debug kernel 82 s;
# each kind of write is still taken hundreds of times (the check's floor
# is one in 50 of each kind).
if debug_kernel; then
	SECONDS_MAX=240 WRITES_MIN=6000
elif [ "$(grep -c '^processor' /proc/cpuinfo)" -ge 2 ]; then
	# 600 s: the LP5523's engines load programs over I2C; an idle host
	# makes 100000 writes in about 165 s, one at load 6 (three other
	# boots and builds on 2 cores) made 96484 in 400 s
	SECONDS_MAX=600 WRITES_MIN=60000
else
	SECONDS_MAX=180 WRITES_MIN=10000
fi

seed() {
	local s
	s=$(sed -n 's/.*\blptest\.seed=\([0-9]*\).*/\1/p' /proc/cmdline)
	[ -n "$s" ] || s=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
	echo "$s"
}

bracketed() {
	sed -n 's/.*\[\([^]]*\)\].*/\1/p' "$1"
}

# save / restore: every LED's trigger, colour and brightness, every
# engine's pattern, repeat and state (the board's DT LED runs software1),
# one "|"-separated line each
save_state() {
	local d
	: > $SAVE
	for d in $CLASS/*; do
		printf 'engine|%s|%s|%s|%s\n' "${d##*/}" "$(cat "$d/state")" \
			"$(cat "$d/repeat")" "$(cat "$d/pattern")" >> $SAVE
	done
	for d in $LEDS/*; do
		printf 'led|%s|%s|%s|%s\n' "${d##*/}" "$(bracketed "$d/trigger")" \
			"$(bracketed "$d/color_component" 2>/dev/null)" \
			"$(cat "$d/brightness")" >> $SAVE
	done
}

restore_state() {
	local kind name a b c ok=0
	while IFS='|' read -r kind name a b c; do
		[ "$kind" = engine ] || continue
		write_ok stop "$CLASS/$name/state" || ok=1
		write_ok "$c" "$CLASS/$name/pattern" || ok=1
		write_ok "$b" "$CLASS/$name/repeat" || ok=1
	done < $SAVE
	while IFS='|' read -r kind name a b c; do
		[ "$kind" = led ] || continue
		write_ok none "$LEDS/$name/trigger" || ok=1
		[ -z "$b" ] || write_ok "$b" "$LEDS/$name/color_component" || ok=1
		write_ok 0 "$LEDS/$name/brightness" || ok=1
		if [ "$a" != none ]; then
			write_ok "$a" "$LEDS/$name/trigger" || ok=1
		elif [ "$c" != 0 ]; then
			write_ok "$c" "$LEDS/$name/brightness" || ok=1
		fi
	done < $SAVE
	while IFS='|' read -r kind name a b c; do
		[ "$kind" = engine ] && [ "$a" = running ] || continue
		write_ok run "$CLASS/$name/state" || ok=1
	done < $SAVE
	return $ok
}

# the fastest patterns: a 1 ms ramp on all nine LP5523 LEDs (software0),
# a 1 ms colour ramp on the GPIO LEDs (software1)
fastest_patterns() {
	local led ok=0
	for led in $LEDS/lp5523:*; do
		write_ok software0 "$led/trigger" || ok=1
	done
	for led in $LEDS/board:*; do
		write_ok software1 "$led/trigger" || ok=1
	done
	write_ok -1 $CLASS/software0/repeat || ok=1
	write_ok -1 $CLASS/software1/repeat || ok=1
	write_ok "0 1 255 1" $CLASS/software0/pattern || ok=1
	write_ok "#000000 1 #ffffff 1" $CLASS/software1/pattern || ok=1
	write_ok run $CLASS/software0/state || ok=1
	write_ok run $CLASS/software1/state || ok=1
	want_eq "software0 leds/" 9 "$(ls $CLASS/software0/leds | grep -c '^lp5523:')" || ok=1
	return $ok
}

FUZZ_RC=
fuzz() {
	emu_mark "fuzz begin"
	$FUZZ -s "$SEED" -t $SECONDS_MAX -n $WRITES_MIN -j 4 > /tmp/fuzz.out 2>&1
	FUZZ_RC=$?
	emu_mark "fuzz end"
	cat /tmp/fuzz.out
	[ $FUZZ_RC -ne 2 ]
}

reads_back() {
	[ "$FUZZ_RC" -eq 0 ]
}

write_count() {
	local n
	n=$(sed -n 's/^# lp-fuzz: seed [0-9]*, \([0-9]*\) writes.*/\1/p' /tmp/fuzz.out | tail -1)
	[ -n "$n" ] || { echo "# no summary line from lp-fuzz"; return 1; }
	[ "$n" -ge $WRITES_MIN ] && return 0
	echo "# want at least $WRITES_MIN writes in $SECONDS_MAX s, got $n"
	return 1
}

# every engine stopped and emptied, every LED unlinked and off: the chip
# is idle, and stays dark (the timeline between the two marks)
goes_idle() {
	local d ok=0
	for d in $CLASS/*; do
		write_ok stop "$d/state" || ok=1
		write_ok "" "$d/pattern" || ok=1
	done
	for d in $LEDS/*; do
		write_ok none "$d/trigger" || ok=1
		write_ok 0 "$d/brightness" || ok=1
	done
	sleep 0.2
	emu_mark "fuzz idle begin"
	sleep 1
	emu_mark "fuzz idle end"
	lp5523_check_idle || ok=1
	return $ok
}

ktap_print_header
if [ ! -x $FUZZ ] || [ ! -d $CLASS/software0 ] || [ ! -d $CLASS/software1 ] ||
	[ -z "$(lp5523_chip)" ]; then
	echo "1..0 # SKIP needs lp-fuzz, software0, software1 and a bound lp5523"
	exit 0
fi
SEED=$(seed)
ktap_set_plan 6
debug_kernel && ktap_print_msg "kernel: debug"
ktap_print_msg "seed $SEED (lptest.seed=$SEED repeats the values)"
save_state
ktap_test_result fuzz_fastest_patterns_on_all_leds fastest_patterns
ktap_test_result fuzz_every_write_returns fuzz
ktap_test_result fuzz_reads_back_last_accepted reads_back
ktap_test_result fuzz_write_count write_count
ktap_test_result fuzz_chip_goes_idle goes_idle
ktap_test_result fuzz_board_restored restore_state
ktap_finished
