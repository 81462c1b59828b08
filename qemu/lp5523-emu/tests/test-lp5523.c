// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the LP5523 model: no socket, time is an input.
 * Prints KTAP on stdout; exits 1 when a test fails.
 *
 * Times below are in engine clock cycles (32768 Hz).  A program started
 * by the ENABLE write at cycle S executes its first instruction at
 * T0 = S + 1; expected timelines are given as offsets from T0.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "emu.h"
#include "lp5523.h"
#include "test-lib.h"

#define XFER_CYCLES	2	/* ~61 us per I2C transfer, as on the board */

struct lp5523 chip;
uint64_t cur;			/* test time in cycles */
/* bus tests: xfer() goes to test_emu's bus, to address cur_addr */
bool on_bus;
uint16_t cur_addr = LP5523_I2C_ADDR;
static unsigned int n_xfers;		/* messages sent by xfer() */
struct emu;
static struct emu *bus_emu(void);
struct rec recs[1 << 16];
unsigned int nrec;
char events[1 << 16];
size_t nevents;
static char fail_msg[512];
static bool failed;

static void rec_output(void *ctx, uint64_t t_us, unsigned int out,
		       unsigned int pwm)
{
	(void)ctx;
	if (nrec < ARRAY_SIZE(recs))
		recs[nrec++] = (struct rec){ t_us, out, pwm };
}

static void rec_event(void *ctx, uint64_t t_us, const char *text)
{
	int n;

	(void)ctx;
	n = snprintf(events + nevents, sizeof(events) - nevents,
		     "%llu %s\n", (unsigned long long)t_us, text);
	if (n > 0 && nevents + n < sizeof(events))
		nevents += n;
}

void fail(const char *fmt, ...)
{
	va_list ap;

	if (failed)
		return;
	failed = true;
	va_start(ap, fmt);
	vsnprintf(fail_msg, sizeof(fail_msg), fmt, ap);
	va_end(ap);
}

/* ns of the start of cycle c, so that ns_to_cycles() gives c back */
uint64_t c2ns(uint64_t c)
{
	return (c * 1953125 + 63) / 64;
}

void goto_cycle(uint64_t c)
{
	if (c > cur)
		cur = c;
	if (on_bus)
		emu_sync(bus_emu());
	else
		lp5523_advance(&chip, c2ns(cur));
}

void sleep_cycles(uint64_t c)
{
	goto_cycle(cur + c);
}

uint64_t us_at(uint64_t c)
{
	return lp5523_cycles_to_us(c);
}

int xfer(uint16_t flags, uint8_t *buf, uint32_t len)
{
	struct lp5523_msg msg = {
		.addr = cur_addr, .flags = flags, .len = len, .buf = buf,
	};
	int ret;

	goto_cycle(cur);
	n_xfers++;
	if (on_bus)
		ret = lp5523_bus_i2c_ops.xfer(&bus_emu()->bus, &msg);
	else
		ret = lp5523_i2c_ops.xfer(&chip, &msg);
	sleep_cycles(XFER_CYCLES);
	return ret;
}

int wr(uint8_t reg, uint8_t val)
{
	uint8_t buf[2] = { reg, val };

	return xfer(0, buf, 2);
}

/* SMBus read byte: write the register number, then read one byte */
int rd(uint8_t reg)
{
	uint8_t val;

	if (xfer(0, &reg, 1) || xfer(LP5523_MSG_RD, &val, 1))
		return -1;
	return val;
}

void rmw(uint8_t reg, uint8_t mask, uint8_t val)
{
	int old = rd(reg);

	wr(reg, (old & ~mask) | (val & mask));
}

void fresh_model(const struct lp55xx_model *model)
{
	static const struct lp5523_sink sink = {
		.output = rec_output, .event = rec_event,
	};

	lp55xx_init(&chip, model, &sink);
	chip.trace = getenv("LP5523_TEST_TRACE") != NULL;
	on_bus = false;
	cur_addr = LP5523_I2C_ADDR;
	cur = 0;
	nrec = 0;
	nevents = 0;
	events[0] = 0;
}

void fresh_chip(void)
{
	fresh_model(&lp5523_model);
}

/* ------------------------------------------------------------------ */
/* The stock Linux 6.1 probe, reference section 6, as a transcript     */

enum { OP_W, OP_R, OP_SLEEP, OP_PROG };

struct xact {
	int op;
	uint8_t reg, val, mask;		/* OP_R: want (val & mask) */
	uint32_t arg;			/* OP_SLEEP: us; OP_PROG: engine */
};

static const uint16_t probe_progs[3][4] = {
	{ 0x9c30, 0x9cb0, 0x9d80, 0xd800 },
	{ 0x9c40, 0x9cc0, 0x9d80, 0xd800 },
	{ 0x9c50, 0x9cd0, 0x9d80, 0xd800 },
};

#define W(r, v)		{ .op = OP_W, .reg = (r), .val = (v) }
#define R(r, v, m)	{ .op = OP_R, .reg = (r), .val = (v), .mask = (m) }
#define SLEEP(us)	{ .op = OP_SLEEP, .arg = (us) }
#define PROG(e)		{ .op = OP_PROG, .arg = (e) }

static const struct xact probe_transcript[] = {
	W(0x3d, 0xff),			/* 1 reset */
	SLEEP(10000),
	W(0x00, 0x40),			/* 2 enable, read back */
	SLEEP(1000),
	R(0x00, 0x40, 0xff),
	W(0x00, 0x40),			/* 3 post init */
	SLEEP(1000),
	W(0x36, 0x7e),
	W(0x04, 0x01),
	W(0x05, 0xff),
	W(0x4c, 0x00),			/* 4 start addresses */
	W(0x4d, 0x10),
	W(0x4e, 0x20),
	R(0x01, 0x00, 0xff),		/* 5 engine 1 load */
	W(0x01, 0x10),
	SLEEP(1000),
	W(0x4f, 0x00),
	PROG(0),			/* 6 */
	R(0x01, 0x10, 0xff),		/* engine 2 */
	W(0x01, 0x14),
	SLEEP(1000),
	W(0x4f, 0x01),
	PROG(1),
	R(0x01, 0x14, 0xff),		/* engine 3 */
	W(0x01, 0x15),
	SLEEP(1000),
	W(0x4f, 0x02),
	PROG(2),
	R(0x01, 0x15, 0xff),		/* 7 run */
	R(0x00, 0x40, 0xff),
	W(0x01, 0x2a),
	SLEEP(1000),
	R(0x00, 0x40, 0xff),
	W(0x00, 0x6a),
	SLEEP(3000),		/* 8 self-check result */
	R(0x3a, 0x07, 0x07),
	W(0x01, 0x00),			/* 9 */
	SLEEP(1000),
	W(0x26, 50),			/* 10 led-cur, N900 */
	W(0x27, 50), W(0x28, 50), W(0x29, 50),
	W(0x2a, 50), W(0x2b, 50), W(0x2c, 50),
	W(0x2d, 50), W(0x2e, 50),
};

static bool replay(const struct xact *t, size_t n)
{
	unsigned int i, j;
	int v;

	for (i = 0; i < n; i++) {
		switch (t[i].op) {
		case OP_W:
			if (wr(t[i].reg, t[i].val) && t[i].reg != 0x3d) {
				fail("write 0x%02x: want ack got nack", t[i].reg);
				return false;
			}
			break;
		case OP_R:
			v = rd(t[i].reg);
			if (v < 0 || (v & t[i].mask) != t[i].val) {
				fail("transcript step %u read 0x%02x: want 0x%02x got 0x%02x",
				     i, t[i].reg, t[i].val, v & t[i].mask);
				return false;
			}
			break;
		case OP_SLEEP:
			sleep_cycles((t[i].arg * (uint64_t)LP5523_CLOCK_HZ +
				      999999) / 1000000);
			break;
		case OP_PROG:
			for (j = 0; j < 16; j++) {
				uint16_t w = j < 4 ? probe_progs[t[i].arg][j] : 0;

				wr(0x50 + 2 * j, w >> 8);
				wr(0x51 + 2 * j, w & 0xff);
			}
			break;
		}
	}
	return true;
}

static bool probe(void)
{
	fresh_chip();
	return replay(probe_transcript, ARRAY_SIZE(probe_transcript));
}

/* ------------------------------------------------------------------ */
/* The legacy sysfs engine ABI of the 6.1 driver, reference section 3  */

#define MODE_MASK(e)	(3 << (4 - 2 * (e)))
#define MODE_VAL(e, m)	((m) << (4 - 2 * (e)))

static void abi_mode_load(unsigned int e)
{
	rmw(0x01, MODE_MASK(e), MODE_VAL(e, 0));
	sleep_cycles(MS(1));
	rmw(0x01, MODE_MASK(e), MODE_VAL(e, 1));
	sleep_cycles(MS(1));
}

static void abi_leds(unsigned int e, uint16_t mask)
{
	rmw(0x01, MODE_MASK(e), MODE_VAL(e, 1));
	sleep_cycles(MS(1));
	wr(0x4f, 3 + e);
	wr(0x50, mask >> 8);
	wr(0x51, mask & 0xff);
}

static void abi_load(unsigned int e, const char *hex)
{
	uint8_t bytes[32] = { 0 };
	unsigned int i, n = strlen(hex) / 2, b;

	for (i = 0; i < n && i < 32; i++) {
		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			break;
		bytes[i] = b;
	}
	rmw(0x01, MODE_MASK(e), MODE_VAL(e, 1));
	sleep_cycles(MS(1));
	wr(0x4f, e);
	for (i = 0; i < 32; i++)
		wr(0x50 + i, bytes[i]);
}

/* "run": starts every engine in load; returns S (the ENABLE write) */
static uint64_t abi_run(void)
{
	int mode = rd(0x01), exec = rd(0x00);
	unsigned int e;
	uint64_t s;

	for (e = 0; e < 3; e++) {
		if (((mode >> (4 - 2 * e)) & 3) != 1)
			continue;
		mode = (mode & ~MODE_MASK(e)) | MODE_VAL(e, 2);
		exec = (exec & ~MODE_MASK(e)) | MODE_VAL(e, 2);
	}
	wr(0x01, mode);
	sleep_cycles(MS(1));
	rd(0x00);
	s = cur;
	wr(0x00, exec);
	return s;
}

/* engine e (0-based) runs @hex on the outputs in @leds; returns T0 */
static uint64_t run_prog(unsigned int e, const char *hex, uint16_t leds)
{
	abi_mode_load(e);
	if (leds)
		abi_leds(e, leds);
	abi_load(e, hex);
	nrec = 0;
	nevents = 0;
	return abi_run() + 1;
}


