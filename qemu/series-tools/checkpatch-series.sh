#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# checkpatch-series.sh <kernel tree> <series dir>: KTAP, one test per patch
# in the series list: scripts/checkpatch.pl --strict finds nothing.
#
# FILE_PATH_CHANGES ("does MAINTAINERS need updating?") fires for every
# patch that adds a file without touching MAINTAINERS; the files this
# series adds live in drivers/leds/, include/linux/ and Documentation/leds/,
# which the LED SUBSYSTEM entry already covers.
#
# UNKNOWN_COMMIT_ID ("Unknown commit id '...', maybe rebased or not
# pulled?") fires for every commit a patch names, the Fixes: tags of
# 1-lp55xx-fixes included: the tree is Debian's linux-source, one
# baseline commit without mainline's history, so no mainline commit is
# in it.  checkpatch still checks the tags' form (GIT_COMMIT_ID: 12 hex
# digits and the quoted subject); in a clone of mainline it finds them.
set -u
tree=$(cd "$1" && pwd) series=$(cd "$2" && pwd)
# checkpatch runs scripts/spdxcheck.py with the python3 in PATH: Debian's,
# which has python3-ply and python3-git, not another one first in PATH.
PATH=/usr/bin:$PATH
patches=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$series/series")
n=$(printf '%s\n' "$patches" | grep -c .)
echo "TAP version 13"
echo "1..$n"
i=0
for p in $patches; do
	i=$((i + 1))
	name=checkpatch_$(echo "$p" | sed 's/\.patch$//; s/[^A-Za-z0-9]/_/g')
	if out=$(cd "$tree" && scripts/checkpatch.pl --strict -q \
			--ignore FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID "$series/$p" 2>&1); then
		echo "ok $i $name"
	else
		echo "not ok $i $name"
		printf '%s\n' "$out" | head -20 | sed 's/^/# /'
	fi
done
