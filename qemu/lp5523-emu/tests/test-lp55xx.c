// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the LP5569 and LP8501 models (lp5523.c's lp5569_model,
 * lp8501_model): register maps and reset values, program memory through
 * each chip's paging, the three engines with their timing, triggers,
 * STATUS and interrupts, EXEC and MODE bits, the choices of
 * Documentation/lp5569-lp8501-emulator.md, and such chips on the bus.
 *
 * The register addresses below are the tests' own (struct chip_map, from
 * the documentation's tables), not the model's: a wrong address or bit
 * position in the model fails here.  Times in engine clock cycles; T0 =
 * the cycle after the EXEC write that starts the engines.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "test-lib.h"

struct chip_map {
	const char *name;
	const struct lp55xx_model *model;
	uint8_t en, exec, mode;		/* CHIP_EN, EXEC, MODE registers */
	unsigned int sh1;		/* engine 1's EXEC, MODE: [sh1+1:sh1] */
	uint8_t ctrl, pwm, current, misc, pc, status, var_d, reset, fader;
	uint8_t start, page, mem, map;
	uint8_t st_mask_busy, st_startup, st_busy;	/* STATUS bits */
	unsigned int words, pages;
	uint8_t misc_run;		/* MISC as a driver sets it to run */
	uint8_t starts[3];		/* where these tests put the programs */
};

static const struct chip_map lp5569 = {
	.name = "lp5569", .model = &lp5569_model,
	.en = 0x00, .exec = 0x01, .mode = 0x02, .sh1 = 6,
	.ctrl = 0x07, .pwm = 0x16, .current = 0x22, .misc = 0x2f, .pc = 0x30,
	.status = 0x3c, .var_d = 0x3e, .reset = 0x3f, .fader = 0x46,
	.start = 0x4b, .page = 0x4f, .mem = 0x50, .map = 0x70,
	.st_mask_busy = 0x80, .st_startup = 0x40, .st_busy = 0x20,
	.words = 256, .pages = 16,
	.misc_run = 0x41,		/* EN_AUTO_INCR, INT_CLK_EN */
	.starts = { 0x00, 0x40, 0xc0 },	/* engine 3 in page 12 */
};

static const struct chip_map lp8501 = {
	.name = "lp8501", .model = &lp8501_model,
	.en = 0x00, .exec = 0x00, .mode = 0x01, .sh1 = 4,
	.ctrl = 0x06, .pwm = 0x16, .current = 0x26, .misc = 0x36, .pc = 0x37,
	.status = 0x3a, .var_d = 0x3c, .reset = 0x3d, .fader = 0x48,
	.start = 0x4c, .page = 0x4f, .mem = 0x50, .map = 0x70,
	.st_mask_busy = 0x40, .st_startup = 0x20, .st_busy = 0x10,
	.words = 96, .pages = 6,
	.misc_run = 0x40,		/* EN_AUTO_INCR */
	.starts = { 0x00, 0x20, 0x50 },	/* engine 3 in page 5 */
};

/* the board's chip, for the bus test */
static const struct chip_map lp5523 = {
	.name = "lp5523", .model = &lp5523_model,
	.en = 0x00, .exec = 0x00, .mode = 0x01, .sh1 = 4,
	.ctrl = 0x06, .pwm = 0x16, .current = 0x26, .misc = 0x36, .pc = 0x37,
	.status = 0x3a, .var_d = 0x3c, .reset = 0x3d, .fader = 0x48,
	.start = 0x4c, .page = 0x4f, .mem = 0x50, .map = 0x70,
	.st_mask_busy = 0x40, .st_startup = 0x20, .st_busy = 0x10,
	.words = 96, .pages = 6, .misc_run = 0x40,
	.starts = { 0x00, 0x20, 0x40 },
};

static const struct chip_map *C;	/* the chip under test */

static unsigned int sh(unsigned int e)
{
	return C->sh1 - 2 * e;
}

static void clear_records(void)
{
	nrec = 0;
	nevents = 0;
	events[0] = 0;
}

/* A fresh chip of @c's type: not yet enabled */
static void chip_reset(const struct chip_map *c)
{
	C = c;
	fresh_model(c->model);
}

/* A fresh chip, enabled and clocked as a driver's probe leaves it */
static void chip_start(const struct chip_map *c)
{
	chip_reset(c);
	wr(c->en, 0x40);
	wr(c->misc, c->misc_run);
	sleep_cycles(MS(1));
	clear_records();
}

static void set_mode(unsigned int e, unsigned int m)
{
	rmw(C->mode, 3 << sh(e), m << sh(e));
}

