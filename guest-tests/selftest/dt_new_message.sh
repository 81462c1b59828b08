#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# dt-check.sh on the board with a property no binding allows planted in
# the ring's LP5523 node (the check used to judge the first chip's only):
# a message QEMU's tree does not give, so it must fail, naming the
# property; on a dtb cut short, dt-validate crashes (exit status 1, a
# traceback): it must fail for that too.  The unplanted board passes.
# Uses the build directory the results sit in (its kernel tree,
# board-smp2.dtb, smp2/virt.dts) and make check's processed schema when
# there is one (dt-mk-schema takes a minute or more).
. "$(dirname "$0")/lib/selftest.sh"
build=$(dirname "$ST_RESULTS")
dtcheck=$ST_TESTS/../qemu/series-tools/dt-check.sh
ksrc=$build/linux dtb=$build/board-smp2.dtb virt=$build/smp2/virt.dts
# rejected <out>: dt-check exits 0 and reports in its KTAP; the status a
# failing check would have, 1 when it says "not ok"
rejected() {
	if grep -q '^not ok 1 ' "$1"; then
		return 1
	fi
	return 0
}

for f in "$ksrc/Documentation/devicetree/bindings" "$dtb" "$virt"; do
	[ -e "$f" ] || st_fail "no $f: this case needs the build directory of the run"
done
if [ -s "$build/dt-check/processed-schema.json" ]; then
	DT_CHECK_SCHEMA=$(pwd)/schema.json
	cp "$build/dt-check/processed-schema.json" "$DT_CHECK_SCHEMA"
	export DT_CHECK_SCHEMA
fi
"$dtcheck" "$ksrc" "$dtb" real "$virt" > real.out 2>&1
grep -q '^ok 1 ' real.out
st_accepts "the board as built ($dtb)" real.out $?
# later runs take the schema this one made
[ -n "${DT_CHECK_SCHEMA:-}" ] || export DT_CHECK_SCHEMA=$(pwd)/real/processed-schema.json

dtc -q -I dtb -O dts -o board.dts "$dtb" || st_fail "dtc cannot decompile $dtb"
awk '{ print } /^\t*led-controller@33 \{$/ { print "planted-by-the-rig-selftest;" }' \
	board.dts > planted.dts
cmp -s board.dts planted.dts && st_fail "no led-controller@33 node in $dtb"
dtc -q -I dts -O dtb -o planted.dtb planted.dts || st_fail "dtc cannot build the planted board"
"$dtcheck" "$ksrc" planted.dtb planted "$virt" > planted.out 2>&1
rejected planted.out
st_rejects "a property no binding allows on led-controller@33 (the ring)" \
	"led-controller@33: 'planted-by-the-rig-selftest' does not match" planted.out $?

head -c 300 "$dtb" > cut.dtb
"$dtcheck" "$ksrc" cut.dtb cut "$virt" > cut.out 2>&1
rejected cut.out
st_rejects "a dtb cut short (dt-validate crashes)" "dt-validate exited with status [1-9]" cut.out $?
