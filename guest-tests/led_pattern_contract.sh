#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What a software engine promises beyond running patterns: the state reads
# what the current run does (never a finished earlier run's word), a failed
# write changes nothing, a pattern reads back whole, a colour component
# change shows at once, resolution_us is the kernel's, poll() on state
# wakes when the engine starts, stops, finishes or fails (an I2C write the
# emulator NACKs), a repeat written while running restarts the run, and a
# write to an engine's file held open across its provider's removal gets
# ENODEV, and an engine sends its uevents under its own name once its
# trigger exists (Documentation/leds/leds-class-pattern.rst, "Running";
# Documentation/led-pattern.md).
. /tests/lib/ktap.sh
. /tests/lib/lp5523.sh

ENG=/sys/class/led_pattern/software0
KB1=/sys/class/leds/lp5523:kb1
R=/sys/class/leds/lp5523:r
POLL=/usr/bin/poll-state

cleanup() {
	printf 'stop\n' > $ENG/state
	printf '\n' > $ENG/pattern
	printf -- '-1\n' > $ENG/repeat
	printf 'none\n' > $KB1/trigger
	printf 'none\n' > $R/trigger
	printf 'red\n' > $R/color_component
}

# wait_state <state> <tenths of a second>: until the engine reads it
wait_state() {
	local i=0
	while [ "$(cat $ENG/state)" != "$1" ] && [ $i -lt $2 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	want_eq state "$1" "$(cat $ENG/state)"
}

# A run of 2 s started again and again, and started again once the one
# before it finished: each new run reads running at once, and a run that
# ended never makes the run after it read finished.  (2 s: the debug
# kernel on a host at load 7 stalled 400 ms between a write and the read
# after it in 11 of 50 tries.)
state_belongs_to_current_run() {
	local i bad=0 ok=0
	write_ok software0 $KB1/trigger || return 1
	write_ok "0 1000 255 1000" $ENG/pattern || ok=1
	write_ok 1 $ENG/repeat || ok=1
	for i in $(seq 50); do
		echo run > $ENG/state
		[ "$(cat $ENG/state)" = running ] || bad=$((bad + 1))
	done
	# a host stalled for 2 s between two writes is not the engine's fault
	[ $bad -le 2 ] || { echo "# $bad of 50 fresh runs did not read running"; ok=1; }
	for i in 1 2 3; do
		wait_state finished 60 || ok=1
		write_ok run $ENG/state || ok=1
		want_eq "state of the run after a finished one" running "$(cat $ENG/state)" || ok=1
	done
	wait_state finished 60 || ok=1
	write_ok -1 $ENG/repeat || ok=1
	write_ok run $ENG/state || ok=1
	sleep 0.5
	want_eq "state of a run forever" running "$(cat $ENG/state)" || ok=1
	cleanup
	return $ok
}

# snapshot: pattern, repeat and state of the engine, one line
snapshot() {
	echo "$(cat $ENG/pattern)|$(cat $ENG/repeat)|$(cat $ENG/state)"
}

# the LED subsystem's lines of the kernel log since dmesg_mark (not the
# others': "random: crng init done" lands at any time)
led_log_since() {
	dmesg_since | grep -E 'led|lp55'
}

# refused <errno> <value> <file> <word>: the write fails with errno,
# logs one line naming <word>, and the engine is as before
refused() {
	local before ok=0
	before=$(snapshot)
	dmesg_mark
	write_err "$1" "$2" "$3" || ok=1
	want_eq "after a refused write to ${3##*/}" "$before" "$(snapshot)" || ok=1
	if [ "$(led_log_since | grep -c .)" != 1 ] || ! led_log_since | grep -qF -- "$4"; then
		echo "# log after \"$(shorten "$2")\": want one line naming \"$4\""
		led_log_since | sed 's/^/# /'
		ok=1
	fi
	return $ok
}

failed_write_changes_nothing() {
	local i levels long= ok=0
	write_ok software0 $KB1/trigger || return 1
	write_ok "0 300 255 300" $ENG/pattern || ok=1
	write_ok 50 $ENG/repeat || ok=1
	write_ok run $ENG/state || ok=1
	refused EINVAL "0 300 x 300" $ENG/pattern "'x'" || ok=1
	refused EINVAL "0 300 256 300" $ENG/pattern "'256'" || ok=1
	refused EINVAL 0 $ENG/repeat "0 is out of range" || ok=1
	refused EINVAL often $ENG/repeat "'often'" || ok=1
	refused EINVAL go $ENG/state "'go'" || ok=1
	for i in $(seq 1024); do
		long="${long}0 1 "
	done
	refused E2BIG "${long% }" $ENG/pattern "1024 tuples" || ok=1
	# the run goes on: kb1 still changes (five samples over 0.4 s of a
	# 600 ms triangle: two samples can meet on its two slopes, five not)
	levels=
	for i in 1 2 3 4 5; do
		levels="$levels $(cat $KB1/brightness)"
		sleep 0.1
	done
	[ "$(echo $levels | tr ' ' '\n' | sort -u | wc -l)" -gt 1 ] ||
		{ echo "# kb1 stuck after the refused writes:$levels"; ok=1; }
	cleanup
	return $ok
}

# pad <n> <text>: text padded with spaces to n bytes, no newline
pad() {
	printf "%-${1}s" "$2"
}

# A full page written without a newline reads back whole in its normal
# form; a pattern whose normal form would not fit in one read is refused.
pattern_reads_back_whole() {
	local i p= ok=0
	printf 'stop\n' > $ENG/state
	pad 4096 "0000 00001 0255 0001" > $ENG/pattern ||
		{ echo "# a 4096-byte write was refused"; ok=1; }
	want_eq "4096-byte write read back" "0 1 255 1" "$(cat $ENG/pattern)" || ok=1
	for i in $(seq 1022); do
		p="${p}0 0 "
	done
	printf '%s' "${p}0 1" > $ENG/pattern ||
		{ echo "# 1023 tuples were refused"; ok=1; }
	want_eq "1023 tuples read back" "${p}0 1" "$(cat $ENG/pattern)" || ok=1
	want_eq "1023 tuples read back, bytes" 4092 "$(wc -c < $ENG/pattern)" || ok=1
	# 4095 characters in normal form: one read cannot return it and a newline
	refused E2BIG "$(echo "$p" | cut -c 5-)0 100 0 100" $ENG/pattern \
		"reads back as 4095 characters" || ok=1
	cleanup
	return $ok
}

# A held colour (no wake-ups) on the red LED: changing its component shows
# at once.
color_component_change_shows_at_once() {
	local ok=0
	write_ok software0 $R/trigger || return 1
	write_ok "#ff0000 1000 #ff0000 1000" $ENG/pattern || ok=1
	write_ok run $ENG/state || ok=1
	sleep 0.1
	want_eq "red shows red" 255 "$(cat $R/brightness)" || ok=1
	write_ok blue $R/color_component || ok=1
	sleep 0.1
	want_eq "red LED as blue" 0 "$(cat $R/brightness)" || ok=1
	write_ok none $R/color_component || ok=1
	sleep 0.1
	want_eq "red LED as none" 255 "$(cat $R/brightness)" || ok=1
	cleanup
	return $ok
}

resolution_is_the_kernels() {
	local ns want
	ns=$(awk '/resolution:/ { print $2; exit }' /proc/timer_list 2>/dev/null)
	[ -n "$ns" ] || { echo "# no resolution in /proc/timer_list"; return 1; }
	want=$((ns / 1000))
	[ $want -ge 1 ] || want=1
	want_eq resolution_us "$want" "$(cat $ENG/resolution_us)"
}

# A run of 2 s, polled from its start: the poll reads "running" first
# and wakes when the run finishes.  (A 400 ms run finished before the
# poll's first read on the debug kernel on a loaded host: the poll then
# waited for a change that had already happened.)
poll_wakes_on_finished() {
	local out rc ok=0
	[ -x $POLL ] || { echo "# $POLL missing"; return 1; }
	write_ok software0 $KB1/trigger || return 1
	write_ok "0 1000 255 1000" $ENG/pattern || ok=1
	write_ok 1 $ENG/repeat || ok=1
	write_ok run $ENG/state || ok=1
	out=$($POLL $ENG/state 5000)
	rc=$?
	echo "# poll: $out"
	[ $rc = 0 ] || ok=1
	case $out in
	"running -> finished after "*) ;;
	*) ok=1 ;;
	esac
	cleanup
	return $ok
}

