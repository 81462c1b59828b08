#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# run-bench.sh --build DIR [--kernel IMAGE] [--smp N]: boot the board, run
# guest-tests/bench/bench.sh, print the figures (build/bench/figures.txt).
# The emulator writes its CPU time to the timeline once a second
# (--cpu-report) for the emulator CPU figures.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
build= kernel= smp=2
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift ;;
	--kernel) kernel=$2; shift ;;
	--smp) smp=$2; shift ;;
	*) echo "run-bench.sh: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
out=$build/bench
"$top/qemu/board/boot.sh" --build "$build" ${kernel:+--kernel "$kernel"} --smp "$smp" \
	--mode script --script "$here/bench/bench.sh" --out "$out" \
	--emu-args --cpu-report > /dev/null
python3 "$here/lib/bench.py" "$out/timeline.txt" "$out/console.log" | tee "$out/figures.txt"
