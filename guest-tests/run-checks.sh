#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# run-checks.sh --build DIR [--kernel IMAGE] [--results DIR]
#               [--debug-kernel IMAGE [--debug-build CMD]]
#               [--host-results "FILE..."] [--background CMD]
#               [--smp "1 2"] [--only a,b] [--expected FILE]
#
# Boot the board once per CPU count in check mode (and, with a debug
# kernel, once more on it with 2 CPUs), split the console into
# one KTAP file per suite under the results directory, run each suite's
# host-side timeline check (guest-tests/<suite>.check), then count every
# result (lib/count-results.sh) against --expected (every boot, suite,
# host check and KUnit plan the run must hold; default
# guest-tests/expected-results).  Last line: "N passed, N failed"; exit 1
# on any failure.
#
# The boots leave most of the host's CPU time unused (their suites wait
# on patterns running in real time), so two builds run beside the normal
# kernel's boots at the idle scheduling class (SCHED_IDLE: they take only
# what the boot leaves, and a woken QEMU thread preempts them at once):
# --debug-build, the command that makes the debug kernel, which its boot
# waits for, then --background (make check-series, with make check
# CHECK_SERIES=1), whose results are among --host-results and are waited
# for before anything is counted.  They are stopped while a suite marked
# "# lptest-alone:" runs and during the debug kernel's boot, and run alone
# when a boot waits for them.  Each command's output and exit status are
# kept in the results directory.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
build= kernel= results= debug_kernel= host_results= smps="1 2" only=
debug_build= background=
expected=$here/expected-results
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift ;;
	--kernel) kernel=$2; shift ;;
	--results) results=$2; shift ;;
	--debug-kernel) debug_kernel=$2; shift ;;
	--debug-build) debug_build=$2; shift ;;
	--background) background=$2; shift ;;
	--host-results) host_results=$2; shift ;;
	--smp) smps=$2; shift ;;
	--only) only=$2; shift ;;
	--expected) expected=$2; shift ;;
	*) echo "run-checks.sh: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
results=${results:-$build/results}
rm -rf "$results"
mkdir -p "$results"
# What this run was asked for: count-results.sh expects every boot and
# KTAP of expected-results that these options make, so that a boot or a
# suite that never ran fails the count instead of going unnoticed.
{
	echo "smp $smps"
	echo "debug $([ -n "$debug_kernel" ] && echo yes || echo no)"
	echo "only $only"
	echo "host $([ -n "$host_results" ] && echo yes || echo no)"
} > "$results/asked"

# split_console <console.log> <dir>: one <suite>.ktap per "### begin" block;
# a block without its "### end" (the guest died in it) becomes a failure,
# and so does a boot that did not reach "### done" or that boot.sh had to
# stop ("### host <why>": a panic, a silent console, no poweroff).
split_console() {
	awk -v dir="$2" '
		/^### begin / { suite = $3; file = dir "/" suite ".ktap"; printf "" > file; next }
		/^### end / {
			if ($4 != 0 && suite != "")
				print "# suite exited with status " $4 >> file
			close(file); suite = ""; next
		}
		/^### done$/ { done = 1; next }
		/^### alive / { next }
		/^### host / { host = host "# " substr($0, 10) "\n"; next }
		# the kernel on the console (sysrq, a panic) inside a suite
		suite != "" && /^\[ *[0-9]+\.[0-9]+\] / { print "# " $0 >> file; next }
		suite != "" { print >> file }
		END {
			if (suite != "") {
				print "not ok 999 " suite "_finished" >> file
				print "# the guest stopped inside this suite" >> file
			}
			n = 0; body = ""
			if (!done) {
				body = body "not ok " ++n " guest_ran_all_suites\n"
				body = body "# no \"### done\" on the console: see console.log\n" host
			} else if (host != "") {
				body = body "not ok " ++n " guest_powered_off\n" host
			}
			if (n) {
				f = dir "/boot.ktap"
				printf "TAP version 13\n1..%d\n%s", n, body > f
			}
		}' "$1"
}

