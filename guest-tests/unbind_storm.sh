#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lptest-timeout: 600
# Unbind/rebind storm: the lp5523 and the gpio-leds drivers are unbound
# and bound again 50 times with 2 CPUs (10 with one, 5 on the debug
# kernel, where lockdep learns every lock order and kmemleak sees a leak
# in the first cycles as well as in the tenth) while software0 runs
# the fastest pattern on the LP5523 LEDs, software1 a colour ramp on
# the GPIO LEDs, the chip's engine1 (when the kernel has it) a breathe on
# kb5, and two readers poll every LED and engine attribute.
# After each bind every LED is back and links again, the engines keep
# running; at the end no splat, no leak (kmemleak, debug kernel), and once
# the engines stop nothing stays lit (unbind_storm.check).
. /tests/lib/ktap.sh
. /tests/lib/lp5523.sh

CLASS=/sys/class/led_pattern
LEDS=/sys/class/leds
GPIO_DRV=/sys/bus/platform/drivers/leds-gpio
STOP=/tmp/unbind_storm.stop
SPLATS='WARNING:|BUG:|Oops|Unable to handle|Call trace:|KASAN|UBSAN|circular locking|sleeping function called|blocked for more than|soft lockup'
KMEMLEAK=/sys/kernel/debug/kmemleak

# 50 cycles with 2 CPUs take about 68 s of CI's time (100: 136 s), 5
# on the debug kernel about 50 s
if [ -e $KMEMLEAK ]; then
	CYCLES=5
elif [ "$(grep -c '^processor' /proc/cpuinfo)" -lt 2 ]; then
	CYCLES=10
else
	CYCLES=50
fi

gpio_dev() {
	local d
	for d in $GPIO_DRV/*; do
		[ -L "$d" ] && [ -d "$d/leds" ] && { basename "$d"; return; }
	done
}

count_lp5523() {
	ls -d $LEDS/lp5523:* 2>/dev/null | wc -l
}

count_gpio() {
	ls -d $LEDS/board:* 2>/dev/null | wc -l
}

# link: the LP5523 LEDs to software0, the GPIO LEDs to software1
link_all() {
	local led ok=0
	for led in $LEDS/lp5523:*; do
		write_ok software0 "$led/trigger" || ok=1
	done
	for led in $LEDS/board:*; do
		write_ok software1 "$led/trigger" || ok=1
	done
	return $ok
}

HW=$CLASS/lp5523:engine1
NHW=0
[ -d $HW ] && NHW=1

# with the chip's engines, kb5 breathes in the chip through the storm (the
# engines come back stopped and empty after each bind)
hw_run() {
	[ $NHW -eq 1 ] || return 0
	write_ok lp5523:engine1 $LEDS/lp5523:kb5/trigger &&
		write_ok "0 200 255 200" $HW/pattern &&
		write_ok run $HW/state
}

start() {
	local ok=0
	NLP=$(count_lp5523) NGPIO=$(count_gpio)
	want_eq "LP5523 LEDs" 9 "$NLP" || ok=1
	link_all || ok=1
	write_ok -1 $CLASS/software0/repeat || ok=1
	write_ok -1 $CLASS/software1/repeat || ok=1
	write_ok "0 1 255 1" $CLASS/software0/pattern || ok=1
	write_ok "#000000 1 #ffffff 1" $CLASS/software1/pattern || ok=1
	write_ok run $CLASS/software0/state || ok=1
	write_ok run $CLASS/software1/state || ok=1
	hw_run || ok=1
	return $ok
}

reader() {
	while [ ! -e $STOP ]; do
		cat $LEDS/*/brightness $LEDS/*/trigger $LEDS/*/color_component \
			$CLASS/*/pattern $CLASS/*/state $CLASS/*/repeat \
			> /dev/null 2>&1
		ls $CLASS/*/leds > /dev/null 2>&1
		sleep 0.05
	done
}

# wait_for <count function> <want>: up to 5 s
wait_for() {
	local i=0
	while [ "$($1)" -ne "$2" ]; do
		i=$((i + 1))
		[ $i -le 50 ] || return 1
		sleep 0.1
	done
}