# poll_wakes <"old -> new"> <command...>: poll-state on state, ready once
# it has read it, then the command; the poll must wake with that change
poll_wakes() {
	local want=$1 ready=/tmp/poll.ready res=/tmp/poll.out pid rc i=0
	shift
	[ -x $POLL ] || { echo "# $POLL missing"; return 1; }
	rm -f $ready $res
	$POLL $ENG/state 5000 $ready > $res &
	pid=$!
	while [ ! -e $ready ] && [ $i -lt 500 ]; do
		sleep 0.01
		i=$((i + 1))
	done
	"$@" || { wait $pid; return 1; }
	wait $pid
	rc=$?
	echo "# poll: $(cat $res)"
	[ $rc = 0 ] || return 1
	case $(cat $res) in
	"$want after "*) return 0 ;;
	esac
	echo "# poll: want \"$want\""
	return 1
}

poll_wakes_on_run() {
	local ok=0
	write_ok software0 $KB1/trigger || return 1
	write_ok "0 200 255 200" $ENG/pattern || ok=1
	poll_wakes "stopped -> running" write_ok run $ENG/state || ok=1
	cleanup
	return $ok
}

poll_wakes_on_stop() {
	local ok=0
	write_ok software0 $KB1/trigger || return 1
	write_ok "0 200 255 200" $ENG/pattern || ok=1
	write_ok run $ENG/state || ok=1
	poll_wakes "running -> stopped" write_ok stop $ENG/state || ok=1
	cleanup
	return $ok
}

