#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What expected-results does not list fails the count: a suite's KTAP in
# a boot, a suite script in guest-tests/, a host KTAP.  A new host KTAP
# counts with one "host" line.
. "$(dirname "$0")/lib/selftest.sh"
st_run real 1 no "" yes
count real > real.out 2>&1
st_accepts "a run of 1 CPU with the host's results" real.out $?

st_run planted 1 no "" yes
st_ok planted/smp1/new_suite.ktap new_suite_ran
printf '### begin new_suite\n### end new_suite 0\n' >> planted/smp1/console.log
count planted > planted.out 2>&1
st_rejects "an unlisted suite in smp1" "smp1/new_suite.ktap: not in expected-results" planted.out $?

# the script itself, in a copy of guest-tests/
mkdir suites
cp "$ST_TESTS"/*.sh suites/
printf '#!/bin/sh\n# SPDX-License-Identifier: GPL-2.0\n' > suites/new_suite.sh
count real "$ST_EXPECTED" suites > script.out 2>&1
st_rejects "an unlisted suite script" "guest-tests/new_suite.sh: a suite that expected-results does not list" script.out $?

# a host KTAP the Makefile gained (HOST_KTAP): unlisted, it fails; one
# line lists it, and then it must be there
st_run host 1 no "" yes
st_ok host/host-new-tool.ktap new_tool_ran
count host > host.out 2>&1
st_rejects "an unlisted host KTAP" "host-new-tool.ktap: not in expected-results" host.out $?
cp "$ST_EXPECTED" host.expected
echo "host new-tool" >> host.expected
count host host.expected > listed.out 2>&1
st_accepts "the host KTAP with its host line" listed.out $?
rm host/host-new-tool.ktap
count host host.expected > gone.out 2>&1
st_rejects "a listed host KTAP missing" "host-new-tool.ktap: expected-results asks for it" gone.out $?
