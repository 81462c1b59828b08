# SPDX-License-Identifier: GPL-2.0
# lib.sh: what the series checks share; source it with $tree (the kernel
# tree, its tag `baseline` the unpatched source) and $series (series/) set.

# the files the patches of series/ touch, in series order
touched() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$series/series" | while read -r p; do
		sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "$series/$p"
	done | awk '!seen[$0]++'
}

# warning_locations <file>: of the compiler or kernel-doc output on stdin,
# the warnings and errors located in <file> (any path before it: the
# tree's, a worktree's, kbuild's ../), as "<line><TAB><message>", the
# message with its column and "warning:" or "error:"
warning_locations() {
	awk -v f="$1" '{
		p = index($0, f ":")
		if (p == 0 || (p > 1 && substr($0, p - 1, 1) != "/"))
			next
		rest = substr($0, p + length(f) + 1)
		if (!match(rest, /^[0-9]+:/))
			next
		line = substr(rest, 1, RLENGTH - 1)
		msg = substr(rest, RLENGTH + 1)
		if (msg ~ /^([0-9]+:)? (warning|error):/)
			print line "\t" msg
	}'
}

# new_warnings <file> <patched source> <baseline source> <baseline output>
# < patched output: the warnings located in <file> that the baseline does
# not give, one "<file>:<line>:[<col>:] warning: <message>" a line.  A
# warning is the baseline's only when the baseline's output has the same
# message (column included) at the same line, each line of the patched
# source mapped to the baseline's through diff -U0 (a changed or added
# line maps to none), and counted: a second instance of a message the
# baseline gives once, on a copied line or on a line the baseline does
# not warn on, is new, however often the baseline has its text.
# <baseline source> /dev/null: a file the series adds, every warning new.
new_warnings() {
	local f=$1 patched=$2 base=$3 baselog=$4 tmp
	tmp=$(mktemp -d)
	# hunks as "<old start> <old count> <new start> <new count>", a
	# count of 0 naming the line before the empty range (diff -U0)
	diff -U0 "$base" "$patched" | sed -n \
		's/^@@ -\([0-9]*\)\(,\([0-9]*\)\)\{0,1\} +\([0-9]*\)\(,\([0-9]*\)\)\{0,1\} @@.*/\1 _\3 \4 _\6/p' |
		sed 's/_\([0-9]\)/\1/g; s/_/1/g' > "$tmp/hunks"
	warning_locations "$f" < "$baselog" > "$tmp/base"
	warning_locations "$f" > "$tmp/patched"
	awk -F '\t' -v f="$f" '
		FILENAME == ARGV[1] {
			split($0, h, " ")
			n++
			first[n] = h[4] + 0 ? h[3] + 0 : h[3] + 1
			count[n] = h[4] + 0
			# the baseline line of the first line after the hunk, less
			# that line: what to add to a line up to the next hunk
			off[n] = (h[2] + 0 ? h[1] + 0 : h[1] + 1) + h[2] - (first[n] + h[4])
			next
		}
		FILENAME == ARGV[2] {
			base[$1 "\t" $2]++
			msg = $2
			sub(/^[0-9]+:/, "", msg)
			any[msg]++
			next
		}
		function old_line(l,   k, o) {
			o = 0
			for (k = 1; k <= n; k++) {
				if (l < first[k])
					break
				if (l < first[k] + count[k])
					return 0
				o = off[k]
			}
			return l + o
		}
		{
			o = old_line($1 + 0)
			if (o && base[o "\t" $2] > 0) {
				base[o "\t" $2]--
				next
			}
			msg = $2
			sub(/^[0-9]+:/, "", msg)
			seen = any[msg] ? " (the baseline: " any[msg] " of this message in " f ")" : ""
			print f ":" $1 ":" $2 seen
		}' "$tmp/hunks" "$tmp/base" "$tmp/patched"
	rm -rf "$tmp"
}

# beyond_baseline <baseline> <patched>: the lines of <patched> that
# <baseline> does not have, counted: a line the baseline has once and
# <patched> twice is printed once.  Lines are compared from their
# "Warning (" on (dtc's "<file>:<line>.<col>: " before it differs between
# two sources of the same node) and printed whole.
beyond_baseline() {
	awk '
		function key(s,   p) {
			p = index(s, "Warning (")
			return p ? substr(s, p) : s
		}
		FILENAME == ARGV[1] { n[key($0)]++; next }
		n[key($0)] > 0 { n[key($0)]--; next }
		{ print }' "$1" "$2"
}

