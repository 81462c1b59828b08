#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# count-results.sh <results dir> [<expected-results> [<suites dir>]]: count
# every KTAP file of one make check run against what it promised; one line
# per file, "failed:" with each failure and the comment lines that say why
# (up to 3 before a guest suite's "not ok", up to 3 after a host check's),
# last line "N passed, N failed"; exit 1 on a failure.  Top-level results
# only (KUnit's nested cases stay indented).  <suites dir> holds the guest
# suites (default: guest-tests/, beside this lib/).
#
# Beyond "not ok" lines, each of these is one failure of its file:
# - no plan and no result (the suite printed nothing);
# - fewer results than the plan (a suite that died mid-plan: the results
#   it printed before are counted, the ones it never printed fail once),
#   or more (a plan that does not say what ran);
# - "# suite exited with status N" (split_console's note of /init's
#   "### end <suite> N") with N != 0 and no failed result to explain it;
# - "1..0 # SKIP" (counted as one skip), or "ok N <test> # SKIP" (counted
#   as a skip), that no "may-skip" line of expected-results allows there:
#   this board has what every suite needs;
# - in a boot directory (one with console.log), a KTAP that this boot's
#   console did not produce (a result of an earlier run);
# - a KUnit suite listed in expected-results missing from a boot, with a
#   different plan, or one not listed.  KUnit runs in every boot, but a
#   kernel's KUnit results count once: in later boots of the same kernel
#   (same <boot>/kernel-id) only their failures count.
# Against expected-results and what run-checks.sh was asked (the
# results' "asked" file), each of these is one failure:
# - a boot the options call for that did not boot, one they do not, and
#   a boot in which no suite began;
# - a KTAP of a boot or of the host that expected-results lists and the
#   options call for, missing; one present that it does not list;
# - a suite script that expected-results does not list, one it lists that
#   is not there, one whose "# lptest-board:" names another board;
# - a line of expected-results that is not one it knows (a may-skip
#   without its reason);
# - a run without a single result.
set -eu
results=$1
expected=${2:-$(dirname "$0")/../expected-results}
suites=${3:-$(dirname "$0")/..}
[ -d "$results" ] || { echo "count-results.sh: $results: no such directory" >&2; exit 2; }
[ -r "$expected" ] || { echo "count-results.sh: $expected: not readable" >&2; exit 2; }

failures=$(mktemp)
trap 'rm -f "$failures"' EXIT
pass=0 fail=0 skip=0 kernel_of=

# fail_file <name> <why>: one failure outside the file's own results
fail_file() {
	echo "    not ok: $2"
	echo "  $1: $2" >> "$failures"
	fail=$((fail + 1))
}

# manifest <kind>: the fields after <kind> of each line of that kind
manifest() {
	awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print }' "$expected"
}

# boot_kernel <boot name>: "normal" or "debug", from its boot line
boot_kernel() {
	awk -v b="$1" '$1 == "boot" && $2 == b { print $4 }' "$expected"
}

# may_skip <suite> <test> <where>: does a may-skip line allow the skip?
# <test> "*" asks for the whole suite ("1..0 # SKIP"), which only a
# line whose <test> is "*" allows; other tests match its <test> as a
# shell pattern.
may_skip() {
	awk -v s="$1" -v w="$3" '$1 == "may-skip" && $2 == s &&
		($4 == w || $4 == "any") { print $3 }' "$expected" | {
		while read -r glob; do
			if [ "$2" = "*" ]; then
				[ "$glob" != "*" ] || exit 0
			else
				case $2 in $glob) exit 0 ;; esac
			fi
		done
		exit 1
	}
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

# A line the counter does not know is a manifest that does not say what
# its writer meant: a may-skip without a reason would let a skip pass
# unexplained, a misspelt kind would drop what it lists.
awk '
	/^#/ || NF == 0 { next }
	$1 == "kunit" && NF == 3 && $3 ~ /^[0-9]+$/ { next }
	$1 == "boot" && NF == 5 && $4 ~ /^(normal|debug)$/ { next }
	$1 == "suite" && (NF == 3 || NF == 4 && $4 == "always") { next }
	$1 ~ /^(check|host-script)$/ && NF == 2 { next }
	$1 ~ /^(boot-file|host|file)$/ && (NF == 2 || NF == 3 && $3 == "optional") { next }
	$1 == "may-skip" && NF >= 5 && $4 ~ /^(normal|debug|host|any)$/ { next }
	{ print NR ": " $0 }' "$expected" > "$failures.bad"
while read -r line; do
	fail_file "expected-results" "line $line: not a line it knows (a may-skip needs <suite> <test> <where> <reason>)"
