#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# KTAP output for the guest suites, with the function names of mainline's
# tools/testing/selftests/kselftest/ktap_helpers.sh, plus helpers for
# sysfs and the emulator's control channel.

KTAP_TESTNUM=1
KTAP_CNT_PASS=0
KTAP_CNT_FAIL=0
KTAP_CNT_SKIP=0

ktap_print_header() {
	echo "TAP version 13"
}

ktap_set_plan() {
	echo "1..$1"
}

# ktap_test_pass <name>
ktap_test_pass() {
	echo "ok $KTAP_TESTNUM $1"
	KTAP_TESTNUM=$((KTAP_TESTNUM + 1))
	KTAP_CNT_PASS=$((KTAP_CNT_PASS + 1))
}

# ktap_test_fail <name> [<why>...]: why lines go out as "# " diagnostics
ktap_test_fail() {
	local name=$1
	shift
	echo "not ok $KTAP_TESTNUM $name"
	for why in "$@"; do
		echo "# $why"
	done
	KTAP_TESTNUM=$((KTAP_TESTNUM + 1))
	KTAP_CNT_FAIL=$((KTAP_CNT_FAIL + 1))
}

ktap_test_skip() {
	echo "ok $KTAP_TESTNUM $1 # SKIP $2"
	KTAP_TESTNUM=$((KTAP_TESTNUM + 1))
	KTAP_CNT_SKIP=$((KTAP_CNT_SKIP + 1))
}

# ktap_test_result <name> <command...>: pass when the command succeeds
ktap_test_result() {
	local name=$1
	shift
	if "$@"; then
		ktap_test_pass "$name"
	else
		ktap_test_fail "$name"
	fi
}

ktap_print_msg() {
	echo "# $*"
}

ktap_exit_fail_msg() {
	echo "Bail out! $*"
	ktap_finished
	exit 1
}

ktap_finished() {
	echo "# Totals: pass:$KTAP_CNT_PASS fail:$KTAP_CNT_FAIL xfail:0 xpass:0 skip:$KTAP_CNT_SKIP error:0"
	[ "$KTAP_CNT_FAIL" -eq 0 ]
}

# ---- helpers -------------------------------------------------------------

# want_eq <what> <want> <got>: succeed, or print "# <what>: want ... got ..."
want_eq() {
	[ "$2" = "$3" ] && return 0
	echo "# $1: want \"$2\" got \"$3\""
	return 1
}

# write_ok <value> <file>: write like `echo value > file`, succeed when the
# write did.  (busybox's echo reports a failed write with its errno text;
# its printf does not.)  write_err <errno name> <value> <file>: succeed when the write
# failed with that errno (EINVAL, E2BIG, EBUSY, ...).
write_ok() {
	local err
	err=$( (echo "$1" > "$2") 2>&1) && return 0
	echo "# write \"$(shorten "$1")\" to $2 failed: ${err##*: }"
	return 1
}

# shorten <text>: at most 40 characters of it, for diagnostics
shorten() {
	local s=$1
	[ ${#s} -le 40 ] && { printf '%s' "$s"; return; }
	printf '%s...(%d bytes)' "$(printf '%s' "$s" | head -c 40)" ${#s}
}

errno_text() {
	case $1 in
	EINVAL) echo "Invalid argument" ;;
	E2BIG) echo "Argument list too long" ;;
	EBUSY) echo "esource busy" ;;	# "Device or resource busy"
	ENODEV) echo "No such device" ;;
	ERANGE) echo "Numerical result out of range" ;;
	EPERM) echo "Operation not permitted" ;;
	ENOSPC) echo "No space left on device" ;;
	ENODATA) echo "No data available" ;;
	*) echo "$1" ;;
	esac
}

write_err() {
	local err want
	want=$(errno_text "$1")
	if err=$( (echo "$2" > "$3") 2>&1); then
		echo "# write \"$(shorten "$2")\" to $3: want $1 got success"
		return 1
	fi
	case $err in
	*"$want"*) return 0 ;;
	esac
	echo "# write \"$(shorten "$2")\" to $3: want $1 got \"${err##*: }\""
	return 1
}