/* Output changes of @out from index @from on */
int next_change(unsigned int out, unsigned int from)
{
	unsigned int i;

	for (i = from; i < nrec; i++)
		if (recs[i].out == out)
			return i;
	return -1;
}

/*
 * Compare the output changes with @want: "dc out pwm; ..." where dc is
 * the offset from @t0 in cycles.  Only changes up to cycle @t0 + @span.
 */
void expect_timeline(uint64_t t0, uint64_t span, const char *want)
{
	unsigned int i = 0, out, pwm;
	unsigned long long dc;
	const char *p = want;
	int n;

	while (sscanf(p, " %llu %u %u%n", &dc, &out, &pwm, &n) == 3) {
		p += n;
		while (*p == ' ' || *p == ';')
			p++;
		while (i < nrec && recs[i].t_us > us_at(t0 + span))
			i++;
		if (i >= nrec) {
			fail("timeline: want \"%llu %u %u\" got end", dc, out,
			     pwm);
			return;
		}
		if (recs[i].t_us != us_at(t0 + dc) || recs[i].out != out ||
		    recs[i].pwm != pwm) {
			fail("timeline: want \"%llu %u %u\" (%llu us) got \"%llu %u %u\"",
			     dc, out, pwm,
			     (unsigned long long)us_at(t0 + dc),
			     (unsigned long long)recs[i].t_us, recs[i].out,
			     recs[i].pwm);
			return;
		}
		i++;
	}
	for (; i < nrec; i++) {
		if (recs[i].t_us <= us_at(t0 + span)) {
			fail("timeline: want end got \"%llu %u %u\"",
			     (unsigned long long)recs[i].t_us, recs[i].out,
			     recs[i].pwm);
			return;
		}
	}
}

void expect_event(const char *text, bool present)
{
	bool got = strstr(events, text) != NULL;

	if (got != present)
		fail("event \"%s\": want %s got %s", text,
		     present ? "logged" : "absent", got ? "logged" : "absent");
}

/* ------------------------------------------------------------------ */
/* Single-engine programs with hand-derived timelines                   */

struct prog_case {
	const char *name;
	const char *hex;		/* engine1_load format */
	uint16_t leds;
	uint64_t span;			/* cycles to run and compare */
	const char *timeline;		/* "dc out pwm; ..." from T0 */
};

static const struct prog_case prog_cases[] = {
	/* mux_map_next (16) then set_pwm: value at T0 + 16 */
	{ "set_pwm_imm", "9d8040ffc000", D(7), 200, "16 7 255" },
	/* wait p=0 s=31: 31 x 16 = 496 cycles */
	{ "wait_prescale0", "9d8040ff3e004000c000", D(7), 1000,
	  "16 7 255; 528 7 0" },
	/* wait p=1 s=31: 31 x 512 = 15872 cycles (484.375 ms) */
	{ "wait_prescale1", "9d8040ff7e004000c000", D(7), 20000,
	  "16 7 255; 15904 7 0" },
	/* ramp p=0 s=2 n=3 up: +1 at the end of each 32-cycle step */
	{ "ramp_up_prescale0", "9d800403c000", D(1), 500,
	  "48 1 1; 80 1 2; 112 1 3" },
	/* ramp p=1 s=1 n=8 down from 5: saturates, still 8 x 512 */
	{ "ramp_down_saturates", "9d8040054308401ec000", D(2), 6000,
	  "16 2 5; 544 2 4; 1056 2 3; 1568 2 2; 2080 2 1; 2592 2 0;"
	  " 4128 2 30" },
	/* ld A=3, ld B=4, ramp var step=A count=B, p=0 up: 48-cycle steps */
	{ "ramp_var", "9d80900394048401c000", D(3), 400,
	  "96 3 1; 144 3 2; 192 3 3; 240 3 4" },
	/* ld C=0x77, set_pwm var C */
	{ "set_pwm_var", "9d8098778462c000", D(4), 200, "32 4 119" },
	/*
	 * ld A=250, add 10 -> 4, sub 5 -> 255, ld B=3, add_var A=A+B -> 2,
	 * sub_var A=B-A -> 1, set_pwm var A
	 */
	{ "ld_add_sub", "9d8090fa910a9205940393019314 8460 c000", D(5), 400,
	  "112 5 1" },
	/* ld A=1, ld B=2; jl A<B skip 1: set_pwm 0x11 skipped */
	{ "jl_taken", "9d8090019402 8a11 4011 4022 c000", D(6), 400,
	  "64 6 34" },
	/* jge A>=B not taken: both set_pwm run */
	{ "jge_not_taken", "9d8090019402 8c11 4011 4022 c000", D(6), 400,
	  "64 6 17; 80 6 34" },
	/* jne A!=B taken, skip 2 */
	{ "jne_taken_skip2", "9d8090019402 8821 4011 4033 4022 c000", D(6),
	  400, "64 6 34" },
	/* je with A==B (both 1) taken; k=0 is a no-op */
	{ "je_taken", "9d8090019401 8e11 4011 4022 8e01 4044 c000", D(6),
	  400, "64 6 34; 96 6 68" },
	/* branch c=3 to pc1: body runs 4 times (3 jumps back), 48/loop */
	{ "branch_loop_count", "9d8040ff4000a181c000", D(7), 400,
	  "16 7 255; 32 7 0; 64 7 255; 80 7 0; 112 7 255; 128 7 0;"
	  " 160 7 255; 176 7 0" },
	/* inner c=2 (3 runs), outer c=1 (2 runs): 6 pulses */
	{ "branch_nested", "9d8040ff4000a101a081c000", D(7), 600,
	  "16 7 255; 32 7 0; 64 7 255; 80 7 0; 112 7 255; 128 7 0;"
	  " 176 7 255; 192 7 0; 224 7 255; 240 7 0; 272 7 255; 288 7 0" },
	/* ld B=2, branch var (count B) to pc2: 3 runs */
	{ "branch_var", "9d80940240ff40008609c000", D(7), 400,
	  "32 7 255; 48 7 0; 80 7 255; 96 7 0; 128 7 255; 144 7 0" },
	/* rst: back to pc0 (mux_map_next keeps the one-row table) */
	{ "rst", "9d8040ff40000000", D(8), 140,
	  "16 8 255; 32 8 0; 80 8 255; 96 8 0" },
	/* end r=1: mapped outputs to 0 */
	{ "end_reset", "9d8040ffd800", D(9), 200, "16 9 255; 32 9 0" },
	/* undefined word: a 16-cycle no-op, the program goes on */
	{ "undefined_opcode_noop", "9d8040ff8000 4000", D(1), 90,
	  "16 1 255; 48 1 0" },
	/* 0x9e80: the mux group (tt = 3) has no such code: no-op */
	{ "mux_group_undefined_noop", "9d8040ff9e80 4000", D(1), 90,
	  "16 1 255; 48 1 0" },
	/* [DS] ramp example: p=1 s=12 n=8 from 140: 8 x 187.5 ms, to 148 */
	{ "ds_ramp_example", "9d80408c5808c000", D(1), 50000,
	  "16 1 140; 6176 1 141; 12320 1 142; 18464 1 143; 24608 1 144;"
	  " 30752 1 145; 36896 1 146; 43040 1 147; 49184 1 148" },
	/* s = 0 ramp word (N900 PatternPowerOff's 01ff): no-op, goes on */
	{ "ramp_step0_noop", "9d8040ff0105 4000", D(1), 90,
	  "16 1 255; 48 1 0" },
	/* mux_sel 7 then mux_clr: D7's PWM register keeps the engine's 128 */
	{ "mux_sel_clr", "9d0740809d00c000", 0, 200, "16 7 128" },
	/*
	 * engine 1's table in page 3: rows D1, D2, D3 written by the test;
	 * each output keeps 255 when the mapping moves on
	 */
	{ "mux_map_table", "9c309cb240ff9d8040ff9d8040ff9d80c000", 0, 300,
	  "32 1 255; 64 2 255; 96 3 255" },
	/* mux_ld_addr 0x32, ld_prev -> 0x31, map_prev -> 0x30 (D1) */
	{ "mux_ld_prev", "9e309cb29f329dc19dc040ffc000", 0, 200, "80 1 255" },
	/* ramp var p=1 down, step A=2 (1024 cycles), count B=3 */
	{ "ramp_var_down_prescale1", "9d80400a900294038431c000", D(2), 4000,
	  "16 2 10; 1088 2 9; 2112 2 8; 3136 2 7" },
	/* mux_ld_start/ld_end/ld_addr/ld_next/map_prev/map_addr */
	{ "mux_ld_and_prev", "9e309cb29f309d819dc040ff9fb240ffc000", 0,
	  300, "80 1 255; 112 3 255" },
	/* int continues; trigger send to self then wait for self */
	{ "int_and_self_trigger", "9d80c400e002e08040ffc000", D(5), 200,
	  "64 5 255" },
	/* [LDOC] lp55231 example on engine 1: D7 blink, period 31792 */
	{ "doc_lp55231_blink", "9d0740ff7e0040007e00a0010000", 0, 64000,
	  "16 7 255; 15904 7 0; 31808 7 255; 47696 7 0; 63600 7 255" },
};

static void test_prog_case(const struct prog_case *c)
{
	char hex[128];
	unsigned int i, j = 0;
	uint64_t t0;

	for (i = 0; c->hex[i] && j + 1 < sizeof(hex); i++)
		if (c->hex[i] != ' ')
			hex[j++] = c->hex[i];
	hex[j] = 0;
	if (!probe())
		return;
	if (!strncmp(c->name, "mux_map_table", 13) ||
	    !strncmp(c->name, "mux_ld_", 7)) {
		abi_mode_load(0);
		wr(0x4f, 3);
		wr(0x50, 0x00);
		wr(0x51, 0x01);
		wr(0x52, 0x00);
		wr(0x53, 0x02);
		wr(0x54, 0x00);
		wr(0x55, 0x04);
	}
	t0 = run_prog(0, hex, c->leds);
	goto_cycle(t0 + c->span);
	expect_timeline(t0, c->span, c->timeline);
}

/* ------------------------------------------------------------------ */
/* Other tests                                                          */

static void test_probe_stock_driver(void)
{
	if (!probe())
		return;
	/* engines disabled by step 9, results in STATUS cleared on read */
	EXPECT_EQ("STATUS after probe", 0x00, rd(0x3a) & 0x07);
	EXPECT_EQ("OP_MODE after probe", 0x00, rd(0x01));
	EXPECT_EQ("D1 current", 50, rd(0x26));
	expect_event("D9 current 5.0 mA", true);
	EXPECT_EQ("outputs changed", 0, nrec);
}

