#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# dt-static-checks.sh <kernel tree> <series dir> <board dir> <kbuild dir>
#
# KTAP: the device-tree checks a reviewer runs, beyond dt-check.sh's
# dt-schema on the board:
#   dtc_board_w2           dtc with kbuild's W=1 and W=2 warnings on the
#                          board (<board dir>: the preprocessed board.pp.dts
#                          and QEMU's virt.dts): no warning that QEMU's own
#                          tree alone does not give, each instance counted
#                          (a second instance of a message QEMU's tree
#                          gives once fails; beyond_baseline in lib.sh)
#   dt_binding_check_<f>   `make dt_binding_check` (dt-doc-validate on the
#                          binding, its examples against it) for each
#                          binding a patch of series/ changes or adds, read
#                          from the patches at run time
#
# A tree that asks for a newer dt-schema than the installed one (6.12 asks
# for 2023.9; Debian 12 has 2022.08.2) is checked with the installed one:
# kbuild's version gate is lowered to it, and the messages of the schemas
# the older tool cannot read are not counted, unless they are the checked
# binding's own.
set -u
tree=$(cd "$1" && pwd) series=$(cd "$2" && pwd) board=$3 out=$4
mkdir -p "$out"
out=$(cd "$out" && pwd)
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
KMAKE="make -C $tree O=$out ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-"
# scripts/Makefile.lib: what W=1 stops disabling, what W=2 adds
DTC_W="-Wunit_address_vs_reg -Wavoid_unnecessary_addr_size -Walias_paths \
	-Wgraph_child_address -Wsimple_bus_reg -Wunique_unit_address \
	-Wnode_name_chars_strict -Wproperty_name_chars_strict -Winterrupt_provider"

# the tree's minimum dt-schema, lowered to the installed version
dt_min=$(sed -n 's/^DT_SCHEMA_MIN_VERSION = //p' \
	"$tree/Documentation/devicetree/bindings/Makefile" 2>/dev/null)
dt_have=$(dt-doc-validate --version 2>/dev/null)
dt_gate=
if [ -n "$dt_min" ] && [ -n "$dt_have" ] &&
		! printf '%s\n' "$dt_min" "$dt_have" | sort -Vc 2>/dev/null; then
	dt_gate=DT_SCHEMA_MIN_VERSION=$dt_have
fi

bindings=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$series/series" | while read -r p; do
	sed -n 's|^diff --git a/\(Documentation/devicetree/bindings/[^ ]*\.yaml\) b/.*|\1|p' \
		"$series/$p"
done | awk '!seen[$0]++')

echo "TAP version 13"
echo "1..$((1 + $(printf '%s\n' $bindings | grep -c .)))"
[ -z "$dt_gate" ] ||
	echo "# dt-schema $dt_have is older than the tree's minimum $dt_min: checked with it"

# dtc prints "<file>[:<line>.<col>-<col>]: Warning (<check>): /path:
# message"; beyond_baseline compares from "Warning (" on, every instance
# (no sort -u: one more of a message is a new warning)
# shellcheck disable=SC2086
dtc_warnings() {
	dtc -I dts -O dtb -o /dev/null $DTC_W -i "$board" "$1" 2>&1 |
		grep ': Warning (' | sort
}
i=1
if [ ! -e "$board/board.pp.dts" ] || [ ! -e "$board/virt.dts" ]; then
	echo "not ok $i dtc_board_w2"
	echo "# $board/board.pp.dts or virt.dts missing (make dtb)"
else
	dtc_warnings "$board/virt.dts" > "$out/dtc-virt.txt"
	dtc_warnings "$board/board.pp.dts" > "$out/dtc-board.txt"
	new=$(beyond_baseline "$out/dtc-virt.txt" "$out/dtc-board.txt")
	if [ -z "$new" ]; then
		echo "ok $i dtc_board_w2"
	else
		echo "not ok $i dtc_board_w2"
		echo "# dtc warnings on the board beyond QEMU's tree's ($out/dtc-virt.txt), file:line: message:"
		printf '%s\n' "$new" | head -20 | sed 's/^/# /'
	fi
fi

for b in $bindings; do
	i=$((i + 1))
	name=dt_binding_check_$(basename "$b" .yaml | sed 's/[^A-Za-z0-9]/_/g')
	if [ ! -e "$tree/$b" ]; then
		echo "ok $i $name # SKIP removed by the series"
		continue
	fi
	log=$out/dt-binding-check-$(basename "$b" .yaml).log
	# shellcheck disable=SC2086
	if flock "$out.lock" $KMAKE dt_binding_check DT_SCHEMA_FILES="$b" $dt_gate \
			> "$log" 2>&1 &&
		! grep -E "$(basename "$b" .yaml)(\.example)?\.dtb?:|$b:|rror" "$log" |
			grep -v yamllint |
			grep -v ": ignoring, error in schema" | grep -q . &&
		! grep -q -e "^$tree/$b: ignoring" -e "^$b: ignoring" "$log"; then
		echo "ok $i $name"
	else
		echo "not ok $i $name"
		grep -v -E '^(make|  [A-Z_]+ )' "$log" | head -20 | sed 's/^/# /'
	fi
done