/* @n words at absolute word @addr, through PROG_MEM_PAGE_SEL */
static void put_words(unsigned int addr, const uint16_t *w, unsigned int n)
{
	unsigned int i, a;

	for (i = 0; i < n; i++) {
		uint8_t buf[3];

		a = addr + i;
		wr(C->page, a / 16);
		buf[0] = C->mem + 2 * (a % 16);
		buf[1] = w[i] >> 8;
		buf[2] = w[i] & 0xff;
		xfer(0, buf, 3);
	}
}

static int get_word(unsigned int a)
{
	int hi, lo;

	wr(C->page, a / 16);
	hi = rd(C->mem + 2 * (a % 16));
	lo = rd(C->mem + 2 * (a % 16) + 1);
	return hi << 8 | lo;
}

/* Engine @e: disabled, LOAD, start address, program */
static void load(unsigned int e, unsigned int start, const uint16_t *w,
		 unsigned int n)
{
	set_mode(e, 0);
	set_mode(e, 1);
	sleep_cycles(MS(1));
	wr(C->start + e, start);
	put_words(start, w, n);
}

/* MODE run for the engines in @mask, then one EXEC write: returns T0 */
static uint64_t run(unsigned int mask)
{
	int mode = rd(C->mode), exec;
	unsigned int e;
	uint64_t s;

	for (e = 0; e < 3; e++)
		if (mask & (1 << e))
			mode = (mode & ~(3 << sh(e))) | 2 << sh(e);
	wr(C->mode, mode);
	sleep_cycles(MS(1));
	exec = rd(C->exec);
	for (e = 0; e < 3; e++)
		if (mask & (1 << e))
			exec = (exec & ~(3 << sh(e))) | 2 << sh(e);
	clear_records();
	s = cur;
	wr(C->exec, exec);
	return s + 1;
}

/* ------------------------------------------------------------------ */
/* Register maps and reset values                                      */

struct reg_val {
	uint8_t reg, val;
};

static void expect_regs(const struct reg_val *r, size_t n)
{
	char what[64];
	size_t i;

	for (i = 0; i < n; i++) {
		snprintf(what, sizeof(what), "%s reg 0x%02x after reset",
			 C->name, r[i].reg);
		EXPECT_EQ(what, r[i].val, rd(r[i].reg));
	}
}

/* A reserved address reads 0 and is logged; a write there is dropped */
static void expect_reserved(uint8_t reg)
{
	char text[48];

	snprintf(text, sizeof(text), "bad-access read 0x%02x", reg);
	EXPECT_EQ(text, 0, rd(reg));
	expect_event(text, true);
	wr(reg, 0x55);
	snprintf(text, sizeof(text), "bad-access write 0x%02x <- 0x55", reg);
	expect_event(text, true);
}

static void test_lp5569_registers(void)
{
	static const struct reg_val want[] = {
		{ 0x00, 0x00 }, { 0x01, 0x00 }, { 0x02, 0x00 },
		{ 0x07, 0x00 }, { 0x0f, 0x00 },		/* LED0/8_CONTROL */
		{ 0x16, 0x00 }, { 0x1e, 0x00 },		/* LED0/8_PWM */
		{ 0x22, 0xaf }, { 0x2a, 0xaf },		/* LED0/8_CURRENT */
		{ 0x2f, 0x40 },				/* MISC */
		{ 0x30, 0x00 }, { 0x32, 0x00 },		/* ENGINE1/3_PC */
		/* MASK_BUSY, and STARTUP_BUSY while CHIP_EN = 0 */
		{ 0x3c, 0xc0 },
		{ 0x3e, 0x00 }, { 0x3f, 0x00 },
		{ 0x46, 0x00 }, { 0x48, 0x00 },		/* MASTER_FADER1/3 */
		{ 0x4b, 0x00 }, { 0x4c, 0x40 }, { 0x4d, 0x80 },
		{ 0x4f, 0x00 },
		{ 0x70, 0x00 }, { 0x75, 0x00 },
	};
	static const uint8_t reserved[] = {
		0x03, 0x04, 0x05, 0x06, 0x10, 0x2b, 0x2e, 0x36, 0x37, 0x3a,
		0x3b, 0x40, 0x41, 0x45, 0x4e, 0x76, 0x80,
	};
	size_t i;

	chip_reset(&lp5569);
	expect_regs(want, ARRAY_SIZE(want));
	for (i = 0; i < ARRAY_SIZE(reserved); i++)
		expect_reserved(reserved[i]);
	/* write masks: CONFIG [6], EXEC/MODE [7:2], page select [3:0] */
	wr(0x00, 0xff);
	EXPECT_EQ("CONFIG <- 0xff", 0x40, rd(0x00));
	wr(0x4f, 0xff);
	EXPECT_EQ("PROG_MEM_PAGE_SELECT <- 0xff", 0x0f, rd(0x4f));
	/* the mapping registers are read-only */
	wr(0x71, 0xaa);
	expect_event("bad-access write 0x71 <- 0xaa", true);
	/* RESET <- 0xff brings the reset values back */
	wr(0x22, 0x10);
	wr(0x3f, 0xff);
	EXPECT_EQ("LED0_CURRENT after RESET", 0xaf, rd(0x22));
	EXPECT_EQ("CONFIG after RESET", 0x00, rd(0x00));
}

