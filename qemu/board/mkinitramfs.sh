#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mkinitramfs.sh <static busybox> <repo top> <staging dir> <output .cpio.gz>
#
# The board's initramfs: busybox, /init, and the guest tests in /tests.
set -eu
busybox=$1 top=$2 root=$3 out=$4

rm -rf "$root"
mkdir -p "$root/bin" "$root/tests" "$root/guest" "$root/etc"
cp "$busybox" "$root/bin/busybox"
cp "$top/qemu/board/init" "$root/init"
chmod 755 "$root/init"
ln -s busybox "$root/bin/sh"
cp -R "$top/guest-tests/." "$root/tests/"
# Host-side files stay on the host.
find "$root/tests" -name '*.check' -delete
rm -f "$root/tests/run-checks.sh" "$root/tests/run-bench.sh"
echo 'root:x:0:0:root:/root:/bin/sh' > "$root/etc/passwd"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --owner=0:0 --quiet) |
	gzip -9n > "$out"
