#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lptest-timeout: 180
# I2C faults from the emulator (NACK every 2nd message, NACKed master
# fader registers, 100 ms replies) while software engines drive LP5523 LEDs:
# during a pattern load, run, stop, link, unlink, unbind and a probe.  Each
# write returns (a hang fails the suite through /init's watchdog), a failed
# I2C write is logged, the engine whose LED writes fail reads "error" with
# a log line naming the LED, a failed probe fails the bind; once the faults stop
# everything works again: the driver binds, a pattern runs on the chip
# and stop leaves it dark.  pattern_faults.check counts the faults that
# hit in each phase on the timeline (each phase must have hit one) and
# checks the recovery there.
. /tests/lib/ktap.sh
. /tests/lib/lp5523.sh

ENG=/sys/class/led_pattern/software0
LEDS=/sys/class/leds
DRV=$LP5523_DRV
FAST="0 1 255 1"
SPLATS='WARNING:|BUG:|Oops|Unable to handle|Call trace:|KASAN|UBSAN|circular locking|sleeping function called|blocked for more than'

# ctl <command...>: a control command; emu_ctl returns once the emulator
# has applied it, so it is in place for the next I2C transfer
ctl() {
	emu_ctl "$@"
}

now_ms() {
	local up
	read -r up _ < /proc/uptime
	echo $(( ${up%.*} * 1000 + 1${up#*.} * 10 - 1000 ))
}

# try <what> <value> <file>: write, report the outcome and the time taken
# (success and -EIO are both fine under faults; the write must return)
try() {
	local t0 err
	t0=$(now_ms)
	if err=$( (echo "$2" > "$3") 2>&1); then
		echo "# $1: ok after $(( $(now_ms) - t0 )) ms"
	else
		echo "# $1: ${err##*: } after $(( $(now_ms) - t0 )) ms"
	fi
}

link() {
	local led
	for led in "$@"; do
		try "link $led" software0 "$LEDS/$led/trigger"
	done
}

# phase <name> <fault> <function>: the function's writes under the fault
phase() {
	local name=$1 fault=$2
	shift 2
	emu_mark "pf $name begin"
	ctl $fault
	"$@"
	ctl faults off
	emu_mark "pf $name end"
	return 0
}

setup() {
	local ok=0
	write_ok -1 $ENG/repeat || ok=1
	write_ok "$FAST" $ENG/pattern || ok=1
	for led in lp5523:kb1 lp5523:kb2 lp5523:kb3; do
		write_ok software0 "$LEDS/$led/trigger" || ok=1
	done
	write_ok run $ENG/state || ok=1
	return $ok
}

f_load() { try "pattern" "0 5 255 5 128 0" $ENG/pattern; sleep 0.5; }
f_run() {
	try stop stop $ENG/state
	try run run $ENG/state
	sleep 0.5
	RUN_STATE=$(cat $ENG/state)
}
f_stop() { try stop stop $ENG/state; sleep 0.3; try run run $ENG/state; }
f_relink() { link lp5523:kb4 lp5523:kb5; sleep 0.5; }
f_unlink() {
	try "unlink kb4" none $LEDS/lp5523:kb4/trigger
	try "unlink kb5" none $LEDS/lp5523:kb5/trigger
	sleep 0.3
}
f_unbind() { try unbind "$CHIP" $DRV/unbind; }

# bind under NACKs: the probe fails, and says so
f_probe() {
	if (echo "$CHIP" > $DRV/bind) 2>/dev/null; then
		echo "# bind under nack every 2 succeeded"
	else
		echo "# bind under nack every 2 failed, as it should"
	fi
}

under_faults() {
	CHIP=$(lp5523_chip_name)
	dmesg_mark
	phase load "nack every 2" f_load
	phase run "nack every 2" f_run
	# kb1-kb3 show one curve: software0 sets them on one master fader,
	# so the writes that turn them off go to the fader registers
	phase stop "nack reg 0x48-0x4a" f_stop
	phase link "nack every 2" f_relink
	phase unlink "delay 100" f_unlink
	phase unbind "nack every 2" f_unbind
	[ -z "$(lp5523_chip_name)" ] || { echo "# still bound after unbind"; return 1; }
	phase probe "nack every 2" f_probe
	return 0
}

logged() {
	local n
	n=$(dmesg_since | grep -ciE 'failed|error|-5|could not')
	[ "$n" -gt 0 ] || { echo "# no log line about a failed I2C write"; return 1; }
	echo "# $n kernel log lines about failures"
	dmesg_since | grep -iE 'failed|error|-5|could not' | sed 's/^\[[^]]*\] //' |
		sort | uniq -c | sort -rn |
		head -5 | sed 's/^/# /'
}

# the LED writes failed while the pattern ran: "state" said so, once in
# the log, naming the LED
reads_error() {
	local ok=0 n
	want_eq "state under faults" error "$RUN_STATE" || ok=1
	n=$(dmesg_since | grep -cE 'software0: writing lp5523:kb[1-3] failed \(-')
	echo "# $n log lines naming the LED whose write failed"
	[ "$n" -ge 1 ] || ok=1
	return $ok
}

no_splat() {
	local hits
	hits=$(dmesg_since | grep -E "$SPLATS" | head -5)
	[ -z "$hits" ] && return 0
	echo "$hits" | sed 's/^/# /'
	return 1
}

# faults off: bind, link, a pattern runs on the chip (timeline), stop
recovers() {
	local i ok=0
	ctl faults off
	[ -n "$(lp5523_chip_name)" ] || lp5523_bind "$CHIP" || return 1
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		[ "$(ls -d $LEDS/lp5523:* 2>/dev/null | wc -l)" -eq 9 ] && break
		sleep 0.1
	done
	write_ok -1 $ENG/repeat || ok=1
	write_ok "0 100 255 100" $ENG/pattern || ok=1
	for led in lp5523:kb1 lp5523:kb2 lp5523:kb3; do
		write_ok software0 "$LEDS/$led/trigger" || ok=1
	done
	write_ok run $ENG/state || ok=1
	emu_mark "pf recovered begin"
	sleep 1
	emu_mark "pf recovered end"
	want_eq state running "$(cat $ENG/state)" || ok=1
	return $ok
}

goes_idle() {
	local led ok=0
	write_ok stop $ENG/state || ok=1
	write_ok "" $ENG/pattern || ok=1
	for led in $LEDS/lp5523:*; do
		write_ok none "$led/trigger" || ok=1
		write_ok 0 "$led/brightness" || ok=1
	done
	sleep 0.2
	emu_mark "pf idle begin"
	sleep 0.5
	emu_mark "pf idle end"
	lp5523_check_idle || ok=1
	return $ok
}

ktap_print_header
if [ ! -d $ENG ] || [ -z "$(lp5523_chip_name)" ] || [ ! -e /dev/lp5523-ctl ]; then
	echo "1..0 # SKIP needs software0, a bound lp5523 and /dev/lp5523-ctl"
	exit 0
fi
ktap_set_plan 7
ktap_test_result pf_setup setup
ktap_test_result pf_writes_return_under_faults under_faults
ktap_test_result pf_failures_logged logged
ktap_test_result pf_software_engine_reads_error reads_error
ktap_test_result pf_no_splat no_splat
ktap_test_result pf_recovers_when_faults_stop recovers
ktap_test_result pf_chip_goes_idle goes_idle
ktap_finished