CYCLES_DONE=0
storm() {
	local chip gpio i ok=0 r1 r2 t0
	chip=$(lp5523_chip_name)
	gpio=$(gpio_dev)
	[ -n "$gpio" ] || { echo "# no gpio-leds device bound"; return 1; }
	rm -f $STOP
	reader & r1=$!
	reader & r2=$!
	[ -w $KMEMLEAK ] && echo clear > $KMEMLEAK
	dmesg_mark
	emu_mark "storm begin"
	i=0
	t0=$(cut -d. -f1 /proc/uptime)
	while [ $i -lt $CYCLES ]; do
		[ $((i % 10)) -ne 0 ] || [ $i -eq 0 ] ||
			echo "# $i cycles in $(( $(cut -d. -f1 /proc/uptime) - t0 )) s"
		i=$((i + 1))
		# unbind_storm.check: every output changes between a cycle's
		# "linked" mark and the next cycle's "unbind" mark
		emu_mark "storm cycle $i unbind"
		write_ok "$chip" $LP5523_DRV/unbind || { ok=1; break; }
		write_ok "$gpio" $GPIO_DRV/unbind || { ok=1; break; }
		want_eq "cycle $i: LP5523 LEDs after unbind" 0 "$(count_lp5523)" || ok=1
		lp5523_bind "$chip" || { ok=1; break; }
		write_ok "$gpio" $GPIO_DRV/bind || { ok=1; break; }
		wait_for count_lp5523 "$NLP" ||
			{ echo "# cycle $i: $(count_lp5523) of $NLP LP5523 LEDs back"; ok=1; break; }
		wait_for count_gpio "$NGPIO" ||
			{ echo "# cycle $i: $(count_gpio) of $NGPIO GPIO LEDs back"; ok=1; break; }
		link_all || { ok=1; break; }
		hw_run || { ok=1; break; }
		emu_mark "storm cycle $i linked"
		want_eq "cycle $i: software0 leds/" "$((NLP - NHW))" \
			"$(ls $CLASS/software0/leds | grep -c '^lp5523:')" || { ok=1; break; }
		want_eq "cycle $i: software0 state" running "$(cat $CLASS/software0/state)" || ok=1
		[ $NHW -eq 0 ] || want_eq "cycle $i: engine1 state" running "$(cat $HW/state)" || ok=1
		[ $ok -eq 0 ] || break
	done
	CYCLES_DONE=$i
	emu_mark "storm end"
	touch $STOP
	wait $r1 $r2
	echo "# $CYCLES_DONE unbind/bind cycles of $chip and $gpio"
	return $ok
}

no_splat() {
	local hits
	hits=$(dmesg_since | grep -E "$SPLATS" | head -5)
	[ -z "$hits" ] && return 0
	echo "$hits" | sed 's/^/# /'
	return 1
}

no_leak() {
	local leaks
	echo scan > $KMEMLEAK
	sleep 6
	echo scan > $KMEMLEAK
	leaks=$(grep -c unreferenced $KMEMLEAK)
	[ "$leaks" -eq 0 ] && return 0
	echo "# $leaks unreferenced objects after the storm"
	head -30 $KMEMLEAK | sed 's/^/# /'
	return 1
}

# stop the engines, unlink: dark, and dark a second later (timeline)
goes_idle() {
	local d ok=0
	for d in $CLASS/software0 $CLASS/software1 $HW; do
		[ -d "$d" ] || continue
		write_ok stop "$d/state" || ok=1
	done
	for d in $LEDS/*; do
		write_ok none "$d/trigger" || ok=1
		write_ok 0 "$d/brightness" || ok=1
	done
	write_ok "" $CLASS/software0/pattern || ok=1
	sleep 0.2
	emu_mark "storm idle begin"
	sleep 1
	emu_mark "storm idle end"
	lp5523_check_idle || ok=1
	return $ok
}

# the board's DT LED starts its led-pattern on software1 when it is bound:
# one more bind puts the board back as the boot left it
restore() {
	local gpio ok=0
	gpio=$(gpio_dev)
	write_ok "$gpio" $GPIO_DRV/unbind || return 1
	write_ok "$gpio" $GPIO_DRV/bind || return 1
	wait_for count_gpio "$NGPIO" || ok=1
	want_eq "board:green:boot trigger" software1 \
		"$(sed -n 's/.*\[\([^]]*\)\].*/\1/p' $LEDS/board:green:boot/trigger)" || ok=1
	want_eq "software1 state" running "$(cat $CLASS/software1/state)" || ok=1
	return $ok
}

ktap_print_header
if [ ! -d $CLASS/software0 ] || [ ! -d $CLASS/software1 ] ||
	[ -z "$(lp5523_chip)" ] || [ -z "$(gpio_dev)" ]; then
	echo "1..0 # SKIP needs software0, software1, a bound lp5523 and gpio-leds"
	exit 0
fi
ktap_set_plan 6
[ -e $KMEMLEAK ] && ktap_print_msg "kernel: debug"
ktap_test_result storm_patterns_running start
ktap_test_result storm_unbind_bind_cycles storm
ktap_test_result storm_no_splat no_splat
if [ -w $KMEMLEAK ]; then
	ktap_test_result storm_no_kmemleak_report no_leak
else
	ktap_test_skip storm_no_kmemleak_report "kernel without kmemleak"
fi
ktap_test_result storm_chip_goes_idle goes_idle
ktap_test_result storm_board_restored restore
ktap_finished