# read_err <errno name> <file>: succeed when reading the file fails with
# that errno
read_err() {
	local err
	if err=$(cat "$2" 2>&1); then
		echo "# read $2: want $1 got \"$err\""
		return 1
	fi
	case $err in
	*"$(errno_text "$1")"*) return 0 ;;
	esac
	echo "# read $2: want $1 got \"${err##*: }\""
	return 1
}

# dmesg_mark: write a mark into the kernel log; dmesg_since: the lines
# after it.  A mark is a record of its own, not a line count: a count goes
# wrong once the ring drops its oldest lines.  A mark the ring no longer
# holds makes dmesg_since print a WARNING line instead of nothing, so that
# a test looking for a line fails and one asserting "no splat" fails too,
# rather than passing on a log it cannot see.
DMESG_MARK_N=0
dmesg_mark() {
	local up
	read -r up _ < /proc/uptime
	DMESG_MARK_N=$((DMESG_MARK_N + 1))
	DMESG_MARK="lptest: dmesg_mark $$.$DMESG_MARK_N.$up"
	echo "$DMESG_MARK" > /dev/kmsg
}

dmesg_since() {
	dmesg | awk -v m="${DMESG_MARK:-}" '
		found || m == "" { found = 1; print; next }
		substr($0, length($0) - length(m) + 1) == m { found = 1 }
		END {
			if (!found)
				print "WARNING: dmesg_since: \"" m "\" is no longer in the kernel log ring"
		}'
}

# The emulator's control channel (see qemu/lp5523-emu/README.md).  Marks land in the
# host timeline as "# <t_us> mark <text>", to slice it in <suite>.check.
# emu_ctl <command...> sends one command and waits for the emulator's
# answer, "ok <command>" once it has taken effect: the control port and the
# I2C device are separate virtio queues, so without the answer a mark or a
# fault could land after the next I2C transfer.  Answers to earlier
# commands (left in the port when a wait gave up) are skipped by text.
# Fails, saying why, on "error <command>" or no answer in EMU_CTL_WAIT_S
# (the emulator answers at once; the rest is a loaded host).  The port
# opens once at a time (-EBUSY): a command that finds it held by another
# process's (a suite's background load sampler) tries again every 50 ms,
# for EMU_CTL_WAIT_S too.
EMU_CTL_WAIT_S=10
emu_ctl() {
	local line="$*" rc tries=0
	[ -e /dev/lp5523-ctl ] || return 1
	# the emulator refuses a longer line whole, as "error overlong"
	if [ ${#line} -gt 511 ]; then
		echo "# emu_ctl: command longer than 511 bytes: $(shorten "$line")"
		return 1
	fi
	while :; do
		emu_ctl_once "$line"
		rc=$?
		# 0 done, 3 refused or unanswered; else the port did not open
		case $rc in
		0) return 0 ;;
		3) return 1 ;;
		esac
		tries=$((tries + 1))
		if [ $tries -ge $((EMU_CTL_WAIT_S * 20)) ]; then
			echo "# emu_ctl: /dev/lp5523-ctl busy for $EMU_CTL_WAIT_S s: \"$line\" not sent"
			return 1
		fi
		sleep 0.05
	done
}

# emu_ctl_once <line>: one try; 0 done, 3 refused or unanswered (said
# why), anything else when the port does not open (the shell's status
# for a failed redirection; its message goes with stderr)
emu_ctl_once() {
	(
		printf '%s\n' "$1" >&3 || exit 3
		while IFS= read -r -t $EMU_CTL_WAIT_S reply <&3; do
			case $reply in
			"ok $1") exit 0 ;;
			"error $1")
				echo "# emu_ctl: the emulator refused \"$1\""
				exit 3 ;;
			esac
		done
		echo "# emu_ctl: no answer to \"$1\" in $EMU_CTL_WAIT_S s"
		exit 3
	) 2>/dev/null 3<>/dev/lp5523-ctl
}

emu_mark() {
	emu_ctl mark "$@"
}