/* The probe as the board recorded it, replayed with its own timing */
static void test_probe_recorded(void)
{
	char path[512], line[256], op;
	unsigned long long t, t_first = 0;
	unsigned int vals[34], n_ops = 0, n, i;
	uint8_t buf[34];
	int got, k;
	FILE *f;

	snprintf(path, sizeof(path), "%s/probe-linux-6.1.txt", TESTS_DIR);
	f = fopen(path, "r");
	if (!f) {
		fail("%s: want readable got %s", path, strerror(errno));
		return;
	}
	fresh_chip();
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		n = 0;
		k = 0;
		if (sscanf(line, "%llu %c%n", &t, &op, &k) != 2)
			continue;
		for (char *p = line + k; n < 34; n++) {
			int used;

			if (sscanf(p, "%x%n", &vals[n], &used) != 1)
				break;
			p += used;
		}
		if (!t_first)
			t_first = t;
		/* replay at the recorded time, offset by the reset's */
		cur = lp5523_ns_to_cycles((t - t_first) * 1000 + 10000000);
		lp5523_advance(&chip, (t - t_first) * 1000 + 10000000);
		n_ops++;
		if (op == 'w') {
			for (i = 0; i < n; i++)
				buf[i] = vals[i];
			got = lp5523_i2c_ops.xfer(&chip, &(struct lp5523_msg){
				.addr = LP5523_I2C_ADDR, .len = n, .buf = buf });
			if (got)
				fail("line %u: write nacked", n_ops);
			continue;
		}
		got = lp5523_i2c_ops.xfer(&chip, &(struct lp5523_msg){
			.addr = LP5523_I2C_ADDR, .flags = LP5523_MSG_RD,
			.len = 1, .buf = buf });
		if (got || n < 2 || buf[0] != vals[1])
			fail("op %u: read 0x%02x: want 0x%02x got 0x%02x", n_ops,
			     vals[0], n < 2 ? 0 : vals[1], buf[0]);
	}
	fclose(f);
	EXPECT_EQ("transfers replayed", 139, n_ops);
}

static void test_probe_selfcheck_timing(void)
{
	uint64_t s;

	fresh_chip();
	/* replay up to the W 0x00 <- 0x6a that starts the engines */
	if (!replay(probe_transcript, 34))
		return;
	s = cur - XFER_CYCLES;
	/* 3 instructions of 16 cycles, end sets the INT bits at T0 + 48 */
	goto_cycle(s + 1 + 48 - 1);
	EXPECT_EQ("STATUS before end", 0x00, chip.regs[0x3a] & 0x07);
	goto_cycle(s + 1 + 48);
	EXPECT_EQ("STATUS at end", 0x07, chip.regs[0x3a] & 0x07);
	/* well inside the driver's 3 ms */
	EXPECT_EQ("end before 3 ms", 1, s + 1 + 48 < MS(3) + s);
}

static void test_probe_stuck_engine_fails(void)
{
	fresh_chip();
	chip.faults.stuck = true;
	if (replay(probe_transcript, ARRAY_SIZE(probe_transcript)))
		fail("probe: want fail got pass");
	else
		failed = false;
	expect_event("fault stuck engine1", true);
}

static void test_reference_blink_period(void)
{
	uint64_t t0, rise[4];
	int i, k = 0;

	if (!probe())
		return;
	/* reference section 8 with the driver's 9d80 prefix */
	t0 = run_prog(0, "9d8040ff7e0042004000a001", D(7));
	goto_cycle(t0 + 4 * 16432 + 100);
	for (i = next_change(7, 0); i >= 0 && k < 4;
	     i = next_change(7, i + 1))
		if (recs[i].pwm == 255)
			rise[k++] = recs[i].t_us;
	EXPECT_EQ("rises", 4, k);
	if (k < 4)
		return;
	EXPECT_EQ("first rise (us)", us_at(t0 + 16), rise[0]);
	/* 16 + 15872 + 512 + 16 + 16 = 16432 cycles = 501.46 ms */
	EXPECT_EQ("period 3 loops (us)", us_at(t0 + 16 + 3 * 16432) -
		  us_at(t0 + 16), rise[3] - rise[0]);
	EXPECT_EQ("period ms x100", 50146, (rise[3] - rise[0]) / 30);
}

static void test_doc_lp5523_engine3(void)
{
	uint64_t t0, per = 16 + 16 + 255 * 32 * 2 + 127 * 512 + 16;
	int i, n = 0, peak = -1;

	if (!probe())
		return;
	/* Documentation/leds/leds-lp5523.rst: load, load, leds, run */
	abi_mode_load(2);
	abi_load(2, "9d80400004ff05ff437f0000");
	abi_leds(2, 0x1ff);
	nrec = 0;
	t0 = abi_run() + 1;
	goto_cycle(t0 + per + 32 + 32);
	for (i = next_change(1, 0); i >= 0; i = next_change(1, i + 1)) {
		n++;
		if (recs[i].pwm == 255)
			peak = i;
	}
	/* 255 up, 255 down, then 1 step of the next period */
	EXPECT_EQ("D1 changes", 511, n);
	if (peak < 0)
		return;
	EXPECT_EQ("peak (us)", us_at(t0 + 32 + 255 * 32), recs[peak].t_us);
	i = next_change(1, 0);
	EXPECT_EQ("first step (us)", us_at(t0 + 32 + 32), recs[i].t_us);
	EXPECT_EQ("last change is period+1 step", us_at(t0 + per + 64),
		  recs[nrec - 1].t_us);
	EXPECT_EQ("all nine outputs", 9 * 511, nrec);
}

/* ------------------------------------------------------------------ */
/* Programs on several engines started by one "run"                     */

struct engine_prog {
	const char *hex;		/* engineN_load format; NULL: unused */
	uint16_t leds;			/* engineN_leds */
};

struct engines_case {
	const char *name;
	struct engine_prog eng[3];
	uint64_t span;			/* cycles to run and compare */
	const char *timeline;		/* "dc out pwm; ..." from T0 */
	const char *event;		/* must be logged; NULL: none */
};

static const struct engines_case engines_cases[] = {
	/* engine 1: wait for engine 2, set_pwm; engine 2: wait 1536, send */
	{ "trigger_between_engines",
	  { { "9d80e10040ffc000", D(7) }, { "9d80460040ffe002c000", D(6) } },
	  3000, "1552 6 255; 1568 7 255", NULL },
	/*
	 * engine 2 sends at once; engine 1 waits later and passes at once:
	 * 16 + 512 (wait) + 16 (trigger)
	 */
	{ "trigger_latched",
	  { { "9d804200e10040ffc000", D(7) }, { "9d80e002c000", D(6) } },
	  1000, "544 7 255", NULL },
	/*
	 * engine 1 waits for the TRIG pin; engine 2 pulls it after 512:
	 * the sending chip's engines do not see it, engine 1 keeps waiting
	 */
	{ "trigger_external_not_own_chip",
	  { { "9d80f00040ffc000", D(7) },
	    { "9d804200e040e04040ffc000", D(6) } },
	  2000, "560 6 255", "engine2 trigger ext" },
	/*
	 * Engine 3 waits for engines 1 and 2 (0xe180); engine 1 sends after
	 * a 512-cycle wait, engine 2 after 1024: engine 3 goes on at the
	 * later one.
	 */
	{ "trigger_wait_two_engines",
	  { { "9d804200e008c000", 0 }, { "9d804400e008c000", 0 },
	    { "9d80e18040ffc000", D(9) } },
	  2000, "1040 9 255", NULL },
};

static void load_engine(unsigned int e, const struct engine_prog *p)
{
	abi_mode_load(e);
	abi_leds(e, p->leds);
	abi_load(e, p->hex);
}

static void test_engines_case(const struct engines_case *c)
{
	unsigned int e;
	uint64_t t0;

	if (!probe())
		return;
	for (e = 0; e < ARRAY_SIZE(c->eng); e++)
		if (c->eng[e].hex)
			load_engine(e, &c->eng[e]);
	nrec = 0;
	t0 = abi_run() + 1;
	goto_cycle(t0 + c->span);
	expect_timeline(t0, c->span, c->timeline);
	if (c->event)
		expect_event(c->event, true);
}

static void test_load_freezes(void)
{
	uint64_t t0, f;

	if (!probe())
		return;
	/* ramp p=0 s=1 n=255 up on D7 */
	t0 = run_prog(0, "9d8002ffc000", D(7));
	f = t0 + 16 + 100 * 16 + 8;
	goto_cycle(f);
	EXPECT_EQ("D7 before", 100, chip.out[6]);
	wr(0x01, 0x24);			/* engine 2 disabled -> load */
	f = cur - XFER_CYCLES;
	wr(0x16, 77);			/* direct write to D1, held back */
	sleep_cycles(1000);
	EXPECT_EQ("D7 frozen", 100, chip.out[6]);
	EXPECT_EQ("D1 frozen", 0, chip.out[0]);
	nrec = 0;
	wr(0x01, 0x20);			/* engine 2 back to disabled */
	f = cur - XFER_CYCLES - f;	/* frozen for f cycles */
	EXPECT_EQ("D1 after", 77, chip.out[0]);
	goto_cycle(t0 + 16 + 101 * 16 + f + 1);
	EXPECT_EQ("D7 next step", 101, chip.out[6]);
	EXPECT_EQ("next step time", us_at(t0 + 16 + 101 * 16 + f),
		  recs[next_change(7, 0)].t_us);
}

static void test_exec_step_once_pc(void)
{
	if (!probe())
		return;
	abi_mode_load(0);
	abi_leds(0, D(1));
	abi_load(0, "9d80401140224033c000");
	wr(0x01, 0x20);			/* run, exec hold */
	sleep_cycles(100);
	EXPECT_EQ("hold: pc", 0, rd(0x37));
	wr(0x00, 0x40 | 0x10);		/* step */
	sleep_cycles(100);
	EXPECT_EQ("step: pc", 1, rd(0x37));
	EXPECT_EQ("step: exec back to hold", 0x40, rd(0x00));
	wr(0x00, 0x40 | 0x30);		/* once: set_pwm 0x11, pc stays */
	sleep_cycles(100);
	EXPECT_EQ("once: pc", 1, rd(0x37));
	EXPECT_EQ("once: D1", 0x11, chip.out[0]);
	wr(0x37, 3);			/* PC write in hold */
	EXPECT_EQ("pc write", 3, rd(0x37));
	wr(0x00, 0x40 | 0x10);
	sleep_cycles(100);
	EXPECT_EQ("step at pc 3: D1", 0x33, chip.out[0]);
	wr(0x00, 0x40 | 0x20);		/* free run: end */
	sleep_cycles(100);
	EXPECT_EQ("end: pc", 0, rd(0x37));
	wr(0x37, 2);
	EXPECT_EQ("pc write", 2, rd(0x37));
}