# every write to the LP5523's PWM registers NACKed: the engine's next write
# of kb1 fails and state reads error
poll_wakes_on_error() {
	local ok=0
	[ -e /dev/lp5523-ctl ] || { echo "# no /dev/lp5523-ctl"; return 1; }
	write_ok software0 $KB1/trigger || return 1
	write_ok "0 200 255 200" $ENG/pattern || ok=1
	write_ok run $ENG/state || ok=1
	poll_wakes "running -> error" emu_ctl nack reg 16-1e || ok=1
	emu_ctl faults off || ok=1
	cleanup
	return $ok
}

# 2.5 runs into a 600 ms pattern, repeat 1: a restart runs it once more
# (running, then finished about 600 ms later, holding 255); repeat 1
# counted from the first start would have ended at once.
repeat_restarts_running() {
	local ok=0 out rc
	write_ok software0 $KB1/trigger || return 1
	write_ok "0 600 255 0" $ENG/pattern || ok=1
	write_ok run $ENG/state || ok=1
	sleep 1.5
	write_ok 1 $ENG/repeat || ok=1
	out=$($POLL $ENG/state 3000)
	rc=$?
	echo "# poll after repeat 1: $out"
	case $out in
	"running -> finished after "*) ;;
	*) ok=1 ;;
	esac
	[ $rc = 0 ] || ok=1
	# 600 ms less the time poll-state took to start
	[ "$(echo "$out" | sed -n 's/.* after \([0-9]*\) ms$/\1/p')" -ge 300 ] 2>/dev/null ||
		{ echo "# finished too soon for a restarted run"; ok=1; }
	want_eq "lp5523:kb1 finished" 255 "$(cat $KB1/brightness)" || ok=1
	cleanup
	return $ok
}

# An engine file held open while the chip's driver unbinds: the write
# after the removal gets ENODEV and changes nothing; the chip comes back.
enodev_after_provider_gone() {
	local chip err ok=0 i f=/sys/class/led_pattern/lp5523:engine2/pattern
	chip=$(lp5523_chip_name)
	[ -n "$chip" ] && [ -e $f ] || { echo "# no lp5523 with engine2"; return 1; }
	exec 4> $f
	write_ok "$chip" $LP5523_DRV/unbind || ok=1
	err=$( (echo "0 100 255 100" >&4) 2>&1) &&
		{ echo "# write after unbind: want ENODEV got success"; ok=1; }
	case $err in
	*"$(errno_text ENODEV)"*) ;;
	*) echo "# write after unbind: want ENODEV got \"${err##*: }\""; ok=1 ;;
	esac
	exec 4>&-
	lp5523_bind "$chip" || ok=1
	for i in 1 2 3 4 5 6 7 8 9 10; do
		[ -e $f ] && break
		sleep 0.1
	done
	want_eq "engine2 pattern after the chip came back" "" "$(cat $f)" || ok=1
	return $ok
}

