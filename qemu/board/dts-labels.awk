# SPDX-License-Identifier: GPL-2.0
# Give the nodes of a decompiled QEMU tree labels and turn the raw phandle
# numbers in `clocks` and `gpios` back into references, so that dtc builds
# the board without "is not a phandle reference" warnings.
# Usage: awk -f dts-labels.awk virt.dts virt.dts   (the file twice)

function label(v) { return "qemu_" substr(v, 3) }

NR == FNR {
	if ($0 ~ /\{$/)
		node = FNR
	if ($1 == "phandle" && match($0, /<0x[0-9a-f]+>/))
		lbl[node] = label(substr($0, RSTART + 1, RLENGTH - 2))
	next
}

FNR in lbl {
	sub(/^\t*/, "&" lbl[FNR] ": ")
}

$1 == "clocks" {
	while (match($0, /[< ]0x8[0-9a-f][0-9a-f][0-9a-f][ >]/))
		$0 = substr($0, 1, RSTART) "&" label(substr($0, RSTART + 1, RLENGTH - 2)) \
			substr($0, RSTART + RLENGTH - 1)
}

$1 == "gpios" && match($0, /<0x[0-9a-f]+ /) {
	$0 = substr($0, 1, RSTART) "&" label(substr($0, RSTART + 1, RLENGTH - 2)) \
		substr($0, RSTART + RLENGTH - 1)
}

{ print }
