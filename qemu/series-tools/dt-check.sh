#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# dt-check.sh <kernel tree> <board.dtb> <work dir> [<virt.dts>]: KTAP,
# dt-schema (dt-validate) on the board against the bindings of the patched
# tree.
#
# The whole board is judged, against the same board without the project's
# nodes: QEMU's own tree (<virt.dts>, by default the smpN/virt.dts beside
# board-smpN.dtb that dts/board.dts /include/s), which does not match
# every 6.1 binding (its pl061 has no interrupt-controller, its gpio-keys
# child is "poweroff", node names are not generic).  A message dt-validate
# gives for the board and not for QEMU's tree fails, whichever node it
# names; so does a dt-validate that crashed or exited non-zero (it exits
# 0 when it only reports), on either tree.
set -u
ksrc=$1 dtb=$2 work=$3
base=${4:-}
if [ -z "$base" ]; then
	n=$(basename "$dtb" .dtb)
	base=$(dirname "$dtb")/smp${n#board-smp}/virt.dts
fi
mkdir -p "$work"
echo "TAP version 13"
echo "1..1"
name=board_dt_schema_clean

bail() {
	echo "not ok 1 $name"
	for line in "$@"; do
		echo "# $line"
	done
	exit 0
}

# $DT_CHECK_SCHEMA: a processed schema of the same bindings made before
# (the rig's self-test reuses make check's), else one is made here
if [ -n "${DT_CHECK_SCHEMA:-}" ]; then
	cp "$DT_CHECK_SCHEMA" "$work/processed-schema.json" ||
		bail "cannot read DT_CHECK_SCHEMA=$DT_CHECK_SCHEMA"
elif ! dt-mk-schema -j "$ksrc/Documentation/devicetree/bindings" \
		> "$work/processed-schema.json" 2> "$work/dt-mk-schema.log"; then
	bail "dt-mk-schema failed:" "$(tail -5 "$work/dt-mk-schema.log")"
fi
dtc -q -I dts -O dtb -o "$work/virt.dtb" "$base" 2> "$work/virt-dtc.log" ||
	bail "dtc cannot build QEMU's tree $base:" "$(tail -5 "$work/virt-dtc.log")"

# validate <dtb> <name>: dt-validate's messages in <name>.log, one per line
# with its "From schema" line joined and the dtb's path (dt-validate
# prints it absolute) cut, sorted, in
# <name>.txt; fails (with the reason on stdout) on a crash or an exit
# status other than 0
validate() {
	local rc
	dt-validate -s "$work/processed-schema.json" "$1" > "$work/$2.log" 2>&1
	rc=$?
	awk '
		/^[^ \t]*\.dtb: / { if (msg != "") print msg; msg = $0; sub(/^[^ \t]*\.dtb: /, "", msg); next }
		/^\tFrom schema: / { msg = msg " (" substr($0, 15) ")"; next }
		{ if (msg != "") print msg; msg = ""; print }
		END { if (msg != "") print msg }' "$work/$2.log" | sort > "$work/$2.txt"
	if [ $rc -ne 0 ] || grep -q '^Traceback' "$work/$2.log"; then
		echo "dt-validate exited with status $rc on $1 ($work/$2.log):"
		tail -5 "$work/$2.log"
		return 1
	fi
}

why=$(validate "$work/virt.dtb" virt) || bail "$why"
why=$(validate "$dtb" board) || bail "$why"
new=$(comm -13 "$work/virt.txt" "$work/board.txt")
echo "# QEMU's tree: $(wc -l < "$work/virt.txt") messages; the board: $(wc -l < "$work/board.txt")"
if [ -z "$new" ]; then
	echo "ok 1 $name"
else
	echo "not ok 1 $name"
	echo "# dt-validate messages for the board that QEMU's tree does not give ($work/board.log):"
	printf '%s\n' "$new" | head -20 | sed 's/^/# /'
fi