# Each engine of a chip that comes back sends "remove" and "add" uevents
# under its own name, and on "add" its trigger is already offered to the
# chip's LEDs (the guide: a udev rule may link an LED on "add").  The
# board has no netlink (no networking): the kernel's uevent helper
# (CONFIG_UEVENT_HELPER) runs a script per event, which reads the trigger
# list as a daemon would when the event reaches it.
engine_uevents() {
	local log=/tmp/uevent.log helper=/tmp/uevent-helper e i ok=0
	[ -e $LP5523_DRV/0-0033 ] || { echo "# the ring chip is not bound"; return 1; }
	[ -w /sys/kernel/uevent_helper ] || { echo "# no /sys/kernel/uevent_helper"; return 1; }
	cat > $helper <<-'EOF'
	#!/bin/sh
	[ "$SUBSYSTEM" = led_pattern ] || exit 0
	name=${DEVPATH##*/} offered=no
	tr ' ' '\n' < /sys/class/leds/ring:white:1/trigger | tr -d '[]' |
		grep -qxF "$name" && offered=yes
	[ "$ACTION" = add ] && echo "add $name trigger=$offered" >> /tmp/uevent.log
	[ "$ACTION" = add ] || echo "$ACTION $name" >> /tmp/uevent.log
	EOF
	chmod +x $helper
	rm -f $log
	echo $helper > /sys/kernel/uevent_helper
	write_ok 0-0033 $LP5523_DRV/unbind || ok=1
	write_ok 0-0033 $LP5523_DRV/bind || ok=1
	# the helper runs asynchronously: wait for the last event it logs
	for i in $(seq 50); do
		[ "$(grep -c '^add ' $log 2>/dev/null)" -ge 3 ] && break
		sleep 0.1
	done
	echo > /sys/kernel/uevent_helper
	for e in 1 2 3; do
		grep -qx "remove ring:engine$e" $log ||
			{ echo "# no remove uevent for ring:engine$e"; ok=1; }
		grep -qx "add ring:engine$e trigger=yes" $log ||
			{ echo "# add uevent for ring:engine$e: $(grep "^add ring:engine$e " $log || echo none)"; ok=1; }
	done
	[ $ok -eq 0 ] || sed 's/^/# uevent: /' $log
	return $ok
}

# led_pattern_software.engines=N makes N software engines (default 2, at
# most 32): as many as the parameter says, named software0 on
engines_as_the_parameter_says() {
	local param asked want got i ok=0
	param=/sys/module/led_pattern_software/parameters/engines
	[ -r $param ] || { echo "# no $param"; return 1; }
	asked=$(sed -n 's/.*led_pattern_software\.engines=\([0-9]*\).*/\1/p' /proc/cmdline)
	want_eq "the parameter (command line: ${asked:-none})" "${asked:-2}" "$(cat $param)" || ok=1
	want=${asked:-2}
	[ "$want" -le 32 ] || want=32
	got=$(ls -d /sys/class/led_pattern/software* | wc -l)
	want_eq "software engines" "$want" "$got" || ok=1
	i=0
	while [ $i -lt "$want" ]; do
		[ -d /sys/class/led_pattern/software$i ] ||
			{ echo "# no software$i"; ok=1; }
		i=$((i + 1))
	done
	return $ok
}

ktap_print_header
if [ ! -d $ENG ] || [ ! -d $KB1 ] || [ ! -d $R ]; then
	echo "1..0 # SKIP needs software0 and the LP5523 LEDs"
	exit 0
fi
ktap_set_plan 13
ktap_test_result state_belongs_to_current_run state_belongs_to_current_run
ktap_test_result failed_write_changes_nothing failed_write_changes_nothing
ktap_test_result pattern_reads_back_whole pattern_reads_back_whole
ktap_test_result color_component_change_shows_at_once color_component_change_shows_at_once
ktap_test_result resolution_is_the_kernels resolution_is_the_kernels
ktap_test_result poll_wakes_on_finished poll_wakes_on_finished
ktap_test_result poll_wakes_on_run poll_wakes_on_run
ktap_test_result poll_wakes_on_stop poll_wakes_on_stop
ktap_test_result poll_wakes_on_error poll_wakes_on_error
ktap_test_result repeat_restarts_running repeat_restarts_running
ktap_test_result enodev_after_provider_gone enodev_after_provider_gone
ktap_test_result engines_as_the_parameter_says engines_as_the_parameter_says
ktap_test_result engine_uevents engine_uevents
ktap_finished