static void test_lp8501_registers(void)
{
	static const struct reg_val want[] = {
		{ 0x00, 0x00 }, { 0x01, 0x00 }, { 0x05, 0x00 },
		{ 0x06, 0x00 }, { 0x16, 0x00 },
		{ 0x26, 0xaf }, { 0x2e, 0xaf },
		{ 0x36, 0x40 },
		{ 0x3a, 0x60 },		/* as the LP5523: MASK_BUSY, STARTUP */
		{ 0x3d, 0x00 },
		{ 0x4c, 0x00 }, { 0x4d, 0x08 }, { 0x4e, 0x10 },
		{ 0x4f, 0x00 }, { 0x70, 0x00 },
	};
	static const uint8_t reserved[] = { 0x04, 0x0f, 0x1f, 0x76 };
	size_t i;

	chip_reset(&lp8501);
	expect_regs(want, ARRAY_SIZE(want));
	for (i = 0; i < ARRAY_SIZE(reserved); i++)
		expect_reserved(reserved[i]);
	wr(0x05, 0xff);
	EXPECT_EQ("POWER CONFIG <- 0xff", 0x03, rd(0x05));
	wr(0x4f, 0xff);
	EXPECT_EQ("PROG MEM PAGE SEL <- 0xff", 0x07, rd(0x4f));
}

/* ------------------------------------------------------------------ */
/* Program memory through the paging                                   */

static void test_lp5569_paging(void)
{
	static const uint16_t w[] = { 0x1234, 0xabcd };
	char what[48];
	unsigned int p;

	chip_start(&lp5569);
	/* without an engine in LOAD the memory is not there */
	put_words(0x10, w, 1);
	expect_event("bad-access write 0x50 without load", true);
	set_mode(0, 1);
	sleep_cycles(MS(1));
	/* 16 pages of 16 words: the last word of each page */
	for (p = 0; p < 16; p++) {
		uint16_t v = 0x4000 | p;

		put_words(p * 16 + 15, &v, 1);
	}
	for (p = 0; p < 16; p++) {
		snprintf(what, sizeof(what), "word %u", p * 16 + 15);
		EXPECT_EQ(what, 0x4000 | p, get_word(p * 16 + 15));
	}
	/* word 255 = page 15, 0x6e/0x6f; word 0x80 = page 8, 0x50/0x51 */
	put_words(0xff, &w[1], 1);
	wr(0x4f, 15);
	EXPECT_EQ("0x6e in page 15", 0xab, rd(0x6e));
	EXPECT_EQ("0x6f in page 15", 0xcd, rd(0x6f));
	put_words(0x80, w, 1);
	wr(0x4f, 8);
	EXPECT_EQ("0x50 in page 8", 0x12, rd(0x50));
	EXPECT_EQ("page 0 word 0 untouched", 0x0000, get_word(0));
	expect_event("bad-access page", false);
}

static void test_lp8501_paging(void)
{
	/* a program that runs over from page 0 into page 1 (words 14-17) */
	static const uint16_t prog[] = { 0x9d01, 0x4010, 0x4020, 0xc000 };
	static const uint16_t v = 0x0bad;
	uint64_t t0;

	chip_start(&lp8501);
	set_mode(0, 1);
	sleep_cycles(MS(1));
	put_words(0x5f, &v, 1);		/* word 95: page 5, 0x6e */
	EXPECT_EQ("word 95", 0x0bad, get_word(0x5f));
	wr(0x4f, 6);			/* 6 pages: 6 and 7 are not there */
	wr(0x50, 0x12);
	expect_event("bad-access page 6", true);
	EXPECT_EQ("page 6 reads", 0, rd(0x50));
	load(0, 14, prog, ARRAY_SIZE(prog));
	t0 = run(1);
	goto_cycle(t0 + 100);
	expect_timeline(t0, 100, "16 1 16; 32 1 32");
	expect_event("engine1 end", true);
}