# baseline_tree <dir>: $tree as the `baseline` tag has it, in <dir>: the
# tree hard-linked, then the files the series changes, adds or removes
# put back as the tag has them (unlinked first, never written through a
# link).  A checkout of the tag writes 1.6 GB, minutes of a fresh CI
# run's two cores; the links take seconds.  Made again when $tree's
# commit or its uncommitted changes are not those it was made from.
baseline_tree() {
	local wt=$1 id e st f mode
	id=$({ git -C "$tree" rev-parse baseline HEAD; git -C "$tree" status --porcelain; } |
		sha1sum)
	[ -d "$wt" ] && [ "$(cat "$wt.id" 2>/dev/null)" = "$id" ] && return 0
	git -C "$tree" worktree prune
	rm -rf "$wt" "$wt.id"
	mkdir -p "$wt" || return 1
	for e in "$tree"/* "$tree"/.[!.]*; do
		[ -e "$e" ] && [ "${e##*/}" != .git ] || continue
		cp -al "$e" "$wt/" || return 1
	done
	git -C "$tree" diff --name-status --no-renames baseline |
	while read -r st f; do
		rm -f "$wt/$f"
		[ "$st" = A ] && continue
		mkdir -p "$(dirname "$wt/$f")" &&
		git -C "$tree" show "baseline:$f" > "$wt/$f" || exit 1
		mode=$(git -C "$tree" ls-tree baseline -- "$f" | cut -c1-6)
		[ "$mode" != 100755 ] || chmod +x "$wt/$f"
	done || { echo "baseline_tree: $tree's files at the tag could not be put back"; return 1; }
	echo "$id" > "$wt.id"
}

# baseline_build <base dir> <.config> <make> <C file>...: the kbuild
# output of the directories of the C files that the `baseline` tag
# builds, in a copy of $tree at the tag (<base dir>/linux, baseline_tree)
# and its own kbuild directory (<base dir>/kbuild), with the patched
# build's <.config> reduced to the options the baseline has
# (olddefconfig); <make> is the kernel make command without -C and O=,
# with the checkers' flags.  The output goes to <base dir>/baseline.log.
# The baseline never changes: the build is made again only when the
# tag, the configuration, the command, the files or the compilers
# change.  The files' objects are removed first, so that gcc's warnings
# are in the output (a compile of a current object is skipped).  Status
# non-zero, with the end of the output on stdout, when it fails.
baseline_build() {
	local base=$1 config=$2 kmake=$3 wt id dirs f cross
	shift 3
	wt=$base/linux
	mkdir -p "$base/kbuild" || return 1
	cross=$(printf '%s\n' $kmake | sed -n 's/^CROSS_COMPILE=//p')
	id=$({ git -C "$tree" rev-parse baseline; cat "$config"; echo "$kmake $*"
		"${cross}gcc" --version; sparse --version 2>&1; } | sha1sum)
	if [ -s "$base/baseline.log" ] && [ "$(cat "$base/baseline.id" 2>/dev/null)" = "$id" ]; then
		return 0
	fi
	rm -f "$base/baseline.id"
	baseline_tree "$wt" || return 1
	# the files' directories as the baseline has them
	dirs=$(for f; do
		[ -e "$wt/$f" ] && echo "$(dirname "$f")/"
		rm -f "$base/kbuild/${f%.c}.o"
	done | sort -u)
	cp "$config" "$base/kbuild/.config" &&
	flock "$base/kbuild.lock" $kmake -C "$wt" O="$base/kbuild" olddefconfig \
		> "$base/baseline.log" 2>&1 &&
	flock "$base/kbuild.lock" $kmake -C "$wt" O="$base/kbuild" $dirs \
		>> "$base/baseline.log" 2>&1 ||
		{ echo "the baseline's build failed ($base/baseline.log):"
		  grep -E 'error|Error' "$base/baseline.log" | tail -5; return 1; }
	echo "$id" > "$base/baseline.id"
}

# builtin_clashes <kbuild dir>: the global symbols two of (vmlinux.o, the
# objects of each module in modules.order) define: built in, they would
# be defined twice and vmlinux would not link.  A module's init_module,
# cleanup_module and __mod_*_device_table exist only when it is a module.
# Status 1 and a line saying why when a symbol table cannot be read.
builtin_clashes() {
	local out=$1 syms m rc=0
	syms=$(mktemp)
	if [ ! -e "$out/modules.order" ] ||
		! aarch64-linux-gnu-nm -g --defined-only "$out/vmlinux.o" > "$syms.nm"; then
		echo "builtin_clashes: no vmlinux.o or modules.order in $out"
		rm -f "$syms" "$syms.nm"
		return 1
	fi
	awk 'NF == 3 { print $3, "vmlinux" }' "$syms.nm" > "$syms"
	# modules.order lists foo.ko up to 6.1, foo.o from 6.2 on
	for m in $(sed -E 's/\.(ko|o)$//' "$out/modules.order"); do
		if ! (cd "$out" && aarch64-linux-gnu-nm -g --defined-only $(cat "$m.mod")) > "$syms.nm"; then
			echo "builtin_clashes: cannot read the objects of $m.ko"
			rc=1
		fi
		awk -v m="$m.ko" 'NF == 3 { print $3, m }' "$syms.nm" >> "$syms"
	done
	awk '$1 !~ /^(init_module|cleanup_module|__mod_.*_device_table)$/ {
		if ($1 in by && by[$1] != $2) print $1 ": " by[$1] " and " $2
		by[$1] = $2 }' "$syms"
	rm -f "$syms" "$syms.nm"
	return $rc
}