static void test_status_clear_on_read(void)
{
	uint64_t t0;

	if (!probe())
		return;
	t0 = run_prog(1, "9d80d000", 0);
	goto_cycle(t0 + 100);
	EXPECT_EQ("STATUS ENG2_INT", 0x42, rd(0x3a));
	EXPECT_EQ("STATUS cleared", 0x40, rd(0x3a));
	expect_event("int asserted", true);
}

static void test_registers_reset_values(void)
{
	static const uint8_t want[][2] = {
		{ 0x00, 0x00 }, { 0x01, 0x00 }, { 0x04, 0x01 }, { 0x05, 0xff },
		{ 0x06, 0x00 }, { 0x16, 0x00 }, { 0x26, 0xaf }, { 0x2e, 0xaf },
		{ 0x36, 0x40 }, { 0x3a, 0x60 }, { 0x3f, 0x19 }, { 0x4c, 0x00 },
		{ 0x4d, 0x08 }, { 0x4e, 0x10 }, { 0x3d, 0x00 }, { 0x70, 0x00 },
	};
	unsigned int i;
	char what[32];

	fresh_chip();
	wr(0x36, 0x00);
	wr(0x26, 0x10);
	wr(0x3d, 0xff);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		snprintf(what, sizeof(what), "reg 0x%02x", want[i][0]);
		EXPECT_EQ(what, want[i][1], rd(want[i][0]));
	}
}

static void test_auto_increment(void)
{
	uint8_t buf[4] = { 0x26, 1, 2, 3 }, r[3];

	fresh_chip();
	wr(0x00, 0x40);
	xfer(0, buf, 4);		/* 0x26..0x28 */
	EXPECT_EQ("0x27", 2, rd(0x27));
	buf[0] = 0x26;
	xfer(0, buf, 1);
	xfer(LP5523_MSG_RD, r, 3);
	EXPECT_EQ("burst 0", 1, r[0]);
	EXPECT_EQ("burst 2", 3, r[2]);
	/* the pointer stays on the last register read (master NACK) */
	xfer(LP5523_MSG_RD, r, 1);
	EXPECT_EQ("pointer kept", 3, r[0]);
	/* no auto-increment through the PWM registers */
	buf[0] = 0x16;
	xfer(0, buf, 3);
	EXPECT_EQ("0x16", 2, rd(0x16));
	EXPECT_EQ("0x17", 0, rd(0x17));
	/* MISC[6] = 0: pointer does not move */
	wr(0x36, 0x00);
	buf[0] = 0x26;
	buf[1] = 9;
	buf[2] = 8;
	xfer(0, buf, 3);
	EXPECT_EQ("no auto-inc 0x26", 8, rd(0x26));
	EXPECT_EQ("no auto-inc 0x27", 2, rd(0x27));
}

static void test_chip_disabled(void)
{
	fresh_chip();
	wr(0x16, 100);
	EXPECT_EQ("PWM write ignored", 0, rd(0x16));
	wr(0x00, 0x2a);
	EXPECT_EQ("EXEC write ignored", 0x00, rd(0x00));
	wr(0x00, 0x40);
	wr(0x16, 100);
	EXPECT_EQ("D1 on", 100, chip.out[0]);
	wr(0x00, 0x00);
	EXPECT_EQ("D1 off with chip", 0, chip.out[0]);
}

static void test_outputs_faders_onoff(void)
{
	fresh_chip();
	wr(0x00, 0x40);
	wr(0x16, 200);
	EXPECT_EQ("D1 direct", 200, chip.out[0]);
	wr(0x06, 0x40);			/* D1 on master fader 1 (0) */
	EXPECT_EQ("D1 fader 0", 0, chip.out[0]);
	wr(0x48, 64);
	EXPECT_EQ("D1 fader 64", 200 * 64 / 255, chip.out[0]);
	wr(0x06, 0x20);			/* no fader, log */
	expect_event("D1 log", true);
	EXPECT_EQ("D1 log value", 200, chip.out[0]);
	wr(0x05, 0xfe);
	EXPECT_EQ("D1 off", 0, chip.out[0]);
	wr(0x1e, 9);
	EXPECT_EQ("D9 on", 9, chip.out[8]);
	wr(0x04, 0x00);
	EXPECT_EQ("D9 off", 0, chip.out[8]);
	wr(0x2e, 100);
	expect_event("D9 current 10.0 mA", true);
}

static void test_mapping_registers(void)
{
	uint64_t t0;

	if (!probe())
		return;
	t0 = run_prog(2, "9d80c000", D(9) | D(1));
	goto_cycle(t0 + 100);
	EXPECT_EQ("ENG3 MAP MSB", 0x01, rd(0x74));
	EXPECT_EQ("ENG3 MAP LSB", 0x01, rd(0x75));
	EXPECT_EQ("ENG1 MAP LSB", 0x00, rd(0x71));
	wr(0x01, 0x00);
	EXPECT_EQ("released on disable", 0x00, rd(0x75));
}

static void test_prog_memory_needs_load(void)
{
	if (!probe())
		return;
	wr(0x4f, 0);
	wr(0x50, 0x12);
	expect_event("bad-access write 0x50 without load", true);
	abi_mode_load(0);
	wr(0x4f, 0);
	EXPECT_EQ("probe program kept", 0x9c, rd(0x50));
	wr(0x4f, 6);
	wr(0x50, 0x12);
	expect_event("bad-access page 6", true);
}

static void test_run_to_load_refused(void)
{
	if (!probe())
		return;
	run_prog(0, "9d80a000", D(1));
	wr(0x01, 0x10);
	EXPECT_EQ("still run", 0x20, rd(0x01));
}

static void test_halt_aborts(void)
{
	uint64_t t0;

	if (!probe())
		return;
	t0 = run_prog(0, "9d8002ffc000", D(2));
	goto_cycle(t0 + 16 + 10 * 16 + 3);
	wr(0x01, 0x30);			/* halt */
	sleep_cycles(1000);
	EXPECT_EQ("D2 held", 10, chip.out[1]);
	expect_event("engine1 halt", true);
}

static void test_end_reset_fader(void)
{
	uint64_t t0;

	if (!probe())
		return;
	wr(0x48, 200);			/* master fader 1 */
	wr(0x49, 100);			/* master fader 2 */
	t0 = run_prog(0, "9d8040ffd800", D(3));
	goto_cycle(t0 + 100);
	EXPECT_EQ("fader 1 reset by end r=1", 0, rd(0x48));
	EXPECT_EQ("fader 2 kept", 100, rd(0x49));
	EXPECT_EQ("D3", 0, chip.out[2]);
	EXPECT_EQ("pc", 0, rd(0x37));
	EXPECT_EQ("exec hold", 0x40, rd(0x00));
	EXPECT_EQ("ENG1_INT", 0x04, rd(0x3a) & 0x07);
}

static void test_fault_nack(void)
{
	fresh_chip();
	chip.faults.nack_every = 3;
	EXPECT_EQ("1st", 0, wr(0x3c, 1));
	EXPECT_EQ("2nd", 0, wr(0x3c, 2));
	EXPECT_EQ("3rd nacked", -EIO, wr(0x3c, 3));
	EXPECT_EQ("value", 2, chip.regs[0x3c]);
	chip.faults.nack_every = 0;
	chip.faults.nack_first = 0x16;
	chip.faults.nack_last = 0x1e;
	wr(0x00, 0x40);
	EXPECT_EQ("reg range nacked", -EIO, wr(0x17, 5));
	EXPECT_EQ("outside range", 0, wr(0x26, 5));
	expect_event("fault nack reg 0x17", true);
	{
		struct lp5523_msg m = { .addr = 0x33, .len = 0 };

		EXPECT_EQ("other address", -ENXIO,
			  lp5523_i2c_ops.xfer(&chip, &m));
	}
}

/*
 * A NACK due on a message that more of its transfer follow (an SMBus read's
 * register write) hits the transfer's last message (its read): Linux 6.12's
 * i2c-virtio frees the requests behind a failed one while its interrupt
 * handler may still complete them.
 */
static void test_fault_nack_last_of_transfer(void)
{
	uint8_t reg = 0x3c, val = 0;
	struct lp5523_msg pointer = { .addr = 0x32, .flags = LP5523_MSG_MORE,
				      .len = 1, .buf = &reg };
	struct lp5523_msg read = { .addr = 0x32, .flags = LP5523_MSG_RD,
				   .len = 1, .buf = &val };

	fresh_chip();
	wr(0x3c, 7);
	chip.faults.nack_every = 1;
	EXPECT_EQ("register write of a read acked", 0,
		  lp5523_i2c_ops.xfer(&chip, &pointer));
	EXPECT_EQ("its read nacked", -EIO, lp5523_i2c_ops.xfer(&chip, &read));
	chip.faults.nack_every = 0;
	EXPECT_EQ("next transfer's register write", 0,
		  lp5523_i2c_ops.xfer(&chip, &pointer));
	EXPECT_EQ("next read acked", 0, lp5523_i2c_ops.xfer(&chip, &read));
	EXPECT_EQ("value read", 7, val);
}

/*
 * nack reg 0x50-0x6f nth 2: a program loaded a page a message (as the
 * driver's multi-byte writes do) loses its 2nd page only: that message
 * leaves the page as it was, the pages before and after land, and the
 * page selects (outside the range) are not counted.  One fault event.
 */
static void test_fault_nack_nth(void)
{
	uint8_t buf[1 + 2 * LP5523_PAGE_WORDS];
	unsigned int p, i;
	uint16_t page1[LP5523_PAGE_WORDS];
	const char *e;
	int n = 0;

	if (!probe())
		return;
	abi_mode_load(0);
	/* the probe's self-check program is there: it must stay */
	memcpy(page1, &chip.prog[LP5523_PAGE_WORDS], sizeof(page1));
	chip.faults.nack_first = LP5523_REG_PROG_MEM;
	chip.faults.nack_last = LP5523_REG_PROG_MEM_END;
	chip.faults.nack_nth = 2;
	for (p = 0; p < 4; p++) {
		EXPECT_EQ("page select acked", 0,
			  wr(LP5523_REG_PROG_PAGE_SEL, p));
		buf[0] = LP5523_REG_PROG_MEM;
		for (i = 1; i < sizeof(buf); i++)
			buf[i] = 0x10 + p;
		EXPECT_EQ(p == 1 ? "page 1 nacked" : "other pages acked",
			  p == 1 ? -EIO : 0, xfer(0, buf, sizeof(buf)));
	}
	EXPECT_EQ("page 0 written", 0x1010, chip.prog[0]);
	EXPECT_EQ("page 0 last word", 0x1010, chip.prog[15]);
	if (memcmp(page1, &chip.prog[LP5523_PAGE_WORDS], sizeof(page1)))
		fail("page 1: the NACKed message changed it");
	EXPECT_EQ("page 2 written", 0x1212, chip.prog[32]);
	EXPECT_EQ("page 3 written", 0x1313, chip.prog[48]);
	for (e = events; (e = strstr(e, "fault nack")); e++)
		n++;
	EXPECT_EQ("one fault event", 1, n);
	expect_event("fault nack reg 0x50 nth 2", true);
}

