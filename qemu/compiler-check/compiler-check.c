// SPDX-License-Identifier: GPL-2.0
/*
 * Property test of the LP5523 pattern compiler: the kernel's own
 * drivers/leds/leds-lp5523-compiler.c, built for the host, compiles random
 * patterns, and each program runs on the emulator's chip model
 * (qemu/lp5523-emu/lp5523.c, written from the datasheet, loaded over its
 * I2C interface the way the driver loads it).  For every accepted pattern
 * it asserts, run by run (first, middle and last of a repeat N; the first
 * three of a pattern that runs for ever):
 *
 *  - the output changes of the run are the ideal curve's, in order: one
 *    per level of each ramp, one per step between tuples;
 *  - each lands within the error budget of its ideal time counted from
 *    the start of the run (Documentation/leds/leds-class-pattern.rst,
 *    "Error budget"): 4 quanta for a step at a tuple's start, 4 + d / 4
 *    quanta for a level of a ramp of d levels;
 *  - runs start exactly run_cycles apart (lock-step engines: the longest
 *    of the group), after lead_in_cycles;
 *  - a finite repeat ends, with ENGx_INT, on the pattern's last value,
 *    and nothing runs beyond the reported words.
 *
 * The budget, the ideal curve and the run bookkeeping are written here
 * from the ABI text, not taken from the compiler.
 *
 *  - at most REFUSED_MAX_PCT of the random patterns are refused, and at
 *    most UNEXPLAINED_MAX_PCT over the budget though every ramp of theirs
 *    has a quantum a level (refusals_too_many() says why those shares).
 *
 * Usage: compiler-check [-n patterns] [-s seed] [-v] [-R pct] [-U pct]
 *        compiler-check -p "v ms v ms ..." [-r repeat] [-S] (one pattern)
 * Output: KTAP.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lp5523.h"
#include "leds-lp5523-compiler.h"

char kshim_log[512];

#define MAX_TUPLES	48
#define MAX_EVENTS	200000
#define QUANTUM		16		/* engine clock cycles */
#define PART_WORDS	32		/* an engine's share when three run */
#define TRAP_WORD	0x8000		/* undefined: the model logs it */

/* ---------------------------------------------------------------- chip */

struct ev {
	uint64_t cycle;
	int value;
};

struct run_state {
	struct lp5523 chip;
	struct ev ev[LP5523_ENGINES][MAX_EVENTS];
	unsigned int nev[LP5523_ENGINES];
	uint64_t end_cycle[LP5523_ENGINES];	/* 0: no end yet */
	int end_int[LP5523_ENGINES];
	int undefined;
	char note[160];
};

static struct run_state *rs;

static void sink_output(void *ctx, uint64_t t_us, unsigned int out,
			unsigned int pwm)
{
	unsigned int e = out - 1;
	(void)ctx;
	(void)t_us;

	if (e >= LP5523_ENGINES || rs->nev[e] >= MAX_EVENTS)
		return;
	rs->ev[e][rs->nev[e]].cycle = rs->chip.cycle;
	rs->ev[e][rs->nev[e]].value = pwm;
	rs->nev[e]++;
}

static void sink_event(void *ctx, uint64_t t_us, const char *text)
{
	unsigned int e;
	(void)ctx;
	(void)t_us;

	if (strstr(text, "undefined")) {
		rs->undefined = 1;
		snprintf(rs->note, sizeof(rs->note), "%s", text);
	}
	if (sscanf(text, "engine%u", &e) == 1 && e >= 1 && e <= 3 &&
	    strstr(text, " end")) {
		rs->end_cycle[e - 1] = rs->chip.cycle;
		rs->end_int[e - 1] = strstr(text, " int") != NULL;
	}
}

static void wr(uint8_t reg, const uint8_t *data, unsigned int len)
{
	uint8_t buf[40];
	struct lp5523_msg msg = { .addr = LP5523_I2C_ADDR, .len = len + 1,
				  .buf = buf };

	buf[0] = reg;
	memcpy(buf + 1, data, len);
	lp5523_i2c_ops.xfer(&rs->chip, &msg);
}

