#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# selftest/run.sh <results dir>: the rig's self-test.  run-checks.sh calls
# it after the boots with this run's results directory; one KTAP on stdout
# (run-checks.sh files it as rig-selftest.ktap), one result per case.
#
# A case is an executable selftest/<case>.sh taking the results directory:
# it plants a bad input into a copy of real data from it (or a fixture in
# selftest/data/), runs the rig's check on it, and exits 0 when the check
# rejected it for the right reason and passed the unplanted input; non-zero
# when the rig passed what it must fail (or failed what it must pass).
# It never writes into the results directory.  Its output becomes the
# result's diagnostics.
here=$(cd "$(dirname "$0")" && pwd)
results=${1:?usage: run.sh <results dir>}
results=$(cd "$results" && pwd)

# a case that runs away must not hold up make check; the slowest case
# (a dt-validate run) takes about a minute on the loaded 2-core host
CASE_LIMIT_S=600

cases=
for c in "$here"/*.sh; do
	[ "$c" = "$here/run.sh" ] && continue
	[ -x "$c" ] && cases="$cases $c"
done

echo "TAP version 13"
set -- $cases
echo "1..$#"
n=0 bad=0
for c in $cases; do
	n=$((n + 1))
	name=$(basename "$c" .sh)
	work=$(mktemp -d)
	if out=$(cd "$work" && timeout -k 5 "$CASE_LIMIT_S" "$c" "$results" 2>&1); then
		echo "ok $n selftest_$name"
	else
		rc=$?
		echo "not ok $n selftest_$name"
		[ $rc -ne 124 ] || echo "# no end within $CASE_LIMIT_S s"
		bad=1
	fi
	printf '%s\n' "$out" | tail -15 | sed 's/^/# /'
	rm -rf "$work"
done
exit $bad