/* emu.c and control.c run against the test clock */
struct emu test_emu;

static uint64_t test_clock_ns(void)
{
	return c2ns(cur);
}

void view_output(unsigned int out, unsigned int pwm)
{
	(void)out;
	(void)pwm;
}

static struct emu *bus_emu(void)
{
	return &test_emu;
}

static void test_emu_init(unsigned int chips)
{
	unsigned int i;

	emu_init(&test_emu, chips, test_clock_ns, NULL);
	for (i = 0; i < chips; i++) {
		test_emu.bus.chip[i].sink = chip.sink;
		test_emu.bus.chip[i].trace = chip.trace;
	}
}

void test_emu_init_chips(const struct lp5523_bus_spec *spec, unsigned int n)
{
	unsigned int i;

	emu_init_chips(&test_emu, spec, n, test_clock_ns, NULL);
	for (i = 0; i < test_emu.bus.n; i++) {
		test_emu.bus.chip[i].sink = chip.sink;
		test_emu.bus.chip[i].trace = chip.trace;
	}
	on_bus = true;
}

static int ctl(const char *cmd)
{
	char line[128];

	snprintf(line, sizeof(line), "%s", cmd);
	return control_command(&test_emu, line);
}

static void test_control_commands(void)
{
	struct lp5523_faults *f;

	fresh_chip();
	test_emu_init(1);
	f = &test_emu.bus.chip[0].faults;
	EXPECT_EQ("nack reg hex", 0, ctl("nack reg 0x16-0x1e"));
	EXPECT_EQ("first", 0x16, f->nack_first);
	EXPECT_EQ("last", 0x1e, f->nack_last);
	EXPECT_EQ("nack reg bare hex", 0, ctl("nack reg 16-1e"));
	EXPECT_EQ("first bare", 0x16, f->nack_first);
	EXPECT_EQ("last bare", 0x1e, f->nack_last);
	EXPECT_EQ("nack reg 22-30 is hex", 0, ctl("nack reg 22-30"));
	EXPECT_EQ("last 22-30", 0x30, f->nack_last);
	EXPECT_EQ("nack reg one", 0, ctl("nack reg 0x3a"));
	EXPECT_EQ("one", 0x3a, f->nack_last);
	EXPECT_EQ("nack reg reversed", -EINVAL, ctl("nack reg 0x1e-0x16"));
	EXPECT_EQ("nth of a range", 0, ctl("nack reg 0x50-0x6f nth 2"));
	EXPECT_EQ("nth first", 0x50, f->nack_first);
	EXPECT_EQ("nth last", 0x6f, f->nack_last);
	EXPECT_EQ("nth", 2, f->nack_nth);
	EXPECT_EQ("nth 0", -EINVAL, ctl("nack reg 50-6f nth 0"));
	EXPECT_EQ("nth junk", -EINVAL, ctl("nack reg 50-6f nth 2x"));
	EXPECT_EQ("nth negative", -EINVAL, ctl("nack reg 50-6f nth -1"));
	EXPECT_EQ("nth missing", -EINVAL, ctl("nack reg 50-6f nth "));
	EXPECT_EQ("range without nth", 0, ctl("nack reg 0x16-0x1e"));
	EXPECT_EQ("nth forgotten", 0, f->nack_nth);
	ctl("nack reg 50-6f nth 3");
	f->nack_seen = 2;
	EXPECT_EQ("nack off", 0, ctl("nack off"));
	EXPECT_EQ("nack off nth", 0, f->nack_nth);
	EXPECT_EQ("nack off count", 0, f->nack_seen);
	ctl("nack reg 0x16-0x1e");
	EXPECT_EQ("nack every", 0, ctl("nack every 5"));
	EXPECT_EQ("every", 5, f->nack_every);
	EXPECT_EQ("nack every junk", -EINVAL, ctl("nack every x"));
	EXPECT_EQ("nack off", 0, ctl("nack off"));
	EXPECT_EQ("off every", 0, f->nack_every);
	EXPECT_EQ("off reg", -1, f->nack_first);
	EXPECT_EQ("delay", 0, ctl("delay 5000"));
	EXPECT_EQ("delay capped", EMU_MAX_DELAY_MS, test_emu.delay_ms);
	EXPECT_EQ("stuck on", 0, ctl("stuck on"));
	EXPECT_EQ("stuck", 1, f->stuck);
	EXPECT_EQ("stuck bad", -EINVAL, ctl("stuck maybe"));
	EXPECT_EQ("faults off", 0, ctl("faults off"));
	EXPECT_EQ("stuck off", 0, f->stuck);
	EXPECT_EQ("delay off", 0, test_emu.delay_ms);
	EXPECT_EQ("mark", 0, ctl("mark hello world"));
	EXPECT_EQ("unknown", -EINVAL, ctl("frobnicate"));
	EXPECT_EQ("empty", 0, ctl(""));
	if (!strstr(events, "mark hello world") ||
	    !strstr(events, "ctl nack every 5") ||
	    !strstr(events, "ctl-error"))
		fail("control log: want mark/ctl/ctl-error lines got \"%s\"",
		     events);
}

static void test_ledtest_adc(void)
{
	fresh_chip();
	wr(0x00, 0x40);
	wr(0x41, 0x90);			/* VDD */
	EXPECT_EQ("not done yet", 0, rd(0x3a) & 0x80);
	sleep_cycles(MS(3));
	EXPECT_EQ("done", 0x80, rd(0x3a) & 0x80);
	EXPECT_EQ("VDD 3.5 V", 166, rd(0x42));
	EXPECT_EQ("done clears on read", 0, rd(0x3a) & 0x80);
}

/* ------------------------------------------------------------------ */
/* Variables, hold, trace, lock-step, registers                        */

/*
 * Engine 1: ld C=0x40, ld A=0x11, trigger send to engine 2, end.
 * Engine 2 (D2): ld A=0x22, wait for engine 1, set_pwm var C (global:
 * 0x40), var A (its own: 0x22), var D (register 0x3C), a wait, then var
 * D again with MISC[7] = 1 (D = the LED test ADC, VDD = 166).
 */
static void test_variables_local_global_d(void)
{
	uint64_t t0;

	if (!probe())
		return;
	wr(0x3c, 0x5a);
	abi_mode_load(0);
	abi_leds(0, 0);
	abi_load(0, "9d8098409011e004c000");
	abi_mode_load(1);
	abi_leds(1, D(2));
	abi_load(1, "9d809022e0808462846084637e008463c000");
	nrec = 0;
	t0 = abi_run() + 1;
	goto_cycle(t0 + 1000);
	EXPECT_EQ("engine 1 A (0x45)", 0x11, rd(0x45));
	EXPECT_EQ("engine 2 A (0x46)", 0x22, rd(0x46));
	EXPECT_EQ("A read only", 0, wr(0x45, 0x99));
	EXPECT_EQ("A unchanged", 0x11, rd(0x45));
	expect_event("bad-access write 0x45", true);
	wr(0x41, 0x90);			/* LED test: VDD */
	wr(0x36, 0xfe);			/* MISC[7]: D = LED test ADC */
	goto_cycle(t0 + 16000);
	/* e1 sends at 48 before e2 runs in that tick: e2's wait ends at 48 */
	expect_timeline(t0, 16000,
			"48 2 64; 64 2 34; 80 2 90; 15968 2 166");
}

/* hold: the current instruction finishes, then the engine stops */
static void test_exec_hold_finishes(void)
{
	uint64_t t0, x;

	if (!probe())
		return;
	/* mux_map_next, set_pwm 255, wait 31 x 512 (32..15904), set_pwm 0 */
	t0 = run_prog(0, "9d8040ff7e004000c000", D(1));
	goto_cycle(t0 + 1000);
	wr(0x00, 0x40);			/* engine 1 exec hold, mid-wait */
	EXPECT_EQ("PC mid-wait", 2, rd(0x37));
	wr(0x37, 0);			/* busy: refused */
	expect_event("bad-access pc1", true);
	goto_cycle(t0 + 15904 + 100);
	EXPECT_EQ("PC after the wait", 3, rd(0x37));
	EXPECT_EQ("D1 kept", 255, chip.out[0]);
	x = cur;
	wr(0x00, 0x60);			/* free run again */
	goto_cycle(x + 200);
	expect_timeline(t0, x - t0, "16 1 255");
	EXPECT_EQ("D1 after free run", 0, chip.out[0]);
	EXPECT_EQ("set_pwm 0 one tick after the write",
		  us_at(x + 1), recs[next_change(1, 1)].t_us);
}

/* --trace: every instruction and every I2C message as a # line */
static void test_trace_lines(void)
{
	uint64_t t0;

	if (!probe())
		return;
	chip.trace = true;
	t0 = run_prog(0, "9d8040ffc000", D(7));
	goto_cycle(t0 + 100);
	chip.trace = false;
	expect_event("i2c w 01 20", true);
	expect_event("i2c r 01 10", true);
	expect_event("engine1 pc 0 0x9d80 mux_map_next", true);
	expect_event("engine1 pc 1 0x40ff set_pwm", true);
	expect_event("engine1 pc 2 0xc000 end", true);
}

/*
 * Three engines, one clock: the same blink on D1, D2, D3 from the same
 * ENABLE write stays in lock-step for a minute, each edge on the tick the
 * program puts it (period 16 + 15872 + 16 + 15872 + 16 = 31792 cycles).
 */