static void wr1(uint8_t reg, uint8_t val)
{
	wr(reg, &val, 1);
}

/*
 * Load @prog[e] (@len[e] words, the rest of the partition a trap word) at
 * 32 * e for the engines in @mask and start them together; returns the
 * cycle at which they start.
 */
static uint64_t chip_start(u16 prog[3][LP5523_PROGRAM_WORDS],
			   const unsigned int *len, unsigned int mask,
			   unsigned int part)
{
	static const struct lp5523_sink sink = {
		.output = sink_output, .event = sink_event,
	};
	uint16_t mem[LP5523_PROG_WORDS];
	uint8_t page[32], load = 0, run = 0, exec = 0;
	unsigned int e, i, p;

	memset(rs->nev, 0, sizeof(rs->nev));
	memset(rs->end_cycle, 0, sizeof(rs->end_cycle));
	rs->undefined = 0;
	lp5523_init(&rs->chip, &sink);
	wr1(LP5523_REG_ENABLE, LP5523_CHIP_EN);
	lp5523_run_to(&rs->chip, 64);
	wr1(LP5523_REG_CONFIG, 0x40);
	wr1(LP5523_REG_ENABLE_LEDS_MSB, 0x01);
	wr1(LP5523_REG_ENABLE_LEDS_LSB, 0xff);

	for (i = 0; i < LP5523_PROG_WORDS; i++)
		mem[i] = TRAP_WORD;
	for (e = 0; e < LP5523_ENGINES; e++) {
		if (!(mask & (1 << e)))
			continue;
		for (i = 0; i < len[e]; i++)
			mem[e * part + i] = prog[e][i];
		load |= 1 << LP5523_MODE_SHIFT(e);
		run |= 2 << LP5523_MODE_SHIFT(e);
		exec |= 2 << LP5523_EXEC_SHIFT(e);
	}
	wr1(LP5523_REG_OP_MODE, load);
	lp5523_run_to(&rs->chip, rs->chip.cycle + 64);
	for (p = 0; p < LP5523_PROG_WORDS / LP5523_PAGE_WORDS; p++) {
		wr1(LP5523_REG_PROG_PAGE_SEL, p);
		for (i = 0; i < LP5523_PAGE_WORDS; i++) {
			page[2 * i] = mem[p * 16 + i] >> 8;
			page[2 * i + 1] = mem[p * 16 + i] & 0xff;
		}
		wr(LP5523_REG_PROG_MEM, page, 32);
	}
	for (e = 0; e < LP5523_ENGINES; e++)
		wr1(LP5523_REG_CH1_PROG_START + e, e * part);
	wr1(LP5523_REG_OP_MODE, run);
	wr1(LP5523_REG_ENABLE, LP5523_CHIP_EN | exec);
	/* eng_kick(): the engines take their first instruction next tick */
	return rs->chip.cycle + 1;
}

/* ------------------------------------------------------------ ideal */

struct ideal {
	long double t_us;	/* from the start of the run */
	int value;
	unsigned int budget4;	/* budget in quarter quanta */
	unsigned int tuple;
};

/*
 * The changes of one run of @p as the ABI defines it: from each lasting
 * tuple's value the output ramps to the next tuple's value over delta_t,
 * one level at a time, level k of d at k / d of it; a tuple whose value
 * differs from where the output is steps there at its start.
 */
static unsigned int ideal_run(const struct led_pattern *p, unsigned int n,
			      struct ideal *out, int *start_value)
{
	unsigned int j, k, cnt = 0, d;
	long double start = 0;
	int cur = -1, to;

