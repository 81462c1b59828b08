#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bisect-check.sh <kernel tree> <series dir> <work dir> <config fragment>...
#
# KTAP: every prefix of series/ builds and links: bisect_baseline, then
# bisect_<patch> after each patch of the series list, read at run time.
#
# A prefix is built as `make vmlinux modules` with the board's
# configuration, its LED options (CONFIG_LEDS_*) turned into modules:
#  - modpost then checks every symbol a LED module uses against what
#    vmlinux and the other modules export, so a function used in patch N
#    but exported only in patch N+1 (or never) fails patch N;
#  - vmlinux is linked, so the code that stays built in with the LED
#    options as modules (led-core.c, led-triggers.c, and the header users
#    outside drivers/leds: input-leds, power_supply, the VT keyboard)
#    may not call into a module;
#  - every object the board's configuration builds is rebuilt when a
#    header it includes changes, so a header change that breaks a user
#    outside drivers/leds fails the prefix that makes it.
# What the modules build cannot see is a link of the same objects built
# in: two modules defining one global symbol link apart, but not into one
# vmlinux.  Each prefix also fails on such a clash (nm of the modules'
# objects and vmlinux.o); the whole series built in is make check's
# kernel, which the boots use.
#
# The build is incremental: the patches are applied with `git am` in a
# worktree of <kernel tree> (<work dir>/linux, detached, never touching
# the tree's own checkout), so a prefix recompiles only what the patch's
# files reach (kbuild's dependency files) and relinks only what changed;
# the kbuild directory <work dir>/kbuild stays between runs.  Compiles
# go through ccache: with CCACHE_BASEDIR set to the build directory by
# the Makefile, the worktree's paths relative to its kbuild are those of
# the main build, so unchanged files are cache hits.  A patch that does
# not apply, or a prefix that does not build, fails; the prefixes after
# it are skipped.
set -u
tree=$(cd "$1" && pwd) series=$(cd "$2" && pwd) work=$3
shift 3
mkdir -p "$work"
work=$(cd "$work" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
# the series as it is now: a `make export` during the run must not give
# the later prefixes patches of another version
rm -rf "$work/series-run" && cp -r "$series" "$work/series-run" || exit 1
series=$work/series-run
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
	local t0 t1 clash
	i=$((i + 1))
	t0=$(date +%s)
	mkdir -p "$out"
	cp "$work/kconfig/.config" "$out/.config"
	if flock "$out.lock" $KMAKE -s olddefconfig > "$work/$1.log" 2>&1 &&
		flock "$out.lock" $KMAKE -s vmlinux modules >> "$work/$1.log" 2>&1; then
		t1=$(date +%s)
		if ! clash=$(builtin_clashes "$out") || [ -n "$clash" ]; then
			echo "not ok $i $1"
			echo "# would not link built in (a global symbol defined twice):"
			printf '%s\n' "$clash" | head -20 | sed 's/^/# /'
			failed=$1
			return
		fi
		echo "ok $i $1"
		echo "# built and linked in $((t1 - t0)) s: $(wc -l < "$out/modules.order") modules"
	else
		echo "not ok $i $1"
		grep -E 'error|Error|ERROR|undefined' "$work/$1.log" | head -20 | sed 's/^/# /'
		failed=$1
	fi
}

t_start=$(date +%s)
# the configuration of the whole series: the worktree with every patch
# applied, merged as the board's kernel is, then back to the baseline
apply_all() {
	local p
	for p in $patches; do
		git_wt am -q --keep-cr "$series/$p" > "$work/am.log" 2>&1 || return 1
	done
}
# leds_modules <fragment>...: the fragments with every tristate
# CONFIG_LEDS_* option (as the series' Kconfig declares it) a module;
# bool options (NEW_LEDS, LEDS_TRIGGERS) stay built in
leds_modules() {
	local tristate
	tristate=$(find "$wt/drivers/leds" -name Kconfig -exec awk \
		'$1 == "config" { c = $2 } $1 == "tristate" && c ~ /^LEDS_/ { print c }' {} + |
		sort -u | tr '\n' '|')
	cat "$@" | sed -E "s/^CONFIG_(${tristate%|})=y$/CONFIG_\\1=m/"
}
# modules_kept: every LED option asked as a module is one (a select from a
# built-in option would make it built in, hiding the module build this
# check is for)
modules_kept() {
	local opt bad=0
	for opt in $(sed -n 's/^\(CONFIG_LEDS_[A-Z0-9_]*\)=m$/\1/p' "$work/modules.config"); do
		grep -qx "$opt=m" "$work/kconfig/.config" && continue
		echo "bisect: $opt=m (from the board's fragment) is $(grep "^$opt=" "$work/kconfig/.config" || echo unset) in the series' configuration"
		bad=1
	done
	return $bad
}
mkdir -p "$work/kconfig"
if ! apply_all || ! leds_modules "$@" > "$work/modules.config" ||
		! "$here/../board/merge-config.sh" \
		"flock $work/kconfig.lock make -C $wt O=$work/kconfig ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-" \
		"$wt" "$work/kconfig" "$work/modules.config" > "$work/config.log" 2>&1 ||
		! modules_kept >> "$work/config.log" 2>&1; then
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
