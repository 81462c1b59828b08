#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# export-series.sh <kernel tree> <series dir> <stamp>
#
# Write the commits of the kernel tree on top of its baseline back to
# <series dir> (git format-patch, plus the `series` list), replacing what
# was there, and record the exported HEAD in the stamp so the next build
# does not re-apply what the tree already has.
set -eu
tree=$1 series=$2 stamp=$3

if [ -n "$(git -C "$tree" status --porcelain --untracked-files=no)" ]; then
	echo "export-series: $tree has uncommitted changes; commit them first" >&2
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# --abbrev: blob ids of one length whatever the tree's object count, so
# that exports from two unpacked trees of one series are the same files
git -C "$tree" format-patch -q --no-signature --zero-commit -N --abbrev=9 \
	-o "$tmp" baseline..HEAD
rm -f "$series"/*.patch
: > "$tmp/series"
for p in "$tmp"/*.patch; do
	[ -e "$p" ] || continue
	cp "$p" "$series/"
	basename "$p" >> "$tmp/series"
done
cp "$tmp/series" "$series/series"
git -C "$tree" rev-parse HEAD > "$stamp"
echo "export-series: $(wc -l < "$series/series") patch(es) in $series"
