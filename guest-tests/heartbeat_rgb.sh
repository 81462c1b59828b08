#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# heartbeat-rgb on the N900 indicator (lp5523:r, :g, :b on D7, D6, D5) and
# on LEDs whose colour component is none (lp5523:kb1 on D1, a gpio LED).
# The guest sets things up and checks sysfs; heartbeat_rgb.check checks the
# colours, the rhythm and the phase on the emulator's timeline between the
# marks.  The busy part runs loops for BUSY_S seconds to raise the load.
#
# The trigger's colour follows the 1-minute load average, and what the
# board runs around this suite (the suites before it, kmemleak's and
# KASAN's work on the debug kernel) moves that load: the suite cannot
# choose the load, so it records it.  A sampler marks every value the
# kernel publishes (/proc/loadavg reads the avenrun[0] the trigger reads,
# rounded to 0.01), and the check compares each beat's colour with the
# colour of the loads in force when the trigger may have read it.  Before
# the idle part the suite waits, within SETTLE_S, for the load to fall
# below SETTLE_LOAD hundredths per CPU, where the trigger's hue is on the
# green side (led_range_to_hue(): hue 0x54 at 0, 0x2a at half the CPUs).
. /tests/lib/ktap.sh

LEDS=/sys/class/leds
RGB='lp5523:r lp5523:g lp5523:b'
BUSY_S=30
# The load decays by e every minute: from 1.3 on 2 CPUs (a debug kernel
# after the suites before this one) to 0.45 per CPU in about 25 s.  Below
# 0.45 per CPU the hue is at least 0x2e, where green is at 255.  A board
# that stays above that (the debug kernel on a loaded host: 3.1 after
# 60 s) is judged on its loads all the same.
SETTLE_S=30
SETTLE_LOAD=45
SAMPLER=

# set_trigger <trigger> <led>...
set_trigger() {
	local trig=$1 led ok=0
	shift
	for led in "$@"; do
		write_ok "$trig" "$LEDS/$led/trigger" || ok=1
		grep -q "\[$trig\]" "$LEDS/$led/trigger" ||
			{ echo "# $led: trigger $trig not selected"; ok=1; }
	done
	return $ok
}

# set_attr <attr> <value> <led>...
set_attr() {
	local attr=$1 val=$2 led ok=0
	shift 2
	for led in "$@"; do
		write_ok "$val" "$LEDS/$led/$attr" || ok=1
	done
	return $ok
}

cpus() {
	grep -c '^processor' /proc/cpuinfo
}

# load_sampler: a mark "hbrgb load L cpus N" at every value of the 1-minute
# load; the kernel publishes one every 5 s, the sampler looks every 0.2 s.
# It reads with the shell's own read: a fork a look would add to the load
# it samples on the debug kernel.
load_sampler() {
	local last= now rest n
	n=$(cpus)
	while :; do
		read -r now rest < /proc/loadavg
		if [ "$now" != "$last" ]; then
			emu_mark "hbrgb load $now cpus $n"
			last=$now
		fi
		sleep 0.2
	done
}

# start_sampler: the sampler, stopped however the suite ends (a suite the
# watchdog kills must not leave it marking into the next one's timeline)
start_sampler() {
	load_sampler &
	SAMPLER=$!
	trap stop_sampler EXIT
}

stop_sampler() {
	if [ -n "$SAMPLER" ]; then
		kill "$SAMPLER" && wait "$SAMPLER" 2>/dev/null
		SAMPLER=
	fi
}

