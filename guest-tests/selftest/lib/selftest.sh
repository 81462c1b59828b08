# SPDX-License-Identifier: GPL-2.0
# Sourced by the self-test cases (selftest/<case>.sh): where the rig's
# checks are, and helpers to find real data and assert a rejection.
ST_TESTS=$(cd "$(dirname "$0")/.." && pwd)
ST_DATA=$ST_TESTS/selftest/data
# the KUnit plans of the run under test (run-checks.sh --expected)
ST_EXPECTED=${ST_EXPECTED:-$ST_TESTS/expected-results}
ST_RESULTS=${1:?usage: $0 <results dir>}

# st_boots: the boot directories of the run (each has a console.log)
st_boots() {
	find "$ST_RESULTS" -name console.log | sort | while read -r c; do
		dirname "$c"
	done
}

# st_fail <why>: end the case, the rig did not do what it must
st_fail() {
	echo "FAIL: $*"
	exit 1
}

# st_rejects <what> <reason regex> <output file> <status>: the check ran
# on a planted input (its output in the file, its exit status given): it
# must have failed and said why
st_rejects() {
	[ "$4" -ne 0 ] || { sed 's/^/  | /' "$3" | tail -8; st_fail "$1: the check passed it"; }
	grep -qE -- "$2" "$3" || { sed 's/^/  | /' "$3" | tail -8; st_fail "$1: failed, but without \"$2\""; }
	echo "rejected: $1 ($(grep -E -m1 -- "$2" "$3" | sed 's/^[ #]*//'))"
}

# st_accepts <what> <output file> <status>: the unplanted input passes
st_accepts() {
	[ "$3" -eq 0 ] || { sed 's/^/  | /' "$2" | tail -8; st_fail "$1: the check fails the real input"; }
	echo "passed: $1"
}

# st_real_klog: a kernel.log of this run that the scan passes, else the
# fixture data/kernel-clean.log (this run's own logs show a real failure,
# reported in its kernel_log_stream.ktap; the plant still needs a clean log)
st_real_klog() {
	local b
	for b in $(st_boots); do
		[ -s "$b/kernel.log" ] || continue
		if "$ST_TESTS/lib/kernel-log-scan.sh" "$b/kernel.log" > /dev/null 2>&1; then
			echo "$b/kernel.log"
			return
		fi
	done
	echo "$ST_DATA/kernel-clean.log"
}