# boot_and_check <name> <kernel> <smp> [<kernel arguments> [<board>]]: one
# boot, its KTAP under <name>/
boot_and_check() {
	local out=$results/$1 chk suite
	mkdir -p "$out"
	echo "  BOOT    $1"
	"$top/qemu/board/boot.sh" --build "$build" ${2:+--kernel "$2"} \
		--smp "$3" --mode check --out "$out" ${only:+--only "$only"} \
		${4:+--append "$4"} ${5:+--board "$5"} \
		--timeout 1800 --idle-timeout 240 > /dev/null 2>&1 || true
	split_console "$out/console.log" "$out"
	# the kernel's KUnit results count once per kernel (count-results.sh)
	sha1sum < "${2:-$build/Image}" | cut -c1-40 > "$out/kernel-id"
	# the whole kernel log: complete, and no splat in any suite's window
	"$here/lib/kernel-log-scan.sh" "$out/kernel.log" \
		> "$out/kernel_log_stream.ktap" 2>&1 || true
	# the timeline checks, one per CPU at a time: each reads the whole
	# timeline (11 MB after a 2-CPU boot, about 2 s a check)
	for chk in "$here"/*.check; do
		suite=$(basename "$chk" .check)
		[ -e "$out/$suite.ktap" ] && echo "$suite"
	done | xargs -r -P "$(nproc)" -n 1 sh -c \
		'"$1/$3.check" "$2/timeline.txt" "$2/$3.ktap" > "$2/$3_timeline.ktap" 2>&1' \
		check "$here" "$out" || true
}

# at_idle_priority CMD: run the shell command CMD in the idle scheduling
# class (nice 19 where chrt cannot)
at_idle_priority() {
	if chrt --idle 0 true 2> /dev/null; then
		chrt --idle 0 sh -c "$1"
	else
		nice -n 19 sh -c "$1"
	fi
}

# The builds beside the boots, one after the other: <name>.log and
# <name>.rc in the results directory when each ends.
bg_pid=
if [ -n "$debug_build$background" ]; then
	(
		if [ -n "$debug_build" ]; then
			rc=0
			at_idle_priority "$debug_build" > "$results/debug-build.log" 2>&1 || rc=$?
			echo $rc > "$results/debug-build.rc"
		fi
		if [ -n "$background" ]; then
			rc=0
			at_idle_priority "$background" > "$results/background.log" 2>&1 || rc=$?
			echo $rc > "$results/background.rc"
		fi
	) &
	bg_pid=$!
fi

# wait_for <name>: until <name>.rc is written (or the builds' shell is gone)
wait_for() {
	while [ ! -e "$results/$1.rc" ] && kill -0 "$bg_pid" 2> /dev/null; do
		sleep 2
	done
	[ -e "$results/$1.rc" ] || echo 255 > "$results/$1.rc"
}

# signal_background STOP|CONT: pause or resume the builds' whole process
# tree
tree_pids() {
	local p
	echo "$1"
	for p in $(ps -o pid= --ppid "$1" 2> /dev/null); do
		tree_pids "$p"
	done
}
signal_background() {
	[ -n "$bg_pid" ] || return 0
	# twice: a process forked while the first pass ran is caught by the second
	kill -"$1" $(tree_pids "$bg_pid") 2> /dev/null || true
	kill -"$1" $(tree_pids "$bg_pid") 2> /dev/null || true
}

# debug_kernel_built: the debug build's result as a KTAP of its own; a
# failed build fails it, with the end of the build's output
debug_kernel_built() {
	local f=$results/debug_kernel_build.ktap rc
	wait_for debug-build
	rc=$(cat "$results/debug-build.rc")
	if [ "$rc" = 0 ] && [ -s "$debug_kernel" ]; then
		printf 'TAP version 13\n1..1\nok 1 debug_kernel_built\n' > "$f"
		return 0
	fi
	{
		printf 'TAP version 13\n1..1\nnot ok 1 debug_kernel_built\n'
		echo "# $debug_build: exit $rc"
		tail -20 "$results/debug-build.log" | sed 's/^/# /'
	} > "$f"
	return 1
}

# alone_suites: the suites whose header has "# lptest-alone:": they count
# what the guest does in a given time (sysfs_fuzz: writes), with writers
# racing on every CPU, and run with the builds stopped.  Beside
# idle-class builds the 2-CPU fuzz run took 351 s instead of about 165
# (each emulated transfer waits for a CPU a compiler held); the other
# suites mostly wait on patterns running in real time and leave the host
# idle (5-30 % of 2 cores), and the 1-CPU boot ran all of them beside the
# builds.
alone_suites=$(grep -l '^# lptest-alone:' "$here"/*.sh 2> /dev/null |
	sed 's,.*/,,; s,\.sh$,,' | tr '\n' ' ')

# watch_console <console.log>: until killed, stop the builds while an
# alone suite runs on the guest, resume them when it ends
watch_console() {
	local line suite want state=CONT
	while :; do
		line=$(grep -a '^### \(begin\|end\) ' "$1" 2> /dev/null | tail -1)
		suite=${line#"### begin "}
		want=CONT
		[ "$suite" = "$line" ] || case " $alone_suites " in
			*" $suite "*) want=STOP ;;
			esac
		if [ $want != $state ]; then
			signal_background $want
			state=$want
		fi
		sleep 1
	done
}

# boot_beside <boot_and_check arguments>: the boot with the builds
# running beside it but for its alone suites
boot_beside() {
	local watcher
	[ -n "$bg_pid" ] || { boot_and_check "$@"; return; }
	mkdir -p "$results/$1"
	watch_console "$results/$1/console.log" &
	watcher=$!
	boot_and_check "$@"
	kill $watcher 2> /dev/null || true
	wait $watcher 2> /dev/null || true
	signal_background CONT
}

# The debug kernel's boot runs alone: KASAN and lockdep make it slow
# enough that even idle-class builds beside it, for cache and memory,
# cost its timing suites their margins.
boot_alone() {
	signal_background STOP
	boot_and_check "$@"
	signal_background CONT
}

# The 1-CPU boot has a third software engine: led_pattern_contract checks
# that led_pattern_software.engines=N gives N engines, and every suite that
# walks the engines meets one more than the default.
for smp in $smps; do
	boot_beside "smp$smp" "$kernel" "$smp" \
		"$([ "$smp" != 1 ] || echo led_pattern_software.engines=3)"
done
# The board with the LP5523's family (dts/family.dts): its own suites
# ("# lptest-board: family"), with the four chips bound at once; not when
# --only names none of them.
family_suites=$(grep -l '^# lptest-board: family' "$here"/*.sh 2> /dev/null |
	sed 's,.*/,,; s,\.sh$,,' | tr '\n' ' ')
wanted_family=$family_suites
if [ -n "$only" ]; then
	wanted_family=
	for s in $family_suites; do
		case ",$only," in *",$s,"*) wanted_family="$wanted_family $s" ;; esac
	done
fi
for smp in $smps; do
	[ -n "$wanted_family" ] || break
	boot_beside "family-smp$smp" "$kernel" "$smp" "" family
done
if [ -n "$debug_kernel" ]; then
	if [ -z "$debug_build" ] || debug_kernel_built; then
		boot_alone debug-smp2 "$debug_kernel" 2
		[ -z "$wanted_family" ] ||
			boot_alone family-debug-smp2 "$debug_kernel" 2 "" family
	fi
fi
if [ -n "$background" ]; then
	echo "  WAIT    $background"
	wait_for background
fi
# Host suites run by the Makefile: the emulator's tests, checkpatch, ...
# One it names that is not there fails (its tool did not run), and so does
# an empty one.
for f in $host_results; do
	h=$results/host-$(basename "${f%.*}").ktap
	if [ -s "$f" ]; then
		cp "$f" "$h"
	else
		printf 'TAP version 13\n1..1\nnot ok 1 %s_present\n# %s: missing or empty\n' \
			"$(basename "${f%.*}")" "$f" > "$h"
	fi
done

# The rig's self-test: the checks above, fed bad inputs planted in copies
# of this run's results, must fail them (guest-tests/selftest/).
if [ -x "$here/selftest/run.sh" ]; then
	echo "  SELFTEST"
	ST_EXPECTED=$expected "$here/selftest/run.sh" "$results" \
		> "$results/rig-selftest.ktap" 2>&1 || true
fi

# Count against the plans and the expected results.
exec "$here/lib/count-results.sh" "$results" "$expected"
