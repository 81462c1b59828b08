#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# count-results.sh <results dir> [<expected-results>]: count every KTAP
# file of one make check run against what it promised; one line per file,
# "failed:" with each failure and the comment lines that say why (up to 3
# before a guest suite's "not ok", up to 3 after a host check's), last line
# "N passed, N failed"; exit 1 on a failure.  Top-level results only
# (KUnit's nested cases stay indented).
#
# Beyond "not ok" lines, each of these is one failure of its file:
# - no plan and no result (the suite printed nothing);
# - fewer results than the plan (a suite that died mid-plan: the results
#   it printed before are counted, the ones it never printed fail once),
#   or more (a plan that does not say what ran);
# - "# suite exited with status N" (split_console's note of /init's
#   "### end <suite> N") with N != 0 and no failed result to explain it;
# - "1..0 # SKIP" (counted as one skip) from a guest suite that
#   expected-results does not allow to skip: this board has what they need;
# - in a boot directory (one with console.log), a KTAP that this boot's
#   console did not produce (a result of an earlier run);
# - a KUnit suite listed in expected-results missing from a boot, with a
#   different plan, or one not listed.  KUnit runs in every boot, but a
#   kernel's KUnit results count once: in later boots of the same kernel
#   (same <boot>/kernel-id) only their failures count.
set -eu
results=$1
expected=${2:-$(dirname "$0")/../expected-results}
[ -d "$results" ] || { echo "count-results.sh: $results: no such directory" >&2; exit 2; }
[ -r "$expected" ] || { echo "count-results.sh: $expected: not readable" >&2; exit 2; }

failures=$(mktemp)
trap 'rm -f "$failures"' EXIT
pass=0 fail=0 skip=0

# fail_file <name> <why>: one failure outside the file's own results
fail_file() {
	echo "    not ok: $2"
	echo "  $1: $2" >> "$failures"
	fail=$((fail + 1))
}

may_skip() {
	grep -q "^may-skip $1\$" "$expected"
}

# from_console <boot dir> <ktap base name>: did this boot's console make it?
from_console() {
	local b=$2
	case $b in
	boot | kernel_log_stream) return 0 ;;
	*_timeline) b=${b%_timeline} ;;
	esac
	grep -q "^### begin $b\$" "$1/console.log"
}

# first_boots: each kernel's first boot (by directory name), whose KUnit
# results count
first_boots=
seen=
for c in $(find "$results" -name console.log | sort); do
	b=$(dirname "$c")
	id=$(cat "$b/kernel-id" 2>/dev/null || echo "$b")
	case " $seen " in
	*" $id "*) ;;
	*) seen="$seen $id" first_boots="$first_boots $b" ;;
	esac
done

