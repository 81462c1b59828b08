#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# boot.sh --build DIR [--kernel IMAGE] [--dtb DTB] [--smp N] [--mode shell|script|check]
#         [--script FILE] [--out DIR] [--view] [--only a,b] [--emu-args "..."]
#         [--append "..."] [--timeout SECONDS] [--idle-timeout SECONDS]
#         [--board family]
#
# Start the LP5523 emulator, boot the board with QEMU, stop the emulator
# once QEMU has exited.  Console, timeline and the guest's kernel log
# (kernel.log, /dev/kmsg records from /init's first moments) go to the
# --out directory;
# the exit status is QEMU's (script mode: the script's).
#
# --board family: the board with an LP5569 and an LP8501 beside the two
# LP5523s (dts/family.dts): its device tree, the emulator's two more chips,
# and lptest.board=family, which runs the suites made for it.
#
# --idle-timeout: stop QEMU when the console has been silent that long, when
# the kernel panicked (once the panic's log replay is over), or when the
# guest printed "### done" but did not power off within 30 s.  The reason
# goes on the console log as "### host <reason>".
set -eu

build= kernel= smp=2 mode=shell script= out= view= only= emu_args= append=
timeout=900 idle_timeout= board=
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift ;;
	--kernel) kernel=$2; shift ;;
	--dtb) dtb=$2; shift ;;
	--smp) smp=$2; shift ;;
	--mode) mode=$2; shift ;;
	--script) script=$2; shift ;;
	--out) out=$2; shift ;;
	--view) view=--view ;;
	--only) only=$2; shift ;;
	--emu-args) emu_args=$2; shift ;;
	--append) append=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--idle-timeout) idle_timeout=$2; shift ;;
	--board) board=$2; shift ;;
	*) echo "boot.sh: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
[ -n "$build" ] || { echo "boot.sh: --build DIR is required" >&2; exit 2; }
kernel=${kernel:-$build/Image}
out=${out:-$build/$mode}
initrd=$build/initramfs.cpio.gz
case $board in
'') ;;
family)
	dtb=${dtb:-$build/family-smp$smp.dtb}
	emu_args="$emu_args --chip lp5569@0x34 --chip lp8501@0x35"
	append="${append:+$append }lptest.board=family" ;;
*) echo "boot.sh: unknown board $board" >&2; exit 2 ;;
esac
dtb=${dtb:-$build/board-smp$smp.dtb}
emu=$build/emu/lp5523-emu
for f in "$kernel" "$initrd" "$dtb" "$emu"; do
	[ -e "$f" ] || { echo "boot.sh: $f: missing (run make)" >&2; exit 1; }
done

