#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# static-checks.sh <kernel tree> <series dir> <kbuild dir> <config fragment>...
#
# KTAP: the kernel's own checkers on what series/ touches, read from the
# patches at run time (every C file and header a patch changes or adds):
#   static_<file>     gcc W=1 and sparse (C=2) on each touched .c file in
#                     an out-of-tree build of the board's config (its own
#                     <kbuild dir>, incremental): no new warning, that is
#                     none that the same build of the baseline (tag
#                     `baseline`, in <kbuild dir>-baseline) does not give
#                     at the same line, lines mapped through the series'
#                     diff of the file and each instance counted
#                     (new_warnings in lib.sh)
#   kernel_doc_<file> scripts/kernel-doc -none on each touched file: no
#                     new warning, same rule against the baseline's
#                     kernel-doc on the baseline's file
# The board's dtc -W and dt-schema checks are in dt-check.sh.
set -u
tree=$(cd "$1" && pwd) series=$(cd "$2" && pwd) out=$3
shift 3
mkdir -p "$out"
out=$(cd "$out" && pwd)
# the baseline's tree and build: <base>/linux, <base>/kbuild
base=$out-baseline
here=$(cd "$(dirname "$0")" && pwd)
KMAKE="make -C $tree O=$out ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- -j$(nproc)"

. "$here/lib.sh"

files=$(touched)
cfiles=$(printf '%s\n' $files | grep '\.c$')
docfiles=$(printf '%s\n' $files | grep -E '^(drivers|include|lib|kernel)/.*\.[ch]$')
n=$(( $(printf '%s\n' $cfiles | grep -c .) + $(printf '%s\n' $docfiles | grep -c .) ))

# baseline_source <file>: $src, the file in the baseline's tree, or
# /dev/null for one the series adds
baseline_source() {
	src=$base/linux/$1
	[ -e "$src" ] || src=/dev/null
}

echo "TAP version 13"
echo "1..$((n + 1))"
i=1
# the configuration of the board's kernel, once; kbuild is incremental.
# One make for every object (C=2: sparse even on objects that are current).
if [ ! -e "$out/.config" ] || [ "$out/.config" -ot "$tree/.git/HEAD" ]; then
	"$here/../board/merge-config.sh" "flock $out.lock $KMAKE" "$tree" "$out" "$@" \
		> "$out/config.log" 2>&1
fi
log=$out/static.log
# the directories of the touched files, built as kbuild builds them (so
# that objects linked into a composite module are built too)
dirs=$(for f in $cfiles; do echo "$(dirname "$f")/"; done | sort -u)
# gcc's warnings come only from a compile: the touched files always compile
# (ccache replays an unchanged file's warnings)
for f in $cfiles; do
	rm -f "$out/${f%.c}.o"
done
flock "$out.lock" $KMAKE -k W=1 C=2 $dirs > "$log" 2>&1
rc=$?
# the warnings a touched file had before the series: the same build of
# the baseline, with the same configuration (made again only when that
# changes)
why=$(baseline_build "$base" "$out/.config" \
	"make ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- -j$(nproc) -k W=1 C=2" $cfiles)
if [ $rc -eq 0 ] && [ -z "$why" ]; then
	echo "ok $i static_build_w1_c2"
else
	echo "not ok $i static_build_w1_c2"
	[ $rc -eq 0 ] || grep -E 'error|Error' "$log" | head -20 | sed 's/^/# /'
	printf '%s\n' "$why" | sed '/^$/d; s/^/# /'
fi

for f in $cfiles; do
	i=$((i + 1))
	name=static_$(echo "$f" | sed 's/[^A-Za-z0-9]/_/g')
	# its object was removed above: none now, kbuild did not build it
	if [ ! -e "$out/${f%.c}.o" ]; then
		echo "ok $i $name # SKIP not built in the board's config"
		continue
	fi
	# built but not checked: sparse did not run, or its lines went
	# unprinted (a make -s above this one silences kbuild's CHECK lines)
	if ! grep -q "CHECK .*$f\$" "$log"; then
		echo "not ok $i $name"
		echo "# $f was compiled, but $log has no sparse CHECK line for it"
		continue
	fi
	baseline_source "$f"
	new=$(new_warnings "$f" "$tree/$f" "$src" "$base/baseline.log" < "$log")
	if [ -z "$new" ]; then
		echo "ok $i $name"
	else
		echo "not ok $i $name"
		echo "# new warnings, file:line: message ($log; the baseline's $base/baseline.log):"
		printf '%s\n' "$new" | head -20 | sed 's/^/# /'
	fi
done

for f in $docfiles; do
	i=$((i + 1))
	name=kernel_doc_$(echo "$f" | sed 's/[^A-Za-z0-9]/_/g')
	if [ ! -e "$tree/$f" ]; then
		echo "ok $i $name # SKIP removed by the series"
		continue
	fi
	baseline_source "$f"
	if [ "$src" = /dev/null ]; then
		: > "$base/kernel-doc.log"
	else
		(cd "$base/linux" && scripts/kernel-doc -none -Wall "$f" 2>&1 |
			sed -E 's/^(warning|error): //') > "$base/kernel-doc.log"
	fi
	new=$(cd "$tree" && scripts/kernel-doc -none -Wall "$f" 2>&1 |
		sed -E 's/^(warning|error): //' |
		new_warnings "$f" "$tree/$f" "$src" "$base/kernel-doc.log")
	if [ -z "$new" ]; then
		echo "ok $i $name"
	else
		echo "not ok $i $name"
		echo "# new kernel-doc warnings, file:line: message:"
		printf '%s\n' "$new" | head -20 | sed 's/^/# /'
	fi
done
