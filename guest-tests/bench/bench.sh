#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make bench, guest side.  The same patterns on upstream ledtrig-pattern
# (one trigger per LED, started one after another, as today's ABI makes a
# user do; with its timer, its hrtimer (hr_pattern) and the chip's
# hw_pattern) and on a led_pattern software engine (one engine, its LEDs
# linked, then `run`), each alone on the indicator (lp5523:r, g, b = D7,
# D6, D5), one after the other, BENCH_REPEATS times; then how the software
# engine's cost grows with linked LEDs and pattern length.  The timeline
# marks slice the emulator's timeline; "# bench cost" lines carry what the
# guest counted.  guest-tests/lib/bench.py turns both into the table.
#
# Marks: "bench <case> <impl> <n> begin|run|end" (run: just before the
# write that starts the pattern), impl ledtrig, ledtrighr, hwpattern,
# ledtrigmc (ring:rgb), groupmc (leds-group-multicolor), software,
# groupsw (the software engine on the leds-group-multicolor LED),
# hardware (the LP5523's own engines, when the kernel has them), lp5569
# and lp8501 (the family's engines: notify:rgb, keys:r, g, b).
. /tests/lib/ktap.sh

REPEATS=${BENCH_REPEATS:-3}
BLINK_S=${BENCH_BLINK_SECONDS:-24}
RAMP_S=${BENCH_RAMP_SECONDS:-10}
SCALE_S=${BENCH_SCALE_SECONDS:-8}
IDLE_S=${BENCH_IDLE_SECONDS:-10}

LEDS=/sys/class/leds
ENG=/sys/class/led_pattern/software0
RGB="lp5523:r lp5523:g lp5523:b"

# case: pattern for the engine; per-LED grey patterns for ledtrig-pattern
BLINK="255 500 255 0 0 500 0 0"
BREATHE="0 1000 255 1000"
COLOUR="#000000 1000 #ff40c0 1000"
COLOUR_R="0 1000 255 1000"
COLOUR_G="0 1000 64 1000"
COLOUR_B="0 1000 192 1000"
# 16 tuples, odd durations: steps, holds, slow and fast ramps (2.09 s)
ODD16="0 37 200 113 200 0 40 251 255 61 90 7 90 0 255 149 30 301 30 13 180 89 0 0 128 503 128 0 10 97 60 431"
# the same shape, every ramp within the LP5523's one level per 0.488 ms
ODD16C="0 137 200 113 200 0 40 251 255 89 90 7 90 0 255 149 30 301 30 79 180 97 0 0 128 503 128 0 10 97 60 431"

# scaled <peak> <pattern>: the pattern's values times peak / 255
scaled() {
	echo "$2" | awk -v peak="$1" '{ for (i = 1; i <= NF; i += 2)
		printf "%s%d %s", (i > 1 ? " " : ""), int($i * peak / 255), $(i + 1) }'
}

# the same in colour, #ff40c0 at full scale: three curves, an engine each,
# each program as long as ODD16C's (about 80 words): more than the
# LP5523's 96 words hold
ODD16CC=$(echo "$ODD16C" | awk '{ for (i = 1; i <= NF; i += 2)
	printf "%s#%02x%02x%02x %s", (i > 1 ? " " : ""), $i, int($i * 64 / 255),
		int($i * 192 / 255), $(i + 1) }')

set_trigger() {
	local t=$1 led
	shift
	for led in "$@"; do
		echo "$t" > $LEDS/$led/trigger
	done
}

# guest counters: arch timer interrupts (all CPUs), busy CPU time in
# USER_HZ ticks (all but idle and iowait)
counters() {
	local w
	w=$(awk '/arch_timer/ { n = 0; for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) n += $i; print n }' \
		/proc/interrupts)
	echo "$w $(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat)"
}

C0=
cost_begin() {
	emu_mark "bench $1 begin"
	C0=$(counters)
}

# cost_end <case> <seconds>
cost_end() {
	local c1
	c1=$(counters)
	emu_mark "bench $1 end"
	# shellcheck disable=SC2086
	set -- "$1" "$2" $C0 $c1
	echo "# bench cost $1 seconds=$2 wakeups=$(($5 - $3)) cpu_ticks=$(($6 - $4)) hz=100"
}

