#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kernel-log-scan.sh <kernel.log>: on the host, after a boot, judge the
# guest's whole kernel log (the /dev/kmsg records kmsg-stream copied to the
# lptest.kmsg port: "prio,seq,usec,flags;text", dictionary lines indented).
# KTAP on stdout, exit 1 on a failure:
#   kernel_log_complete   the records run from sequence 0 to /init's
#                         "lptest: log end" without a gap (a gap: records the
#                         ring overwrote before the host had them)
#   no_splat_in_<window>  one per window: "boot" (before the first suite),
#                         then each suite from its "lptest: begin" record to
#                         the next suite's (what a suite left running, e.g.
#                         a worker that splats after its end, is its own)
# A splat is any report of the kernel's checkers: WARN, BUG, Oops, KASAN,
# UBSAN, lockdep, kmemleak, hung task, soft lockup, RCU and workqueue
# stalls.  The blocked tasks' stacks /init's watchdog asks for (sysrq w,
# up to "lptest: watchdog dump end") are no splat: the report that made the
# watchdog ask is one, in the same window.
log=$1
[ -n "$log" ] || { echo "usage: kernel-log-scan.sh <kernel.log>" >&2; exit 2; }

SPLATS='WARNING:|BUG:|Oops|Unable to handle|Internal error:|Kernel panic|Call trace:|KASAN|UBSAN|possible circular locking|possible recursive locking|inconsistent lock state|lock held when returning|suspicious RCU usage|sleeping function called|new suspected memory leak|unreferenced object|blocked for more than|soft lockup|detected stall|self-detected stall|workqueue lockup'

if [ ! -s "$log" ]; then
	printf 'TAP version 13\n1..1\nnot ok 1 kernel_log_complete\n'
	echo "# $log: missing or empty: no kernel log reached the host"
	exit 1
fi

awk -v splats="$SPLATS" '
	# a record: header up to the first ";", text after it
	/^[0-9]+,[0-9]+,[0-9]+,[^;]*;/ {
		semi = index($0, ";")
		split(substr($0, 1, semi - 1), h, ",")
		seq = h[2] + 0
		text = substr($0, semi + 1)
		if (n_rec == 0) {
			if (seq != 0)
				gaps = gaps sprintf("# records 0-%d are missing: the copy started late\n", seq - 1)
		} else if (seq <= last) {
			next	# a reader that started again sends a record twice
		} else if (seq != last + 1) {
			gaps = gaps sprintf("# records %d-%d are missing (a gap after record %d)\n",
					    last + 1, seq - 1, last)
		}
		last = seq
		n_rec++
		if (text ~ /^lptest: begin [^ ]+$/) {
			win = substr(text, 15)
			if (!(win in seen)) {
				seen[win] = 1
				order[++n_win] = win
			}
			next
		}
		if (text == "lptest: log end") {
			ended = 1
			next
		}
		if (text ~ /^sysrq: Show Blocked State/) {
			dump = 1
			next
		}
		if (text == "lptest: watchdog dump end") {
			dump = 0
			next
		}
		if (!dump && text ~ splats) {
			if (hits[win] < 5)
				msg[win] = msg[win] sprintf("# record %d: %s\n", seq, text)
			hits[win]++
		}
		next
	}
	# dictionary lines ("SUBSYSTEM=...") and anything a cut record left
	{ next }
	BEGIN { win = "boot"; order[++n_win] = "boot"; seen["boot"] = 1 }
	END {
		printf "TAP version 13\n1..%d\n", n_win + 1
		if (!ended)
			gaps = gaps sprintf("# no \"lptest: log end\" record: the log stops at record %d\n", last)
		if (gaps == "") {
			printf "ok 1 kernel_log_complete\n# records 0-%d, %d windows\n", last, n_win
		} else {
			printf "not ok 1 kernel_log_complete\n%s", gaps
			bad = 1
		}
		for (i = 1; i <= n_win; i++) {
			w = order[i]
			if (hits[w]) {
				printf "not ok %d no_splat_in_%s\n# %d line(s) of kernel reports, the first:\n%s",
					i + 1, w, hits[w], msg[w]
				bad = 1
			} else {
				printf "ok %d no_splat_in_%s\n", i + 1, w
			}
		}
		exit bad
	}' "$log"
