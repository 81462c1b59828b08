#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# arm32-check.sh <kernel tree> <series dir> <kbuild dir> <board fragment>
#
# KTAP: the N900 is a 32-bit OMAP3 (ARMv7), where 64-bit arithmetic and
# `unsigned long` break first.
#   arm32_build_w1       the directories of the C files series/ touches,
#                        built for ARCH=arm (multi_v7, OMAP3) with W=1 and
#                        the board fragment's LED, trigger and KUnit options
#   arm32_w1_<file>      no new gcc warning in each touched C file (none on
#                        a line the tag `baseline` does not have)
#   n900_lp5523_dt_schema  omap3-n900.dts from the tree, its lp5523 node
#                        checked by dt-validate against the patched
#                        bindings: no message the baseline's bindings do
#                        not give too
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

# a 32-bit multi_v7 kernel with OMAP3 and the board's LED options
cat > "$out/arm32.config" <<EOF
CONFIG_MMU=y
CONFIG_ARCH_MULTIPLATFORM=y
CONFIG_ARCH_MULTI_V7=y
CONFIG_ARCH_OMAP3=y
CONFIG_AEABI=y
CONFIG_I2C=y
CONFIG_GPIOLIB=y
CONFIG_OF=y
CONFIG_DEBUG_KERNEL=y
EOF
grep -E '^CONFIG_(NEW_LEDS|LEDS_|KUNIT)' "$frag" >> "$out/arm32.config"
log=$out/arm32-w1.log
dirs=$(for f in $cfiles; do echo "$(dirname "$f")/"; done | sort -u)
for f in $cfiles; do
	rm -f "$out/${f%.c}.o"
done
# configured once per fragment (and whenever the tree moves)
if { [ -e "$out/.config" ] && [ "$out/.config" -nt "$tree/.git/HEAD" ] &&
		cmp -s "$out/arm32.config" "$out/arm32.config.old"; } ||
	"$here/../board/merge-config.sh" "flock $out.lock $KMAKE" "$tree" "$out" \
		"$out/arm32.config" > "$out/config.log" 2>&1; then
	cp "$out/arm32.config" "$out/arm32.config.old"
	flock "$out.lock" $KMAKE -k W=1 $dirs > "$log" 2>&1
	rc=$?
else
	cp "$out/config.log" "$log"
	rc=1
fi
i=1
if [ $rc -eq 0 ]; then
	echo "ok $i arm32_build_w1"
else
	echo "not ok $i arm32_build_w1"
	grep -E 'error|Error|did not survive' "$log" | head -20 | sed 's/^/# /'
fi

for f in $cfiles; do
	i=$((i + 1))
	name=arm32_w1_$(echo "$f" | sed 's/[^A-Za-z0-9]/_/g')
	if [ ! -e "$out/${f%.c}.o" ]; then
		echo "ok $i $name # SKIP not built for ARCH=arm"
		continue
	fi
	new=$(new_warnings "$f" < "$log")
	if [ -z "$new" ]; then
		echo "ok $i $name"
	else
		echo "not ok $i $name"
		printf '%s\n' "$new" | head -20 | sed 's/^/# /'
	fi
done

# the N900's lp5523 node against the bindings before and after the series
i=$((i + 1))
name=n900_lp5523_dt_schema
dtb=$out/arch/arm/boot/dts/omap3-n900.dtb
dt=$out/n900-dt
mkdir -p "$dt"
if ! flock "$out.lock" $KMAKE omap3-n900.dtb > "$dt/dtb.log" 2>&1; then
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
		sed 's/^[^:]*: //' | sort -u > "$dt/$which.txt"
done
new=$(comm -13 "$dt/baseline.txt" "$dt/patched.txt")
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
