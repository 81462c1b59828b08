# SPDX-License-Identifier: GPL-2.0
# Sourced by the demo scenes (/usr/bin/breathe-purple, ...): each sysfs
# write is printed before it is done, so a user learns the ABI by watching.
set -e

LEDS=/sys/class/leds
ENGINES=/sys/class/led_pattern

# w <value> <file>: print the write as a shell command, then do it
w() {
	printf '  echo %s > %s\n' "'$1'" "$2"
	echo "$1" > "$2"
}

# link <engine> <led...>: link the LEDs to the engine (its trigger)
link() {
	local e=$1 led
	shift
	for led in "$@"; do
		w "$e" $LEDS/$led/trigger
	done
}

# quiet_off <led...>: unlink and turn off, printed once
quiet_off() {
	local led
	printf '  # off: %s\n' "$*"
	for led in "$@"; do
		echo none > $LEDS/$led/trigger
		echo 0 > $LEDS/$led/brightness
	done
}

need_engines() {
	[ -d $ENGINES/software0 ] && return 0
	echo "${0##*/}: no /sys/class/led_pattern in this kernel" >&2
	exit 1
}

# need_chip <label>: a chip of the family board (make run BOARD=family)
need_chip() {
	[ -d "$ENGINES/$1:engine1" ] && return 0
	echo "${0##*/}: no $1:engine1: the family board has it (make run BOARD=family)" >&2
	exit 1
}
