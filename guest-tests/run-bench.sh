#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# run-bench.sh --build DIR [--kernel IMAGE] [--dtb DTB] [--smp N]: boot the
# board (make bench: dts/bench.dts, the family board with a
# leds-group-multicolor LED), run
# guest-tests/bench/bench.sh, print the table (build/bench/figures.txt) with
# the machine it ran on.
# The emulator writes its CPU time to the timeline once a second
# (--cpu-report) for the emulator CPU figures.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
build= kernel= dtb= smp=2
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift ;;
	--kernel) kernel=$2; shift ;;
	--dtb) dtb=$2; shift ;;
	--smp) smp=$2; shift ;;
	*) echo "run-bench.sh: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
out=${BENCH_OUT:-$build/bench}
mkdir -p "$out"
# BENCH_REPEATS, BENCH_BLINK_SECONDS, ... (see bench/bench.sh) reach the
# guest through a wrapper script.
{
	echo '#!/bin/sh'
	env | grep '^BENCH_[A-Z_]*=[0-9]*$' | sed 's/^/export /'
	echo '. /tests/bench/bench.sh'
} > "$out/run.sh"
# ten implementations, three repeats, then the scaling rows: 2560 s of
# guest time on 2026-12-06, so an hour's limit; a third software engine
# for the row of two engines on two chips
"$top/qemu/board/boot.sh" --build "$build" ${kernel:+--kernel "$kernel"} --smp "$smp" \
	--board family ${dtb:+--dtb "$dtb"} --append led_pattern_software.engines=3 \
	--mode script --script "$out/run.sh" --out "$out" --timeout 3600 \
	--emu-args --cpu-report > /dev/null
{
	echo "make bench, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "host: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)," \
		"$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end;" \
		"$(qemu-system-aarch64 --version | head -1) (TCG)"
	sed -n 's/^# bench guest: /guest: /p' "$out/console.log"
	sed -n 's/^# bench repeats/repeats/p' "$out/console.log"
	echo
	python3 "$here/lib/bench.py" "$out/timeline.txt" "$out/console.log"
} | tee "$out/figures.txt"
