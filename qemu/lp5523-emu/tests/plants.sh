#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Self-test of the host tests: each plant in tests/plants.txt is a bug put
# into a copy of the emulator's sources; the tests it names must fail on
# it (and the copy must really differ from the sources).  KTAP on stdout,
# exit 1 when a plant is not caught.
#
#   tests/plants.sh <work dir> [plant name...]
set -u

src=$(cd "$(dirname "$0")/.." && pwd)
work=${1:?usage: plants.sh <work dir> [plant...]}
shift
mkdir -p "$work" || exit 1

plants=$(grep -v '^#' "$src/tests/plants.txt" | grep -v '^[[:space:]]*$')
if [ $# -gt 0 ]; then
	only=
	for p in "$@"; do
		only="$only$(printf '%s\n' "$plants" | grep "^$p	")
"
	done
	plants=$(printf '%s' "$only" | grep -v '^$')
fi
[ -n "$plants" ] || { echo "plants.sh: no such plant" >&2; exit 1; }
n=$(printf '%s\n' "$plants" | wc -l)
# The sources built once, unplanted: each plant's copy starts from them
# and their objects with their timestamps, so that make rebuilds only what
# the planted file reaches (one object for most plants).  make check runs
# the plants beside the kernel's build, which takes the CPU time they save.
pristine=$work/.pristine
rm -rf "$pristine" && mkdir -p "$pristine" && cp -rp "$src"/. "$pristine"/ &&
	make -s -C "$pristine" O="$pristine/out" "$pristine/out/tests/test-lp5523" > /dev/null 2>&1
echo "TAP version 13"
echo "1..$n"
i=0 pass=0
while IFS='	' read -r name file expr catches; do
	i=$((i + 1))
	copy=$work/$name
	rm -rf "$copy" && mkdir -p "$copy" && cp -rp "$pristine"/. "$copy"/
	perl -0pi -e "$expr" "$copy/$file"
	if cmp -s "$src/$file" "$copy/$file"; then
		echo "not ok $i plant_$name"
		echo "# the plant did not change $file"
		continue
	fi
	out=$(make -s -C "$copy" O="$copy/out" check 2>&1)
	if ! printf '%s\n' "$out" | grep -q '^# Totals:'; then
		echo "not ok $i plant_$name"
		echo "# the planted copy did not build or run:"
		printf '%s\n' "$out" | grep -m 3 'error' | sed 's/^/# /'
		continue
	fi
	missed=
	for t in $(echo "$catches" | tr ',' ' '); do
		printf '%s\n' "$out" | grep -q "^not ok [0-9]* $t\$" ||
			missed="$missed $t"
	done
	caught=$(printf '%s\n' "$out" | sed -n 's/^not ok [0-9]* //p' | tr '\n' ' ')
	# diagnostics only after a miss: make check's count shows the lines
	# after a host check's "not ok" as its reason
	if [ -z "$missed" ]; then
		echo "ok $i plant_$name"
		pass=$((pass + 1))
	else
		echo "not ok $i plant_$name"
		echo "# did not fail:$missed"
		echo "# failed: ${caught:-nothing}"
	fi
done <<PLANTS
$plants
PLANTS
echo "# Totals: pass:$pass fail:$((n - pass))"
[ "$pass" -eq "$n" ]
