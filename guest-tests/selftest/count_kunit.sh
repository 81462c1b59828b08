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

# kunit_boot <dir>: the KUnit results of $src as a boot of kernel "k"
kunit_boot() {
	mkdir -p "$1"
	cp "$src"/kunit_*.ktap "$1/"
	for f in "$1"/kunit_*.ktap; do
		s=$(basename "$f" .ktap)
		printf '### begin %s\n### end %s 0\n' "$s" "$s"
	done > "$1/console.log"
	echo k > "$1/kernel-id"
}
kunit_boot real/smp1
count real > real.out 2>&1
st_accepts "the KUnit results of $src" real.out $?
once=$(tail -1 real.out)

kunit_boot twice/smp1
kunit_boot twice/smp2
count twice > twice.out 2>&1
st_accepts "two boots of one kernel" twice.out $?
[ "$(tail -1 twice.out)" = "$once" ] ||
	st_fail "two boots of one kernel count \"$(tail -1 twice.out)\", one boot \"$once\""
echo "counted once: $once"

victim=$(ls real/smp1/kunit_*.ktap | head -1)
victim=$(basename "$victim" .ktap)
kunit_boot missing/smp1
rm "missing/smp1/$victim.ktap"
sed -i "/^### .* $victim\\b/d" missing/smp1/console.log
count missing > missing.out 2>&1
st_rejects "$victim missing" "KUnit suite ${victim#kunit_} missing" missing.out $?

kunit_boot short/smp1
# one case less: plan and results agree, the expected plan does not
last=$(grep -n '^ok [0-9]' "real/smp1/$victim.ktap" | tail -1 | cut -d: -f1)
sed -e "${last}d" -e 's/^1\.\.\([0-9]*\)$/1..\1-/' "real/smp1/$victim.ktap" |
	awk '/^1\.\.[0-9]+-$/ { sub(/-$/, ""); print "1.." substr($0, 4) - 1; next } { print }' \
	> "short/smp1/$victim.ktap"
count short > short.out 2>&1
st_rejects "$victim with a case less" "plans [0-9]+, expected-results says" short.out $?

kunit_boot extra/smp1
cp "real/smp1/$victim.ktap" extra/smp1/kunit_unlisted.ktap
printf '### begin kunit_unlisted\n### end kunit_unlisted 0\n' >> extra/smp1/console.log
count extra > extra.out 2>&1
st_rejects "a KUnit suite not in the list" "kunit_unlisted.*not in expected-results" extra.out $?
