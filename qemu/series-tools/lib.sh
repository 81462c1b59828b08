# SPDX-License-Identifier: GPL-2.0
# lib.sh: what the series checks share; source it with $tree (the kernel
# tree, its tag `baseline` the unpatched source) and $series (series/) set.

# the files the patches of series/ touch, in series order
touched() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$series/series" | while read -r p; do
		sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "$series/$p"
	done | awk '!seen[$0]++'
}

# new_warnings <file> < compiler output: the warnings located in <file>
# whose source line the baseline's version of the file does not have
new_warnings() {
	local f=$1 base
	base=$(mktemp)
	git -C "$tree" show "baseline:$f" > "$base" 2>/dev/null || : > "$base"
	sed "s|^$tree/||" | grep -E "^(\\./)?$f:[0-9]+:([0-9]+:)? (warning|error):" | sort -u |
	while IFS= read -r w; do
		line=$(echo "$w" | sed -E "s|^(\\./)?$f:([0-9]+):.*|\\2|")
		text=$(sed -n "${line}p" "$tree/$f" | sed 's/^[[:space:]]*//;s/[[:space:]]*$//')
		if [ -n "$text" ] &&
			sed 's/^[[:space:]]*//;s/[[:space:]]*$//' "$base" | grep -qxF -- "$text"; then
			continue
		fi
		echo "$w"
	done
	rm -f "$base"
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
