#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Permissions and leaks of the attributes the series adds: every file of
# every led_pattern engine, every LED's color_component, and the files an
# LED gains when linked to an engine or to heartbeat-rgb, are 0644 or 0444
# (root-writable only); no read shows a kernel address or bytes that are
# not text, in any state (idle, running, finished); a short pattern
# written after a long one reads back alone (nothing of the long one left).
. /tests/lib/ktap.sh

CLASS=/sys/class/led_pattern
LEDS=/sys/class/leds
LED=lp5523:kb6
ENG=$CLASS/software0

# modes_ok <file>...: each regular file 644 or 444
modes_ok() {
	local f m ok=0
	for f in "$@"; do
		[ -f "$f" ] || continue
		m=$(stat -c %a "$f")
		case $m in
		644 | 444) ;;
		*) echo "# $f: mode $m, want 644 or 444"; ok=1 ;;
		esac
	done
	return $ok
}

# clean <file>...: text only, no kernel address
clean() {
	local f bad ok=0
	for f in "$@"; do
		[ -f "$f" ] && [ -r "$f" ] || continue
		cat "$f" > /tmp/perm.read 2>/dev/null || continue
		bad=$(tr -d '\n\t -~' < /tmp/perm.read | wc -c)
		if [ "$bad" -ne 0 ]; then
			echo "# $f: $bad bytes that are not text"
			ok=1
		fi
		if grep -qiE 'ffff[0-9a-f]{12}' /tmp/perm.read; then
			echo "# $f: $(grep -oiE 'ffff[0-9a-f]{12}' /tmp/perm.read | head -1) looks like a kernel address"
			ok=1
		fi
	done
	return $ok
}

engine_modes() {
	local d ok=0
	for d in $CLASS/*; do
		modes_ok "$d"/* || ok=1
	done
	return $ok
}

color_component_modes() {
	local d ok=0
	for d in $LEDS/*; do
		# a multicolor LED has none (color_component.sh)
		[ -e "$d/multi_intensity" ] && continue
		[ -e "$d/color_component" ] ||
			{ echo "# ${d##*/}: no color_component"; ok=1; continue; }
		modes_ok "$d/color_component" || ok=1
	done
	return $ok
}

# new_files <trigger>: the files the LED gains with that trigger
new_files() {
	ls $LEDS/$LED > /tmp/perm.before
	echo "$1" > $LEDS/$LED/trigger || return 1
	ls $LEDS/$LED | grep -vxF -f /tmp/perm.before | sed "s|^|$LEDS/$LED/|"
}

trigger_modes() {
	local t files ok=0
	for t in software0 heartbeat-rgb; do
		files=$(new_files $t) || { echo "# cannot set trigger $t"; ok=1; continue; }
		[ -z "$files" ] || echo "# $t adds: $(echo "$files" | sed 's|.*/||' | tr '\n' ' ')"
		modes_ok $files || ok=1
		clean $files || ok=1
		echo none > $LEDS/$LED/trigger
	done
	return $ok
}

reads_clean_every_state() {
	local ok=0
	clean $ENG/* $LEDS/$LED/* || ok=1
	write_ok software0 $LEDS/$LED/trigger || ok=1
	write_ok 1 $ENG/repeat || ok=1
	write_ok "#ff00ff 100 #000000 100" $ENG/pattern || ok=1
	write_ok run $ENG/state || ok=1
	clean $ENG/* $LEDS/$LED/* || ok=1
	sleep 0.5
	want_eq state finished "$(cat $ENG/state)" || ok=1
	clean $ENG/* $LEDS/$LED/* || ok=1
	write_ok stop $ENG/state || ok=1
	write_ok -1 $ENG/repeat || ok=1
	return $ok
}

# a long pattern, then a short one: the read shows the short one only
no_stale_tail() {
	local long i ok=0
	long=
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		long="$long #123456 1000 #654321 1000"
	done
	write_ok "$long" $ENG/pattern || ok=1
	write_ok "0 100 255 100" $ENG/pattern || ok=1
	want_eq "pattern after a long one" "0 100 255 100" "$(cat $ENG/pattern)" || ok=1
	clean $ENG/pattern || ok=1
	return $ok
}

cleanup() {
	local ok=0
	write_ok stop $ENG/state || ok=1
	write_ok "" $ENG/pattern || ok=1
	write_ok none $LEDS/$LED/trigger || ok=1
	write_ok 0 $LEDS/$LED/brightness || ok=1
	return $ok
}

ktap_print_header
if [ ! -d $ENG ] || [ ! -d $LEDS/$LED ]; then
	echo "1..0 # SKIP needs software0 and $LED"
	exit 0
fi
ktap_set_plan 6
ktap_test_result engine_attributes_0644_or_0444 engine_modes
ktap_test_result color_component_0644_or_0444 color_component_modes
ktap_test_result trigger_attributes_0644_or_0444 trigger_modes
ktap_test_result reads_text_without_addresses reads_clean_every_state
ktap_test_result short_pattern_after_long_reads_alone no_stale_tail
ktap_test_result cleanup cleanup
ktap_finished