done < "$failures.bad"
rm -f "$failures.bad"

# What run-checks.sh was asked: without its record nothing says which
# boots this run owes, so count it as the full make check it most likely
# was, and fail.
smps="1 2" debug=yes only= host=yes
if [ -r "$results/asked" ]; then
	smps=$(sed -n 's/^smp //p' "$results/asked")
	debug=$(sed -n 's/^debug //p' "$results/asked")
	only=$(sed -n 's/^only //p' "$results/asked")
	host=$(sed -n 's/^host //p' "$results/asked")
else
	fail_file asked "no record of what run-checks.sh was asked: counted as a full make check"
fi

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
	base=${f##*/}
	base=${base%.ktap}
	dir=${f%/*}
	boot= where=host
	if [ -e "$dir/console.log" ]; then
		boot=$dir
		[ "$dir" = "${kernel_of%%:*}" ] ||
			kernel_of=$dir:$(boot_kernel "${dir#"$results"/}")
		where=${kernel_of#*:}
	fi
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
	set -- $(awk -v skips="$f.skips" '
		/^1\.\.0 *# *[Ss][Kk][Ii][Pp]/ && !planned { skipall = 1 }
		/^1\.\.[0-9]+/ && !planned { planned = 1; plan = substr($1, 4) + 0; next }
		/^ok [0-9]+/ { nwhy = 0; after = 0 }
		/^ok [0-9]+.*# [Ss][Kk][Ii][Pp]/ {
			s++
			if ($2 != 999) r++
			why_ = $0
			sub(/.*# [Ss][Kk][Ii][Pp] */, "", why_)
			print $3 " " why_ > skips
			next
		}
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
	if [ -s "$f.fails" ]; then
		sed "s|^#   FAIL |    not ok: |; s|^#   WHY |      # |" "$f.fails"
		sed "s|^#   FAIL |  ${name}: |; s|^#   WHY |      # |" "$f.fails" >> "$failures"
	fi
	rm -f "$f.fails"
	if [ "$skipall" = 1 ]; then
		may_skip "$base" "*" "$where" ||
			fail_file "$name" "skipped every test, on a board that has what it needs"
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
	# a skipped result hides what it did not test: only with a reason
	# in expected-results (a later boot of one kernel: KUnit's once)
	if [ -e "$f.skips" ]; then
		[ -z "$counted" ] || while read -r test why; do
			may_skip "$base" "$test" "$where" ||
				fail_file "$name" "$test skipped (${why:-no reason}): no may-skip line of expected-results allows it (${where:-unlisted boot})"
		done < "$f.skips"
		rm -f "$f.skips"
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

# The suite scripts against their lines: one that no line lists runs
# where nothing looks for it (or nowhere, when its header names a board
# no boot has); a header that names another board than its line moves it
# to boots that do not expect it.  /init picks by the header, the count
# by the line, so both must agree.
echo "  guest-tests: suites against expected-results"
for t in "$suites"/*.sh; do
	[ -e "$t" ] || continue
	s=$(basename "$t" .sh)
	grep -q "^host-script $s\$" "$expected" && continue
	set -- $(awk -v s="$s" '$1 == "suite" && $2 == s { print $3, $4 }' "$expected")
	if [ $# -eq 0 ]; then
		fail_file "guest-tests/$s.sh" "a suite that expected-results does not list"
		continue
	fi
	# /init runs an "always" suite on every board, whatever its header
	[ "${2:-}" != always ] || continue
	hdr=$(sed -n '1,20s/^# lptest-board: *\([a-z0-9]*\).*/\1/p' "$t" | head -1)
	[ "${hdr:-board}" = "$1" ] ||
		fail_file "guest-tests/$s.sh" "its \"# lptest-board:\" says ${hdr:-nothing (board)}, expected-results runs it on $1"
done
for s in $(awk '$1 == "suite" && $4 != "always" { print $2 }' "$expected"); do
	[ -e "$suites/$s.sh" ] ||
		fail_file "guest-tests/$s.sh" "listed in expected-results, not there"
done

# in_list <word> <comma list>
in_list() {
	case ",$2," in *",$1,"*) return 0 ;; esac
	return 1
}

# boot_wanted <board> <kernel> <cpus>: does what run-checks.sh was asked
# make this boot?  The N900 board ("board") always boots; another only
# when --only names none of the suites or one made for it.
boot_wanted() {
	local s
	case $2 in
	debug) [ "$debug" = yes ] || return 1 ;;
	*) case " $smps " in *" $3 "*) ;; *) return 1 ;; esac ;;
	esac
	[ "$1" != board ] && [ -n "$only" ] || return 0
	for s in $(awk -v b="$1" '$1 == "suite" && $4 != "always" &&
			index("," $3 ",", "," b ",") { print $2 }' "$expected"); do
		! in_list "$s" "$only" || return 0
	done
	return 1
}