# ledtrig_attr <attribute> <case> <seconds> <led:pattern...>: each LED
# its own ledtrig-pattern, the pattern written to <attribute>: pattern
# (a timer), hr_pattern (an hrtimer, 6.10 and later) or hw_pattern (the
# LED driver's pattern_set: the LP5523's engines, with the series)
ledtrig_attr() {
	local attr=$1 name=$2 s=$3 lp leds=
	shift 3
	for lp in "$@"; do
		leds="$leds ${lp%%=*}"
	done
	set_trigger pattern $leds
	if [ ! -e "$LEDS/${1%%=*}/$attr" ]; then
		echo "# bench: ledtrig-pattern has no $attr here"
		set_trigger none $leds
		return 0
	fi
	cost_begin "$name"
	emu_mark "bench $name run"
	for lp in "$@"; do
		# "lp5523:r=0 1000 255 1000"
		echo "${lp#*=}" > "$LEDS/${lp%%=*}/$attr" ||
			echo "# bench: $attr refused $name"
	done
	sleep "$s"
	cost_end "$name" "$s"
	set_trigger none $leds
	sleep 1
}

ledtrig() {
	ledtrig_attr pattern "$@"
}

# the peers: ledtrig-pattern on an hrtimer, and on the chip (hw_pattern)
ledtrighr() {
	ledtrig_attr hr_pattern "$@"
}

hwpattern() {
	ledtrig_attr hw_pattern "$@"
}

# mc_ledtrig <led> <case> <seconds> <pattern> <intensities>: ledtrig-pattern
# on one multicolor LED, its colour from multi_intensity (red green blue)
mc_ledtrig() {
	local led=$1 name=$2 s=$3 p=$4 mi=$5
	if [ ! -e "$LEDS/$led/multi_intensity" ]; then
		echo "# bench: no multicolor $led here"
		return 0
	fi
	echo "$mi" > "$LEDS/$led/multi_intensity"
	echo pattern > "$LEDS/$led/trigger"
	cost_begin "$name"
	emu_mark "bench $name run"
	echo "$p" > "$LEDS/$led/pattern" || echo "# bench: pattern refused $name"
	sleep "$s"
	cost_end "$name" "$s"
	echo none > "$LEDS/$led/trigger"
	echo 0 > "$LEDS/$led/brightness"
	sleep 1
}

# mainline's multicolor LEDs: the ring's lp55xx multi-led (D1-D3 of the
# chip at 0x33), and leds-group-multicolor's LED of three of that chip's
# LEDs (D4-D6; dts/bench.dts), each one LED that ledtrig-pattern drives
ledtrigmc() {
	mc_ledtrig ring:rgb "$@"
}

groupmc() {
	mc_ledtrig rgb:indicator "$@"
}

# engine <engine> <case> <seconds> <pattern> <led...>: one engine, its
# LEDs linked, then run
engine() {
	local e=$1 name=$2 s=$3 p=$4 dir=/sys/class/led_pattern/$1
	shift 4
	printf '%s' "$p" > "$dir/pattern" || { echo "# bench: $e refused $name"; return 0; }
	echo -1 > "$dir/repeat"
	set_trigger "$e" "$@"
	cost_begin "$name"
	emu_mark "bench $name run"
	echo run > "$dir/state" || echo "# bench: $e refused $name"
	sleep "$s"
	cost_end "$name" "$s"
	echo stop > "$dir/state"
	set_trigger none "$@"
	sleep 1
}

software() {
	engine software0 "$@"
}

# two_engines <case> <seconds> <pattern>: software0 and software2 run it at
# once, on three LEDs of each chip
TWO0="lp5523:kb1 lp5523:kb2 lp5523:kb3"
TWO2="ring:white:4 ring:white:5 ring:white:6"
two_engines() {
	local name=$1 s=$2 p=$3 e
	for e in software0 software2; do
		printf '%s' "$p" > /sys/class/led_pattern/$e/pattern
		echo -1 > /sys/class/led_pattern/$e/repeat
	done
	set_trigger software0 $TWO0
	set_trigger software2 $TWO2
	cost_begin "$name"
	emu_mark "bench $name run"
	echo run > /sys/class/led_pattern/software0/state
	echo run > /sys/class/led_pattern/software2/state
	sleep "$s"
	cost_end "$name" "$s"
	for e in software0 software2; do
		echo stop > /sys/class/led_pattern/$e/state
	done
	set_trigger none $TWO0 $TWO2
	sleep 1
}