/* ------------------------------------------------------------------ */
/* Three engines: ramp, wait, branch, end; their timing                */

/*
 * Engine e on output e + 1: set_pwm 128 at 16, a ramp of 4 steps of 16
 * cycles (129-132 at 48, 64, 80, 96), a 32-cycle wait, a branch back
 * once (set_pwm at 144, steps at 176-224), end with int at 272.
 */
static void timing_prog(unsigned int e, uint16_t *w)
{
	const uint16_t p[] = {
		0x9d00 | (e + 1),	/* mux_sel D(e+1) */
		0x4080,			/* set_pwm 128 */
		0x0204,			/* ramp up 4 x (1 x 16) */
		0x0400,			/* wait 2 x 16 */
		0xa081,			/* branch 1 time to 1 */
		0xd000,			/* end int */
	};

	memcpy(w, p, sizeof(p));
}

static void engines_timing(const struct chip_map *c)
{
	static const unsigned int at[] = {
		16, 48, 64, 80, 96, 144, 176, 192, 208, 224,
	};
	static const unsigned int pwm[] = {
		128, 129, 130, 131, 132, 128, 129, 130, 131, 132,
	};
	char want[512], what[48];
	uint16_t w[6];
	unsigned int e, i;
	uint64_t t0;
	int n = 0;

	chip_start(c);
	for (e = 0; e < 3; e++) {
		timing_prog(e, w);
		load(e, c->starts[e], w, ARRAY_SIZE(w));
	}
	t0 = run(7);
	goto_cycle(t0 + 400);
	for (i = 0; i < ARRAY_SIZE(at); i++)
		for (e = 0; e < 3; e++)
			n += snprintf(want + n, sizeof(want) - n, "%u %u %u; ",
				      at[i], e + 1, pwm[i]);
	expect_timeline(t0, 400, want);
	for (e = 0; e < 3; e++) {
		snprintf(what, sizeof(what), "engine%u end int", e + 1);
		expect_event(what, true);
	}
	/* end: EXEC back to hold, PC 0; STATUS ENGx_INT, cleared on read */
	EXPECT_EQ("EXEC bits after end", 0,
		  rd(c->exec) & (0x3f << (c->sh1 - 4)));
	EXPECT_EQ("engine 3 PC after end", 0, rd(c->pc + 2));
	EXPECT_EQ("STATUS ENGx_INT", 0x07, rd(c->status) & 0x07);
	EXPECT_EQ("STATUS ENGx_INT after read", 0, rd(c->status) & 0x07);
	expect_event("int released", true);
}

static void test_lp5569_engines_timing(void)
{
	engines_timing(&lp5569);
}

static void test_lp8501_engines_timing(void)
{
	engines_timing(&lp8501);
}

/*
 * Engine 1 waits 32 cycles and sends a trigger to engines 2 and 3 (at
 * 48).  Engine 2 waits for engine 1 only: its set_pwm starts in the
 * cycle the trigger arrives (48), then it sends to engine 3 (64).
 * Engine 3 waits for both: its set_pwm starts at 64.
 */
static void triggers(const struct chip_map *c)
{
	static const uint16_t p1[] = { 0x9d01, 0x0400, 0xe00c, 0xc000 };
	static const uint16_t p2[] = { 0x9d02, 0xe080, 0x40ff, 0xe008,
				       0xc000 };
	static const uint16_t p3[] = { 0x9d03, 0xe180, 0x4077, 0xc000 };
	uint64_t t0;

	chip_start(c);
	load(0, c->starts[0], p1, ARRAY_SIZE(p1));
	load(1, c->starts[1], p2, ARRAY_SIZE(p2));
	load(2, c->starts[2], p3, ARRAY_SIZE(p3));
	t0 = run(7);
	goto_cycle(t0 + 200);
	expect_timeline(t0, 200, "48 2 255; 64 3 119");
	expect_event("engine3 end", true);
}

static void test_lp5569_triggers(void)
{
	triggers(&lp5569);
}

static void test_lp8501_triggers(void)
{
	triggers(&lp8501);
}

/* ------------------------------------------------------------------ */
/* EXEC and MODE: bit positions and transitions                        */