# boot_files <board> <all|asked>: "<name> <why>" of each KTAP a boot of
# the board may hold (all) or must hold (asked: what --only asked and
# the files that are not optional)
boot_files() {
	awk -v b="$1" -v mode="$2" -v only=",$only," '
		function asked(s) { return only == ",," || index(only, "," s ",") }
		$1 == "suite" && index("," $3 ",", "," b ",") &&
			(mode == "all" || $4 == "always" || asked($2)) {
			ran[$2] = 1
			print $2, "suite " $2
		}
		$1 == "check" { check[$2] = 1 }
		$1 == "boot-file" && (mode == "all" || $3 != "optional") {
			print $2, "run-checks.sh'"'"'s " $2
		}
		$1 == "kunit" { print "kunit_" $2, "KUnit" }
		END {
			for (s in check)
				if (s in ran)
					print s "_timeline", "guest-tests/" s ".check"
		}' "$expected"
}

# The boots: each one the options call for, with every KTAP it must
# hold and none it may not; none other.
while read -r kind bname board kernel cpus; do
	[ "$kind" = boot ] || continue
	dir=$results/$bname
	if ! boot_wanted "$board" "$kernel" "$cpus"; then
		if [ -e "$dir" ]; then
			fail_file "$bname" "a boot that run-checks.sh was not asked for (smp $smps, debug $debug, only ${only:-all})"
		fi
		continue
	fi
	echo "  $bname: its results against expected-results"
	if [ ! -e "$dir/console.log" ]; then
		fail_file "$bname" "expected-results lists this boot, the options call for it: it did not boot"
		continue
	fi
	grep -q '^### begin ' "$dir/console.log" ||
		fail_file "$bname" "no suite began in this boot"
	boot_files "$board" asked > "$failures.want"
	while read -r f why; do
		case $f in kunit_*) continue ;; esac	# KUnit's own, above
		[ -e "$dir/$f.ktap" ] ||
			fail_file "$bname/$f.ktap" "expected-results asks for it ($why on $board): not in the results"
	done < "$failures.want"
	allowed=" $(boot_files "$board" all | cut -d' ' -f1 | tr '\n' ' ') "
	for f in "$dir"/*.ktap; do
		[ -e "$f" ] || continue
		f=$(basename "$f" .ktap)
		case $f in kunit_*) continue ;; esac	# KUnit's own, above
		case $allowed in
		*" $f "*) ;;
		*) fail_file "$bname/$f.ktap" "not in expected-results for a $board boot" ;;
		esac
	done
done < "$expected"
rm -f "$failures.want"
# directories that no boot line names (a renamed boot, a stray copy)
for d in $(find "$results" -mindepth 1 -type d | sort); do
	bname=${d#"$results"/}
	grep -q "^boot $bname " "$expected" && continue
	if [ -e "$d/console.log" ] || ls "$d"/*.ktap > /dev/null 2>&1; then
		fail_file "$bname" "a boot or directory of results that expected-results does not list"
	fi
done

# The top level: the host's KTAPs the Makefile gave (HOST_KTAP, one host
# line each) and run-checks.sh's own.
echo "  host: results against expected-results"
while read -r kind h opt; do
	case $kind in
	host) f=host-$h; [ "$host" = yes ] || continue ;;
	file) f=$h ;;
	*) continue ;;
	esac
	[ -z "$opt" ] || continue
	[ -e "$results/$f.ktap" ] ||
		fail_file "$f.ktap" "expected-results asks for it: not in the results"
done < "$expected"
allowed=" $(manifest host | awk '{ print "host-" $1 }' | tr '\n' ' ') $(manifest file | cut -d' ' -f1 | tr '\n' ' ') "
for f in "$results"/*.ktap; do
	[ -e "$f" ] || continue
	f=$(basename "$f" .ktap)
	case $allowed in
	*" $f "*) ;;
	*) fail_file "$f.ktap" "not in expected-results (a host KTAP needs a host line)" ;;
	esac
done

[ $((pass + fail + skip)) -gt 0 ] || fail_file "$results" "not a single result"

# Again at the end, where a log cut to its head and tail still shows them.
if [ -s "$failures" ]; then
	echo "failed:"
	cat "$failures"
fi
[ "$skip" -eq 0 ] || echo "$skip skipped"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
