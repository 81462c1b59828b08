#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bisect-check.sh <kernel tree> <series dir> <work dir> <config fragment>...
#
# KTAP: every prefix of series/ builds (the board's configuration):
# bisect_baseline, then bisect_<patch> after each patch of the series list,
# read at run time.  A prefix builds the objects of every directory a patch
# of the series touches (drivers/leds/ and its trigger/, ...), each with the
# options that prefix has: that is what a prefix can break, and it takes
# seconds where vmlinux for each took minutes.  The whole series' vmlinux
# is make check's.  The patches are applied with `git am` in a worktree of
# <kernel tree> (<work dir>/linux, detached, never touching the tree's own
# checkout), built in <work dir>/kbuild, incrementally and through ccache:
# with CCACHE_BASEDIR set to the build directory by the Makefile, the
# worktree's paths relative to its kbuild are those of the main build, so
# unchanged files are cache hits.  A patch that does not apply, or a prefix
# that does not build, fails; the prefixes after it are skipped.
set -u
tree=$(cd "$1" && pwd) series=$(cd "$2" && pwd) work=$3
shift 3
mkdir -p "$work"
work=$(cd "$work" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
wt=$work/linux out=$work/kbuild
KMAKE="make -C $wt O=$out ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- -j$(nproc) \
	KBUILD_BUILD_USER=led_pattern KBUILD_BUILD_HOST=board"
git_wt() { git -C "$wt" -c user.name=led_pattern -c user.email=led_pattern@localhost "$@"; }

patches=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$series/series")
n=$(printf '%s\n' $patches | grep -c .)
echo "TAP version 13"
echo "1..$((n + 1))"

# the worktree, at the baseline
git -C "$tree" worktree prune
if ! git_wt rev-parse --git-dir > /dev/null 2>&1; then
	rm -rf "$wt"
	git -C "$tree" worktree add -q --detach "$wt" baseline > "$work/worktree.log" 2>&1
fi
git_wt am --abort > /dev/null 2>&1
git_wt checkout -q --detach baseline 2> "$work/checkout.log" &&
	git_wt reset -q --hard baseline

# build <name>: one prefix, with the full series' configuration reduced to
# the options the prefix has (olddefconfig)
i=0 failed=
build() {
	local t0 t1
	i=$((i + 1))
	t0=$(date +%s)
	mkdir -p "$out"
	cp "$work/kconfig/.config" "$out/.config"
	if flock "$out.lock" $KMAKE -s olddefconfig > "$work/$1.log" 2>&1 &&
		flock "$out.lock" $KMAKE -s $dirs >> "$work/$1.log" 2>&1; then
		t1=$(date +%s)
		echo "ok $i $1"
		echo "# built in $((t1 - t0)) s"
	else
		echo "not ok $i $1"
		grep -E 'error|Error' "$work/$1.log" | head -20 | sed 's/^/# /'
		failed=$1
	fi
}

t_start=$(date +%s)
# the directories of the C files the series touches, as kbuild targets
dirs=$(for p in $patches; do
	sed -n 's|^diff --git a/\([^ ]*\)/[^/ ]*\.c b/.*|\1/|p' "$series/$p"
done | sort -u | tr '\n' ' ')
[ -n "$dirs" ] || dirs=vmlinux
# the configuration of the whole series: the worktree with every patch
# applied, merged as the board's kernel is, then back to the baseline
apply_all() {
	local p
	for p in $patches; do
		git_wt am -q --keep-cr "$series/$p" > "$work/am.log" 2>&1 || return 1
	done
}
mkdir -p "$work/kconfig"
if ! apply_all || ! "$here/../board/merge-config.sh" \
		"flock $work/kconfig.lock make -C $wt O=$work/kconfig ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-" \
		"$wt" "$work/kconfig" "$@" > "$work/config.log" 2>&1; then
	i=1
	echo "not ok 1 bisect_baseline"
	echo "# the configuration of the whole series failed:"
	cat "$work/am.log" "$work/config.log" | head -10 | sed 's/^/# /'
	failed=config
else
	git_wt am --abort > /dev/null 2>&1
	git_wt checkout -q --detach baseline && git_wt reset -q --hard baseline
	build bisect_baseline
fi
for p in $patches; do
	name=bisect_$(echo "$p" | sed 's/\.patch$//; s/[^A-Za-z0-9]/_/g' | cut -c1-60)
	if [ -n "$failed" ]; then
		i=$((i + 1))
		echo "ok $i $name # SKIP $failed failed"
		continue
	fi
	if ! git_wt am -q --keep-cr "$series/$p" > "$work/am.log" 2>&1; then
		git_wt am --abort > /dev/null 2>&1
		i=$((i + 1))
		echo "not ok $i $name"
		echo "# does not apply: series/$p"
		failed=$name
		continue
	fi
	# a patch that changes nothing the build reads (documentation, a
	# binding) builds what the prefix before it built
	if ! sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "$series/$p" |
			grep -qE '\.(c|h|S|lds|dts|dtsi)$|(^|/)(Kconfig|Makefile|Kbuild)[^/]*$'; then
		i=$((i + 1))
		echo "ok $i $name"
		echo "# changes no file the build reads"
		continue
	fi
	build "$name"
done
echo "# $((n + 1)) prefixes in $(( $(date +%s) - t_start )) s"
