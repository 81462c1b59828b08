/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The board's I2C bus behind the virtio-i2c adapter: LP5523s at 0x32 and
 * 0x33 with their TRIG pins wired together (as on Google OnHub's LED
 * ring, two LP55231).  Each chip keeps its own state; the bus hands a
 * message to the chip at its address and runs the chips in lock-step on
 * one engine clock, so a trigger crosses at the cycle it is sent.
 */
#ifndef LP5523_BUS_H
#define LP5523_BUS_H

#include "lp5523.h"

#define LP5523_BUS_MAX_CHIPS	2

struct lp5523_bus {
	struct lp5523 chip[LP5523_BUS_MAX_CHIPS];
	unsigned int n;
};

/* @n chips at 0x32, 0x33; outputs 1-9 and 10-18 on the timeline */
void lp5523_bus_init(struct lp5523_bus *bus, unsigned int n,
		     const struct lp5523_sink *sink);
/* The chip at @addr, NULL if none */
struct lp5523 *lp5523_bus_chip(struct lp5523_bus *bus, unsigned int addr);
/* Run every chip up to @now_ns (since start), in lock-step */
void lp5523_bus_advance(struct lp5523_bus *bus, uint64_t now_ns);
/*
 * When the host must look next: the first output change (or the first
 * external trigger, which another chip reacts to) after the present,
 * found by running a copy of the bus; @horizon_ns past the present if
 * nothing changes before; UINT64_MAX when no engine runs.
 */
uint64_t lp5523_bus_next_change_ns(const struct lp5523_bus *bus,
				   uint64_t horizon_ns);

/* xfer(dev = struct lp5523_bus *, msg): the chip at msg->addr answers */
extern const struct lp5523_i2c_ops lp5523_bus_i2c_ops;

#endif /* LP5523_BUS_H */
