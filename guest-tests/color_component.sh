#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# /sys/class/leds/<led>/color_component: defaults from the device tree's
# "color", read-back in the trigger style, and bad writes refused with
# EINVAL, one log line naming the value, and nothing changed.
. /tests/lib/ktap.sh

LEDS=/sys/class/leds
GARBAGE=$(head -c 4096 /dev/zero | tr '\0' 'x')

# LED name and the component its firmware colour gives it
DEFAULTS='lp5523:r red
lp5523:g green
lp5523:b blue
lp5523:kb1 none
lp5523:kb6 none
board:green:user0 green
board::user1 none'

# bracketed <component>: what a read shows with that one selected
bracketed() {
	local c out=
	for c in none red green blue; do
		if [ "$c" = "$1" ]; then
			out="$out[$c] "
		else
			out="$out$c "
		fi
	done
	printf '%s' "${out% }"
}

# current <led>: the selected component, brackets stripped
current() {
	sed -n 's/.*\[\([a-z]*\)\].*/\1/p' "$LEDS/$1/color_component"
}

check_defaults() {
	local name want ok=0
	while read -r name want; do
		if [ ! -e "$LEDS/$name/color_component" ]; then
			echo "# $name: no color_component"
			ok=1
			continue
		fi
		want_eq "$name color_component" "$(bracketed "$want")" \
			"$(cat "$LEDS/$name/color_component")" || ok=1
	done <<-EOF2
	$DEFAULTS
	EOF2
	return $ok
}

# every LED but a multicolor one (it shows every colour through its
# channels) has the file, and each read shows exactly one bracketed name
check_every_led() {
	local d n ok=0
	for d in "$LEDS"/*; do
		if [ -e "$d/multi_intensity" ]; then
			[ ! -e "$d/color_component" ] ||
				{ echo "# ${d##*/}: multicolor, with a color_component"; ok=1; }
			continue
		fi
		n=$(grep -o '\[[a-z]*\]' "$d/color_component" 2>/dev/null | wc -l)
		want_eq "${d##*/} bracketed names" 1 "$n" || ok=1
	done
	return $ok
}

check_writes() {
	local led=lp5523:kb1 c ok=0
	for c in red green blue none; do
		write_ok "$c" "$LEDS/$led/color_component" || ok=1
		want_eq "$led after writing $c" "$(bracketed "$c")" \
			"$(cat "$LEDS/$led/color_component")" || ok=1
	done
	# without a trailing newline, like printf
	printf 'green' > "$LEDS/$led/color_component" 2>/dev/null || ok=1
	want_eq "$led after printf green" green "$(current $led)" || ok=1
	write_ok none "$LEDS/$led/color_component" || ok=1
	return $ok
}

check_bad_refused() {
	local led=lp5523:r bad ok=0
	write_ok blue "$LEDS/$led/color_component" || ok=1
	for bad in purple "" "$GARBAGE" Red " red" "red green" "[red]" 1; do
		write_err EINVAL "$bad" "$LEDS/$led/color_component" || ok=1
		want_eq "$led after \"$(shorten "$bad")\"" blue "$(current $led)" || ok=1
	done
	write_ok red "$LEDS/$led/color_component" || ok=1
	return $ok
}

check_bad_logged() {
	local led=lp5523:r lines ok=0
	dmesg_mark
	write_err EINVAL purple "$LEDS/$led/color_component" || ok=1
	lines=$(dmesg_since | grep -c 'color_component: invalid value "purple"')
	want_eq "log lines naming purple" 1 "$lines" || ok=1
	dmesg_mark
	write_err EINVAL "$GARBAGE" "$LEDS/$led/color_component" || ok=1
	lines=$(dmesg_since | grep -c "color_component: invalid value \"$(printf '%.32s' "$GARBAGE")\"\.\.\.")
	want_eq "log lines for 4 KiB of garbage (cut short)" 1 "$lines" || ok=1
	want_eq "$led after the bad writes" red "$(current $led)" || ok=1
	return $ok
}

# the component is the LED's own: changing one leaves the others alone
check_independent() {
	local ok=0
	write_ok blue "$LEDS/lp5523:g/color_component" || ok=1
	want_eq "lp5523:r" red "$(current lp5523:r)" || ok=1
	want_eq "lp5523:b" blue "$(current lp5523:b)" || ok=1
	want_eq "lp5523:g" blue "$(current lp5523:g)" || ok=1
	write_ok green "$LEDS/lp5523:g/color_component" || ok=1
	return $ok
}

ktap_print_header
ktap_set_plan 6
ktap_test_result defaults_from_device_tree check_defaults
ktap_test_result every_led_has_one_bracketed check_every_led
ktap_test_result writes_read_back check_writes
ktap_test_result bad_writes_refused_unchanged check_bad_refused
ktap_test_result bad_write_logged_once check_bad_logged
ktap_test_result component_per_led check_independent
ktap_finished