for f in $(find "$results" -name '*.ktap' | sort); do
	name=${f#"$results"/}
	base=$(basename "$f" .ktap)
	dir=$(dirname "$f")
	boot=
	[ ! -e "$dir/console.log" ] || boot=$dir
	counted=1
	if [ -n "$boot" ] && ! from_console "$boot" "$base"; then
		echo "  $name: not made by this boot's console"
		fail_file "$name" "a result this run did not produce (an earlier run's?): not counted"
		continue
	fi
	# a later boot of a kernel whose KUnit results were counted already
	case $base in
	kunit_*)
		case " $first_boots " in
		*" $boot "*) ;;
		*) counted= ;;
		esac
		;;
	esac
	set -- $(awk '
		/^1\.\.0 *# *[Ss][Kk][Ii][Pp]/ && !planned { skipall = 1 }
		/^1\.\.[0-9]+/ && !planned { planned = 1; plan = substr($1, 4) + 0; next }
		/^ok [0-9]+/ { nwhy = 0; after = 0 }
		/^ok [0-9]+.*# [Ss][Kk][Ii][Pp]/ { s++; if ($2 != 999) r++; next }
		/^ok [0-9]+/ { p++; if ($2 != 999) r++; next }
		/^not ok [0-9]+/ {
			f++
			if ($3 != 999) r++
			print "#   FAIL " $0 > "/dev/stderr"
			# a guest suite says why before its result: its last 3 lines
			for (i = nwhy > 3 ? nwhy - 3 : 0; i < nwhy; i++)
				print "#   WHY " why[i % 3] > "/dev/stderr"
			nwhy = 0
			after = 3	# a host check, after it
			next
		}
		/^# / && !/^# (Totals|suite exited)/ {
			if (after-- > 0)
				print "#   WHY " substr($0, 3, 200) > "/dev/stderr"
			why[nwhy++ % 3] = substr($0, 3, 200)
			next
		}
		{ after = 0 }
		/^# suite exited with status [0-9]+$/ { rc = $6 + 0 }
		END {
			printf "%d %d %d %d %d %d %d\n", p, f, s, planned ? plan : -1,
				r, rc, skipall
		}' "$f" 2>"$f.fails")
	p=$1 f_=$2 s=$3 plan=$4 r=$5 rc=$6 skipall=$7
	if [ -z "$counted" ]; then
		printf '  %-40s same kernel as an earlier boot: failures only\n' "$name"
		p=0 s=0
	elif [ "$skipall" = 1 ]; then
		s=$((s + 1))
		echo "  $name: skipped: $(sed -n 's/^1\.\.0 *# *[Ss][Kk][Ii][Pp] *//p' "$f" | head -1)"
	elif [ "$p" -eq 0 ] && [ "$f_" -eq 0 ] && [ "$s" -eq 0 ]; then
		echo "  $name: no results"
	else
		printf '  %-40s %3d passed %3d failed %3d skipped\n' "$name" "$p" "$f_" "$s"
	fi
	pass=$((pass + p)) fail=$((fail + f_)) skip=$((skip + s))
	sed "s|^#   FAIL |    not ok: |; s|^#   WHY |      # |" "$f.fails"
	sed "s|^#   FAIL |  ${name}: |; s|^#   WHY |      # |" "$f.fails" >> "$failures"
	rm -f "$f.fails"
	if [ "$skipall" = 1 ]; then
		if [ -n "$boot" ] && ! may_skip "$base"; then
			fail_file "$name" "skipped every test, on a board that has what it needs"
		fi
	elif [ "$plan" -lt 0 ] && [ "$r" -eq 0 ]; then
		fail_file "$name" "no plan and no results"
	elif [ "$plan" -lt 0 ]; then
		fail_file "$name" "$r results without a plan"
	elif [ "$r" -lt "$plan" ] && ! grep -q '^not ok 999 ' "$f"; then
		fail_file "$name" "$r results of its plan of $plan: it stopped before the end"
	elif [ "$r" -gt "$plan" ]; then
		fail_file "$name" "$r results, its plan says $plan"
	fi
	if [ "$rc" -ne 0 ] && [ "$f_" -eq 0 ]; then
		fail_file "$name" "exited with status $rc without a failed result"
	fi
done

# KUnit: every listed suite, with its plan, in every boot; no other.
for boot in $(find "$results" -name console.log | sort); do
	boot=$(dirname "$boot")
	bname=${boot#"$results"/}
	echo "  $bname: KUnit suites against expected-results"
	while read -r kind suite plan; do
		[ "$kind" = kunit ] || continue
		f=$boot/kunit_$suite.ktap
		if [ ! -e "$f" ]; then
			fail_file "$bname/kunit_$suite.ktap" "KUnit suite $suite missing from the kernel log"
			continue
		fi
		got=$(sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p' "$f" | head -1)
		[ "$got" = "$plan" ] ||
			fail_file "$bname/kunit_$suite.ktap" "KUnit suite $suite plans ${got:-nothing}, expected-results says $plan"
	done < "$expected"
	for f in "$boot"/kunit_*.ktap; do
		[ -e "$f" ] || continue
		suite=$(basename "$f" .ktap)
		suite=${suite#kunit_}
		grep -q "^kunit $suite " "$expected" ||
			fail_file "$bname/kunit_$suite.ktap" "KUnit suite $suite is not in expected-results"
	done
done

# Again at the end, where a log cut to its head and tail still shows them.
if [ -s "$failures" ]; then
	echo "failed:"
	cat "$failures"
fi
[ "$skip" -eq 0 ] || echo "$skip skipped"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