static void test_lp5569_exec_mode_bits(void)
{
	static const uint16_t p[] = { 0x9d04, 0x4011, 0x4022, 0xc000 };

	chip_reset(&lp5569);
	/* EXEC is ignored while CHIP_EN = 0 */
	wr(0x01, 0x80);
	EXPECT_EQ("EXEC while disabled", 0x00, rd(0x01));
	expect_event("bad-access exec while disabled", true);
	wr(0x00, 0x40);
	wr(0x2f, 0x41);
	sleep_cycles(MS(1));
	/* MODE: engine 1 [7:6], 2 [5:4], 3 [3:2] */
	wr(0x02, 0x10);
	expect_event("engine2 load", true);
	expect_event("engine1 load", false);
	EXPECT_EQ("MODE", 0x10, rd(0x02));
	wr(0x02, 0x00);
	load(1, 0x40, p, ARRAY_SIZE(p));
	set_mode(1, 2);
	clear_records();
	/* EXEC step for engine 2: one instruction, then hold again */
	wr(0x01, 0x10);
	expect_event("engine2 exec step", true);
	sleep_cycles(40);
	EXPECT_EQ("EXEC after a step", 0x00, rd(0x01));
	EXPECT_EQ("ENGINE2_PC after a step", 1, rd(0x31));
	/* once: the instruction at PC (set_pwm 0x11), PC stays */
	wr(0x01, 0x30);
	expect_event("engine2 exec once", true);
	sleep_cycles(40);
	EXPECT_EQ("output 4 after once", 1, next_change(4, 0) >= 0);
	EXPECT_EQ("ENGINE2_PC after once", 1, rd(0x31));
	/* free run to the end; MODE run -> LOAD is refused */
	wr(0x01, 0x20);
	sleep_cycles(100);
	expect_event("engine2 end", true);
	wr(0x02, 0x10);
	expect_event("bad-access engine2 run->load ignored", true);
	/* halt: MODE 11 */
	wr(0x02, 0x30);
	expect_event("engine2 halt", true);
}

/* PC and start addresses are 8 bits: a program at word 0xf8 runs */
static void test_lp5569_pc_8bit(void)
{
	static const uint16_t p[] = { 0x9d05, 0x4033, 0xa002 };
	uint64_t t0;

	chip_start(&lp5569);
	load(2, 0xf8, p, ARRAY_SIZE(p));
	EXPECT_EQ("ENGINE3_PROG_START", 0xf8, rd(0x4d));
	t0 = run(4);
	goto_cycle(t0 + 40);
	expect_timeline(t0, 40, "16 5 51");
	/* the branch loops on word 0xfa forever; PC is relative */
	wr(0x01, 0x00);
	sleep_cycles(40);
	EXPECT_EQ("ENGINE3_PC", 2, rd(0x32));
	wr(0x32, 0x90);
	EXPECT_EQ("ENGINE3_PC <- 0x90", 0x90, rd(0x32));
	expect_event("bad-access pc3", false);
}

/* STATUS: MASK_BUSY [7], STARTUP_BUSY [6], ENGINE_BUSY [5] */
static void test_lp5569_status_bits(void)
{
	chip_reset(&lp5569);
	EXPECT_EQ("STATUS while disabled", 0xc0, rd(0x3c));
	wr(0x00, 0x40);
	EXPECT_EQ("STATUS in start-up", 0xc0, rd(0x3c));
	sleep_cycles(MS(1));
	EXPECT_EQ("STATUS after start-up", 0x80, rd(0x3c));
	wr(0x02, 0x40);			/* engine 1 LOAD */
	EXPECT_EQ("ENGINE_BUSY after LOAD", 0xa0, rd(0x3c));
	sleep_cycles(20);
	EXPECT_EQ("ENGINE_BUSY over", 0x80, rd(0x3c));
}

/* LP8501 STATUS as the LP5523: STARTUP_BUSY [5], ENGINE_BUSY [4] */
static void test_lp8501_status_bits(void)
{
	chip_reset(&lp8501);
	EXPECT_EQ("STATUS while disabled", 0x60, rd(0x3a));
	wr(0x00, 0x40);
	sleep_cycles(MS(1));
	EXPECT_EQ("STATUS after start-up", 0x40, rd(0x3a));
	wr(0x01, 0x04);			/* engine 2 LOAD */
	EXPECT_EQ("ENGINE_BUSY after LOAD", 0x50, rd(0x3a));
}

/* ------------------------------------------------------------------ */
/* The choices where the datasheets were silent                        */