	for (j = 0; j < n; j++)
		if (p[j].delta_t)
			cur = p[(j + 1) % n].brightness;
	*start_value = cur;
	for (j = 0; j < n; j++) {
		if (!p[j].delta_t)
			continue;
		if (p[j].brightness != cur) {
			out[cnt++] = (struct ideal){ start, p[j].brightness,
						     16, j };
			cur = p[j].brightness;
		}
		to = p[(j + 1) % n].brightness;
		d = abs(to - cur);
		for (k = 1; k <= d; k++)
			out[cnt++] = (struct ideal){
				start + (long double)p[j].delta_t * 1000 * k / d,
				cur + (to > cur ? (int)k : -(int)k),
				16 + d, j };
		cur = to;
		start += p[j].delta_t * 1000.0L;
	}
	return cnt;
}

/* ------------------------------------------------------------ checks */

/*
 * What the ABI text says of a pattern's slopes before any compiler sees
 * it (leds-class-pattern.rst, "Limits": a ramp takes at most one level a
 * quantum; "Error budget": a tuple's step and its end within 4 q of S and
 * S + T).  A ramp of d levels over T ms needs d quanta, d * 125 / 256 ms:
 * SLOPE_OK when every ramp of every curve has them (d q <= T), SLOPE_NEVER
 * when one needs more than T + 8 q (starting 4 q early and ending 4 q late
 * is the most the budget leaves), SLOPE_EDGE in between.
 */
enum slope { SLOPE_OK, SLOPE_EDGE, SLOPE_NEVER };

static enum slope pattern_slope(struct led_pattern p[3][MAX_TUPLES],
				unsigned int n, unsigned int mask)
{
	enum slope worst = SLOPE_OK;
	unsigned long long d, t;
	unsigned int e, j;

	for (e = 0; e < 3; e++) {
		if (!(mask & (1 << e)))
			continue;
		for (j = 0; j < n; j++) {
			if (!p[e][j].delta_t)
				continue;
			d = abs(p[e][(j + 1) % n].brightness - p[e][j].brightness);
			t = p[e][j].delta_t;
			/* in 1/256 ms: d quanta against T and T + 8 q */
			if (d * 125 > t * 256 + 8 * 125)
				return SLOPE_NEVER;
			if (d * 125 > t * 256)
				worst = SLOPE_EDGE;
		}
	}
	return worst;
}

static unsigned int fails, checked, refused_budget, refused_size, accepted;
static unsigned int refused_slope[3];
static unsigned long long runs_checked, changes_checked;
static int verbose;
static long double worst_ratio;

static void print_pattern(FILE *f, const struct led_pattern *p,
			  unsigned int n, int repeat, unsigned int sync)
{
	unsigned int j;

	fprintf(f, "#  pattern:");
	for (j = 0; j < n; j++)
		fprintf(f, " %d %u", p[j].brightness, p[j].delta_t);
	fprintf(f, " repeat %d%s\n", repeat, sync ? " sync" : "");
}