static void test_lockstep_three_engines(void)
{
	const char *blink = "9d8040ff7e0040007e00a001";
	uint64_t t0, per = 31792, span = 60 * LP5523_CLOCK_HZ;
	unsigned int e, i, n = 0;

	if (!probe())
		return;
	for (e = 0; e < 3; e++) {
		abi_mode_load(e);
		abi_leds(e, 1 << e);
		abi_load(e, blink);
	}
	nrec = 0;
	t0 = abi_run() + 1;
	goto_cycle(t0 + span);
	for (i = 0; i + 2 < nrec; i += 3, n++) {
		uint64_t want = t0 + 16 + (n / 2) * per + (n & 1) * 15888;

		if (recs[i].t_us != us_at(want) ||
		    recs[i + 1].t_us != recs[i].t_us ||
		    recs[i + 2].t_us != recs[i].t_us ||
		    recs[i].out != 1 || recs[i + 1].out != 2 ||
		    recs[i + 2].out != 3 || recs[i].pwm != (n & 1 ? 0 : 255)) {
			fail("edge %u: want D1-D3 %u at %llu us got D%u %u at %llu, D%u at %llu, D%u at %llu",
			     n, n & 1 ? 0 : 255,
			     (unsigned long long)us_at(want), recs[i].out,
			     recs[i].pwm, (unsigned long long)recs[i].t_us,
			     recs[i + 1].out,
			     (unsigned long long)recs[i + 1].t_us,
			     recs[i + 2].out,
			     (unsigned long long)recs[i + 2].t_us);
			return;
		}
	}
	EXPECT_EQ("changes: 3 per edge", 3 * n, nrec);
	EXPECT_EQ("edges in a minute", 2 * (span - 16) / per + 1, n);
}

/* Registers the other tests do not reach: masks, clamps, busy bits */
static void test_registers_misc(void)
{
	fresh_chip();
	wr(0x00, 0x40);
	wr(0x02, 0xff);
	EXPECT_EQ("0x02 ratio MSB: bit 0", 0x01, rd(0x02));
	wr(0x03, 0xa5);
	EXPECT_EQ("0x03 ratio LSB", 0xa5, rd(0x03));
	wr(0x3b, 0xff);
	EXPECT_EQ("0x3b INT: bits 2, 0", 0x05, rd(0x3b));
	wr(0x76, 0x5c);
	EXPECT_EQ("0x76 gain change", 0x5c, rd(0x76));
	wr(0x40, 100);
	EXPECT_EQ("0x40 clamped to 89", 89, rd(0x40));
	wr(0x40, 0x80);
	EXPECT_EQ("0x40 clamped to -39", 0xd9, rd(0x40));
	wr(0x3e, 0x04);
	EXPECT_EQ("0x3e busy after start", 0x84, rd(0x3e));
	sleep_cycles(MS(21));
	EXPECT_EQ("0x3e done after 20 ms", 0x04, rd(0x3e));
	EXPECT_EQ("0x3f 25 C", 0x19, rd(0x3f));
	wr(0x4f, 0xff);
	EXPECT_EQ("0x4f page select: 3 bits", 0x07, rd(0x4f));
	EXPECT_EQ("0x0f reserved reads 0", 0, rd(0x0f));
	expect_event("bad-access read 0x0f", true);
	wr(0x10, 0x12);
	expect_event("bad-access write 0x10 <- 0x12", true);
	wr(0x26, 123);
	expect_event("D1 current 12.3 mA", true);
	EXPECT_EQ("outputs changed", 0, nrec);
}

/* ------------------------------------------------------------------ */
/* Nokia N900 patterns as MCE loads them                               */

/*
 * Pattern data from maemo-leste/mce, config/mce.ini, section
 * [LEDPatternLystiRX51] (fields: priority; screen-on; timeout; mux;
 * engine 1 program; engine 2 program).  MCE's led-lysti.c maps "r", "g",
 * "b" to engine 1 and "R", "G", "B" to engine 2, writes the masks with
 * red = bit 2, green = bit 3, blue = bit 4 as a 9-character string, most
 * significant bit first, which the 6.1 driver reads first character = D1:
 * red = D7, green = D6, blue = D5, as wired on the N900.  It loads with
 * engine1_mode/leds/load, engine2_mode/leds/load, then engine2_mode and
 * engine1_mode "run".
 */
struct n900_pattern {
	const char *name;
	const char *mux;
	const char *e1, *e2;
};

static const struct n900_pattern n900_error = {
	"PatternError", "r", "9d8040007f007f0040ff7f007f000000", "9d800000",
};
static const struct n900_pattern n900_device_on = {
	"PatternDeviceOn", "rgb", "9d804000422043207f100000", "9d800000",
};
static const struct n900_pattern n900_call = {
	"PatternCommunicationCall", "b", "9d80400002ff03ff02ff03ff71080000",
	"9d800000",
};
static const struct n900_pattern n900_power_on = {
	"PatternPowerOn", "rgb", "9d80400042ff02ffc000", "9d800000",
};
static const struct n900_pattern n900_charging = {
	"PatternBatteryCharging", "rg", "9d804000427f0d7f7f007f0042000000",
	"9d800000",
};

static uint16_t mce_mux(const char *mux, bool engine2)
{
	uint16_t m = 0;

	for (; *mux; mux++) {
		if ((*mux >= 'A' && *mux <= 'Z') != engine2)
			continue;
		switch (*mux | 0x20) {
		case 'r':
			m |= D(7);
			break;
		case 'g':
			m |= D(6);
			break;
		case 'b':
			m |= D(5);
			break;
		}
	}
	return m;
}

/* engineN_mode <- disabled: the engine off, all nine PWM registers 0 */
static void abi_mode_disabled(unsigned int e)
{
	unsigned int i;

	rmw(0x01, MODE_MASK(e), MODE_VAL(e, 0));
	sleep_cycles(MS(1));
	for (i = 0; i < 9; i++)
		wr(0x16 + i, 0);
}

/* MCE's lysti_program_led(); returns T0 (both engines start together) */
static uint64_t mce_program(const struct n900_pattern *p)
{
	uint64_t t0;

	abi_mode_disabled(0);
	abi_mode_disabled(1);
	abi_mode_load(0);
	abi_leds(0, mce_mux(p->mux, false));
	abi_load(0, p->e1);
	abi_mode_load(1);
	abi_leds(1, mce_mux(p->mux, true));
	abi_load(1, p->e2);
	nrec = 0;
	nevents = 0;
	t0 = abi_run() + 1;	/* engine2_mode <- run starts both */
	abi_run();		/* engine1_mode <- run: nothing left in load */
	return t0;
}

/* The hand-derived timeline: (cycle offset from T0, output, pwm) */
static struct rec wants[4096];
static unsigned int nwant;

static void want(uint64_t dc, uint16_t outs, unsigned int pwm)
{
	unsigned int i;

	for (i = 0; i < LP5523_OUTPUTS; i++)
		if ((outs & (1 << i)) && nwant < ARRAY_SIZE(wants))
			wants[nwant++] = (struct rec){ dc, i + 1, pwm };
}

/*
 * A ramp of n steps of @step cycles starting at @dc from level @from:
 * the k-th +-1 shows at dc + k x step; saturated steps change nothing.
 * Returns the level at its end.
 */
static unsigned int want_ramp(uint64_t dc, uint16_t outs, unsigned int step,
			      unsigned int from, unsigned int n, bool down)
{
	unsigned int k, v = from;

	for (k = 1; k <= n; k++) {
		if (down ? v == 0 : v == 255)
			continue;
		v = down ? v - 1 : v + 1;
		want(dc + (uint64_t)k * step, outs, v);
	}
	return v;
}

/* Every output change up to T0 + span is exactly the hand-derived one */
static void expect_wants(uint64_t t0, uint64_t span)
{
	unsigned int i, j = 0;

	for (i = 0; i < nrec && recs[i].t_us <= us_at(t0 + span); i++, j++) {
		if (j >= nwant) {
			fail("change %u: want none got \"%llu %u %u\"", i,
			     (unsigned long long)recs[i].t_us, recs[i].out,
			     recs[i].pwm);
			return;
		}
		if (recs[i].t_us != us_at(t0 + wants[j].t_us) ||
		    recs[i].out != wants[j].out ||
		    recs[i].pwm != wants[j].pwm) {
			fail("change %u: want \"%llu %u %u\" (T0 + %llu) got \"%llu %u %u\"",
			     i, (unsigned long long)us_at(t0 + wants[j].t_us),
			     wants[j].out, wants[j].pwm,
			     (unsigned long long)wants[j].t_us,
			     (unsigned long long)recs[i].t_us, recs[i].out,
			     recs[i].pwm);
			return;
		}
	}
	for (; j < nwant; j++)
		if (wants[j].t_us <= span) {
			fail("want \"%llu %u %u\" (T0 + %llu) got end",
			     (unsigned long long)us_at(t0 + wants[j].t_us),
			     wants[j].out, wants[j].pwm,
			     (unsigned long long)wants[j].t_us);
			return;
		}
}

#define P0	16	/* prescale 0 step unit, cycles */
#define P1	512	/* prescale 1 step unit */

/*
 * PatternError, red on engine 1: mux_map_next @0, set_pwm 0 @16 (no
 * change), wait 31 x P1 @32 and @15904, set_pwm 255 @31776, two waits,
 * rst @63536: period 63552 cycles = 1939.45 ms.
 */
static void test_n900_error(void)
{
	uint64_t t0, per = 16 + 16 + 2 * 31 * P1 + 16 + 2 * 31 * P1 + 16;
	unsigned int k;

	if (!probe())
		return;
	t0 = mce_program(&n900_error);
	nwant = 0;
	for (k = 0; k < 3; k++) {
		if (k)
			want(k * per + 16, D(7), 0);
		want(k * per + 31776, D(7), 255);
	}
	EXPECT_EQ("period (cycles)", 63552, per);
	goto_cycle(t0 + 3 * per);
	expect_wants(t0, 3 * per - 1);
	expect_event("engine2 run", true);
	expect_event("halt", false);
}

/*
 * PatternDeviceOn, r, g, b on engine 1: ramp up 32 x P1 from 0 @32, down
 * 32 x P1 @16416, ramp down 16 x (31 x P1) at 0 @32800 (a pause: no
 * change), rst @286752: period 286768 cycles = 8751.46 ms.
 */
static void test_n900_device_on(void)
{
	uint64_t t0, per = 16 + 16 + 32 * P1 + 32 * P1 + 16 * 31 * P1 + 16;
	uint16_t rgb = D(5) | D(6) | D(7);
	unsigned int k, v;

	if (!probe())
		return;
	t0 = mce_program(&n900_device_on);
	nwant = 0;
	for (k = 0; k < 2; k++) {
		v = want_ramp(k * per + 32, rgb, P1, 0, 32, false);
		want_ramp(k * per + 32 + 32 * P1, rgb, P1, v, 32, true);
	}
	EXPECT_EQ("period (cycles)", 286768, per);
	goto_cycle(t0 + per + 40 * P1);
	expect_wants(t0, per + 40 * P1);
}

/*
 * PatternCommunicationCall, blue on engine 1: two fast pulses (255 x P0
 * up, 255 down, twice) from @32, then a 8 x (24 x P1) pause at 0 @16352,
 * rst @114656: period 114672 cycles = 3499.51 ms.
 */