/* LP5569: no INT_CLK_EN (and no CLK pin), no engine clock */
static void test_lp5569_needs_clock(void)
{
	static const uint16_t p[] = { 0x9d01, 0x4064, 0xc000 };
	uint64_t t0, s;

	chip_reset(&lp5569);
	wr(0x00, 0x40);
	sleep_cycles(MS(1));
	load(0, 0, p, ARRAY_SIZE(p));
	run(1);
	sleep_cycles(MS(10));
	EXPECT_EQ("no clock: output 1 unchanged", -1, next_change(1, 0));
	s = cur;
	wr(0x2f, 0x41);
	expect_event("clock internal", true);
	t0 = s + 1;
	goto_cycle(t0 + 100);
	expect_timeline(t0, 100, "16 1 100");
	/* the clock off again stops a running engine */
	clear_records();
	wr(0x2f, 0x40);
	expect_event("clock off", true);
}

/*
 * LP5569: an output two engines map follows the lower-numbered one,
 * whichever mapped it first.  Engine 2 maps D1 and sets 100; engine 1
 * maps it 32 cycles later and sets 200 every 32 cycles: D1 reads 200
 * from then on, engine 2's 100 every 112 cycles does not reach it.  (The
 * first holder keeping it would read 100; the last writer, 100 and 200.)
 */
static void test_lp5569_map_priority(void)
{
	static const uint16_t p1[] = { 0x9d01, 0x4064, 0x0400, 0x0400,
				       0xa000 };
	static const uint16_t p2[] = { 0x0400, 0x9d01, 0x40c8, 0xa002 };
	uint64_t t0;

	chip_start(&lp5569);
	load(0, 0x00, p2, ARRAY_SIZE(p2));
	load(1, 0x40, p1, ARRAY_SIZE(p1));
	t0 = run(3);
	goto_cycle(t0 + 300);
	expect_timeline(t0, 300, "16 1 100; 48 1 200");
	expect_event("engine2 map 0x001: 0x001 follows a higher-priority engine",
		     true);
	EXPECT_EQ("ENGINE1_MAPPING2", 0x01, rd(0x71));
	EXPECT_EQ("ENGINE2_MAPPING2", 0x01, rd(0x73));
}

/* The LP8501 has no engine priority: the last writer wins, as LP5523 */
static void test_lp8501_map_shared(void)
{
	static const uint16_t p1[] = { 0x9d01, 0x4064, 0x0400, 0x0400,
				       0xa000 };
	static const uint16_t p2[] = { 0x0400, 0x9d01, 0x40c8, 0xa002 };
	uint64_t t0;

	chip_start(&lp8501);
	load(0, 0x00, p1, ARRAY_SIZE(p1));
	load(1, 0x20, p2, ARRAY_SIZE(p2));
	t0 = run(3);
	goto_cycle(t0 + 100);
	expect_timeline(t0, 100, "16 1 100; 48 1 200");
	expect_event("held by another engine", false);
}

/* LP5569 LEDx_CONTROL [7:5] picks a master fader; 4-7 are not faders */
static void test_lp5569_fader_field(void)
{
	chip_start(&lp5569);
	wr(0x46, 128);			/* MASTER_FADER1 */
	wr(0x16, 200);			/* LED0_PWM */
	wr(0x07, 0x20);			/* LED0 on fader 1 */
	expect_event("D1 fader 1", true);
	EXPECT_EQ("output 1 on fader 1", 1, nrec >= 1);
	if (nrec)
		EXPECT_EQ("duty 200 x 128 / 255", 100, recs[nrec - 1].pwm);
	wr(0x07, 0x80);			/* 4: the EN/PWM pin, not a register */
	if (nrec)
		EXPECT_EQ("duty without a register fader", 200,
			  recs[nrec - 1].pwm);
}

/* LP8501: 0x05 is POWER CONFIG; no ON/OFF registers gate the outputs */
static void test_lp8501_power_config(void)
{
	chip_start(&lp8501);
	wr(0x16, 0x80);
	EXPECT_EQ("output 1 from its PWM register", 1, nrec == 1);
	wr(0x05, 0x02);
	expect_event("supply D1-D6 vout D7-D9 vdd", true);
	wr(0x05, 0x00);
	expect_event("supply D1-D6 vdd D7-D9 vdd", true);
	wr(0x05, 0x01);
	expect_event("supply D1-D6 vdd D7-D9 vout", true);
	EXPECT_EQ("no output change from POWER CONFIG", 1, nrec == 1);
	if (nrec)
		EXPECT_EQ("output 1", 0x80, recs[0].pwm);
	EXPECT_EQ("POWER CONFIG", 0x01, rd(0x05));
}

