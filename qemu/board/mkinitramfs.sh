#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mkinitramfs.sh <static busybox> <repo top> <staging dir> <output .cpio.gz>
#                [<unpacked clients>]
#
# The board's initramfs: busybox, /init, the guest tests in /tests, the
# demo scenes (demo/) in /usr/bin, the user documentation, and, from the
# directory the Makefile unpacked Debian's arm64 brightnessctl, light and
# libc6 into, the two clients with the shared libraries `readelf -d` says
# they need.  $GUEST_HELPERS: programs built from guest-tests/helpers/ for
# /usr/bin (their sources stay on the host).
set -eu
busybox=$1 top=$2 root=$3 out=$4 clients=${5:-}
CLIENTS="brightnessctl light"
LIBDIR=lib/aarch64-linux-gnu

rm -rf "$root"
mkdir -p "$root/bin" "$root/tests" "$root/guest" "$root/etc" "$root/usr/bin"
cp "$busybox" "$root/bin/busybox"
cp "$top/qemu/board/init" "$root/init"
chmod 755 "$root/init"
ln -s busybox "$root/bin/sh"
cp -R "$top/guest-tests/." "$root/tests/"
# Host-side files stay on the host.
find "$root/tests" -name '*.check' -delete
rm -f "$root/tests/run-checks.sh" "$root/tests/run-bench.sh"
rm -rf "$root/tests/helpers"
for f in ${GUEST_HELPERS:-}; do
	cp "$f" "$root/usr/bin/${f##*/}"
done
# The demo scenes are commands; what they share is in /usr/lib/led_pattern.
mkdir -p "$root/usr/lib/led_pattern"
for f in "$top"/demo/*; do
	[ -f "$f" ] || continue
	cp "$f" "$root/usr/bin/" && chmod 755 "$root/usr/bin/${f##*/}"
done
cp "$top"/demo/lib/* "$root/usr/lib/led_pattern/"
# The user documentation: guest-tests/user_docs.sh runs its commands.
mkdir -p "$root/usr/share/doc/led_pattern/Documentation"
cp "$top/README.md" "$root/usr/share/doc/led_pattern/"
cp "$top"/Documentation/*.md "$root/usr/share/doc/led_pattern/Documentation/"
echo 'root:x:0:0:root:/root:/bin/sh' > "$root/etc/passwd"

# needed <elf>: the shared libraries it links to
needed() {
	readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'
}

if [ -n "$clients" ]; then
	mkdir -p "$root/$LIBDIR"
	todo=
	for c in $CLIENTS; do
		cp "$clients/usr/bin/$c" "$root/usr/bin/$c"
		todo="$todo $root/usr/bin/$c"
	done
	# copy libraries until every one a copied file needs is there
	while [ -n "$todo" ]; do
		next=
		for elf in $todo; do
			for lib in $(needed "$elf"); do
				[ -e "$root/$LIBDIR/$lib" ] && continue
				[ -e "$clients/$LIBDIR/$lib" ] || {
					echo "mkinitramfs.sh: $elf needs $lib, not in $clients/$LIBDIR" >&2
					exit 1
				}
				cp "$clients/$LIBDIR/$lib" "$root/$LIBDIR/$lib"
				next="$next $root/$LIBDIR/$lib"
			done
		done
		todo=$next
	done
	# the programs' interpreter, /lib/ld-linux-aarch64.so.1, as libc6 has it
	ln -s aarch64-linux-gnu/ld-linux-aarch64.so.1 "$root/lib/ld-linux-aarch64.so.1"
fi
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --owner=0:0 --quiet) |
	gzip -9n > "$out"
