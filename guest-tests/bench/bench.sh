#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make bench, guest side: run the same patterns through upstream
# ledtrig-pattern and, when the kernel has them, the led_pattern software
# engines, in the same boot, and mark the timeline; guest-tests/lib/bench.py
# turns the timeline into figures.
#
# BENCH_SECONDS (default 60) is how long the blink runs.
. /tests/lib/ktap.sh

SECONDS_RUN=${BENCH_SECONDS:-60}
TRIG_LEDS="lp5523:kb1 lp5523:kb2 lp5523:kb3"
ENGINE_LEDS="lp5523:r lp5523:g lp5523:b"
BLINK="255 500 255 0 0 500 0 0"
RAMP="0 1000 255 0"

set_trigger() {
	local led
	for led in $2; do
		echo "$1" > /sys/class/leds/$led/trigger
	done
}

# Each LED its own ledtrig-pattern, started one after another, as a user
# of today's ABI would.
start_ledtrig() {
	local led
	for led in $TRIG_LEDS; do
		echo pattern > /sys/class/leds/$led/trigger
		echo "$1" > /sys/class/leds/$led/pattern
	done
}

# grey -> #rrggbb tuples for the engine
to_color() {
	echo "$1" | awk '{ for (i = 1; i <= NF; i += 2)
		printf "%s#%02x%02x%02x %s", (i > 1 ? " " : ""), $i, $i, $i, $(i + 1) }'
}

have_engine() {
	[ -d /sys/class/led_pattern/software0 ]
}

start_engine() {
	local e=/sys/class/led_pattern/software0
	# one write: sysfs takes each write(2) as a whole value
	echo "$(to_color "$1")" > $e/pattern
	echo -1 > $e/repeat
	set_trigger software0 "$ENGINE_LEDS"
	echo run > $e/state
}

stop_all() {
	set_trigger none "$TRIG_LEDS"
	if have_engine; then
		echo stop > /sys/class/led_pattern/software0/state
		set_trigger none "$ENGINE_LEDS"
	fi
}

wakeups() {
	awk '/arch_timer/ { n = 0; for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) n += $i; print n }' /proc/interrupts
}

run_case() {
	local name=$1 pattern=$2 seconds=$3 w0 w1
	emu_mark "bench $name begin"
	w0=$(wakeups)
	start_ledtrig "$pattern"
	have_engine && start_engine "$pattern"
	sleep "$seconds"
	w1=$(wakeups)
	emu_mark "bench $name end"
	stop_all
	echo "# bench $name timer_interrupts_per_s $(( (w1 - w0) / seconds ))"
	sleep 1
}

have_engine || echo "# bench: no /sys/class/led_pattern/software0 in this kernel"
# the emulator's idle CPU use: a booted guest, nothing running
emu_mark "bench idle begin"
sleep 10
emu_mark "bench idle end"
run_case blink "$BLINK" "$SECONDS_RUN"
run_case ramp "$RAMP" 10
echo "# bench done"
