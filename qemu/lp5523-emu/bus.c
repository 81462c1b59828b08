// SPDX-License-Identifier: GPL-2.0
/*
 * The board's I2C bus: LP5523s at 0x32 and 0x33, TRIG pins wired.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus.h"

/* An external trigger send pulls TRIG; every other chip on it latches. */
static void bus_trig_out(struct lp5523 *from, void *ctx)
{
	struct lp5523_bus *bus = ctx;
	unsigned int i;

	for (i = 0; i < bus->n; i++)
		if (&bus->chip[i] != from)
			lp5523_trig_in(&bus->chip[i], from->cycle);
}

static void bus_wire(struct lp5523_bus *bus)
{
	unsigned int i;

	for (i = 0; i < bus->n; i++) {
		bus->chip[i].trig_out = bus_trig_out;
		bus->chip[i].trig_ctx = bus;
	}
}

void lp5523_bus_init(struct lp5523_bus *bus, unsigned int n,
		     const struct lp5523_sink *sink)
{
	struct lp5523_bus_spec spec[LP5523_BUS_BOARD_CHIPS];
	unsigned int i;

	if (n < 1)
		n = 1;
	if (n > LP5523_BUS_BOARD_CHIPS)
		n = LP5523_BUS_BOARD_CHIPS;
	for (i = 0; i < n; i++)
		spec[i] = (struct lp5523_bus_spec){ &lp5523_model,
						    LP5523_I2C_ADDR + i };
	lp5523_bus_init_chips(bus, spec, n, sink);
}

int lp5523_bus_spec_add(struct lp5523_bus_spec *spec, unsigned int *n,
			const char *arg)
{
	const struct lp55xx_model *model;
	char type[16], *end;
	const char *at = strchr(arg, '@');
	unsigned long addr;
	unsigned int i;

	if (!at || at == arg || (size_t)(at - arg) >= sizeof(type))
		return -EINVAL;
	memcpy(type, arg, at - arg);
	type[at - arg] = 0;
	model = lp55xx_model_find(type);
	addr = strtoul(at + 1, &end, 16);
	/* 7-bit addresses; 0x00-0x07 and 0x78-0x7f are reserved by I2C */
	if (!model || !at[1] || *end || addr < 0x08 || addr > 0x77)
		return -EINVAL;
	for (i = 0; i < *n; i++)
		if (spec[i].addr == addr)
			break;
	if (i == *n && *n >= LP5523_BUS_MAX_CHIPS)
		return -ENOSPC;
	spec[i] = (struct lp5523_bus_spec){ model, addr };
	if (i == *n)
		(*n)++;
	return 0;
}

void lp5523_bus_init_chips(struct lp5523_bus *bus,
			   const struct lp5523_bus_spec *spec, unsigned int n,
			   const struct lp5523_sink *sink)
{
	unsigned int i;

	memset(bus, 0, sizeof(*bus));
	if (n > LP5523_BUS_MAX_CHIPS)
		n = LP5523_BUS_MAX_CHIPS;
	bus->n = n;
	for (i = 0; i < n; i++) {
		struct lp5523 *chip = &bus->chip[i];

		lp55xx_init(chip, spec[i].model, NULL);
		chip->addr = spec[i].addr;
		chip->out_first = i * LP5523_OUTPUTS;
		if (i)
			snprintf(chip->prefix, sizeof(chip->prefix),
				 "0x%02x ", chip->addr);
		if (sink)
			chip->sink = *sink;
		lp5523_reset(chip);	/* power-on, logged with its name */
	}
	bus_wire(bus);
}

struct lp5523 *lp5523_bus_chip(struct lp5523_bus *bus, unsigned int addr)
{
	unsigned int i;

	for (i = 0; i < bus->n; i++)
		if (bus->chip[i].addr == addr)
			return &bus->chip[i];
	return NULL;
}

/* Run all chips through their events up to @target, in cycle order. */
static void bus_run_to(struct lp5523_bus *bus, uint64_t target)
{
	uint64_t next, t;
	unsigned int i;

	for (;;) {
		next = UINT64_MAX;
		for (i = 0; i < bus->n; i++) {
			t = lp5523_next_event_cycle(&bus->chip[i]);
			if (t < next)
				next = t;
		}
		if (next > target)
			break;
		for (i = 0; i < bus->n; i++)
			lp5523_run_to(&bus->chip[i], next);
	}
}

void lp5523_bus_advance(struct lp5523_bus *bus, uint64_t now_ns)
{
	unsigned int i;

	bus_run_to(bus, lp5523_ns_to_cycles(now_ns));
	for (i = 0; i < bus->n; i++)
		lp5523_advance(&bus->chip[i], now_ns);
}

static uint64_t trig_count;

static void shadow_trig_out(struct lp5523 *from, void *ctx)
{
	trig_count++;
	bus_trig_out(from, ctx);
}

uint64_t lp5523_bus_next_change_ns(const struct lp5523_bus *bus,
				   uint64_t horizon_ns)
{
	static struct lp5523_bus shadow;
	uint64_t now = 0, limit, next, t, changes = 0;
	unsigned int i;

	for (i = 0; i < bus->n; i++)
		if (bus->chip[i].cycle > now)
			now = bus->chip[i].cycle;
	shadow = *bus;
	for (i = 0; i < shadow.n; i++) {
		memset(&shadow.chip[i].sink, 0, sizeof(shadow.chip[i].sink));
		shadow.chip[i].trace = false;
		shadow.chip[i].trig_out = shadow_trig_out;
		shadow.chip[i].trig_ctx = &shadow;
		changes += shadow.chip[i].out_changes;
	}
	trig_count = 0;
	limit = now + lp5523_ns_to_cycles(horizon_ns);
	for (;;) {
		next = UINT64_MAX;
		for (i = 0; i < shadow.n; i++) {
			t = lp5523_next_event_cycle(&shadow.chip[i]);
			if (t < next)
				next = t;
		}
		if (next == UINT64_MAX)
			return UINT64_MAX;	/* no engine runs */
		if (next > limit)
			return lp5523_cycles_to_ns(limit) + 1;
		for (i = 0; i < shadow.n; i++)
			lp5523_run_to(&shadow.chip[i], next);
		t = 0;
		for (i = 0; i < shadow.n; i++)
			t += shadow.chip[i].out_changes;
		if (t != changes || trig_count)
			return lp5523_cycles_to_ns(next) + 1;
	}
}

static int bus_xfer(void *dev, struct lp5523_msg *msg)
{
	struct lp5523 *chip = lp5523_bus_chip(dev, msg->addr);

	if (!chip)
		return -ENXIO;
	return lp5523_i2c_ops.xfer(chip, msg);
}

const struct lp5523_i2c_ops lp5523_bus_i2c_ops = {
	.xfer = bus_xfer,
};
