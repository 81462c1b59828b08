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
