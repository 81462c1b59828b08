#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# merge-config.sh '<kernel make command>' <kernel tree> <output dir> <fragment>...
#
# allnoconfig, then the fragments, then olddefconfig.  merge_config.sh drops
# options whose dependencies are not met without failing: check that every
# requested =y survived and stop, naming it, if one did not.
set -eu
kmake=$1 ksrc=$2 out=$3
shift 3

eval "$kmake -s allnoconfig" >/dev/null
"$ksrc/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$@" >/dev/null
eval "$kmake -s olddefconfig" >/dev/null

missing=0
for frag in "$@"; do
	for opt in $(sed -n 's/^\(CONFIG_[A-Z0-9_]*=y\)$/\1/p' "$frag"); do
		if ! grep -qx "$opt" "$out/.config"; then
			echo "merge-config: $opt (from $(basename "$frag")) did not survive: missing dependency?" >&2
			missing=1
		fi
	done
done
if [ $missing -ne 0 ]; then
	rm -f "$out/.config"
	exit 1
fi
