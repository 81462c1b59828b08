#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# dt-check.sh <kernel tree> <board.dtb> <work dir>: KTAP, dt-schema
# (dt-validate) on the board against the bindings of the patched tree.
#
# QEMU's own nodes (its pl061 has no interrupt-controller, its gpio-keys
# child is "poweroff", ...) do not match every 6.1 binding; only what
# dts/board.dts adds is judged: the leds node and the virtio I2C adapter
# with the LP5523.
set -u
ksrc=$1 dtb=$2 work=$3
mkdir -p "$work"
echo "TAP version 13"
echo "1..1"
if ! dt-mk-schema -j "$ksrc/Documentation/devicetree/bindings" \
		> "$work/processed-schema.json" 2> "$work/dt-mk-schema.log"; then
	echo "not ok 1 board_dt_schema_clean"
	tail -5 "$work/dt-mk-schema.log" | sed 's/^/# /'
	exit 0
fi
dt-validate -s "$work/processed-schema.json" "$dtb" > "$work/dt-validate.log" 2>&1
ours=$(grep -E ': (leds|led-[0-9]|i2c|led-controller@32|led@[0-9])\b|virtio_mmio@a003e00/' \
	"$work/dt-validate.log")
if [ -z "$ours" ]; then
	echo "ok 1 board_dt_schema_clean"
else
	echo "not ok 1 board_dt_schema_clean"
	printf '%s\n' "$ours" | head -20 | sed 's/^/# /'
fi