static int fail(const struct led_pattern *p, unsigned int n, int repeat,
		unsigned int sync, const char *fmt, ...)
{
	va_list ap;

	if (++fails <= 20) {
		printf("# FAIL: ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
		print_pattern(stdout, p, n, repeat, sync);
	}
	return 1;
}

/* Check run @r of engine @e, which starts at @c0; 0 if it holds. */
static int check_run(const struct led_pattern *p, unsigned int n, int repeat,
		     unsigned int sync, unsigned int e, unsigned int r,
		     uint64_t c0, uint64_t period, const struct ideal *id,
		     unsigned int nid)
{
	unsigned int i, first = 0, cnt = 0;
	long double t, dev, budget;

	int before = 0;		/* outputs start dark */

	while (first < rs->nev[e] && rs->ev[e][first].cycle < c0)
		before = rs->ev[e][first++].value;
	/*
	 * the first run starts from where the lead-in left the output, not
	 * from the pattern's last value: a step to where it is changes
	 * nothing
	 */
	if (nid && id[0].budget4 == 16 && id[0].t_us == 0 &&
	    id[0].value == before) {
		id++;
		nid--;
	}
	/* a single run's last level may show as it ends */
	for (i = first; i < rs->nev[e] &&
	     rs->ev[e][i].cycle < c0 + period + (repeat == 1);
	     i++, cnt++) {
		if (cnt >= nid)
			return fail(p, n, repeat, sync,
				    "engine %u run %u: change %u to %d at cycle %llu is more than the %u the run has",
				    e + 1, r, cnt + 1, rs->ev[e][i].value,
				    (unsigned long long)(rs->ev[e][i].cycle - c0),
				    nid);
		if (rs->ev[e][i].value != id[cnt].value)
			return fail(p, n, repeat, sync,
				    "engine %u run %u: change %u is to %d, the ideal's to %d (tuple %u)",
				    e + 1, r, cnt + 1, rs->ev[e][i].value,
				    id[cnt].value, id[cnt].tuple + 1);
		t = (rs->ev[e][i].cycle - c0) * 1e6L / LP5523_CLOCK_HZ;
		dev = t > id[cnt].t_us ? t - id[cnt].t_us : id[cnt].t_us - t;
		/* quarter quanta: 1e6 / 2048 / 4 us */
		budget = id[cnt].budget4 * 1e6L / 8192;
		if (dev / budget > worst_ratio)
			worst_ratio = dev / budget;
		/* 1 ns for the rounding of the long double sums */
		if (dev > budget + 1e-3L)
			return fail(p, n, repeat, sync,
				    "engine %u run %u: change %u to %d (tuple %u) at %.1Lf us, ideal %.1Lf us: %.1Lf us off, budget %.1Lf us",
				    e + 1, r, cnt + 1, id[cnt].value,
				    id[cnt].tuple + 1, t, id[cnt].t_us, dev,
				    budget);
		changes_checked++;
	}
	if (cnt != nid)
		return fail(p, n, repeat, sync,
			    "engine %u run %u: %u changes, the ideal run has %u",
			    e + 1, r, cnt, nid);
	runs_checked++;
	return 0;
}

static struct ideal ideal_buf[3][MAX_TUPLES * 257];

/*
 * Compile the curves @p[e] (engines in @mask, each @n tuples of the same
 * durations), run them and check them.  Returns 1 on a failure.
 */
static int check_pattern(struct led_pattern p[3][MAX_TUPLES], unsigned int n,
			 int repeat, unsigned int mask)
{
	static u16 prog[3][LP5523_PROGRAM_WORDS];
	struct lp5523_compile_result res[3];
	struct lp5523_compile_opts opts;
	unsigned int len[3] = { 0 }, nid[3], e, i, ncurves = 0, part;
	unsigned int sync = mask != 1;
	uint64_t start, period = 0, lead = 0, runs, c, limit, rlist[3];
	int ret[3], start_value[3], fault = 0, v;
	u16 prologue[3];

	for (e = 0; e < 3; e++)
		ncurves += !!(mask & (1 << e));
	part = sync ? PART_WORDS : LP5523_PROGRAM_WORDS;
	for (e = 0; e < 3; e++) {
		if (!(mask & (1 << e)))
			continue;
		/* mux_sel D(e + 1): engine e drives output e + 1 */
		prologue[e] = 0x9d00 | (e + 1);
		opts = (struct lp5523_compile_opts){
			.max_words = part,
			.sync = sync ? mask & ~(1u << e) : 0,
			.prologue = &prologue[e],
			.prologue_len = 1,
		};
		memset(prog[e], 0xff, sizeof(prog[e]));
		ret[e] = lp5523_compile(p[e], n, repeat, &opts, prog[e],
					&res[e], NULL);
		if (ret[e] == -E2BIG) {
			if (res[e].fault != LP5523_FAULT_SIZE ||
			    res[e].len <= part)
				return fail(p[e], n, repeat, sync,
					    "-E2BIG with %u words needed, %u free",
					    res[e].len, part);
			fault = 2;
			continue;
		}
		if (ret[e] == -EINVAL) {
			lp5523_compile_report(NULL, p[e], n, &res[e]);
			if (res[e].fault != LP5523_FAULT_BUDGET)
				return fail(p[e], n, repeat, sync,
					    "-EINVAL, fault %d", res[e].fault);
			if (!fault)
				fault = 1;
			continue;
		}
		if (ret[e])
			return fail(p[e], n, repeat, sync, "returned %d", ret[e]);
		if (res[e].len > part)
			return fail(p[e], n, repeat, sync,
				    "%u words reported, %u free", res[e].len,
				    part);
		/* nothing written beyond the room given */
		for (i = part; i < LP5523_PROGRAM_WORDS; i++)
			if (prog[e][i] != 0xffff)
				return fail(p[e], n, repeat, sync,
					    "word %u written, %u words free", i, part);
		len[e] = res[e].len;
		period = period > res[e].run_cycles ? period :
			 res[e].run_cycles;
		if (lead && lead != res[e].lead_in_cycles)
			return fail(p[e], n, repeat, sync,
				    "lead-in %u cycles, another curve's %llu",
				    res[e].lead_in_cycles,
				    (unsigned long long)lead);
		lead = res[e].lead_in_cycles;
	}
	/*
	 * as the driver does: curves in lock-step all run as long as the
	 * longest (leds-lp5523.c, lp5523_plan())
	 */
	for (e = 0; e < 3 && sync && !fault; e++) {
		if (!(mask & (1 << e)) || res[e].run_cycles == period)
			continue;
		opts = (struct lp5523_compile_opts){
			.max_words = part,
			.sync = mask & ~(1u << e),
			.prologue = &prologue[e],
			.prologue_len = 1,
			.min_run_cycles = period,
		};
		ret[e] = lp5523_compile(p[e], n, repeat, &opts, prog[e],
					&res[e], NULL);
		if (ret[e] == -EINVAL)
			fault = 1;
		else if (ret[e] == -E2BIG)
			fault = 2;
		else if (ret[e] || res[e].run_cycles != period)
			return fail(p[e], n, repeat, sync,
				    "returned %d, run %llu cycles, want %llu",
				    ret[e],
				    (unsigned long long)res[e].run_cycles,
				    (unsigned long long)period);
		len[e] = res[e].len;
	}
	if (fault == 1) {
		if (verbose)
			printf("# refused: %s", kshim_log);
		refused_budget++;
		refused_slope[pattern_slope(p, n, mask)]++;
		return 0;
	}
	if (fault == 2) {
		refused_size++;
		return 0;
	}
	accepted++;

	for (e = 0; e < 3; e++)
		if (mask & (1 << e))
			nid[e] = ideal_run(p[e], n, ideal_buf[e],
					   &start_value[e]);

	runs = repeat == -1 ? 3 : (uint64_t)repeat;
	start = chip_start(prog, len, mask, part);
	/* a run ends at most 4 quanta late; then end and a margin */
	limit = start + lead + runs * period + 64 * QUANTUM;
	lp5523_run_to(&rs->chip, limit);
	if (rs->undefined)
		return fail(p[0], n, repeat, sync, "ran beyond the program: %s",
			    rs->note);

	if (verbose)
		for (i = 0; i < rs->nev[0] && i < 400; i++)
			printf("# ev %llu %d\n",
			       (unsigned long long)(rs->ev[0][i].cycle - start - lead) / QUANTUM,
			       rs->ev[0][i].value);
	/* first, middle, last */
	rlist[0] = 0;
	rlist[1] = runs / 2;
	rlist[2] = runs - 1;
	for (e = 0; e < 3; e++) {
		if (!(mask & (1 << e)))
			continue;
		for (i = 0; i < 3; i++) {
			if (i && rlist[i] == rlist[i - 1])
				continue;
			c = start + lead + rlist[i] * period;
			if (check_run(p[e], n, repeat, sync, e, rlist[i], c,
				      period, ideal_buf[e], nid[e]))
				return 1;
		}
		if (repeat == -1) {
			if (rs->end_cycle[e])
				return fail(p[e], n, repeat, sync,
					    "engine %u ended", e + 1);
			continue;
		}
		/*
		 * the last run skips the branch of its test (repeat N) and
		 * ends with the end word's quantum
		 */
		c = start + lead + runs * period - (repeat > 1 ? QUANTUM : 0);
		if (rs->end_cycle[e] != c)
			return fail(p[e], n, repeat, sync,
				    "engine %u: end at cycle %llu, want %llu",
				    e + 1,
				    (unsigned long long)(rs->end_cycle[e] - start),
				    (unsigned long long)(c - start));
		if (!rs->end_int[e])
			return fail(p[e], n, repeat, sync,
				    "engine %u: end without ENGx_INT", e + 1);
		/* outputs start dark */
		v = rs->nev[e] ? rs->ev[e][rs->nev[e] - 1].value : 0;
		if (v != start_value[e])
			return fail(p[e], n, repeat, sync,
				    "engine %u: ends on %d, the pattern's last value is %d",
				    e + 1, v, start_value[e]);
	}
	checked++;
	return 0;
}

/* ------------------------------------------------------------ patterns */

static uint64_t rng_state;

static uint32_t rnd(void)
{
	/* xorshift64*: reproducible from the seed */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (rng_state * 2685821657736338717ULL) >> 32;
}

static uint32_t rnd_range(uint32_t lo, uint32_t hi)
{
	return lo + rnd() % (hi - lo + 1);
}

static int clamp255(int v)
{
	return v < 0 ? 0 : v > 255 ? 255 : v;
}

/* log-uniform in [lo, hi] */
static double rnd_log(double lo, double hi)
{
	return lo * __builtin_pow(hi / lo, rnd() / 4294967296.0);
}

/*
 * A random pattern: @n tuples, durations shared by the curves in @mask,
 * values per curve.  Durations: steps (0 ms), short ones, ramps of a
 * slope from just over the chip's one level per quantum (some refused)
 * to 2 s a level, holds up to hours.
 */
static void random_pattern(struct led_pattern p[3][MAX_TUPLES],
			   unsigned int n, unsigned int mask)
{
	unsigned int j, e, d, maxd = 0;
	uint32_t kind;

	for (e = 0; e < 3; e++) {
		for (j = 0; j < n; j++) {
			kind = rnd() % 8;
			if (j && kind < 2)
				p[e][j].brightness = p[e][j - 1].brightness;
			else if (j && kind < 4)
				p[e][j].brightness = clamp255(
					p[e][j - 1].brightness +
					(int)rnd_range(0, 20) - 10);
			else
				p[e][j].brightness = rnd_range(0, 255);
		}
	}
	for (j = 0; j < n; j++) {
		maxd = 0;
		for (e = 0; e < 3; e++) {
			if (!(mask & (1 << e)))
				continue;
			d = abs(p[e][(j + 1) % n].brightness - p[e][j].brightness);
			maxd = max(maxd, d);
		}
		kind = rnd() % 100;
		if (kind < 12)
			p[0][j].delta_t = 0;
		else if (kind < 22)
			/* short, and no steeper than the chip's step */
			p[0][j].delta_t = max(rnd_range(1, 20), maxd / 2 + 1);
		else if (kind < 27 && maxd)
			/* steeper than a level a quantum, or just not */
			p[0][j].delta_t = rnd_log(0.3, 0.6) * maxd + 0.5;
		else if (kind < 75 && maxd)
			/* a slope: 0.49 ms to 2 s a level */
			p[0][j].delta_t = rnd_log(0.49, 2000.0) * maxd + 0.5;
		else if (kind < 95)
			p[0][j].delta_t = max((uint32_t)rnd_log(1, 20000),
					      kind % 8 ? maxd / 2 + 1 : 0);
		else
			p[0][j].delta_t = rnd_log(20000, 3 * 3600 * 1000.0);
		p[1][j].delta_t = p[0][j].delta_t;
		p[2][j].delta_t = p[0][j].delta_t;
	}
	/*
	 * a pattern of 0 ms is refused before anything else: not here.  One
	 * duration for the three curves, as a colour pattern has: curves of
	 * different lengths would have to be stretched to the longest, which
	 * no pattern written to the driver asks for
	 */
	if (!p[0][n - 1].delta_t) {
		d = 1 + rnd() % 1000;
		for (e = 0; e < 3; e++)
			p[e][n - 1].delta_t = d;
	}
}

static int parse_pattern(const char *s, struct led_pattern p[3][MAX_TUPLES])
{
	unsigned int n = 0;
	int v, used;
	unsigned int ms;

	while (n < MAX_TUPLES && sscanf(s, "%d %u%n", &v, &ms, &used) == 2) {
		p[0][n].brightness = v;
		p[0][n].delta_t = ms;
		p[1][n] = p[0][n];
		p[2][n] = p[0][n];
		n++;
		s += used;
	}
	return n;
}

static unsigned int min_run;

static void dump(struct led_pattern p[3][MAX_TUPLES], unsigned int n,
		 int repeat, unsigned int mask)
{
	u16 prog[LP5523_PROGRAM_WORDS];
	struct lp5523_compile_result res;
	struct lp5523_compile_opts opts = {
		.max_words = mask == 1 ? 96 : 32,
		.sync = mask == 1 ? 0 : 6,
		.min_run_cycles = min_run * QUANTUM,
	};
	int ret;
	unsigned int i;

	ret = lp5523_compile(p[0], n, repeat, &opts, prog, &res, NULL);
	lp5523_compile_report(NULL, p[0], n, &res);
	printf("# ret %d len %u run %llu lead %u tol %llu us dev %llu us end %llu us: %s",
	       ret, res.len, (unsigned long long)res.run_cycles / 16,
	       res.lead_in_cycles / 16, res.tol_us, res.dev_us,
	       res.end_dev_us, kshim_log);
	for (i = 0; !ret && i < res.len; i++)
		printf("#  %2u %04x\n", i, prog[i]);
}

/*
 * Refusals the random patterns may cost, as shares of all patterns
 * (-R and -U override them, to show the check failing).  A refused
 * pattern is one the check never runs, so a compiler that refuses what it
 * should run passes vacuously unless the refusals are bounded.
 *
 * REFUSED_MAX_PCT, every refusal: the generator aims about a fifth of the
 * patterns at slopes no schedule can step within the budget (17.3 % of
 * SEED 1's 100000 are SLOPE_NEVER) and packs up to 48 tuples into three
 * 32-word partitions (31.2 % too big, 27 % of them in lock-step); SEED 1
 * refused 50.8 % in all (2026-12-07).  The seed is fixed, so the figure
 * moves only with the compiler (or the generator, which must then be
 * measured again): 55 % leaves 4 points, 4000 patterns, for a compiler
 * that builds finer; more is one that refuses what it used to run.
 *
 * UNEXPLAINED_MAX_PCT, refusals over the budget of patterns whose every
 * ramp has a quantum a level (SLOPE_OK): the ABI says the chip runs those,
 * and the budget refuses them only at an edge, a last tuple that also
 * pays the repeat test's 4 q or a level rounded to the quantum past its
 * 4 q (0.14 % of SEED 1's).  1 % is seven times that; rounding that ate
 * the budget would refuse thousands (curves of different lengths, which
 * lock-step stretches, refused 2.1 %).
 */
#define REFUSED_MAX_PCT		55
#define UNEXPLAINED_MAX_PCT	1

static double refused_max_pct = REFUSED_MAX_PCT;
static double unexplained_max_pct = UNEXPLAINED_MAX_PCT;

/* 1, with the reason, when the random patterns were refused too often */
static int refusals_too_many(unsigned long count)
{
	double all = 100.0 * (refused_budget + refused_size) / count;
	double unexplained = 100.0 * refused_slope[SLOPE_OK] / count;
	int bad = 0;

	if (!count)
		return 0;
	printf("# refused in all: %.1f %% of %lu patterns (at most %g %%: a refused pattern is never run)\n",
	       all, count, refused_max_pct);
	printf("# refused over the budget with every ramp at most a level a quantum: %.2f %% (at most %g %%: the ABI says the chip runs those)\n",
	       unexplained, unexplained_max_pct);
	if (all > refused_max_pct) {
		printf("# FAIL: %.1f %% of the patterns refused, more than %g %%\n",
		       all, refused_max_pct);
		bad = 1;
	}
	if (unexplained > unexplained_max_pct) {
		printf("# FAIL: %.2f %% of the patterns refused over the budget with every ramp at most a level a quantum, more than %g %%\n",
		       unexplained, unexplained_max_pct);
		bad = 1;
	}
	return bad;
}

int main(int argc, char **argv)
{
	static struct led_pattern p[3][MAX_TUPLES];
	unsigned long count = 100000, i, est;
	unsigned int j;
	unsigned int n, mask;
	const char *one = NULL;
	int repeat = -1, opt, sync = 0;

	rng_state = 0x5eed1e55;
	while ((opt = getopt(argc, argv, "n:s:vp:r:Sm:R:U:")) != -1) {
		switch (opt) {
		case 'n':
			count = strtoul(optarg, NULL, 0);
			break;
		case 's':
			rng_state = strtoull(optarg, NULL, 0) | 1;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'p':
			one = optarg;
			break;
		case 'r':
			repeat = atoi(optarg);
			break;
		case 'S':
			sync = 1;
			break;
		case 'm':
			min_run = atoi(optarg);
			break;
		case 'R':
			refused_max_pct = atof(optarg);
			break;
		case 'U':
			unexplained_max_pct = atof(optarg);
			break;
		default:
			return 2;
		}
	}
	rs = calloc(1, sizeof(*rs));
	if (!rs)
		return 2;

	printf("KTAP version 1\n1..1\n");
	if (one) {
		n = parse_pattern(one, p);
		dump(p, n, repeat, sync ? 7 : 1);
		check_pattern(p, n, repeat, sync ? 7 : 1);
	} else {
		for (i = 0; i < count; i++) {
			n = rnd() % 8 ? rnd_range(1, 8) : rnd_range(1, MAX_TUPLES);
			mask = rnd() % 2 ? 1 : 7;
			random_pattern(p, n, mask);
			opt = rnd() % 3;
			repeat = opt == 0 ? 1 : opt == 1 ? -1 :
				 rnd() % 4 ? (int)rnd_range(2, 5) :
					     (int)rnd_range(2, 255);
			/* the changes of all runs must fit the event log */
			for (j = 0, est = 1; j < n; j++)
				est += abs(p[0][(j + 1) % n].brightness -
					   p[0][j].brightness) + 1;
			if (repeat > 1 && (unsigned long)repeat * est >
					  MAX_EVENTS / 2)
				repeat = max(2UL, MAX_EVENTS / 2 / est / 3);
			check_pattern(p, n, repeat, mask);
		}
	}
	printf("# %u patterns checked on the chip model, %llu runs, %llu changes; refused: %u over the error budget, %u too big\n",
	       checked, runs_checked, changes_checked, refused_budget,
	       refused_size);
	printf("# over the budget: %u with every ramp at most a level a quantum, %u steeper within 8 q, %u steeper\n",
	       refused_slope[SLOPE_OK], refused_slope[SLOPE_EDGE], refused_slope[SLOPE_NEVER]);
	printf("# the change furthest off used %.1Lf %% of its budget\n",
	       worst_ratio * 100);
	if (!one && refusals_too_many(count))
		fails++;
	printf("%s 1 lp5523_compiler_on_the_chip_model\n",
	       fails ? "not ok" : "ok");
	return fails ? 1 : 0;
}