static void test_n900_call(void)
{
	uint64_t t0, per = 16 + 16 + 4 * 255 * P0 + 8 * 24 * P1 + 16;
	unsigned int k, i, v = 0;

	if (!probe())
		return;
	t0 = mce_program(&n900_call);
	nwant = 0;
	for (k = 0; k < 2; k++)
		for (i = 0; i < 4; i++)
			v = want_ramp(k * per + 32 + i * 255 * P0, D(5), P0, v,
				      255, i & 1);
	EXPECT_EQ("period (cycles)", 114672, per);
	goto_cycle(t0 + 2 * per);
	expect_wants(t0, 2 * per - 1);
}

/*
 * PatternPowerOn, r, g, b on engine 1: ramp up 255 x P1 @32 (255 at
 * 130592), ramp up 255 x P0 at 255 (no change), end @134672: the engine
 * holds with the outputs at 255 (end without reset keeps them).
 */
static void test_n900_power_on(void)
{
	uint16_t rgb = D(5) | D(6) | D(7);
	uint64_t t0;

	if (!probe())
		return;
	t0 = mce_program(&n900_power_on);
	nwant = 0;
	want_ramp(32, rgb, P1, 0, 255, false);
	goto_cycle(t0 + 140000);
	expect_wants(t0, 140000);
	expect_event("engine1 end", true);
	EXPECT_EQ("engine 1 exec after end", 0, (rd(0x00) >> 4) & 3);
	EXPECT_EQ("D7 after end", 255, chip.out[6]);
}

/*
 * PatternBatteryCharging, r and g on engine 1: ramp up 127 x P1 @32,
 * ramp down 127 x (6 x P0) @65056, waits 31 x P1 twice and 1 x P1, rst
 * @109504: period 109520 cycles = 3342.29 ms.
 */
static void test_n900_charging(void)
{
	uint64_t t0, per = 16 + 16 + 127 * P1 + 127 * 6 * P0 +
			   2 * 31 * P1 + P1 + 16;
	uint16_t rg = D(6) | D(7);
	unsigned int k, v;

	if (!probe())
		return;
	t0 = mce_program(&n900_charging);
	nwant = 0;
	for (k = 0; k < 2; k++) {
		v = want_ramp(k * per + 32, rg, P1, 0, 127, false);
		want_ramp(k * per + 32 + 127 * P1, rg, 6 * P0, v, 127, true);
	}
	EXPECT_EQ("period (cycles)", 109520, per);
	goto_cycle(t0 + 2 * per);
	expect_wants(t0, 2 * per - 1);
}

/* ------------------------------------------------------------------ */
/* Datasheet points: engine PWM in the registers, LOAD, undefined words */

/*
 * "PWM register values of the mapped drivers will be set to 0" (end with
 * reset) and "the PWM register value will still control the LED
 * brightness" after the mapping is released [DS]: the engine writes
 * 0x16-0x1E.
 */
static void test_engine_writes_pwm_regs(void)
{
	uint64_t t0;

	if (!probe())
		return;
	/* mux_map_next (D7); set_pwm 100; mux_clr; end */
	t0 = run_prog(0, "9d8040649d00c000", D(7));
	goto_cycle(t0 + 24);
	EXPECT_EQ("D7 PWM register while mapped", 100, rd(0x1c));
	goto_cycle(t0 + 200);
	EXPECT_EQ("D7 PWM register after mux_clr", 100, rd(0x1c));
	EXPECT_EQ("D7 output after mux_clr", 100, chip.out[6]);
	/* set_pwm 255; end with reset */
	t0 = run_prog(1, "9d8040ffd800", D(9));
	goto_cycle(t0 + 20);
	EXPECT_EQ("D9 PWM register", 255, rd(0x1e));
	goto_cycle(t0 + 200);
	EXPECT_EQ("D9 PWM register after end reset", 0, rd(0x1e));
	EXPECT_EQ("D7 untouched by engine 2's end", 100, rd(0x1c));
}

/* A direct write to a mapped output lasts until the engine's next push. */
static void test_direct_write_overridden(void)
{
	uint64_t t0;

	if (!probe())
		return;
	/* set_pwm 10; wait 15872; set_pwm 20; end */
	t0 = run_prog(0, "9d80400a7e004014c000", D(7));
	goto_cycle(t0 + 1000);
	wr(0x1c, 99);
	EXPECT_EQ("D7 after the direct write", 99, chip.out[6]);
	goto_cycle(t0 + 16000);
	EXPECT_EQ("D7 after the engine's push", 20, chip.out[6]);
	EXPECT_EQ("D7 PWM register", 20, rd(0x1c));
}

/*
 * ENGINE_BUSY "is clearing internal registers": a reloaded engine starts
 * from 0, with no loop counter, latched trigger or local variable left.
 */
static void test_load_clears_engine(void)
{
	uint64_t t0;

	if (!probe())
		return;
	t0 = run_prog(0, "9d804064c000", D(7));	/* set_pwm 100; end */
	goto_cycle(t0 + 100);
	/* ramp up 5 steps of 16 cycles: from 0, not from 100 */
	t0 = run_prog(0, "9d800205c000", D(7));
	goto_cycle(t0 + 16 + 5 * 16 + 50);
	EXPECT_EQ("D7 after the reloaded ramp", 5, chip.out[6]);

	/* engine 2 triggers engine 1, which is not waiting: latched */
	abi_mode_load(0);
	abi_leds(0, D(7));
	abi_load(0, "9d809005c000");		/* ld A, 5; end */
	abi_mode_load(1);
	abi_load(1, "9d80e002c000");		/* send to engine 1; end */
	t0 = abi_run() + 1;
	goto_cycle(t0 + 200);
	EXPECT_EQ("engine 1 variable A", 5, rd(0x45));
	/* reload: wait for engine 2; set_pwm 255: the old trigger is gone */
	t0 = run_prog(0, "9d80e10040ffc000", D(7));
	EXPECT_EQ("engine 1 variable A after load", 0, rd(0x45));
	goto_cycle(t0 + 1000);
	EXPECT_EQ("D7 still waiting for a new trigger", 5, chip.out[6]);
}

/* No chip writes its own mode register: undefined words are no-ops. */
static void test_undefined_keeps_mode(void)
{
	uint64_t t0;

	if (!probe())
		return;
	t0 = run_prog(0, "9d8040ff01054011c000", D(1));
	goto_cycle(t0 + 200);
	EXPECT_EQ("OP_MODE: engine 1 still run", 0x20, rd(0x01));
	EXPECT_EQ("D1 after the word that follows", 0x11, chip.out[0]);
	expect_event("engine1 undefined", true);
}

/* A host PC write while the engine waits for a trigger is not lost. */
static void test_pc_write_in_trigger_wait(void)
{
	uint64_t t0;

	if (!probe())
		return;
	/* wait for engine 2; set_pwm 0x11; set_pwm 0x22; end */
	t0 = run_prog(0, "9d80e10040114022c000", D(1));
	goto_cycle(t0 + 200);
	wr(0x00, 0x40);				/* hold */
	wr(0x37, 3);
	EXPECT_EQ("PC after the write", 3, rd(0x37));
	wr(0x00, 0x60);				/* free run from PC 3 */
	sleep_cycles(100);
	EXPECT_EQ("D1 from the instruction at PC 3", 0x22, chip.out[0]);
}

/* LOAD is entered from disabled only [DS]. */
static void test_load_from_disabled_only(void)
{
	if (!probe())
		return;
	run_prog(0, "9d80a001", D(1));
	wr(0x01, 0x30);				/* halt */
	wr(0x01, 0x10);
	EXPECT_EQ("halt -> load refused", 0x30, rd(0x01));
	expect_event("engine1 halt->load ignored", true);
	wr(0x01, 0x00);
	wr(0x01, 0x10);
	EXPECT_EQ("disabled -> load", 0x10, rd(0x01));
}

/* START-UP_BUSY is 1 while CHIP_EN = 0 [DS]. */
static void test_startup_busy_while_disabled(void)
{
	fresh_chip();
	EXPECT_EQ("after reset", 0x20, rd(0x3a) & 0x20);
	wr(0x00, 0x40);
	sleep_cycles(100);
	EXPECT_EQ("enabled, 500 us later", 0x00, rd(0x3a) & 0x20);
	wr(0x00, 0x00);
	EXPECT_EQ("disabled again", 0x20, rd(0x3a) & 0x20);
}

/* ------------------------------------------------------------------ */
/* Control channel, counters, the second chip, the host timer          */

/* "faults off" also forgets how far "nack every" had counted */
static void test_control_faults_off_count(void)
{
	struct lp5523_faults *f;

	fresh_chip();
	test_emu_init(1);
	on_bus = true;
	f = &test_emu.bus.chip[0].faults;
	ctl("nack every 3");
	wr(0x3c, 1);
	wr(0x3c, 2);
	EXPECT_EQ("counted", 2, f->nack_count);
	ctl("faults off");
	EXPECT_EQ("count after faults off", 0, f->nack_count);
	EXPECT_EQ("0x33 nack reg on a one-chip bus", -EINVAL,
		  ctl("0x33 nack reg 16-1e"));
}

/* A line longer than the buffer is refused whole, not run cut short. */
static void test_control_overlong_line(void)
{
	struct control_input in = { .reply_fd = -1 };
	char line[CONTROL_LINE_MAX + 64];

	fresh_chip();
	test_emu_init(1);
	memset(line, ' ', sizeof(line));
	memcpy(line, "stuck on", 8);	/* what a cut would run */
	line[sizeof(line) - 1] = '\n';
	control_feed(&test_emu, &in, line, sizeof(line));
	EXPECT_EQ("stuck after an overlong line", 0,
		  test_emu.bus.chip[0].faults.stuck);
	expect_event("ctl-error line longer than", true);
	control_feed(&test_emu, &in, "stuck on\n", 9);
	EXPECT_EQ("the next line runs", 1, test_emu.bus.chip[0].faults.stuck);
	/* a line in two reads */
	control_feed(&test_emu, &in, "stuck o", 7);
	control_feed(&test_emu, &in, "ff\r\n", 4);
	EXPECT_EQ("split line", 0, test_emu.bus.chip[0].faults.stuck);
}

/* expect_reply: the answer the guest reads back on its own connection */
static void expect_reply(int fd, const char *want)
{
	char got[CONTROL_LINE_MAX + 16];
	ssize_t n;

	n = read(fd, got, sizeof(got) - 1);
	got[n > 0 ? n : 0] = 0;
	if (strcmp(got, want))
		fail("reply: want \"%s\" got \"%s\"", want, got);
}