mkdir -p "$out"
out=$(cd "$out" && pwd)
# UNIX socket paths are limited to 107 bytes: a deep checkout gets its
# sockets in a private directory under /tmp instead.
sockdir=$out
if [ ${#out} -gt 80 ]; then
	sockdir=$(mktemp -d /tmp/lp5523.XXXXXX)
fi
sock=$sockdir/vi2c.sock
ctl=$sockdir/ctl.sock
timeline=$out/timeline.txt
console=$out/console.log
# The guest's whole kernel log, record by record (see the kmsg-stream port
# below); kept from a previous boot it would read as this one's.
klog=$out/kernel.log
rm -f "$klog"
emu_pid=

stop_emulator() {
	if [ -n "$emu_pid" ]; then
		kill -TERM "$emu_pid" 2>/dev/null || true
		wait "$emu_pid" 2>/dev/null || true
		emu_pid=
	fi
	rm -f "$sock" "$ctl"
	[ "$sockdir" = "$out" ] || rmdir "$sockdir" 2>/dev/null || true
}
trap stop_emulator EXIT
trap 'exit 130' INT TERM HUP

# make guest: the script rides in a second cpio archive appended to the
# initramfs; the kernel unpacks both.
if [ "$mode" = script ]; then
	[ -r "$script" ] || { echo "boot.sh: --script $script: not readable" >&2; exit 2; }
	stage=$out/script-root
	rm -rf "$stage" && mkdir -p "$stage/guest"
	cp "$script" "$stage/guest/script.sh"
	(cd "$stage" && find . | cpio -o -H newc --owner=0:0 --quiet) | gzip -n > "$out/script.cpio.gz"
	cat "$initrd" "$out/script.cpio.gz" > "$out/initrd.gz"
	initrd=$out/initrd.gz
fi

# The emulator refuses a socket another instance is serving and replaces a
# stale one.
# shellcheck disable=SC2086
"$emu" --socket "$sock" --control "$ctl" --timeline "$timeline" $view $emu_args &
emu_pid=$!
i=0
while [ ! -S "$sock" ] || [ ! -S "$ctl" ]; do
	if ! kill -0 "$emu_pid" 2>/dev/null; then
		emu_pid=
		echo "boot.sh: the emulator exited before listening" >&2
		exit 1
	fi
	i=$((i + 1))
	[ $i -lt 500 ] || { echo "boot.sh: the emulator did not listen within 5 s" >&2; exit 1; }
	sleep 0.01
done

# log_buf_len: the ring holds a whole check run (a few hundred KiB with
# the refusals ratelimited), so dmesg in the guest (the watchdog,
# dmesg_since) still finds a suite's first lines at its end; the host's
# copy (kernel.log) does not depend on it.
cmdline="console=ttyAMA0 lptest.mode=$mode log_buf_len=4M"
[ "$mode" = shell ] || cmdline="$cmdline quiet loglevel=1"
[ -z "$only" ] || cmdline="$cmdline lptest.only=$only"
[ -z "$append" ] || cmdline="$cmdline $append"
# what the kernel base needs on this board (the Makefile writes it)
[ ! -s "$build/board.cmdline" ] || cmdline="$cmdline $(cat "$build/board.cmdline")"

# The vhost-user device first: it gets the virtio-mmio transport that
# dts/board.dts puts the I2C adapter on.
set -- -M virt,memory-backend=mem -cpu cortex-a53 -m 256 -smp "$smp" \
	-object memory-backend-memfd,id=mem,size=256M,share=on -nic none \
	-chardev socket,id=vi2c,path="$sock" \
	-device vhost-user-i2c-device,chardev=vi2c \
	-chardev socket,id=ctl,path="$ctl" \
	-device virtio-serial-device \
	-device virtserialport,chardev=ctl,name=lp5523.ctl \
	-chardev file,id=klog,path="$klog" \
	-device virtserialport,chardev=klog,name=lptest.kmsg \
	-global virtio-mmio.force-legacy=false \
	-kernel "$kernel" -initrd "$initrd" -dtb "$dtb" -append "$cmdline"

# watch_console <pid of the pipeline's tee>: see --idle-timeout
watch_console() {
	local size last=-1 idle=0 why=
	while kill -0 "$1" 2>/dev/null; do
		sleep 2
		size=$(wc -c < "$console")
		if [ "$size" != "$last" ]; then
			idle=0
			last=$size
		else
			idle=$((idle + 2))
		fi
		if grep -q 'Kernel panic - not syncing' "$console"; then
			[ $idle -ge 6 ] && why="the kernel panicked" && break
		elif grep -q '^### done$' "$console"; then
			[ $idle -ge 30 ] && why="no poweroff 30 s after ### done" && break
		elif [ $idle -ge "$idle_timeout" ]; then
			why="console silent for $idle s" && break
		fi
	done
	[ -n "$why" ] || return 0
	host_why=$why
	echo "boot.sh: $why: stopping QEMU" >&2
	kill -TERM "$(cat "$out/qemu.pid")" 2>/dev/null || true
}

status=0
if [ "$mode" = shell ]; then
	qemu-system-aarch64 -nographic "$@" || status=$?
elif [ -n "$idle_timeout" ]; then
	rm -f "$out/qemu.pid"
	timeout --foreground -k 5 "$timeout" qemu-system-aarch64 -display none \
		-monitor none -serial stdio -pidfile "$out/qemu.pid" "$@" \
		< /dev/null 2>&1 | stdbuf -oL tr -d '\r' | tee "$console" &
	host_why=
	watch_console $!
	wait || true
	[ -z "$host_why" ] || echo "### host $host_why: QEMU stopped" >> "$console"
else
	timeout --foreground -k 5 "$timeout" qemu-system-aarch64 -display none \
		-monitor none -serial stdio "$@" < /dev/null 2>&1 |
		tr -d '\r' | tee "$console" || true
	status=$(sed -n 's/^### end script \([0-9]*\)$/\1/p' "$console" | tail -1)
	[ "$mode" != script ] && status=0
	[ -n "$status" ] || { echo "boot.sh: the guest did not finish" >&2; status=1; }
fi
stop_emulator
echo "timeline: $timeline"
exit "$status"
