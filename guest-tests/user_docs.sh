#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The commands the user documentation shows run as shown, so that none goes
# stale.  mkinitramfs.sh copies README.md and Documentation/*.md to
# /usr/share/doc/led_pattern (Documentation/ below it); a code block right after a line
#   <!-- run on the board -->
# runs here, in a fresh shell in /tmp:
# - a block whose first line starts with "# " is a transcript: "# " lines
#   are commands, the lines after one are what it printed; each printed
#   line must show up, in order, in what the commands print (white space
#   folded, so `ls` may print one name a line);
# - any other block is a script: it must exit 0 under `sh -e`; a command
#   followed by two spaces and "# <text>" prints <text> (up to a ": " or
#   " (" that starts an explanation), white space folded, and the block
#   fails when it prints anything else.
# Between blocks the engines and the LP5523s' LEDs go back to how
# the board booted (software1 running its device-tree pattern).
# lptest-timeout: 120
. /tests/lib/ktap.sh

DOCS=/usr/share/doc/led_pattern
WORK=/tmp/user_docs
LEDS=/sys/class/leds
ENG=/sys/class/led_pattern

# extract <doc> <prefix>: one <prefix>-N.sh (+ .want for transcripts) per
# marked block
extract() {
	EXPECT_FN=$EXPECT_FN awk -v pre="$2" '
	function q(s) {
		gsub(/\047/, "\047\\\047\047", s)
		return "\047" s "\047"
	}
	function flush() {
		if (n == 0) return
		f = pre "-" blocks ".sh"
		w = pre "-" blocks ".want"
		printf "" > f
		printf "" > w
		tr = (line[1] ~ /^# /)
		if (!tr)
			print ENVIRON["EXPECT_FN"] > f
		for (i = 1; i <= n; i++) {
			if (!tr && match(line[i], /[^ ]  +# [^ ]/)) {
				cmd = substr(line[i], 1, RSTART)
				want = substr(line[i], RSTART + RLENGTH - 1)
				sub(/(: | \().*/, "", want)
				print "doc_out=$(" cmd ")" > f
				print "doc_expect " q(want) " \"$doc_out\" " q(cmd) > f
				continue
			}
			if (!tr) { print line[i] > f; continue }
			if (line[i] ~ /^# /) print substr(line[i], 3) > f
			else print line[i] > w
		}
		close(f); close(w)
		n = 0
	}
	/^<!-- run on the board -->$/ { armed = 1; blocks++; next }
	armed == 1 && /^```/ { armed = 2; fenced = 1; next }
	armed == 1 && /^    / { armed = 2; fenced = 0 }
	armed == 1 && NF { armed = 0; blocks--; next }
	armed == 2 && fenced && /^```/ { flush(); armed = 0; next }
	armed == 2 && !fenced && !/^    / && NF { flush(); armed = 0; next }
	armed == 2 {
		s = fenced ? $0 : substr($0, 5)
		if (!fenced && !NF) { line[++n] = ""; next }
		line[++n] = s
	}
	END { if (armed == 2) flush() }' "$1"
}

# The function a script block's "command  # output" lines call: the output
# the guide shows, what the command printed, the command.
EXPECT_FN='doc_expect() {
	local got
	got=$(printf "%s\n" "$2" | tr -s " \t\n" "   " | sed "s/^ //; s/ \$//")
	[ "$got" = "$1" ] && return 0
	echo "the guide says \"$3\" prints \"$1\"; it printed \"$got\""
	return 1
}'

# fold: all white space to single spaces, one line
fold() {
	tr -s ' \t\n' '   ' | sed 's/^ //; s/ $//'
}

SW1_PATTERN=
save_board() {
	SW1_PATTERN=$(cat $ENG/software1/pattern 2>/dev/null)
}

restore_board() {
	local led e
	for e in $ENG/*:engine*; do
		echo stop > "$e/state"
		echo > "$e/pattern"
		echo -1 > "$e/repeat"
	done 2>/dev/null
	for led in $LEDS/lp5523:* $LEDS/ring:*; do
		echo none > "$led/trigger"
		echo 0 > "$led/brightness"
		case ${led##*:} in
		r) echo red ;;
		g) echo green ;;
		b) echo blue ;;
		*) echo none ;;
		esac > "$led/color_component" 2>/dev/null
	done
	[ -d $ENG/software0 ] || return 0
	echo stop > $ENG/software0/state
	echo > $ENG/software0/pattern
	echo -1 > $ENG/software0/repeat
	if [ -n "$SW1_PATTERN" ]; then
		echo "$SW1_PATTERN" > $ENG/software1/pattern
		echo -1 > $ENG/software1/repeat
		echo software1 > $LEDS/board:green:boot/trigger 2>/dev/null
		echo run > $ENG/software1/state
	fi
}

# run_block <script> <want>
run_block() {
	local s=$1 want=$2 got ok=0 rest line
	if [ -s "$want" ]; then
		got=$(cd /tmp && sh "$s" 2>&1 | fold)
		rest=$got
		while IFS= read -r line; do
			line=$(printf '%s\n' "$line" | fold)
			[ -n "$line" ] || continue
			case $rest in
			*"$line"*) rest=${rest#*"$line"} ;;
			*) echo "# want \"$line\" in: $(shorten "$got")"; ok=1 ;;
			esac
		done < "$want"
	else
		got=$(cd /tmp && sh -e "$s" 2>&1) ||
			{ echo "# exit status $?:"; printf '%s\n' "$got" | tail -5 | sed 's/^/#   /'; ok=1; }
	fi
	[ $ok = 0 ] || sed 's/^/#   $ /' "$s"
	return $ok
}

ktap_print_header
rm -rf $WORK && mkdir -p $WORK
n=0
for doc in $DOCS/*.md $DOCS/Documentation/*.md; do
	name=${doc#$DOCS/}
	name=${name%.md}
	extract "$doc" "$WORK/$(echo "$name" | tr 'A-Z./-' 'a-z___')"
done
for s in $WORK/*.sh; do
	[ -e "$s" ] && n=$((n + 1))
done
[ $n -gt 0 ] || ktap_exit_fail_msg "no marked blocks in $DOCS"
ktap_set_plan $n
save_board
for s in $WORK/*.sh; do
	t=${s##*/}
	restore_board
	ktap_test_result "doc_${t%.sh}" run_block "$s" "${s%.sh}.want"
done
restore_board
ktap_finished