/*
 * Every line is answered on its connection after it took effect: the mark
 * is in the timeline, the fault applies, so the guest can go on at once.
 */
static void test_control_acks(void)
{
	struct control_input in;
	char line[CONTROL_LINE_MAX + 64];
	int sv[2];

	fresh_chip();
	test_emu_init(1);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		fail("socketpair: %s", strerror(errno));
		return;
	}
	in = (struct control_input){ .reply_fd = sv[0] };
	control_feed(&test_emu, &in, "mark before run\n", 16);
	expect_event("mark before run", true);
	expect_reply(sv[1], "ok mark before run\n");
	control_feed(&test_emu, &in, "stuck on\n", 9);
	EXPECT_EQ("stuck when acked", 1, test_emu.bus.chip[0].faults.stuck);
	expect_reply(sv[1], "ok stuck on\n");
	control_feed(&test_emu, &in, "nack sometimes\n", 15);
	expect_reply(sv[1], "error nack sometimes\n");
	memset(line, 'x', sizeof(line));
	line[sizeof(line) - 1] = '\n';
	control_feed(&test_emu, &in, line, sizeof(line));
	expect_reply(sv[1], "error overlong\n");
	/* a line in two reads is answered once, whole */
	control_feed(&test_emu, &in, "faults", 6);
	control_feed(&test_emu, &in, " off\n", 5);
	expect_reply(sv[1], "ok faults off\n");
	close(sv[0]);
	close(sv[1]);
}

static void fresh_bus(void)
{
	fresh_chip();
	test_emu_init(2);
	on_bus = true;
}

static bool bus_probe(uint16_t addr)
{
	cur_addr = addr;
	return replay(probe_transcript, ARRAY_SIZE(probe_transcript));
}

/* Every mark carries each chip's count of answered I2C messages. */
static void test_mark_counters(void)
{
	char want[64];
	unsigned int n;

	fresh_bus();
	ctl("mark a");
	expect_event("mark a | i2c 0x32=0 0x33=0", true);
	n = n_xfers;
	bus_probe(0x32);
	n = n_xfers - n;
	ctl("mark b");
	snprintf(want, sizeof(want), "mark b | i2c 0x32=%u 0x33=0", n);
	expect_event(want, true);
	cur_addr = 0x33;
	rd(0x00);
	ctl("mark c");
	snprintf(want, sizeof(want), "mark c | i2c 0x32=%u 0x33=2", n);
	expect_event(want, true);
}

/* 0x33 is a chip of its own; its outputs are 10-18 on the timeline. */
static void test_second_chip(void)
{
	uint64_t t0;
	int i;

	fresh_bus();
	if (!bus_probe(0x32) || !bus_probe(0x33))
		return;
	cur_addr = 0x33;
	t0 = run_prog(0, "9d8040ffc000", D(7));
	goto_cycle(t0 + 100);
	i = next_change(16, 0);
	EXPECT_EQ("output 16 (0x33 D7) changed", 1, i >= 0);
	if (i >= 0)
		EXPECT_EQ("output 16 at set_pwm", us_at(t0 + 16), recs[i].t_us);
	EXPECT_EQ("output 7 (0x32 D7) unchanged", -1, next_change(7, 0));
	expect_event("0x33 engine1 end", true);
	cur_addr = 0x32;
	EXPECT_EQ("0x32 D7 PWM register", 0, rd(0x1c));
	EXPECT_EQ("0x32 engine 1 mode", 0x00, rd(0x01));
}

/*
 * TRIG pins wired: an external send of 0x33 releases 0x32's waiting
 * engine at the cycle it is sent; 0x33's own engines do not see it.
 */
static void test_trig_between_chips(void)
{
	uint64_t t0;
	int i;

	fresh_bus();
	if (!bus_probe(0x32) || !bus_probe(0x33))
		return;
	/* 0x32 engine 1: wait for TRIG; set_pwm 255 on D7 */
	cur_addr = 0x32;
	run_prog(0, "9d80f00040ffc000", D(7));
	sleep_cycles(1000);
	/* 0x33 engine 1 waits for TRIG too; engine 2 sends after 512 */
	cur_addr = 0x33;
	abi_mode_load(0);
	abi_leds(0, D(5));
	abi_load(0, "9d80f00040ffc000");
	abi_mode_load(1);
	abi_leds(1, D(6));
	abi_load(1, "9d804200e04040ffc000");
	nrec = 0;
	t0 = abi_run() + 1;
	goto_cycle(t0 + 2000);
	i = next_change(7, 0);
	EXPECT_EQ("0x32 D7 released", 1, i >= 0);
	if (i >= 0)
		EXPECT_EQ("0x32 D7 at the send", us_at(t0 + 528), recs[i].t_us);
	i = next_change(15, 0);
	EXPECT_EQ("0x33 D6 (sender) went on", 1, i >= 0);
	EXPECT_EQ("0x33 D5 (sender's chip) still waiting", -1,
		  next_change(14, 0));
}

/* The host timer is armed for the next output change, not every tick. */
static void test_wake_for_output_changes(void)
{
	uint64_t t0, wake;

	fresh_bus();
	if (!bus_probe(0x32))
		return;
	/* MCE's idle program: mux_map_next; rst, forever */
	t0 = run_prog(0, "9d800000", D(7));
	goto_cycle(t0 + 100);
	wake = emu_next_wake_ns(&test_emu) - test_emu.start_ns;
	EXPECT_EQ("idle loop: next wake >= 0.9 s away", 1,
		  wake >= c2ns(cur) + 900000000ull);
	/* a ramp: the next step, 16 cycles apart */
	t0 = run_prog(1, "9d8002ffc000", D(1));
	goto_cycle(t0 + 40);
	wake = emu_next_wake_ns(&test_emu) - test_emu.start_ns;
	EXPECT_EQ("ramp: wake at its next step", c2ns(t0 + 48) / 1000,
		  (wake - 1) / 1000);
	/* nothing runs: no wake */
	wr(0x01, 0x00);
	EXPECT_EQ("disabled: no wake", 1,
		  emu_next_wake_ns(&test_emu) == UINT64_MAX);
}

/* ------------------------------------------------------------------ */

static void dump_events(void)
{
	char *p = events, *nl;

	for (; (nl = strchr(p, '\n')); p = nl + 1)
		printf("#   %.*s\n", (int)(nl - p), p);
}

static const struct test tests[] = {
	{ "probe_stock_driver", test_probe_stock_driver },
	{ "probe_recorded_transcript", test_probe_recorded },
	{ "probe_selfcheck_timing", test_probe_selfcheck_timing },
	{ "probe_stuck_engine_fails", test_probe_stuck_engine_fails },
	{ "reference_blink_period", test_reference_blink_period },
	{ "doc_lp5523_engine3_example", test_doc_lp5523_engine3 },
	{ "load_freezes", test_load_freezes },
	{ "exec_step_once_pc", test_exec_step_once_pc },
	{ "status_clear_on_read", test_status_clear_on_read },
	{ "registers_reset_values", test_registers_reset_values },
	{ "auto_increment", test_auto_increment },
	{ "chip_disabled", test_chip_disabled },
	{ "outputs_faders_onoff", test_outputs_faders_onoff },
	{ "mapping_registers", test_mapping_registers },
	{ "prog_memory_needs_load", test_prog_memory_needs_load },
	{ "run_to_load_refused", test_run_to_load_refused },
	{ "halt_aborts", test_halt_aborts },
	{ "end_reset_fader", test_end_reset_fader },
	{ "fault_nack", test_fault_nack },
	{ "fault_nack_last_of_transfer", test_fault_nack_last_of_transfer },
	{ "fault_nack_nth_page", test_fault_nack_nth },
	{ "ledtest_adc", test_ledtest_adc },
	{ "control_commands", test_control_commands },
	{ "variables_local_global_d", test_variables_local_global_d },
	{ "exec_hold_finishes_insn", test_exec_hold_finishes },
	{ "trace_lines", test_trace_lines },
	{ "lockstep_three_engines", test_lockstep_three_engines },
	{ "registers_misc", test_registers_misc },
	{ "n900_error", test_n900_error },
	{ "n900_device_on", test_n900_device_on },
	{ "n900_communication_call", test_n900_call },
	{ "n900_power_on", test_n900_power_on },
	{ "n900_battery_charging", test_n900_charging },
	{ "engine_writes_pwm_registers", test_engine_writes_pwm_regs },
	{ "direct_write_overridden_at_push", test_direct_write_overridden },
	{ "load_clears_engine", test_load_clears_engine },
	{ "undefined_word_keeps_op_mode", test_undefined_keeps_mode },
	{ "pc_write_in_trigger_wait", test_pc_write_in_trigger_wait },
	{ "load_from_disabled_only", test_load_from_disabled_only },
	{ "startup_busy_while_disabled", test_startup_busy_while_disabled },
	{ "control_faults_off_resets_count", test_control_faults_off_count },
	{ "control_overlong_line_refused", test_control_overlong_line },
	{ "control_acks_each_line", test_control_acks },
	{ "mark_carries_i2c_counters", test_mark_counters },
	{ "second_chip_at_0x33", test_second_chip },
	{ "trig_pin_between_chips", test_trig_between_chips },
	{ "wake_only_for_output_changes", test_wake_for_output_changes },
};

static unsigned int n_run, n_pass;

/* KTAP result line of the test that just ran */
static void report(const char *name)
{
	n_run++;
	if (failed) {
		printf("not ok %u %s\n# %s\n", n_run, name, fail_msg);
		if (getenv("LP5523_TEST_EVENTS"))
			dump_events();
	} else {
		printf("ok %u %s\n", n_run, name);
		n_pass++;
	}
	failed = false;
}

int main(void)
{
	unsigned int i;

	printf("TAP version 13\n1..%zu\n", ARRAY_SIZE(tests) +
	       ARRAY_SIZE(engines_cases) + ARRAY_SIZE(prog_cases) +
	       lp55xx_n_tests);
	failed = false;
	for (i = 0; i < ARRAY_SIZE(tests); i++) {
		tests[i].fn();
		report(tests[i].name);
	}
	for (i = 0; i < ARRAY_SIZE(engines_cases); i++) {
		test_engines_case(&engines_cases[i]);
		report(engines_cases[i].name);
	}
	for (i = 0; i < ARRAY_SIZE(prog_cases); i++) {
		test_prog_case(&prog_cases[i]);
		report(prog_cases[i].name);
	}
	for (i = 0; i < lp55xx_n_tests; i++) {
		lp55xx_tests[i].fn();
		report(lp55xx_tests[i].name);
	}
	printf("# Totals: pass:%u fail:%u\n", n_pass, n_run - n_pass);
	return n_pass == n_run ? 0 : 1;
}
