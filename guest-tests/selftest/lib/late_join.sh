# SPDX-License-Identifier: GPL-2.0
# Sourced by the late_join_* self-test cases, after lib/selftest.sh.

LJ_PY=$ST_TESTS/selftest/lib/late_join.py
LJ_PLANT=$ST_TESTS/selftest/lib/plant.py
LJ_RESULT=timeline_late_join_in_phase

# lj_data <suite>: the suite's part of this run's timeline in <suite>.txt
# and its KTAP in ktap, from the first boot whose check passes the late
# join there and whose "run" write took at most LJ_WRITE_MAX_MS: the
# run's start may be anywhere in that write, so a write as long as a
# plant's shift (a debug kernel on a busy host: 280 ms) hides it.  Else
# the ideal late join (late_join.py ideal): a run whose own late join
# fails reports that in its <suite>_timeline.ktap, the plant still needs
# one that passes.
LJ_WRITE_MAX_MS=50
lj_data() {
	local boot marks ms
	python3 "$LJ_PLANT" marks "$ST_TESTS/$1.check" > marks.txt
	for boot in $(st_boots); do
		[ -s "$boot/$1.ktap" ] && [ -s "$boot/timeline.txt" ] || continue
		# the suite's part: the check reads no other suite's changes
		python3 "$LJ_PLANT" part "$boot/timeline.txt" "$1.txt" \
			"$(sed -n 1p marks.txt)" "$(sed -n 2p marks.txt)" 2> /dev/null || continue
		ktap=$boot/$1.ktap
		"$ST_TESTS/$1.check" "$1.txt" "$ktap" > lj.out 2>&1
		if ! grep -q "^ok [0-9]* $LJ_RESULT\$" lj.out; then
			echo "$boot fails its own late join ($1_timeline.ktap says why)"
			continue
		fi
		ms=$(sed -n "s/.*$LJ_RESULT: .*(write \([0-9]*\)\.[0-9]* ms).*/\1/p" lj.out | head -1)
		if [ -z "$ms" ] || [ "$ms" -gt $LJ_WRITE_MAX_MS ]; then
			echo "$boot: its 'run' write took ${ms:-?} ms, over $LJ_WRITE_MAX_MS"
			continue
		fi
		echo "real data: $boot"
		return
	done
	echo "no $1 run in $ST_RESULTS to plant into: the ideal late join"
	python3 "$LJ_PY" ideal "$1" "$1.txt"
	printf 'TAP version 13\n1..1\nok 1 %s_ran\n' "$1" > ran.ktap
	ktap=ran.ktap
}

# lj_accepts <suite>: the check passes the late join of <suite>.txt, the
# unplanted data
lj_accepts() {
	"$ST_TESTS/$1.check" "$1.txt" "$ktap" > real.out 2>&1
	grep -q "^ok [0-9]* $LJ_RESULT\$" real.out ||
		{ sed 's/^/  | /' real.out | grep -A4 "$LJ_RESULT"; st_fail "$1: the unplanted late join fails"; }
	echo "passed: $1's unplanted late join"
}

# lj_judge <what> <timeline> <suite> <reason regex> [<file>]: the check on
# a planted timeline fails the late join for that reason
lj_judge() {
	"$ST_TESTS/$3.check" "$2" "$ktap" > "$2.out" 2>&1
	grep -q "^not ok [0-9]* $LJ_RESULT\$" "$2.out" ||
		{ sed 's/^/  | /' "$2.out" | grep -A4 "$LJ_RESULT"; st_fail "$1: $LJ_RESULT passed it"; }
	# the reason is on the lines after the result
	sed -n "/^not ok [0-9]* $LJ_RESULT\$/,/^\(not \)\{0,1\}ok /p" "$2.out" > "$2.why"
	grep -qE -- "$4" "$2.why" ||
		{ sed 's/^/  | /' "$2.why"; st_fail "$1: failed, but without \"$4\""; }
	echo "rejected: $1 ($(grep -E -m1 -- "$4" "$2.why" | sed 's/^[ #]*//'))"
}
