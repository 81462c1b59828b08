#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# export-series.sh <kernel tree> <series dir> <stamp>
#
# Write the commits of the kernel tree on top of its baseline back to
# <series dir>, series by series, replacing the patches there; record the
# exported HEAD in the stamp so the next build does not re-apply what the
# tree already has.  <series dir>/layout names, in order, one
# subdirectory per series and how many of the tree's commits it takes,
#
#	# directory		patches
#	1-lp55xx-fixes		10
#	2-color			6
#
# Each subdirectory gets its commits as git format-patch writes them
# (numbered from 0001 in each), keeping its cover-letter; <series
# dir>/series lists every patch as <subdirectory>/<patch>, in order,
# which is what apply-series.sh, the Makefile and the check scripts read.
# A commit added or dropped in the tree means a count in the layout to
# change first: the script refuses a layout that does not take exactly
# the tree's commits.  Prints each series' patch count and changed lines.
set -eu
tree=$1 series=$2 stamp=$3
layout=$series/layout
git_t() { git -C "$tree" "$@"; }

if [ ! -f "$layout" ]; then
	echo "export-series: no $layout; say which series takes which commits" >&2
	exit 1
fi
if [ -n "$(git_t status --porcelain --untracked-files=no)" ]; then
	echo "export-series: $tree has uncommitted changes; commit them first" >&2
	exit 1
fi
entries=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$layout")
want=$(printf '%s\n' "$entries" | awk '{ n += $2 } END { print n + 0 }')
have=$(git_t rev-list --count baseline..HEAD)
if [ "$want" -ne "$have" ]; then
	echo "export-series: $layout takes $want commits, $tree has $have on its baseline" >&2
	exit 1
fi
if [ -n "$(git_t rev-list --merges baseline..HEAD)" ]; then
	echo "export-series: $tree has merges on its baseline" >&2
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/series"
git_t rev-list --reverse baseline..HEAD > "$tmp/commits"
start=1
printf '%s\n' "$entries" | while read -r dir n rest; do
	case $dir in
	*/* | .* | series | layout)
		echo "export-series: '$dir' is not a series directory name" >&2
		exit 1 ;;
	esac
	if [ -n "$rest" ] || ! [ "$n" -gt 0 ] 2>/dev/null; then
		echo "export-series: $layout: '$dir $n $rest': want <directory> <patches>" >&2
		exit 1
	fi
	first=$(sed -n "${start}p" "$tmp/commits")
	last=$(sed -n "$((start + n - 1))p" "$tmp/commits")
	# --abbrev: as export-series.sh, blob ids of one length
	git_t format-patch -q --no-signature --zero-commit -N --abbrev=9 \
		-o "$tmp/$dir" "$first^..$last"
	for p in "$tmp/$dir"/*.patch; do
		echo "$dir/$(basename "$p")" >> "$tmp/series"
	done
	start=$((start + n))
done

# replace the patches of every series the layout names, nothing else
for dir in $(printf '%s\n' "$entries" | awk '{ print $1 }'); do
	mkdir -p "$series/$dir"
	rm -f "$series/$dir"/*.patch
	cp "$tmp/$dir"/*.patch "$series/$dir/"
	[ -f "$series/$dir/cover-letter" ] ||
		echo "export-series: $series/$dir has no cover-letter" >&2
done
cp "$tmp/series" "$series/series"
git_t rev-parse HEAD > "$stamp"

start=1
printf '%s\n' "$entries" | while read -r dir n rest; do
	first=$(sed -n "${start}p" "$tmp/commits")
	last=$(sed -n "$((start + n - 1))p" "$tmp/commits")
	lines=$(git_t diff --shortstat "$first^" "$last" |
		awk '{ for (i = 1; i < NF; i++) if ($(i + 1) ~ /^(insertion|deletion)/) s += $i }
		     END { print s + 0 }')
	printf 'export-series: %-28s %3d patch(es), %5d changed lines\n' "$dir" "$n" "$lines"
	start=$((start + n))
done
echo "export-series: $(wc -l < "$series/series") patch(es) in $series"
