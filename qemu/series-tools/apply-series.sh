#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# apply-series.sh <kernel tree> <series dir> <stamp>
#
# Reset the kernel tree to its baseline and apply every patch listed in
# <series dir>/series with `git am`.  The stamp records the resulting HEAD;
# a tree whose HEAD moved since (commits not exported) or that has
# uncommitted changes is left alone, with a message saying what to do.
set -eu
tree=$1 series=$2 stamp=$3
git_t() { git -C "$tree" -c user.name=led_pattern -c user.email=led_pattern@localhost "$@"; }

if [ -n "$(git_t status --porcelain --untracked-files=no)" ]; then
	echo "apply-series: $tree has uncommitted changes; commit them and run 'make export'" >&2
	exit 1
fi
head=$(git_t rev-parse HEAD)
base=$(git_t rev-parse baseline)
if [ -f "$stamp" ]; then
	recorded=$(cat "$stamp")
	if [ "$head" != "$recorded" ]; then
		echo "apply-series: $tree has commits that series/ does not carry; run 'make export' first" >&2
		echo "apply-series: (or drop them: git -C $tree reset --hard $recorded)" >&2
		exit 1
	fi
elif [ "$head" != "$base" ]; then
	echo "apply-series: $tree is not at its baseline and has no stamp; run 'make export' first" >&2
	exit 1
fi

git_t am --abort >/dev/null 2>&1 || true
git_t checkout -q -B master baseline 2>/dev/null || git_t reset -q --hard baseline
git_t reset -q --hard baseline
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$series/series" | while read -r p; do
	if ! git_t am -q --keep-cr "$series/$p" >/dev/null 2>&1; then
		git_t am --abort >/dev/null 2>&1 || true
		echo "apply-series: patch does not apply: series/$p" >&2
		exit 1
	fi
done
git_t rev-parse HEAD > "$stamp"
