#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lib/led-rule.sh: a udev rule of feedbackd's shape, run as the kernel's
# uevent helper for every uevent (clients.sh).  feedbackd's
# 90-feedbackd.rules (0.8.4 on) runs `fbd-ledctrl -t pattern` on every
# uevent of an LED it tags but "remove", and fbd-ledctrl writes "pattern"
# to the LED's trigger unless that is already the LED's.  The LED core
# sends a "change" uevent with TRIGGER=<name> for every trigger write, so
# the rule undoes a link to a pattern engine.  The line a distribution
# adds (Documentation/led-pattern.md) leaves those changes alone:
#
#   SUBSYSTEM=="leds", ACTION=="change", ENV{TRIGGER}=="?*", GOTO="feedbackd_end"
#
# /tmp/led-rule says which rule runs: "shipped" or "distribution".  Each
# event the rule matches is logged in /tmp/led-rule.log as
# "<action> <led> <TRIGGER> <what the rule did>".
[ "$SUBSYSTEM" = leds ] || exit 0
[ "$ACTION" = remove ] && exit 0
led=${DEVPATH##*/}
case "$led" in
lp5523:r | lp5523:g | lp5523:b) ;;
*) exit 0 ;;
esac
rule=$(cat /tmp/led-rule 2>/dev/null)
if [ "$rule" = distribution ] && [ "$ACTION" = change ] && [ -n "$TRIGGER" ]; then
	echo "$ACTION $led ${TRIGGER:--} left" >> /tmp/led-rule.log
	exit 0
fi
t=/sys$DEVPATH/trigger
if grep -q '\[pattern\]' "$t"; then
	echo "$ACTION $led ${TRIGGER:--} kept" >> /tmp/led-rule.log
else
	echo pattern > "$t"
	echo "$ACTION $led ${TRIGGER:--} set" >> /tmp/led-rule.log
fi
