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
# passed with a plan of 3 or more, else the fixture data/smp1/<suite>
st_real_suite() {
	local b f s
	for b in $(st_boots) "$ST_DATA/smp1"; do
		for f in "$b"/*.ktap; do
			s=$(basename "$f" .ktap)
			case $s in kunit* | boot | kernel_log_stream | *_timeline) continue ;; esac
			grep -q "^### begin $s\$" "$b/console.log" 2>/dev/null || continue
			grep -q "^### end $s 0\$" "$b/console.log" || continue
			grep -q '^not ok' "$f" && continue
			[ "$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$f" | head -1)" -ge 3 ] 2>/dev/null || continue
			echo "$b $s"
			return
		done
	done
}

# st_one_suite_results <dir> <boot dir> <suite>: a results directory with
# one boot holding only that suite, as run-checks.sh leaves it; and an
# expected-results without KUnit lines (the boot has none)
st_one_suite_results() {
	mkdir -p "$1/smp1"
	printf '### begin %s\n### end %s 0\n' "$3" "$3" > "$1/smp1/console.log"
	cp "$2/$3.ktap" "$1/smp1/$3.ktap"
	grep -v '^kunit ' "$ST_EXPECTED" > "$1.expected"
}

# count <results dir> [<expected-results>]: the run's own by default
count() {
	"$ST_TESTS/lib/count-results.sh" "$1" "${2:-$ST_EXPECTED}"
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
