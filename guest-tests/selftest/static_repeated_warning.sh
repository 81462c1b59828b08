#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The static gates' comparison with the baseline (new_warnings and
# beyond_baseline in qemu/series-tools/lib.sh), on small fixtures: no
# kbuild, seconds.  The gates used to call a warning the baseline's when
# its line's text was anywhere in the baseline's file, and dtc's messages
# were compared after sort -u: one more instance of a message the
# baseline gives, on a copied line, passed.  Planted: a patched file
# whose copy of a baseline line gives the baseline's warning a second
# time; the same message once more on a line that did not warn; and a
# dtc warning given twice where QEMU's tree gives it once.  Each must be
# reported, naming file:line and the message.  Unplanted: the same
# warnings as the baseline's, moved down by the lines the series adds
# above them, and dtc's list as QEMU's tree gives it: nothing new.
. "$(dirname "$0")/lib/selftest.sh"
tree=$(pwd)
. "$ST_TESTS/../qemu/series-tools/lib.sh"
f=drivers/leds/leds-planted.c

cat > base.c <<'EOF'
#include <linux/module.h>

int lp_unused;

static int lp_helper(void)
{
	return 0;
}
EOF
# the series adds two lines above the helper, and copies its warned line
cat > patched.c <<'EOF'
#include <linux/module.h>
#include <linux/leds.h>

int lp_unused;
int lp_added;

static int lp_helper(void)
{
	return 0;
}

int lp_unused2;
EOF
# the baseline's warnings (gcc W=1, sparse), kbuild's relative path
cat > base.log <<EOF
  CC      ${f%.c}.o
../linux/$f:3:5: warning: symbol 'lp_unused' was not declared. Should it be static?
../linux/$f:5:12: warning: 'lp_helper' defined but not used [-Wunused-function]
EOF
# the same warnings in the patched build, two lines down, the tree's path
cat > real.log <<EOF
  CC      ${f%.c}.o
$tree/linux/$f:4:5: warning: symbol 'lp_unused' was not declared. Should it be static?
  CHECK   $tree/linux/$f
$tree/linux/$f:7:12: warning: 'lp_helper' defined but not used [-Wunused-function]
EOF

new_warnings "$f" patched.c base.c base.log < real.log > real.out 2>&1
rc=$?
[ -s real.out ] && rc=1
st_accepts "the baseline's warnings at their lines after the series' diff" real.out $rc

# the old rule's blind spot: line 12 is a copy of the baseline's line 3,
# whose text the baseline has, yet it is one more instance of the message
sed 's/lp_unused2/lp_unused/' patched.c > copied.c
{ cat real.log
  echo "$tree/linux/$f:12:5: warning: symbol 'lp_unused' was not declared. Should it be static?"
} > copied.log
new_warnings "$f" copied.c base.c base.log < copied.log > copied.out 2>&1
rc=$?
[ -s copied.out ] && rc=1
st_rejects "a copied baseline line giving the baseline's warning a second time" \
	"^$f:12:5: warning: symbol 'lp_unused' was not declared" copied.out $rc

# an unchanged line that did not warn now does (a header of the series
# changed): the message is the baseline's, the line is not
{ cat real.log
  echo "$tree/linux/$f:1:5: warning: symbol 'lp_unused' was not declared. Should it be static?"
} > moved.log
new_warnings "$f" patched.c base.c base.log < moved.log > moved.out 2>&1
rc=$?
[ -s moved.out ] && rc=1
st_rejects "the baseline's message once more, on a line that did not warn" \
	"^$f:1:5: warning: symbol 'lp_unused' was not declared" moved.out $rc

# this build directory's own static check, when it has run: a touched
# file whose warnings its patched build gives and its baseline's build
# gives too (the check passes it), one of them copied to the file's first
# line, must fail.  A file the check fails is static.ktap's to report.
build=$(dirname "$ST_RESULTS")
plog=$build/kbuild-static/static.log
base=$build/kbuild-static-baseline
planted=
if [ -s "$plog" ] && [ -s "$base/baseline.log" ]; then
	files=$(series=$ST_TESTS/../series; touched | grep '\.c$')
	for g in $files; do
		[ -e "$base/linux/$g" ] || continue
		w=$(warning_locations "$g" < "$plog" | head -1)
		[ -n "$w" ] || continue
		new_warnings "$g" "$build/linux/$g" "$base/linux/$g" "$base/baseline.log" \
			< "$plog" > build-real.out 2>&1
		[ -s build-real.out ] && continue
		st_accepts "$g as $plog has it, against $base/baseline.log" build-real.out 0
		{ cat "$plog"; printf '%s:1:%s\n' "$g" "$(printf '%s' "$w" | cut -f2-)"; } > build-copied.log
		new_warnings "$g" "$build/linux/$g" "$base/linux/$g" "$base/baseline.log" \
			< build-copied.log > build-copied.out 2>&1
		rc=$?
		[ -s build-copied.out ] && rc=1
		st_rejects "$g: its warning at line $(printf '%s' "$w" | cut -f1) once more, at line 1" \
			"^$g:1:" build-copied.out $rc
		planted=$g
		break
	done
fi
[ -n "$planted" ] ||
	echo "no touched file with a warning the baseline gives too in $build: fixtures only"

# dtc: QEMU's tree gives a warning once, the board twice
cat > virt.txt <<'EOF'
virt.dts: Warning (unique_unit_address): /pl061@9030000: duplicate unit-address (also used in node /pl031@9030000)
virt.dts: Warning (avoid_unnecessary_addr_size): /gpio-keys: unnecessary #address-cells/#size-cells without "ranges" or child "reg" property
EOF
sed 's/^virt\.dts/board.pp.dts/' virt.txt | sort > board.txt
beyond_baseline virt.txt board.txt > dtc-real.out 2>&1
rc=$?
[ -s dtc-real.out ] && rc=1
st_accepts "dtc: the board's warnings as QEMU's tree gives them" dtc-real.out $rc
{ cat board.txt; grep gpio-keys board.txt | sed 's/^board\.pp\.dts/board.pp.dts:40.3-20/'; } |
	sort > board-twice.txt
beyond_baseline virt.txt board-twice.txt > dtc-twice.out 2>&1
rc=$?
[ -s dtc-twice.out ] && rc=1
st_rejects "dtc: QEMU's tree's warning given twice by the board" \
	"^board.pp.dts:40.3-20: Warning \(avoid_unnecessary_addr_size\): /gpio-keys:" dtc-twice.out $rc