# The LP5523's own engines, once the kernel has them: the first engine of
# type hardware that lp5523:r offers as a trigger.
HW=
for e in /sys/class/led_pattern/*; do
	[ "$(cat "$e/type" 2>/dev/null)" = hardware ] || continue
	grep -q "${e##*/}" $LEDS/lp5523:r/trigger || continue
	HW=${e##*/}
	break
done

hardware() {
	[ -n "$HW" ] && engine "$HW" "$@"
	return 0
}

# The rest of the family (dts/family.dts): the LP5569's engine 1 on its
# multicolor LED notify:rgb (LED0-LED2), the LP8501's on keys:r, g, b
# (D7-D9), when the kernel offers them
family_engine() {
	local e=$1
	shift
	[ -d "/sys/class/led_pattern/$e" ] && engine "$e" "$@"
	return 0
}

lp5569() {
	family_engine notify:engine1 "$@" notify:rgb
}

lp8501() {
	family_engine keys:engine1 "$@" keys:r keys:g keys:b
}

# triangle 0 -> 9 -> 0 over 1024 ms in <n> tuples: the same waveform
# (about 18 level changes a second) whatever the pattern length; 1023
# one-digit tuples are 4091 bytes, within what one sysfs write carries
triangle() {
	awk -v n="$1" 'BEGIN { h = n / 2; d = 1024 / n
		for (i = 0; i < n; i++) {
			k = i < h ? i : n - i
			printf "%s%d %d", (i ? " " : ""), int(9 * k / h + 0.5), d
		} }'
}

[ -d $ENG ] || echo "# bench: no $ENG in this kernel: ledtrig-pattern only"
echo "# bench: hardware engine: ${HW:-none in this kernel (column pending)}"
echo "# bench guest: Linux $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs"
echo "# bench repeats=$REPEATS blink_s=$BLINK_S ramp_s=$RAMP_S scale_s=$SCALE_S"
# The family's boot patterns (notify:white:1, keys:g on engine 1) stop:
# their engines are columns.  The board's boot LED blinks on software1
# from the device tree; kb6 (D9) joins it, so the timeline shows that
# other engine's edges throughout.
for e in notify:engine1 keys:engine1; do
	echo stop > /sys/class/led_pattern/$e/state 2>/dev/null
done
echo none > $LEDS/notify:white:1/trigger 2>/dev/null
echo none > $LEDS/keys:g/trigger 2>/dev/null
if [ -d /sys/class/led_pattern/software1 ]; then
	echo software1 > $LEDS/lp5523:kb6/trigger
fi
sleep 2
cost_begin "idle base 1"
sleep "$IDLE_S"
cost_end "idle base 1" "$IDLE_S"

# one_case <case> <n> <seconds> <engine pattern> <r> <g> <b> [<intensities>]:
# the case on each implementation, one after the other (ledtrig-pattern
# and its peers take a grey pattern per LED; on a multicolor LED, red's
# with the intensities, default 255 255 255)
one_case() {
	local c=$1 n=$2 s=$3 p=$4 impl
	for impl in ledtrig ledtrighr hwpattern; do
		$impl "$c $impl $n" "$s" "lp5523:r=$5" "lp5523:g=$6" "lp5523:b=$7"
	done
	for impl in ledtrigmc groupmc; do
		$impl "$c $impl $n" "$s" "$5" "${8:-255 255 255}"
	done
	[ -d $ENG ] && software "$c software $n" "$s" "$p" $RGB
	[ -d $ENG ] && [ -d $LEDS/rgb:indicator ] &&
		software "$c groupsw $n" "$s" "$p" rgb:indicator
	hardware "$c hardware $n" "$s" "$p" $RGB
	lp5569 "$c lp5569 $n" "$s" "$p"
	lp8501 "$c lp8501 $n" "$s" "$p"
}

