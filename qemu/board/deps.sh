#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages the build needs, only those dpkg reports
# missing.  Usage: deps.sh <host packages...> -- <arm64 packages...>
# arm64 packages are only enabled as a foreign architecture here; the
# Makefile downloads and unpacks them itself.
set -eu

need_update=1
missing=""
foreign=0
for p in "$@"; do
	if [ "$p" = "--" ]; then
		foreign=1
		continue
	fi
	if [ $foreign -eq 1 ]; then
		continue
	fi
	dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done

as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

apt_update() {
	[ $need_update -eq 1 ] || return 0
	need_update=0
	as_root apt-get update -qq || echo "deps: apt-get update reported errors, going on" >&2
}

if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	echo "  DEPS    dpkg --add-architecture arm64"
	as_root dpkg --add-architecture arm64
	apt_update
fi

# libvhost-user ships only in QEMU's Debian source package: enable deb-src
# for the machine's own Debian archive entries.
src=/etc/apt/sources.list.d/led-pattern-src.sources
if [ ! -e "$src" ] && [ -e /etc/apt/sources.list.d/debian.sources ]; then
	echo "  DEPS    $src"
	sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources |
		as_root tee "$src" >/dev/null
	need_update=1
	apt_update
fi

if [ -n "$missing" ]; then
	echo "  DEPS   $missing"
	apt_update
	if ! as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends $missing; then
		echo "deps: apt-get install failed for:$missing" >&2
		exit 1
	fi
fi
