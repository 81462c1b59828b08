#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A suite whose "# lptest-board:" header names another board than its
# expected-results line: /init runs it on the other board's boots, which
# do not expect it, and not where it is expected; and the header
# disagreeing with its line fails by itself (as in an --only run).
. "$(dirname "$0")/lib/selftest.sh"
s=$(awk '$1 == "suite" && $3 == "board" && NF == 3 { print $2; exit }' "$ST_EXPECTED")
[ -n "$s" ] || st_fail "no suite of the N900 board in $ST_EXPECTED"
mkdir suites
cp "$ST_TESTS"/*.sh suites/
st_run real 1 no "" no
count real "$ST_EXPECTED" suites > real.out 2>&1
st_accepts "the suites' headers as they are" real.out $?

sed -i '2a # lptest-board: family' "suites/$s.sh"
count real "$ST_EXPECTED" suites > header.out 2>&1
st_rejects "$s.sh naming the family board" \
	"guest-tests/$s.sh: its \"# lptest-board:\" says family, expected-results runs it on board" header.out $?

# the run that header makes: the suite in the family board's boot
st_run planted 1 no "" no
mv "planted/smp1/$s.ktap" "planted/family-smp1/$s.ktap"
sed -i "/^### begin $s\$/d; /^### end $s [0-9]*\$/d" planted/smp1/console.log
printf '### begin %s\n### end %s 0\n' "$s" "$s" >> planted/family-smp1/console.log
count planted "$ST_EXPECTED" suites > planted.out 2>&1
st_rejects "$s run on the family board" "family-smp1/$s.ktap: not in expected-results for a family boot" planted.out $?
grep -q "smp1/$s.ktap: expected-results asks for it" planted.out ||
	st_fail "$s is not missed in smp1"
exit 0
