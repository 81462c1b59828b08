#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# KUnit suites are expected by name and plan (guest-tests/expected-results)
# and counted once per kernel: a suite missing from the log, one with a
# shorter plan, one not in the list, all fail; two boots of one kernel
# count its KUnit results once.
. "$(dirname "$0")/lib/selftest.sh"
src=
for b in $(st_boots) "$ST_DATA/smp1"; do
	ls "$b"/kunit_*.ktap > /dev/null 2>&1 || continue
	grep -q '^not ok' "$b"/kunit_*.ktap && continue
	src=$b
	break
done
[ -n "$src" ] || st_fail "no boot with passing KUnit results, even in data/"

# kunit_boot <dir> <smps>: run-checks.sh --smp <smps> --only naming no
# guest suite (the suites /init always runs, KUnit), one kernel, with the
# KUnit results of $src (a fixture from before 6.12 lacks the 6.12 suites:
# st_run's stand in for them)
kunit_boot() {
	local b
	st_run "$1" "$2" no none no
	for b in $2; do
		cp "$src"/kunit_*.ktap "$1/smp$b/"
		for f in "$src"/kunit_*.ktap; do
			s=$(basename "$f" .ktap)
			grep -q "^### begin $s\$" "$1/smp$b/console.log" ||
				printf '### begin %s\n### end %s 0\n' "$s" "$s" >> "$1/smp$b/console.log"
		done
	done
}
# passes <count output>: the passed figure of its last line
passes() {
	tail -1 "$1" | sed 's/ passed.*//'
}
kunit_boot real 1
count real > real.out 2>&1
st_accepts "the KUnit results of $src" real.out $?
once=$(passes real.out)

kunit_boot twice "1 2"
count twice > twice.out 2>&1
st_accepts "two boots of one kernel" twice.out $?
others=$(ls twice/smp2/*.ktap | grep -vc '/kunit_')
[ "$(passes twice.out)" -eq $((once + others)) ] ||
	st_fail "two boots of one kernel count $(passes twice.out) passed, one boot $once and the second's $others other results"
echo "counted once: $once passed in one boot, $(passes twice.out) in two"

victim=$(ls "$src"/kunit_*.ktap | head -1)
victim=$(basename "$victim" .ktap)
kunit_boot missing 1
rm "missing/smp1/$victim.ktap"
sed -i "/^### .* $victim\\b/d" missing/smp1/console.log
count missing > missing.out 2>&1
st_rejects "$victim missing" "KUnit suite ${victim#kunit_} missing" missing.out $?

kunit_boot short 1
# one case less: plan and results agree, the expected plan does not
last=$(grep -n '^ok [0-9]' "real/smp1/$victim.ktap" | tail -1 | cut -d: -f1)
sed -e "${last}d" -e 's/^1\.\.\([0-9]*\)$/1..\1-/' "real/smp1/$victim.ktap" |
	awk '/^1\.\.[0-9]+-$/ { sub(/-$/, ""); print "1.." substr($0, 4) - 1; next } { print }' \
	> "short/smp1/$victim.ktap"
count short > short.out 2>&1
st_rejects "$victim with a case less" "plans [0-9]+, expected-results says" short.out $?

kunit_boot extra 1
cp "real/smp1/$victim.ktap" extra/smp1/kunit_unlisted.ktap
printf '### begin kunit_unlisted\n### end kunit_unlisted 0\n' >> extra/smp1/console.log
count extra > extra.out 2>&1
st_rejects "a KUnit suite not in the list" "kunit_unlisted.*not in expected-results" extra.out $?
