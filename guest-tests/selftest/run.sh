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

# a case that runs away must not hold up make check; the slowest case
# (a dt-validate run) takes about a minute on the loaded 2-core host
CASE_LIMIT_S=600

# run.sh --case <case> <dir> <results dir>: one case in a work directory
# of its own, its exit status into <dir>/<name>.rc and its output into
# <dir>/<name>.out
if [ "${1:-}" = --case ]; then
	name=$(basename "$2" .sh)
	work=$(mktemp -d)
	rc=0
	(cd "$work" && timeout -k 5 "$CASE_LIMIT_S" "$2" "$4") \
		> "$3/$name.out" 2>&1 || rc=$?
	echo $rc > "$3/$name.rc"
	rm -rf "$work"
	exit 0
fi

cases=
for c in "$here"/*.sh; do
	[ "$c" = "$here/run.sh" ] && continue
	[ -x "$c" ] && cases="$cases $c"
done

results=${1:?usage: run.sh <results dir>}
results=$(cd "$results" && pwd)

# The cases are independent (each reads the results and the build
# directory, and writes only its work directory): one per CPU at a time,
# reported in the cases' order.
outputs=$(mktemp -d)
printf '%s\n' $cases |
	xargs -P "$(nproc)" -I '{}' "$here/run.sh" --case '{}' "$outputs" "$results"

echo "TAP version 13"
set -- $cases
echo "1..$#"
n=0 bad=0
for c in $cases; do
	n=$((n + 1))
	name=$(basename "$c" .sh)
	rc=$(cat "$outputs/$name.rc" 2> /dev/null || echo 255)
	if [ "$rc" = 0 ]; then
		echo "ok $n selftest_$name"
	else
		echo "not ok $n selftest_$name"
		[ "$rc" != 124 ] || echo "# no end within $CASE_LIMIT_S s"
		bad=1
	fi
	tail -15 "$outputs/$name.out" 2> /dev/null | sed 's/^/# /'
done
rm -rf "$outputs"
exit $bad