/* LP8501 CONFIG [7] is PWM_PWRSAVE: variable D is always VARIABLE */
static void test_lp8501_variable_d(void)
{
	static const uint16_t p[] = { 0x9d01, 0x8463, 0xc000 };
	uint64_t t0;

	chip_start(&lp8501);
	wr(0x36, 0xc0);
	wr(0x3c, 0x33);
	wr(0x41, 0x80);			/* an LED test result in 0x42 */
	sleep_cycles(100);
	load(0, 0, p, ARRAY_SIZE(p));
	t0 = run(1);
	goto_cycle(t0 + 50);
	expect_timeline(t0, 50, "16 1 51");
}

/* LP8501: 96 words; a branch past word 95 has no meaning (no-op) */
static void test_lp8501_96_words(void)
{
	static const uint16_t p[] = { 0x9d01, 0xa064, 0x4011, 0xc000 };
	uint64_t t0;

	chip_start(&lp8501);
	load(0, 0, p, ARRAY_SIZE(p));
	t0 = run(1);
	goto_cycle(t0 + 80);
	expect_event("engine1 undefined branch target 0xa064", true);
	expect_timeline(t0, 80, "32 1 17");
	wr(0x4e, 0x60);			/* start address 96: wraps */
	expect_event("bad-access start 0x60", true);
	EXPECT_EQ("ENG3 PROG START <- 0x60", 0x00, rd(0x4e));
}

/*
 * LP5569: mux_* addresses are 7-bit absolute: engine 2 (start 0x40)
 * maps the table row at word 0x20 with mux_map_addr 0x20.
 */
static void test_lp5569_mux_absolute(void)
{
	static const uint16_t row = 0x0005;	/* D1, D3 */
	static const uint16_t p[] = { 0x9fa0, 0x40aa, 0xc000 };
	uint64_t t0;

	chip_start(&lp5569);
	set_mode(0, 1);
	sleep_cycles(MS(1));
	put_words(0x20, &row, 1);
	set_mode(0, 0);
	load(1, 0x40, p, ARRAY_SIZE(p));
	t0 = run(2);
	goto_cycle(t0 + 50);
	expect_timeline(t0, 50, "16 1 170; 16 3 170");
	EXPECT_EQ("ENGINE2_MAPPING2", 0x05, rd(0x73));
}

/* ------------------------------------------------------------------ */
/* Chips on the bus                                                    */

static void test_bus_chip_spec(void)
{
	struct lp5523_bus_spec spec[LP5523_BUS_MAX_CHIPS] = {
		{ &lp5523_model, 0x32 }, { &lp5523_model, 0x33 },
	};
	unsigned int n = 2;

	EXPECT_EQ("lp5569@0x34", 0, lp5523_bus_spec_add(spec, &n, "lp5569@0x34"));
	EXPECT_EQ("added", 3, n);
	EXPECT_EQ("0x34 is an lp5569", 1, spec[2].model == &lp5569_model);
	EXPECT_EQ("lp8501@33 replaces", 0,
		  lp5523_bus_spec_add(spec, &n, "lp8501@33"));
	EXPECT_EQ("replaced, not added", 3, n);
	EXPECT_EQ("0x33 is an lp8501", 1, spec[1].model == &lp8501_model);
	EXPECT_EQ("lp55231 is an lp5523", 0,
		  lp5523_bus_spec_add(spec, &n, "lp55231@0x35"));
	EXPECT_EQ("0x35 is an lp5523", 1, spec[3].model == &lp5523_model);
	EXPECT_EQ("unknown type", -EINVAL,
		  lp5523_bus_spec_add(spec, &n, "lp5562@0x30"));
	EXPECT_EQ("no address", -EINVAL, lp5523_bus_spec_add(spec, &n, "lp5569@"));
	EXPECT_EQ("no @", -EINVAL, lp5523_bus_spec_add(spec, &n, "lp5569"));
	EXPECT_EQ("address 0x78", -EINVAL,
		  lp5523_bus_spec_add(spec, &n, "lp5569@0x78"));
	EXPECT_EQ("address junk", -EINVAL,
		  lp5523_bus_spec_add(spec, &n, "lp5569@0x34x"));
	EXPECT_EQ("5th", 0, lp5523_bus_spec_add(spec, &n, "lp5569@0x40"));
	EXPECT_EQ("6th", 0, lp5523_bus_spec_add(spec, &n, "lp5569@0x41"));
	EXPECT_EQ("7th", -ENOSPC, lp5523_bus_spec_add(spec, &n, "lp5569@0x42"));
	EXPECT_EQ("full: replace still works", 0,
		  lp5523_bus_spec_add(spec, &n, "lp5523@0x41"));
	EXPECT_EQ("chips", 6, n);
}