n=1
while [ $n -le "$REPEATS" ]; do
	one_case blink $n "$BLINK_S" "$BLINK" "$BLINK" "$BLINK" "$BLINK"
	one_case breathe $n "$RAMP_S" "$BREATHE" "$BREATHE" "$BREATHE" "$BREATHE"
	one_case colour $n "$RAMP_S" "$COLOUR" "$COLOUR_R" "$COLOUR_G" "$COLOUR_B" \
		"255 64 192"
	one_case odd16 $n "$RAMP_S" "$ODD16" "$ODD16" "$ODD16" "$ODD16"
	one_case odd16c $n "$RAMP_S" "$ODD16C" "$ODD16C" "$ODD16C" "$ODD16C"
	one_case odd16cc $n "$RAMP_S" "$ODD16CC" "$ODD16C" "$(scaled 64 "$ODD16C")" \
		"$(scaled 192 "$ODD16C")" "255 64 192"
	n=$((n + 1))
done

# the software engine's cost growth, BENCH_REPEATS times: costs that
# move with the host's load show as the spread
scaling() {
	local n=$1 t
	software "leds1 software $n" "$SCALE_S" "$BREATHE" lp5523:kb1
	software "leds3 software $n" "$SCALE_S" "$BREATHE" lp5523:kb1 lp5523:kb2 lp5523:kb3
	# eight LP5523 outputs and a GPIO LED
	software "leds9 software $n" "$SCALE_S" "$BREATHE" lp5523:kb1 lp5523:kb2 \
		lp5523:kb3 lp5523:kb4 lp5523:b lp5523:g lp5523:r lp5523:kb5 board::user1
	# two engines on two chips at once: software0 on kb1-kb3 (0x32),
	# software2 on the ring's segments 4-6 (D7-D9 of 0x33)
	[ -d /sys/class/led_pattern/software2 ] &&
		two_engines "chips2 software $n" "$SCALE_S" "$BREATHE"
	# the longest pattern the engine takes (1023 or 1024 tuples)
	for t in 2 64 $(cat $ENG/max_steps); do
		[ "$t" -le 1024 ] || t=1024
		software "tuples$t software $n" "$SCALE_S" "$(triangle $t)" \
			lp5523:kb1 lp5523:kb2 lp5523:kb3
	done
}

if [ -d $ENG ]; then
	n=1
	while [ $n -le "$REPEATS" ]; do
		scaling $n
		n=$((n + 1))
	done
fi
# The N900's PatternError as its MCE loads it through the stock
# engineN_* files (red on engine 1, engine 2 in MCE's idle loop): the chip
# runs it alone, so what it costs is the emulator's CPU.
n900_in_chip() {
	local c
	c=$(ls -d /sys/bus/i2c/drivers/lp5523x/*-0032 2>/dev/null | head -1)
	[ -n "$c" ] || return 0
	echo disabled > "$c/engine1_mode"
	echo disabled > "$c/engine2_mode"
	echo load > "$c/engine1_mode"
	echo 000000100 > "$c/engine1_leds"
	echo 9d8040007f007f0040ff7f007f000000 > "$c/engine1_load"
	echo load > "$c/engine2_mode"
	echo 000000000 > "$c/engine2_leds"
	echo 9d800000 > "$c/engine2_load"
	cost_begin "n900 legacy 1"
	emu_mark "bench n900 legacy 1 run"
	echo run > "$c/engine2_mode"
	echo run > "$c/engine1_mode"
	sleep "$SCALE_S"
	cost_end "n900 legacy 1" "$SCALE_S"
	echo disabled > "$c/engine1_mode"
	echo disabled > "$c/engine2_mode"
	echo 0 > $LEDS/lp5523:r/brightness
	sleep 1
}
n900_in_chip

cost_begin "idle base 2"
sleep "$IDLE_S"
cost_end "idle base 2" "$IDLE_S"
echo none > $LEDS/lp5523:kb6/trigger
echo "# bench done"