# hundredths <load>: "0.99" as 99, in the shell (no fork)
hundredths() {
	local i=${1%.*} f=${1#*.}
	echo $((i * 100 + 1$f - 100))
}

# settle: wait for the load to fall below SETTLE_LOAD hundredths per CPU;
# the check judges the colours against the loads either way, this only
# makes the idle beats green rather than yellow on a board the suites
# before us left busy
settle() {
	local i=0 load rest n
	n=$(cpus)
	while [ $i -lt $SETTLE_S ]; do
		read -r load rest < /proc/loadavg
		[ "$(hundredths "$load")" -lt $((SETTLE_LOAD * n)) ] && break
		sleep 1
		i=$((i + 1))
	done
	echo "# load $load on $n CPUs after ${i} s"
}

check_listed() {
	grep -q 'heartbeat-rgb' "$LEDS/lp5523:r/trigger" ||
		{ echo "# heartbeat-rgb not in $(cat $LEDS/lp5523:r/trigger)"; return 1; }
}

check_idle() {
	local c ok=0
	for c in r g b; do
		want_eq "lp5523:$c component" "$c" \
			"$(sed -n 's/.*\[\([a-z]*\)\].*/\1/p' $LEDS/lp5523:$c/color_component | cut -c 1)" || ok=1
	done
	settle
	set_trigger heartbeat-rgb $RGB || ok=1
	emu_mark "hbrgb idle begin"
	sleep 3
	emu_mark "hbrgb idle end"
	return $ok
}

check_late_join() {
	local ok=0
	emu_mark "hbrgb late join"
	set_trigger heartbeat-rgb lp5523:kb1 || ok=1
	sleep 2.5
	emu_mark "hbrgb late join end"
	return $ok
}

check_component_change() {
	local ok=0
	# red: lit at every load (led_hsv_to_rgb() gives it at least 6 on
	# the hues from green to red), so the change shows at any load
	write_ok red "$LEDS/lp5523:g/color_component" || ok=1
	emu_mark "hbrgb g red"
	sleep 2
	# marks on both sides of the write: it can take 200 ms on the debug
	# kernel of a loaded host, and a beat in between shows either
	emu_mark "hbrgb g to green"
	write_ok green "$LEDS/lp5523:g/color_component" || ok=1
	emu_mark "hbrgb g green"
	sleep 2
	emu_mark "hbrgb g green end"
	grep -q '\[heartbeat-rgb\]' "$LEDS/lp5523:g/trigger" ||
		{ echo "# trigger lost on lp5523:g"; ok=1; }
	return $ok
}

check_invert() {
	local led ok=0
	set_attr invert 1 $RGB lp5523:kb1 || ok=1
	for led in $RGB lp5523:kb1; do
		want_eq "$led invert" 1 "$(cat $LEDS/$led/invert)" || ok=1
	done
	write_err EINVAL yes "$LEDS/lp5523:r/invert" || ok=1
	want_eq "lp5523:r invert after a bad write" 1 "$(cat $LEDS/lp5523:r/invert)" || ok=1
	emu_mark "hbrgb invert"
	# 1.5 s for the step in progress, then two of a heartbeat's periods
	sleep 3.5
	emu_mark "hbrgb invert end"
	set_attr invert 0 $RGB lp5523:kb1 || ok=1
	return $ok
}

# an on/off gpio LED with component none beats at max_brightness
check_gpio_none() {
	local led=board::user1 i on=0 off=0 b ok=0
	set_trigger heartbeat-rgb $led || return 1
	i=0
	while [ $i -lt 60 ]; do
		b=$(cat $LEDS/$led/brightness)
		case $b in
		0) off=$((off + 1)) ;;
		1) on=$((on + 1)) ;;
		*) echo "# $led brightness $b"; ok=1 ;;
		esac
		sleep 0.04
		i=$((i + 1))
	done
	write_ok none "$LEDS/$led/trigger" || ok=1
	want_eq "$led brightness after removing the trigger" 0 "$(cat $LEDS/$led/brightness)" || ok=1
	[ $on -gt 0 ] && [ $off -gt $on ] ||
		{ echo "# $led samples: on $on off $off, want some on, mostly off"; ok=1; }
	return $ok
}

check_busy() {
	local n pids= pid i ok=0 before after
	before=$(cut -d ' ' -f 1 /proc/loadavg)
	n=$(( $(cpus) * 2 + 2 ))
	i=0
	while [ $i -lt $n ]; do
		( while :; do :; done ) &
		pids="$pids $!"
		i=$((i + 1))
	done
	sleep $BUSY_S
	emu_mark "hbrgb busy begin"
	sleep 3
	emu_mark "hbrgb busy end"
	after=$(cut -d ' ' -f 1 /proc/loadavg)
	for pid in $pids; do
		kill "$pid"
	done
	# their own pids: the load sampler runs on
	wait $pids 2>/dev/null
	echo "# load $before before $n busy loops, $after after ${BUSY_S} s"
	awk -v a="$before" -v b="$after" 'BEGIN { exit !(b > a) }' ||
		{ echo "# load did not rise"; ok=1; }
	return $ok
}

# the plain heartbeat trigger, whose rhythm heartbeat-rgb shares, still beats
check_heartbeat() {
	local led=lp5523:kb2 ok=0
	emu_mark "hbrgb heartbeat"
	set_trigger heartbeat $led || ok=1
	sleep 3
	emu_mark "hbrgb heartbeat end"
	want_eq "$led invert" 0 "$(cat $LEDS/$led/invert)" || ok=1
	set_trigger none $led || ok=1
	return $ok
}

check_removed() {
	local led ok=0
	set_trigger none $RGB lp5523:kb1 || ok=1
	sleep 0.3
	for led in $RGB lp5523:kb1; do
		want_eq "$led brightness" 0 "$(cat $LEDS/$led/brightness)" || ok=1
	done
	emu_mark "hbrgb removed"
	return $ok
}

ktap_print_header
ktap_set_plan 9
emu_mark "heartbeat_rgb begin"
start_sampler
ktap_test_result trigger_listed check_listed
ktap_test_result idle_rgb_set check_idle
ktap_test_result late_join_set check_late_join
ktap_test_result component_change_while_running check_component_change
ktap_test_result invert_set check_invert
ktap_test_result gpio_none_beats check_gpio_none
ktap_test_result heartbeat_still_beats check_heartbeat
ktap_test_result busy_load_rises check_busy
ktap_test_result trigger_removed_leds_off check_removed
stop_sampler
emu_mark "heartbeat_rgb end"
ktap_finished