# st_klog_edit <in> <out> <awk program>: rewrite a kernel.log record by
# record.  The program sees each record's text in t and its header in h,
# and calls rec(text) to emit a record (numbered on from the last one
# emitted, so a plant keeps the sequence whole) or skips it with "next";
# it must end its action with rec(t) to keep the record.
st_klog_edit() {
	awk "
		function rec(text) { printf \"%s,%d,%s,-;%s\\n\", prio, seq++, usec, text }
		/^[0-9]+,[0-9]+,[0-9]+,[^;]*;/ {
			s = index(\$0, \";\")
			h = substr(\$0, 1, s - 1)
			t = substr(\$0, s + 1)
			split(h, hf, \",\")
			prio = hf[1]; usec = hf[3]
		}
		/^ / { print; next }
		{ $3 }
	" "$1" > "$2"
}

# st_real_suite: "<boot dir> <suite>" of a guest suite of this run that
# passed with a plan of 3 or more, else the fixture data/smp1/<suite>; a
# suite of the N900 board (no "# lptest-board:"), which st_run lays out
# in smp1
st_real_suite() {
	local b f s
	for b in $(st_boots) "$ST_DATA/smp1"; do
		for f in "$b"/*.ktap; do
			s=$(basename "$f" .ktap)
			case $s in kunit* | boot | kernel_log_stream | *_timeline) continue ;; esac
			[ -e "$ST_TESTS/$s.sh" ] || continue
			grep -q '^# lptest-board:' "$ST_TESTS/$s.sh" && continue
			grep -q "^### begin $s\$" "$b/console.log" 2>/dev/null || continue
			grep -q "^### end $s 0\$" "$b/console.log" || continue
			grep -q '^not ok' "$f" && continue
			[ "$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$f" | head -1)" -ge 3 ] 2>/dev/null || continue
			echo "$b $s"
			return
		done
	done
}

# st_ok <file> <test>: a KTAP of one passing result
st_ok() {
	printf 'TAP version 13\n1..1\nok 1 %s\n' "$2" > "$1"
}

# st_timeline_or_cut <suite> <cut> [<mark>]: tl and ktap for <suite>'s
# timeline check: this run's real data (its timeline holding <mark> when
# one is given), else the cut of a real run in $ST_DATA/<cut> and a KTAP
# saying the suite ran; st_from says which
st_timeline_or_cut() {
	local boot
	boot=$(python3 "$ST_TESTS/selftest/lib/plant.py" find "$ST_RESULTS" "$1")
	if [ -n "$boot" ] && { [ -z "$3" ] || grep -q "$3" "$boot/timeline.txt"; }; then
		tl=$boot/timeline.txt
		ktap=$boot/$1.ktap
		st_from=$boot
		return
	fi
	tl=$ST_DATA/$2
	st_ok ran.ktap "$1_ran"
	ktap=ran.ktap
	st_from="the cut"
	echo "no $1 run${3:+ with \"$3\"} in $ST_RESULTS: $tl"
}

# st_check_passes <check> <result> <what> <summary regex>: <check> on $tl
# passes <result> (the unplanted data), into real.out
st_check_passes() {
	"$1" "$tl" "$ktap" > real.out 2>&1
	grep -q "^ok [0-9]* $2\$" real.out ||
		{ sed 's/^/  | /' real.out | grep -A3 "$2"; st_fail "the unplanted $3 fails"; }
	echo "passed: the unplanted $3 ($st_from): $(grep -m1 "$4" real.out)"
}

# st_boot <dir> <board> <kernel> <only>: one boot of st_run, every result
# passing: the board's suites (those --only names and those /init always
# runs), their timeline checks, the KUnit suites with their plans,
# run-checks.sh's files; nothing when the board does not boot for <only>
st_boot() {
	local s kind plan i suites own
	suites=$(awk -v b="$2" -v only=",$4," '$1 == "suite" &&
		index("," $3 ",", "," b ",") && ($4 == "always" || only == ",," ||
		index(only, "," $2 ",")) { print $2 }' "$ST_EXPECTED")
	own=$(awk -v b="$2" -v only=",$4," '$1 == "suite" && $4 != "always" &&
		index("," $3 ",", "," b ",") && index(only, "," $2 ",") { print $2 }' "$ST_EXPECTED")
	[ "$2" = board ] || [ -z "$4" ] || [ -n "$own" ] || return 0
	mkdir -p "$1"
	echo "kernel-$3" > "$1/kernel-id"
	while read -r kind s plan; do
		[ "$kind" = kunit ] || continue
		echo "### begin kunit_$s"
		{
			printf 'KTAP version 1\n1..%d\n' "$plan"
			i=0
			while [ $i -lt "$plan" ]; do
				i=$((i + 1))
				echo "ok $i ${s}_case_$i"
			done
		} > "$1/kunit_$s.ktap"
		echo "### end kunit_$s 0"
	done < "$ST_EXPECTED" > "$1/console.log"
	for s in $suites; do
		printf '### begin %s\n### end %s 0\n' "$s" "$s" >> "$1/console.log"
		st_ok "$1/$s.ktap" "${s}_ran"
		if grep -q "^check $s\$" "$ST_EXPECTED"; then
			st_ok "$1/${s}_timeline.ktap" "${s}_timeline_ran"
		fi
	done
	awk '$1 == "boot-file" && NF == 2 { print $2 }' "$ST_EXPECTED" |
		while read -r s; do
			st_ok "$1/$s.ktap" "${s}_ran"
		done
	echo "### done" >> "$1/console.log"
}

# st_run <dir> <smps> <debug yes|no> <only> <host yes|no>: a results
# directory as run-checks.sh --smp <smps> [--debug-kernel] --only <only>
# [--host-results] leaves it, every result passing: each boot, suite,
# timeline check, KUnit suite, host KTAP and run-checks.sh file that
# expected-results asks for, and the "asked" record; what the count must
# pass, for a case to spoil.  Written from expected-results' comments,
# not from the counter's code, so that each checks the other.
st_run() {
	local kind a b c e
	mkdir -p "$1"
	printf 'smp %s\ndebug %s\nonly %s\nhost %s\n' "$2" "$3" "$4" "$5" > "$1/asked"
	while read -r kind a b c e; do
		case $kind in
		boot)
			if [ "$c" = debug ]; then
				[ "$3" = yes ] || continue
			else
				case " $2 " in *" $e "*) ;; *) continue ;; esac
			fi
			st_boot "$1/$a" "$b" "$c" "$4"
			;;
		host)
			[ "$5" = yes ] && [ -z "$b" ] || continue
			st_ok "$1/host-$a.ktap" "${a}_ran"
			;;
		file)
			[ -z "$b" ] || continue
			st_ok "$1/$a.ktap" "${a}_ran"
			;;
		esac
	done < "$ST_EXPECTED"
}

# st_full_run <dir>: st_run as make check runs it: 1 and 2 CPUs, the
# debug kernel, every suite, the host's results
st_full_run() {
	st_run "$1" "1 2" yes "" yes
}

# st_one_suite_results <dir> <boot dir> <suite>: the results of
# run-checks.sh --smp 1 --only <suite>, that suite's KTAP copied from the
# boot directory; and the run's expected-results in <dir>.expected
st_one_suite_results() {
	st_run "$1" 1 no "$3" no
	cp "$2/$3.ktap" "$1/smp1/$3.ktap"
	cp "$ST_EXPECTED" "$1.expected"
}

# count <results dir> [<expected-results> [<suites dir>]]: the run's
# own expected-results and guest-tests/ by default
count() {
	"$ST_TESTS/lib/count-results.sh" "$1" "${2:-$ST_EXPECTED}" ${3:+"$3"}
}

# st_plant_real_suite: pick a real suite (st_real_suite), check that the
# count accepts it as it ran, and lay the same results out under planted/
# for the case to spoil; sets ST_BOOT and ST_SUITE
st_plant_real_suite() {
	set -- $(st_real_suite)
	[ $# -eq 2 ] || st_fail "no passing suite with a plan of 3 or more, even in data/"
	ST_BOOT=$1 ST_SUITE=$2
	st_one_suite_results real "$1" "$2"
	count real real.expected > real.out 2>&1
	st_accepts "$2 as it ran" real.out $?
	st_one_suite_results planted "$1" "$2"
}

# st_ring_timeline: the ring suite's part of this run's timeline in
# ring.txt, with its KTAP, or else an ideal wheel (plant.py wheel) and a
# KTAP of one result; sets tl and ktap, and boot (empty for the wheel)
st_ring_timeline() {
	local plant=$ST_TESTS/selftest/lib/plant.py
	boot=$(python3 "$plant" find "$ST_RESULTS" ring)
	if [ -n "$boot" ]; then
		# the ring suite's part: the check reads no other suite's changes
		python3 "$plant" part "$boot/timeline.txt" ring.txt "ring sw run" "ring idle end"
		ktap=$boot/ring.ktap
	else
		python3 "$plant" wheel ring.txt
		printf 'TAP version 13\n1..1\nok 1 ring_ran\n' > ran.ktap
		ktap=ran.ktap
		echo "no ring run in $ST_RESULTS: the ideal wheel"
	fi
	tl=ring.txt
}
