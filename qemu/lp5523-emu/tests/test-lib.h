/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host tests' harness (test-lp5523.c), shared with the tests of the
 * other chips of the family (test-lp55xx.c): one chip or the emulator's
 * bus, time in engine clock cycles, recorded output changes and events.
 */
#ifndef TEST_LIB_H
#define TEST_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu.h"
#include "lp5523.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MS(x)		((uint64_t)(x) * LP5523_CLOCK_HZ / 1000)
#define D(n)		(1 << ((n) - 1))

struct rec {
	uint64_t t_us;
	unsigned int out, pwm;
};

struct test {
	const char *name;
	void (*fn)(void);
};

/* the chip under test (fresh_chip(), fresh_model()) and the test clock */
extern struct lp5523 chip;
extern uint64_t cur;
/* bus tests: xfer() goes to test_emu's bus, to address cur_addr */
extern bool on_bus;
extern uint16_t cur_addr;
extern struct emu test_emu;
extern struct rec recs[1 << 16];
extern unsigned int nrec;
extern char events[1 << 16];
extern size_t nevents;

void fail(const char *fmt, ...) __printf(1, 2);
#define EXPECT_EQ(what, want, got) do {					\
	long long w_ = (want), g_ = (got);				\
	if (w_ != g_)							\
		fail("%s: want %lld got %lld", what, w_, g_);		\
} while (0)

void fresh_chip(void);
void fresh_model(const struct lp55xx_model *model);
/* a bus of @n chips (sinks as the chip's); xfer() then goes to the bus */
void test_emu_init_chips(const struct lp5523_bus_spec *spec, unsigned int n);
uint64_t c2ns(uint64_t c);
void goto_cycle(uint64_t c);
void sleep_cycles(uint64_t c);
uint64_t us_at(uint64_t c);
int xfer(uint16_t flags, uint8_t *buf, uint32_t len);
int wr(uint8_t reg, uint8_t val);
int rd(uint8_t reg);
void rmw(uint8_t reg, uint8_t mask, uint8_t val);
int next_change(unsigned int out, unsigned int from);
void expect_timeline(uint64_t t0, uint64_t span, const char *want);
void expect_event(const char *text, bool present);

/* test-lp55xx.c */
extern const struct test lp55xx_tests[];
extern const size_t lp55xx_n_tests;

#endif /* TEST_LIB_H */
