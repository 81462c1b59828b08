#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# run-checks.sh --build DIR [--kernel IMAGE] [--results DIR]
#               [--debug-kernel IMAGE] [--host-results "FILE..."]
#               [--smp "1 2"] [--only a,b]
#
# Boot the board once per CPU count in check mode (and, with a debug
# kernel, once more on it with 2 CPUs), split the console into
# one KTAP file per suite under the results directory, run each suite's
# host-side timeline check (guest-tests/<suite>.check), then count every
# result.  Last line: "N passed, N failed"; exit 1 on any failure.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
build= kernel= results= debug_kernel= host_results= smps="1 2" only=
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift ;;
	--kernel) kernel=$2; shift ;;
	--results) results=$2; shift ;;
	--debug-kernel) debug_kernel=$2; shift ;;
	--host-results) host_results=$2; shift ;;
	--smp) smps=$2; shift ;;
	--only) only=$2; shift ;;
	*) echo "run-checks.sh: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
results=${results:-$build/results}
rm -rf "$results"
mkdir -p "$results"

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

# boot_and_check <name> <kernel> <smp>: one boot, its KTAP under <name>/
boot_and_check() {
	local out=$results/$1 chk suite
	mkdir -p "$out"
	echo "  BOOT    $1"
	"$top/qemu/board/boot.sh" --build "$build" ${2:+--kernel "$2"} \
		--smp "$3" --mode check --out "$out" ${only:+--only "$only"} \
		--timeout 1800 --idle-timeout 240 > /dev/null 2>&1 || true
	split_console "$out/console.log" "$out"
	for chk in "$here"/*.check; do
		[ -e "$chk" ] || continue
		suite=$(basename "$chk" .check)
		[ -e "$out/$suite.ktap" ] || continue
		"$chk" "$out/timeline.txt" "$out/$suite.ktap" \
			> "$out/${suite}_timeline.ktap" 2>&1 || true
	done
}

for smp in $smps; do
	boot_and_check "smp$smp" "$kernel" "$smp"
done
[ -z "$debug_kernel" ] || boot_and_check debug-smp2 "$debug_kernel" 2
# Host suites run by the Makefile: the emulator's tests, checkpatch.
for f in $host_results; do
	[ -e "$f" ] && cp "$f" "$results/host-$(basename "${f%.*}").ktap"
done

# Count top-level results (KUnit's nested subtests stay indented).
pass=0 fail=0 skip=0
for f in $(find "$results" -name '*.ktap' | sort); do
	name=${f#"$results"/}
	counts=$(awk '
		/^ok [0-9]+.*# [Ss][Kk][Ii][Pp]/ { s++; next }
		/^ok [0-9]+/ { p++; next }
		/^not ok [0-9]+/ { f++; print "#   FAIL " $0 > "/dev/stderr"; next }
		END { printf "%d %d %d\n", p, f, s }' "$f" 2>"$f.fails")
	set -- $counts
	pass=$((pass + $1)) fail=$((fail + $2)) skip=$((skip + $3))
	if [ "$1" -eq 0 ] && [ "$2" -eq 0 ] && [ "$3" -eq 0 ]; then
		if grep -q '^1\.\.0' "$f"; then
			echo "  ${name}: nothing to test"
			continue
		fi
		echo "  ${name}: no results" | tee -a "$results/failures.txt"
		fail=$((fail + 1))
	else
		printf '  %-40s %3d passed %3d failed %3d skipped\n' "$name" "$1" "$2" "$3"
	fi
	sed "s|^#   FAIL |    not ok: |" "$f.fails"
	sed "s|^#   FAIL |  ${name}: |" "$f.fails" >> "$results/failures.txt"
	rm -f "$f.fails"
done
# Again at the end, where a log cut to its head and tail still shows them.
if [ -s "$results/failures.txt" ]; then
	echo "failed:"
	cat "$results/failures.txt"
fi
[ "$skip" -eq 0 ] || echo "$skip skipped"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
