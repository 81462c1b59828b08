#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# arm32-check.sh <kernel tree> <series dir> <kbuild dir> <board fragment>
#
# KTAP: the N900 is a 32-bit OMAP3 (ARMv7), where 64-bit arithmetic and
# `unsigned long` break first.
#   arm32_build_w1       the directories of the C files series/ touches,
#                        built for ARCH=arm with W=1 in the N900's own
#                        configuration, omap2plus_defconfig, plus the LED,
#                        trigger and KUnit options of the board fragment it
#                        does not set (as modules, as it has its LEDs)
#   arm32_w1_<file>      no new gcc warning in each touched C file: none
#                        that the same build of the tag `baseline` (in
#                        <kbuild dir>-baseline) does not give at the same
#                        line, lines mapped through the series' diff and
#                        each instance counted (new_warnings in lib.sh)
#   n900_lp5523_dt_schema  omap3-n900.dts from the tree, its lp5523 node
#                        checked by dt-validate against the patched
#                        bindings: no message the baseline's bindings do
#                        not give too
# N900_DTB names the N900's dtb as kbuild's target (default
# omap3-n900.dtb; Linux 6.5 moved it to ti/omap/omap3-n900.dtb).
# The touched files are read from series/ at run time.
set -u
tree=$(cd "$1" && pwd) series=$(cd "$2" && pwd) out=$3 frag=$4
mkdir -p "$out"
out=$(cd "$out" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
KMAKE="make -C $tree O=$out ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf- -j$(nproc)"

. "$here/lib.sh"

cfiles=$(touched | grep '\.c$')
n=$(printf '%s\n' $cfiles | grep -c .)
echo "TAP version 13"
echo "1..$((n + 2))"

# omap2plus_defconfig, the N900's, then the options of the board fragment
# the series needs that it does not set (the pattern class, multicolor,
# the pattern trigger, KUnit and its tests), as modules where they are
# tristate: omap2plus builds its LED drivers and triggers as modules.
# A fragment option the defconfig sets keeps the defconfig's value, and
# is asked for again after the others, so that its survival is checked:
# 6.12's omap2plus_defconfig sets LEDS_LP55XX_COMMON=m without the
# LEDS_CLASS_MULTICOLOR it needs, and the N900's LP5523 driver went
# unbuilt, its files "not built for ARCH=arm" (the series' last patch).
defconfig=$tree/arch/arm/configs/omap2plus_defconfig
grep -E '^CONFIG_(NEW_LEDS|LEDS_|KUNIT)[A-Z0-9_]*=' "$frag" | while IFS== read -r opt val; do
	grep -q "^# $opt is not set" "$defconfig" && continue
	grep "^$opt=" "$defconfig" || echo "$opt=$val"
done > "$out/arm32.fragment"
tristate=$(find "$tree/drivers/leds" "$tree/lib/kunit" -name Kconfig -exec awk \
	'$1 == "config" || $1 == "menuconfig" { c = $2 } $1 == "tristate" { print c }' {} + | sort -u | tr '\n' '|')
sed -E "s/^CONFIG_(${tristate%|})=y$/CONFIG_\\1=m/" "$out/arm32.fragment" > "$out/arm32.config"
# arm32_config: omap2plus_defconfig + the fragment, and each option the
# fragment asks for has the value it asks for
arm32_config() {
	local line bad=0
	flock "$out.lock" $KMAKE -s omap2plus_defconfig &&
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$out/arm32.config" &&
	flock "$out.lock" $KMAKE -s olddefconfig || return 1
	while read -r line; do
		grep -qx "$line" "$out/.config" && continue
		echo "arm32: $line (added to omap2plus_defconfig) did not survive: missing dependency?"
		bad=1
	done < "$out/arm32.config"
	return $bad
}
log=$out/arm32-w1.log
dirs=$(for f in $cfiles; do echo "$(dirname "$f")/"; done | sort -u)
for f in $cfiles; do
	rm -f "$out/${f%.c}.o"
done
# configured once per fragment (and whenever the tree moves)
if { [ -e "$out/.config" ] && [ "$out/.config" -nt "$tree/.git/HEAD" ] &&
		cmp -s "$out/arm32.config" "$out/arm32.config.old"; } ||
	arm32_config > "$out/config.log" 2>&1; then
	cp "$out/arm32.config" "$out/arm32.config.old"
	flock "$out.lock" $KMAKE -k W=1 $dirs > "$log" 2>&1
	rc=$?
else
	cp "$out/config.log" "$log"
	rc=1
fi
# the warnings a touched file had before the series, in the same
# configuration (made again only when that changes)
base=$out-baseline
why=
[ $rc -ne 0 ] || why=$(baseline_build "$base" "$out/.config" \
	"make ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf- -j$(nproc) -k W=1" $cfiles)
i=1
if [ $rc -eq 0 ] && [ -z "$why" ]; then
	echo "ok $i arm32_build_w1"
else
	echo "not ok $i arm32_build_w1"
	grep -E 'error|Error|did not survive' "$log" | head -20 | sed 's/^/# /'
	printf '%s\n' "$why" | sed '/^$/d; s/^/# /'
fi

for f in $cfiles; do
	i=$((i + 1))
	name=arm32_w1_$(echo "$f" | sed 's/[^A-Za-z0-9]/_/g')
	if [ ! -e "$out/${f%.c}.o" ]; then
		echo "ok $i $name # SKIP not built for ARCH=arm"
		continue
	fi
	src=$base/linux/$f
	[ -e "$src" ] || src=/dev/null
	new=$(new_warnings "$f" "$tree/$f" "$src" "$base/baseline.log" < "$log")
	if [ -z "$new" ]; then
		echo "ok $i $name"
	else
		echo "not ok $i $name"
		echo "# new warnings, file:line: message ($log; the baseline's $base/baseline.log):"
		printf '%s\n' "$new" | head -20 | sed 's/^/# /'
	fi
done

# the N900's lp5523 node against the bindings before and after the series
i=$((i + 1))
name=n900_lp5523_dt_schema
N900_DTB=${N900_DTB:-omap3-n900.dtb}
dtb=$out/arch/arm/boot/dts/$N900_DTB
dt=$out/n900-dt
mkdir -p "$dt"
if ! flock "$out.lock" $KMAKE "$N900_DTB" > "$dt/dtb.log" 2>&1; then
	echo "not ok $i $name"
	tail -5 "$dt/dtb.log" | sed 's/^/# /'
	exit 0
fi
# the baseline never changes: its schema is made once
if [ ! -s "$dt/baseline.json" ]; then
	rm -rf "$dt/baseline" && mkdir -p "$dt/baseline"
	git -C "$tree" archive baseline Documentation/devicetree/bindings |
		tar -x -C "$dt/baseline"
	dt-mk-schema -j "$dt/baseline/Documentation/devicetree/bindings" \
		> "$dt/baseline.json" 2> "$dt/baseline-mk.log"
fi
dt-mk-schema -j "$tree/Documentation/devicetree/bindings" \
	> "$dt/patched.json" 2> "$dt/patched-mk.log"
for which in baseline patched; do
	dt-validate -l leds/ -s "$dt/$which.json" "$dtb" 2>&1 | grep lp5523 |
		sed 's/^[^:]*: //' | sort > "$dt/$which.txt"
done
# every instance counted: one more of a message the baseline gives fails
new=$(beyond_baseline "$dt/baseline.txt" "$dt/patched.txt")
if [ ! -s "$dt/patched.json" ]; then
	echo "not ok $i $name"
	tail -5 "$dt/patched-mk.log" | sed 's/^/# /'
elif [ -z "$new" ]; then
	echo "ok $i $name"
	echo "# lp5523 node: $(wc -l < "$dt/patched.txt") messages, all given by the baseline's bindings too"
else
	echo "not ok $i $name"
	printf '%s\n' "$new" | head -20 | sed 's/^/# /'
fi
