#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bisect-check.sh builds each prefix with the LED options as modules and
# fails it when its objects would not link built in: a global symbol that
# two modules, or a module and vmlinux, both define (builtin_clashes in
# qemu/series-tools/lib.sh).  Planted: a module made of an object vmlinux
# already holds (led-core.o, built in with NEW_LEDS=y), and two modules
# made of one object; each must be rejected, naming the symbol and both
# places.  The unplanted objects pass: make check-series' bisect kbuild
# (the last prefix built, the LED options as modules) when this build
# directory has one, else make check's kernel.  nm only, no kbuild.
. "$(dirname "$0")/lib/selftest.sh"
build=$(dirname "$ST_RESULTS")
. "$ST_TESTS/../qemu/series-tools/lib.sh"

real=$build/bisect/kbuild
if [ -s "$real/vmlinux.o" ] && [ -s "$real/modules.order" ]; then
	check=$real
else
	# make check's kernel: everything built in, no modules
	real=$build/kbuild check=main
	[ -s "$real/vmlinux.o" ] || st_fail "no vmlinux.o in $build/bisect/kbuild or $build/kbuild"
	mkdir main && ln -s "$real/vmlinux.o" main/vmlinux.o && : > main/modules.order
fi
[ -s "$real/drivers/leds/led-core.o" ] || st_fail "no drivers/leds/led-core.o in $real"

builtin_clashes "$check" > real.out 2>&1
rc=$?
[ -s real.out ] && rc=1
st_accepts "the objects of $real" real.out $rc

# plant <dir> <module>=<object>...: a kbuild directory with the real
# vmlinux.o and these modules
plant() {
	local d=$1 spec m o
	shift
	mkdir -p "$d"
	ln -sf "$real/vmlinux.o" "$d/vmlinux.o"
	: > "$d/modules.order"
	for spec; do
		m=${spec%%=*} o=${spec#*=}
		mkdir -p "$d/$(dirname "$m")" "$d/$(dirname "$o")"
		cp "$real/$o" "$d/$o"
		echo "$m.ko" >> "$d/modules.order"
		echo "$o" > "$d/$m.mod"
	done
}

plant in-vmlinux drivers/leds/planted=drivers/leds/led-core.o
builtin_clashes in-vmlinux > in-vmlinux.out 2>&1
rc=$?
[ -s in-vmlinux.out ] && rc=1
st_rejects "a module made of led-core.o, which vmlinux holds" \
	"^led_set_brightness: vmlinux and drivers/leds/planted.ko$" in-vmlinux.out $rc

# two modules of one object (led-class.o: a module in the bisect's build,
# built in in make check's; either way it defines global symbols)
obj=drivers/leds/led-class.o
[ -s "$real/$obj" ] || st_fail "no $obj in $real"
plant twice drivers/leds/planted_a="$obj" drivers/leds/planted_b="$obj"
rm -f twice/vmlinux.o
: > empty.o.s
aarch64-linux-gnu-as -o twice/vmlinux.o empty.o.s || st_fail "cannot assemble an empty vmlinux.o"
builtin_clashes twice > twice.out 2>&1
rc=$?
[ -s twice.out ] && rc=1
st_rejects "two modules made of $obj" \
	": drivers/leds/planted_a.ko and drivers/leds/planted_b.ko$" twice.out $rc
