/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The board's I2C bus behind the virtio-i2c adapter: LP5523s at 0x32 and
 * 0x33 with their TRIG pins wired together (as on Google OnHub's LED
 * ring, two LP55231), and any other chip of the family asked for at an
 * address of its own (lp5523-emu --chip lp5569@0x34).  Each chip keeps
 * its own state; the bus hands a message to the chip at its address and
 * runs the chips in lock-step on one engine clock, so a trigger crosses
 * at the cycle it is sent.  Every chip's TRIG pin is on the one wire.
 */
#ifndef LP5523_BUS_H
#define LP5523_BUS_H

#include "lp5523.h"

/* the board's own: LP5523s at 0x32 and 0x33 (--chips 1|2) */
#define LP5523_BUS_BOARD_CHIPS	2
#define LP5523_BUS_MAX_CHIPS	6

struct lp5523_bus {
	struct lp5523 chip[LP5523_BUS_MAX_CHIPS];
	unsigned int n;
};

/* One chip on the bus: its type and I2C address */
struct lp5523_bus_spec {
	const struct lp55xx_model *model;
	uint16_t addr;
};

/* @n LP5523s at 0x32, 0x33; outputs 1-9 and 10-18 on the timeline */
void lp5523_bus_init(struct lp5523_bus *bus, unsigned int n,
		     const struct lp5523_sink *sink);
/*
 * The chips of @spec in that order: chip i's D1-D9 are timeline outputs
 * 9i+1..9i+9; events of every chip but the first carry its address.
 */
void lp5523_bus_init_chips(struct lp5523_bus *bus,
			   const struct lp5523_bus_spec *spec, unsigned int n,
			   const struct lp5523_sink *sink);
/*
 * Parse "TYPE@ADDR" (lp5569@0x34) and put it in @spec (@n in use, at
 * most LP5523_BUS_MAX_CHIPS): a chip at an address already in @spec is
 * replaced, another is added.  0, or -EINVAL (type or address), -ENOSPC.
 */
int lp5523_bus_spec_add(struct lp5523_bus_spec *spec, unsigned int *n,
			const char *arg);
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