/*
 * The board's LP5523 at 0x32 and an LP5569 at 0x34: each answers at its
 * address with its own map, the LP5569's outputs are 10-18, and the
 * LP5523's external trigger send releases the LP5569's engine.
 */
static void test_bus_lp5569_beside_lp5523(void)
{
	static const struct lp5523_bus_spec spec[] = {
		{ &lp5523_model, 0x32 }, { &lp5569_model, 0x34 },
	};
	static const uint16_t wait_ext[] = { 0x9d02, 0xf000, 0x40ee, 0xc000 };
	static const uint16_t send_ext[] = { 0x0400, 0xe040, 0xc000 };
	char line[128];
	uint64_t t0, s;
	int i;

	fresh_chip();
	test_emu_init_chips(spec, ARRAY_SIZE(spec));
	emu_start_line(&test_emu, line, sizeof(line));
	if (strcmp(line, "start lp5523-emu 0x32 0x34:lp5569"))
		fail("start line: want \"start lp5523-emu 0x32 0x34:lp5569\" got \"%s\"",
		     line);
	cur_addr = 0x34;
	EXPECT_EQ("0x34 LED0_CURRENT", 0xaf, rd(0x22));
	cur_addr = 0x32;
	EXPECT_EQ("0x32 D1 CURRENT", 0xaf, rd(0x26));
	cur_addr = 0x33;
	EXPECT_EQ("nobody at 0x33", -1, rd(0x00));

	/* the LP5569 waits for the TRIG pin on D2 (output 11) */
	cur_addr = 0x34;
	C = &lp5569;
	wr(0x00, 0x40);
	wr(0x2f, 0x41);
	sleep_cycles(MS(1));
	load(0, 0, wait_ext, ARRAY_SIZE(wait_ext));
	run(1);
	/* the LP5523 sends it after 32 cycles */
	cur_addr = 0x32;
	C = &lp5523;
	wr(0x00, 0x40);
	sleep_cycles(MS(1));
	load(0, 0, send_ext, ARRAY_SIZE(send_ext));
	t0 = run(1);
	s = t0 + 32;
	goto_cycle(t0 + 200);
	i = next_change(11, 0);
	EXPECT_EQ("output 11 (0x34 D2) changed", 1, i >= 0);
	if (i >= 0) {
		EXPECT_EQ("0x34 D2 in the cycle of the send", us_at(s),
			  recs[i].t_us);
		EXPECT_EQ("0x34 D2 value", 0xee, recs[i].pwm);
	}
	expect_event("engine1 trigger ext", true);
	expect_event("0x34 engine1 end", true);
	on_bus = false;
}

const struct test lp55xx_tests[] = {
	{ "lp5569_registers_reset_values", test_lp5569_registers },
	{ "lp5569_program_memory_16_pages", test_lp5569_paging },
	{ "lp5569_engines_timing", test_lp5569_engines_timing },
	{ "lp5569_triggers", test_lp5569_triggers },
	{ "lp5569_exec_mode_bits", test_lp5569_exec_mode_bits },
	{ "lp5569_pc_start_8bit", test_lp5569_pc_8bit },
	{ "lp5569_status_bits", test_lp5569_status_bits },
	{ "lp5569_engines_need_clock", test_lp5569_needs_clock },
	{ "lp5569_map_priority", test_lp5569_map_priority },
	{ "lp5569_fader_field", test_lp5569_fader_field },
	{ "lp5569_mux_addr_absolute", test_lp5569_mux_absolute },
	{ "lp8501_registers_reset_values", test_lp8501_registers },
	{ "lp8501_program_memory_6_pages", test_lp8501_paging },
	{ "lp8501_engines_timing", test_lp8501_engines_timing },
	{ "lp8501_triggers", test_lp8501_triggers },
	{ "lp8501_status_bits", test_lp8501_status_bits },
	{ "lp8501_map_last_writer", test_lp8501_map_shared },
	{ "lp8501_power_config_no_onoff", test_lp8501_power_config },
	{ "lp8501_variable_d_register", test_lp8501_variable_d },
	{ "lp8501_96_words", test_lp8501_96_words },
	{ "bus_chip_spec", test_bus_chip_spec },
	{ "bus_lp5569_beside_lp5523", test_bus_lp5569_beside_lp5523 },
};

const size_t lp55xx_n_tests = ARRAY_SIZE(lp55xx_tests);
