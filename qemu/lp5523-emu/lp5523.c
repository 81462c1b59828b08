// SPDX-License-Identifier: GPL-2.0
/*
 * LP5523 / LP55231 chip model.
 *
 * Source tags as in shared/reference/lp5523.md: [DS] = TI SNOSCR5A
 * (LP55231 datasheet), [L5523] = Linux 6.1 drivers/leds/leds-lp5523.c.
 * Choices the sources leave open are the LP5523_U_* constants below; each
 * one is listed in README.md.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lp5523.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------------ */
/* Choices for points the reference marks UNCONFIRMED (see README.md)  */

/* ramp/wait: no fetch slot on top of n x step (DS example shows none) */
#define LP5523_U_RAMP_FETCH_CYCLES	0
/* branch loop count c: number of jumps back (body runs c + 1 times) */
#define LP5523_U_BRANCH_EXTRA_RUN	1
/* one loop counter per branch instruction address, per engine */
#define LP5523_U_LOOP_PER_BRANCH	1
/* end: also returns EXEC of the engine to hold (00) */
#define LP5523_U_END_CLEARS_EXEC	1
/* mode 00 (disabled) releases the engine's output mapping */
#define LP5523_U_DISABLE_RELEASES_MAP	1
/* master fader: duty = pwm * fader / 255, rounded down */
#define LP5523_U_FADER_DIVISOR		255
/*
 * START-UP_BUSY: always 1 while CHIP_EN = 0 [DS] (so STATUS reads 0x60
 * after reset), and for the 500 us after CHIP_EN goes 0 -> 1
 */
#define LP5523_U_STARTUP_BUSY_CYCLES	17	/* 500 us at 32768 Hz */
/* ENGINE_BUSY after entering LOAD; memory stays writable meanwhile */
#define LP5523_U_LOAD_BUSY_CYCLES	16
/* program memory without any engine in LOAD: writes dropped, reads 0 */
#define LP5523_U_PROG_NO_LOAD_READ	0x00
/* page select 6..7: accesses dropped, reads 0 */
#define LP5523_U_PAGES			6
/* auto-increment does not leave a D1..D9 PWM register (0x16-0x1E) */
#define LP5523_U_AUTOINC_STOPS_AT_PWM	1
/*
 * Words without a defined meaning (s = 0 ramp/wait 0x0001-0x01ff and
 * 0x41xx, 0x8000-0x83ff, unused 0x84xx/0x9xxx, bad operands) take one
 * instruction time and change nothing but the PC; they are logged
 */
/* PC wraps to 0 when start address + PC passes the last word (95) */
/* ramp: the +-1 of a step lands at the end of the step (Fig. 26) */
#define LP5523_U_RAMP_STEP_AT_END	1
/* variable branch: count = the whole 8-bit variable, 0 = forever */
#define LP5523_U_BRANCH_VAR_ZERO_FOREVER 1
/* jne/jl/jge/je compare unsigned 8-bit values */
#define LP5523_U_JUMP_SIGNED		0
/* int sets ENGx_INT and the engine goes on */
#define LP5523_U_INT_CONTINUES		1
/* while any engine is in LOAD, output changes are held back (frozen) */
#define LP5523_U_LOAD_FREEZES_OUTPUTS	1
/* a newly mapped output keeps its level until the next set_pwm/ramp */
/* several engines mapping one output: the last one to write wins */
/* RESET (0x3D <- 0xFF) is acknowledged ([L5523] says it is not) */
#define LP5523_U_RESET_ACKS		1
/*
 * An external trigger send pulls the TRIG pin of the other chips wired
 * to it; the sending chip's own engines do not latch it
 */
#define LP5523_U_EXT_TRIG_OTHER_CHIPS	1
#define LP5523_TRIG_EXT			3	/* trig_seen bit of the pin */
/* mux_sel 16 (GPO on LP5523 per [MYN]) maps no output, logged */
#define LP5523_U_MUX_SEL_GPO		16

/*
 * The LP5569 and LP8501 run the code above unchanged (the LP5523_U_*
 * choices hold for them too).  Their own choices, where the datasheets
 * (as far as this project could read them) leave a point open; each is
 * listed in README.md and Documentation/lp5569-lp8501-emulator.md:
 */
/*
 * LP5569 MISC after reset: EN_AUTO_INCR set as on the LP5523, INT_CLK_EN
 * and CP_MODE clear (TI: both must be set before an engine runs)
 */
#define LP55XX_U_LP5569_MISC_RESET	0x40
/*
 * mux_* SRAM addresses stay 7 bits and absolute on the LP5569 (the
 * LP5523 command set): mux tables live in words 0-127; branch steps stay
 * 7 bits relative to the engine's start address, as on the LP5523
 */
#define LP55XX_U_MUX_ADDR_7BIT		1

/* Analog values the model reports (not from any source; see README) */
#define LP5523_TEMP_25C			0x19	/* TEMPERATURE READ reset [DS] */
#define LP5523_ADC_VDD			166	/* 3.50 V */
#define LP5523_ADC_VOUT			199	/* 4.49 V, charge pump 1.5x */
#define LP5523_ADC_LED_WHITE		149	/* 2.99 V forward, D1..D6 */
#define LP5523_ADC_LED_RED		110	/* 1.82 V forward, D7..D9 */
#define LP5523_ADC_INT_PIN		49	/* 0 V */
#define LP5523_LEDTEST_CYCLES		89	/* 2.7 ms per conversion [DS] */
#define LP5523_TEMP_CYCLES		656	/* 20 ms per conversion [DS] */

/* ------------------------------------------------------------------ */
/* Timing [DS] section 7.6.4-7.6.7; the one place instruction time is  */
/* kept.  Prescale 0 = clock/16, prescale 1 = clock/512.               */

#define LP5523_INSN_CYCLES		16	/* set_pwm, branch, rst, end, ... */
/* int, mux_*, ld/add/sub, jumps: not in [DS], UNCONFIRMED */
#define LP5523_U_OTHER_INSN_CYCLES	16
#define LP5523_PRESCALE0_CYCLES		16	/* 0.48828125 ms */
#define LP5523_PRESCALE1_CYCLES		512	/* 15.625 ms */
#define LP5523_NEVER			UINT64_MAX
/* a handler's return value: the instruction table's cycle count */
#define INSN_TABLE_CYCLES		0

/* ------------------------------------------------------------------ */
/* Instruction fields, [DS] tables 4-7 (bit 15 on the left)           */

/* ramp/wait  0 p sssss d nnnnnnnn;  set_pwm  0100 0000 vvvvvvvv */
#define INSN_RAMP_PRESCALE(w)	(((w) >> 14) & 0x1)
#define INSN_RAMP_STEP(w)	(((w) >> 9) & 0x1f)
#define INSN_RAMP_SIGN(w)	(((w) >> 8) & 0x1)
#define INSN_RAMP_INCR(w)	((w) & 0xff)
#define INSN_PWM_VALUE(w)	((w) & 0xff)
/* ramp (var)  1000 0100 00 p d xx yy;  set_pwm (var)  ... 0110 00 yy */
#define INSN_VAR_PRESCALE(w)	(((w) >> 5) & 0x1)
#define INSN_VAR_SIGN(w)	(((w) >> 4) & 0x1)
#define INSN_VAR_X(w)		(((w) >> 2) & 0x3)
#define INSN_VAR_Y(w)		((w) & 0x3)
/* mux_*  1001 11xx x aaaaaaa;  mux_map/ld_next/prev  bit 6 = prev */
#define INSN_SRAM_ADDR(w)	((w) & 0x7f)
#define INSN_MUX_SEL(w)		((w) & 0x7f)
#define INSN_MUX_PREV(w)	(((w) >> 6) & 0x1)
/* branch  101 cccccc sssssss;  branch (var)  1000 011 sssssss yy */
#define INSN_BRANCH_COUNT(w)	(((w) >> 7) & 0x3f)
#define INSN_BRANCH_STEP(w)	((w) & 0x7f)
#define INSN_BRANCHV_STEP(w)	(((w) >> 2) & 0x7f)
/* end  110 i r 000 0000 0000 */
#define INSN_END_INT(w)		(((w) >> 12) & 0x1)
#define INSN_END_RESET(w)	(((w) >> 11) & 0x1)
/* trigger  111 W xx 321 S xx 321 0 (wait: W ext, 321; send: S ext, 321) */
#define INSN_TRIG_WAIT_EXT(w)	(((w) >> 12) & 0x1)
#define INSN_TRIG_WAIT(w)	(((w) >> 7) & 0x7)
#define INSN_TRIG_SEND_EXT(w)	(((w) >> 6) & 0x1)
#define INSN_TRIG_SEND(w)	(((w) >> 1) & 0x7)
/* jne/jl/jge/je  1000 1oo kkkkk xx yy */
#define INSN_JUMP_SKIP(w)	(((w) >> 4) & 0x1f)
/* ld/add/sub  1001 tt oo vvvvvvvv, add/sub (var)  1001 tt 11 000o xx yy */
#define INSN_VAR_TARGET(w)	(((w) >> 10) & 0x3)
#define INSN_ARITH_VALUE(w)	((w) & 0xff)

/* Dn CONTROL: [7:6] master fader, [5] LOG_EN */
#define LP5523_LED_CTRL_FADER(v)	((v) >> 6)
#define LP5523_LED_CTRL_LOG_EN		0x20

/* ------------------------------------------------------------------ */
/* The family: what tells an LP5569 or an LP8501 from the LP5523      */
/* (Documentation/lp5569-lp8501-emulator.md gives each field's source)  */

struct lp5523_reg;

struct lp55xx_model {
	const char *name;
	unsigned int prog_words;	/* program memory, words */
	unsigned int pages;		/* of 16 words, via PROG_MEM_PAGE_SEL */
	uint8_t page_mask;		/* PROG_MEM_PAGE_SEL bits decoded */
	unsigned int num_regs;		/* the register pointer wraps here */
	/*
	 * engine control: EXEC and MODE of engine e at bits
	 * [ctl_shift - 2e + 1 : ctl_shift - 2e] of their registers
	 */
	uint8_t reg_enable, reg_exec, reg_op_mode, ctl_shift;
	uint8_t reg_led_ctrl, reg_pwm, reg_current, reg_misc, reg_pc;
	uint8_t reg_status, reg_variable, reg_reset, reg_var_a, reg_fader;
	uint8_t reg_prog_start, reg_page_sel, reg_prog_mem, reg_map;
	uint8_t reg_ledtest_adc;	/* 0: no LED test ADC */
	uint8_t reg_onoff_msb;		/* 0: no ON/OFF registers, always on */
	uint8_t misc_auto_inc;
	uint8_t misc_var_d_sel;		/* 0: variable D is the register */
	uint8_t misc_int_clk;		/* 0: engines always clocked */
	uint8_t status_startup_busy, status_engine_busy;
	uint8_t status_ledtest_done;	/* 0: none */
	uint8_t status_clear;		/* bits a STATUS read clears */
	uint8_t fader_shift, fader_mask;	/* in Dn CONTROL */
	uint8_t log_en;			/* in Dn CONTROL */
	/* an output several engines map follows the lowest-numbered one */
	bool map_priority;
	const struct lp5523_reg *regs;
	size_t nregs;
};

static inline const struct lp55xx_model *M(const struct lp5523 *chip)
{
	return chip->model;
}

static const char *const lp5523_mode_name[] = {
	"disabled", "load", "run", "halt"
};
static const char *const lp5523_exec_name[] = {
	"hold", "step", "free-run", "once"
};

/* ------------------------------------------------------------------ */
/* Events                                                              */

uint64_t lp5523_now_us(const struct lp5523 *chip)
{
	return chip->t_us;
}

void lp5523_note(struct lp5523 *chip, const char *fmt, ...)
{
	char text[256];
	va_list ap;
	int n;

	if (!chip->sink.event)
		return;
	n = snprintf(text, sizeof(text), "%s", chip->prefix);
	va_start(ap, fmt);
	vsnprintf(text + n, sizeof(text) - n, fmt, ap);
	va_end(ap);
	chip->sink.event(chip->sink.ctx, chip->t_us, text);
}

/* bit position of engine @e's EXEC and MODE fields */
static unsigned int ctl_shift(const struct lp5523 *chip, unsigned int e)
{
	return M(chip)->ctl_shift - 2 * e;
}

static unsigned int eng_mode(const struct lp5523 *chip, unsigned int e)
{
	return (chip->regs[M(chip)->reg_op_mode] >> ctl_shift(chip, e)) & 3;
}

static unsigned int eng_exec(const struct lp5523 *chip, unsigned int e)
{
	return (chip->regs[M(chip)->reg_exec] >> ctl_shift(chip, e)) & 3;
}

/* CHIP_EN is bit 6 of register 0x00 on every chip of the family */
static bool chip_enabled(const struct lp5523 *chip)
{
	return chip->regs[M(chip)->reg_enable] & LP5523_CHIP_EN;
}

/* LP5569: the engines run only on a clock (MISC INT_CLK_EN; no CLK pin) */
static bool chip_clocked(const struct lp5523 *chip)
{
	return !M(chip)->misc_int_clk ||
	       (chip->regs[M(chip)->reg_misc] & M(chip)->misc_int_clk);
}

static bool any_load(const struct lp5523 *chip)
{
	unsigned int e;

	for (e = 0; e < LP5523_ENGINES; e++)
		if (eng_mode(chip, e) == LP5523_MODE_LOAD)
			return true;
	return false;
}

static bool chip_paused(const struct lp5523 *chip)
{
	return !chip_enabled(chip) || chip->frozen || !chip_clocked(chip);
}

/* ------------------------------------------------------------------ */
/* Outputs                                                             */

static bool out_on(const struct lp5523 *chip, unsigned int i)
{
	unsigned int msb = M(chip)->reg_onoff_msb;

	if (!msb)		/* no ON/OFF registers: the PWM register rules */
		return true;
	if (i == 8)
		return chip->regs[msb] & 1;
	return chip->regs[msb + 1] & (1 << i);
}

static bool out_mapped(const struct lp5523 *chip, unsigned int i)
{
	unsigned int e;

	for (e = 0; e < LP5523_ENGINES; e++)
		if (chip->eng[e].map & (1 << i))
			return true;
	return false;
}

/*
 * The PWM register drives the output; the engines write their values into
 * it ([DS] 7.6.5: "After the mapping has been released from an LED, the
 * PWM register value will still control the LED brightness").  "Engine
 * mapping overrides this control" (ON/OFF, [DS] 7.6.2.4).
 */
static unsigned int out_base(const struct lp5523 *chip, unsigned int i)
{
	if (!out_mapped(chip, i) && !out_on(chip, i))
		return 0;
	return chip->regs[M(chip)->reg_pwm + i];
}

/* The master fader an output follows (Dn CONTROL), 0 = none */
static unsigned int out_fader(const struct lp5523 *chip, unsigned int i)
{
	unsigned int f = (chip->regs[M(chip)->reg_led_ctrl + i] >>
			  M(chip)->fader_shift) & M(chip)->fader_mask;

	return f <= 3 ? f : 0;	/* LP5569 4-7: not a register fader */
}

static unsigned int out_duty(const struct lp5523 *chip, unsigned int i)
{
	unsigned int base, fader;

	if (!chip_enabled(chip))
		return 0;
	base = out_base(chip, i);
	fader = out_fader(chip, i);
	if (fader)
		base = base * chip->regs[M(chip)->reg_fader + fader - 1] /
		       LP5523_U_FADER_DIVISOR;
	return base;
}

static void update_outputs(struct lp5523 *chip)
{
	unsigned int i, duty;

	if (LP5523_U_LOAD_FREEZES_OUTPUTS && chip->frozen)
		return;
	for (i = 0; i < LP5523_OUTPUTS; i++) {
		duty = out_duty(chip, i);
		if (chip->out[i] == (int)duty)
			continue;
		chip->out[i] = duty;
		chip->out_changes++;
		if (chip->sink.output)
			chip->sink.output(chip->sink.ctx, chip->t_us,
					  chip->out_first + i + 1, duty);
	}
}

/*
 * The outputs engines of higher priority than @e map, which @e does not
 * drive: on the LP5569 ("Execution engine 1 has priority over execution
 * engines 2 and 3, with execution engine 2 having priority over execution
 * engine 3.  If an LED is mapped to more than one execution engine, the
 * higher-priority engine controls the LED": TI, E2E 991446; "more than
 * one engine cannot simultaneously control the same LED driver output",
 * [DS69] 8.1); none elsewhere, where the last writer wins.
 */
static uint16_t eng_maps_above(const struct lp5523 *chip, unsigned int e)
{
	uint16_t above = 0;
	unsigned int o;

	if (M(chip)->map_priority)
		for (o = 0; o < e; o++)
			above |= chip->eng[o].map;
	return above;
}

/* Change an engine's mapping; outputs keep their PWM register values. */
static void eng_set_map(struct lp5523 *chip, unsigned int e, uint16_t map)
{
	uint16_t above = eng_maps_above(chip, e);

	map &= 0x1ff;
	if (map & above)
		lp5523_note(chip, "engine%u map 0x%03x: 0x%03x follows a higher-priority engine",
			    e + 1, map, map & above);
	chip->eng[e].map = map;
	update_outputs(chip);
}

/* The engine pushes its PWM value into the registers of its outputs. */
static void eng_drive(struct lp5523 *chip, unsigned int e)
{
	uint16_t map = chip->eng[e].map & ~eng_maps_above(chip, e);
	unsigned int i;

	for (i = 0; i < LP5523_OUTPUTS; i++)
		if (map & (1 << i))
			chip->regs[M(chip)->reg_pwm + i] = chip->eng[e].pwm;
	update_outputs(chip);
}

/* ------------------------------------------------------------------ */
/* Engines                                                             */

static unsigned int eng_start_addr(const struct lp5523 *chip, unsigned int e)
{
	return chip->regs[M(chip)->reg_prog_start + e] % M(chip)->prog_words;
}

/* The host lets an engine go: it starts on the next clock tick. */
static void eng_kick(struct lp5523 *chip, unsigned int e)
{
	chip->eng[e].ready = chip->cycle + 1;
	chip->eng[e].kicked = chip->cycle;
}

static void eng_reset_loops(struct lp5523_engine *eng)
{
	memset(eng->loop_active, 0, sizeof(eng->loop_active));
}

/* Stop whatever the engine is doing (halt, disable, load). */
static void eng_abort(struct lp5523_engine *eng)
{
	eng->busy = false;
	eng->wait_trig = false;
	eng->steps_left = 0;
}

/*
 * Entering LOAD: "a program execution engine is clearing internal
 * registers" (STATUS ENGINE_BUSY, [DS]).  The engine's own state goes:
 * PC, its PWM value (the next ramp starts from 0), loop counters,
 * latched triggers, local variables A and B.  Kept: the mux table
 * start/end/pointer and the active mapping (the 6.1 driver's
 * engineN_leds row is activated by a program's first mux_map_next, so
 * they must survive LOAD), the PWM registers and global C.
 */
static void eng_clear(struct lp5523_engine *eng)
{
	eng_abort(eng);
	eng->pc = 0;
	eng->next_pc = 0;
	eng->pwm = 0;
	eng->var_a = 0;
	eng->var_b = 0;
	eng->trig_seen = 0;
	eng->trig_wait_mask = 0;
	eng_reset_loops(eng);
}

static void set_exec(struct lp5523 *chip, unsigned int e, unsigned int exec)
{
	uint8_t *r = &chip->regs[M(chip)->reg_exec];
	unsigned int sh = ctl_shift(chip, e);

	if (eng_exec(chip, e) == exec)
		return;
	*r = (*r & ~(3 << sh)) | exec << sh;
	lp5523_note(chip, "engine%u exec %s", e + 1, lp5523_exec_name[exec]);
}

static void set_mode(struct lp5523 *chip, unsigned int e, unsigned int mode)
{
	uint8_t *r = &chip->regs[M(chip)->reg_op_mode];
	unsigned int sh = ctl_shift(chip, e);

	*r = (*r & ~(3 << sh)) | mode << sh;
}

/* A word without a defined meaning: logged, one instruction time. */
static uint64_t eng_undefined(struct lp5523 *chip, unsigned int e,
			      uint16_t w, const char *why)
{
	lp5523_note(chip, "engine%u undefined %s 0x%04x at pc %u: no-op",
		    e + 1, why, w, chip->eng[e].pc);
	return LP5523_U_OTHER_INSN_CYCLES;
}

static void set_int(struct lp5523 *chip, unsigned int e)
{
	if (chip->faults.stuck) {
		lp5523_note(chip, "fault stuck engine%u int not set", e + 1);
		return;
	}
	if (!(chip->regs[M(chip)->reg_status] & 0x07))
		lp5523_note(chip, "int asserted");
	/* ENGx_INT at [2 - e] on every chip of the family */
	chip->regs[M(chip)->reg_status] |= LP5523_STATUS_ENG_INT(e);
}

enum { VAR_A, VAR_B, VAR_C, VAR_D };

static uint8_t get_var(struct lp5523 *chip, unsigned int e, unsigned int sel)
{
	switch (sel) {
	case VAR_A:
		return chip->eng[e].var_a;
	case VAR_B:
		return chip->eng[e].var_b;
	case VAR_C:
		return chip->var_c;
	default:
		if (chip->regs[M(chip)->reg_misc] & M(chip)->misc_var_d_sel)
			return chip->regs[M(chip)->reg_ledtest_adc];
		return chip->regs[M(chip)->reg_variable];
	}
}

static void set_var(struct lp5523 *chip, unsigned int e, unsigned int t,
		    uint8_t v)
{
	if (t == VAR_A)
		chip->eng[e].var_a = v;
	else if (t == VAR_B)
		chip->eng[e].var_b = v;
	else
		chip->var_c = v;
}

/*
 * Instruction handlers.  Each returns INSN_TABLE_CYCLES (the dispatcher
 * applies the instruction table's cycle count), a computed time in clock
 * cycles (ramp, wait), or LP5523_NEVER while it blocks (trigger wait).
 */
typedef uint64_t (*lp5523_exec_fn)(struct lp5523 *chip, unsigned int e,
				   uint16_t w);

struct lp5523_insn {
	uint16_t mask, value;
	const char *name;
	unsigned int cycles;	/* 0: computed by the handler (ramp, wait) */
	lp5523_exec_fn exec;
};

static uint64_t ramp_start(struct lp5523 *chip, unsigned int e,
			   unsigned int prescale, unsigned int step,
			   bool down, unsigned int n)
{
	struct lp5523_engine *eng = &chip->eng[e];
	unsigned int unit = prescale ? LP5523_PRESCALE1_CYCLES :
				       LP5523_PRESCALE0_CYCLES;

	eng->step_cycles = step * unit;
	eng->steps_left = n;
	eng->ramp_down = down;
	eng->next_step = chip->cycle + LP5523_U_RAMP_FETCH_CYCLES +
			 (LP5523_U_RAMP_STEP_AT_END ? eng->step_cycles : 0);
	/* n = 0 is a wait: costs one step, like n = 1 [DS] */
	return LP5523_U_RAMP_FETCH_CYCLES +
	       (uint64_t)eng->step_cycles * (n ? n : 1);
}

static uint64_t op_ramp(struct lp5523 *chip, unsigned int e, uint16_t w)
{
	unsigned int step = INSN_RAMP_STEP(w);

	if (!step)	/* 0x0001-0x01ff, 0x41xx: no defined meaning */
		return eng_undefined(chip, e, w, "ramp step 0");
	return ramp_start(chip, e, INSN_RAMP_PRESCALE(w), step,
			  INSN_RAMP_SIGN(w), INSN_RAMP_INCR(w));
}

static uint64_t op_ramp_var(struct lp5523 *chip, unsigned int e, uint16_t w)
{
	unsigned int step = get_var(chip, e, INSN_VAR_X(w)) & 0x1f;

	if (!step)
		return eng_undefined(chip, e, w, "ramp step 0 from variable");
	return ramp_start(chip, e, INSN_VAR_PRESCALE(w), step,
			  INSN_VAR_SIGN(w), get_var(chip, e, INSN_VAR_Y(w)));
}

static uint64_t op_set_pwm(struct lp5523 *chip, unsigned int e, uint16_t w)
{
	chip->eng[e].pwm = INSN_PWM_VALUE(w);
	eng_drive(chip, e);
	return INSN_TABLE_CYCLES;
}

static uint64_t op_set_pwm_var(struct lp5523 *chip, unsigned int e,
			       uint16_t w)
{
	chip->eng[e].pwm = get_var(chip, e, INSN_VAR_Y(w));
	eng_drive(chip, e);
	return INSN_TABLE_CYCLES;
}

static void mux_activate(struct lp5523 *chip, unsigned int e)
{
	eng_set_map(chip, e, chip->prog[chip->eng[e].mux_ptr]);
}

/* 7-bit absolute SRAM address of the mux_* words (LP55XX_U_MUX_ADDR_7BIT) */
static unsigned int sram_addr(const struct lp5523 *chip, uint16_t w)
{
	return INSN_SRAM_ADDR(w) % M(chip)->prog_words;
}

static uint64_t op_mux_ld_start(struct lp5523 *chip, unsigned int e,
				uint16_t w)
{
	chip->eng[e].mux_start = sram_addr(chip, w);
	return INSN_TABLE_CYCLES;
}

static uint64_t op_mux_map_start(struct lp5523 *chip, unsigned int e,
				 uint16_t w)
{
	chip->eng[e].mux_start = sram_addr(chip, w);
	chip->eng[e].mux_ptr = chip->eng[e].mux_start;
	mux_activate(chip, e);
	return INSN_TABLE_CYCLES;
}

static uint64_t op_mux_ld_end(struct lp5523 *chip, unsigned int e,
			      uint16_t w)
{
	chip->eng[e].mux_end = sram_addr(chip, w);
	return INSN_TABLE_CYCLES;
}

static uint64_t op_mux_sel(struct lp5523 *chip, unsigned int e, uint16_t w)
{
	unsigned int l = INSN_MUX_SEL(w);

	if (l > LP5523_OUTPUTS && l != LP5523_U_MUX_SEL_GPO)
		return eng_undefined(chip, e, w, "mux_sel");
	if (l == LP5523_U_MUX_SEL_GPO)
		lp5523_note(chip, "engine%u mux_sel gpo", e + 1);
	eng_set_map(chip, e, l && l <= LP5523_OUTPUTS ? 1 << (l - 1) : 0);
	return INSN_TABLE_CYCLES;
}

static void mux_step(struct lp5523_engine *eng, bool prev)
{
	if (!prev)
		eng->mux_ptr = eng->mux_ptr >= eng->mux_end ?
			       eng->mux_start : eng->mux_ptr + 1;
	else
		eng->mux_ptr = eng->mux_ptr <= eng->mux_start ?
			       eng->mux_end : eng->mux_ptr - 1;
}

static uint64_t op_mux_map_next(struct lp5523 *chip, unsigned int e,
				uint16_t w)
{
	mux_step(&chip->eng[e], INSN_MUX_PREV(w));
	mux_activate(chip, e);
	return INSN_TABLE_CYCLES;
}

static uint64_t op_mux_ld_next(struct lp5523 *chip, unsigned int e,
			       uint16_t w)
{
	mux_step(&chip->eng[e], INSN_MUX_PREV(w));
	return INSN_TABLE_CYCLES;
}

static uint64_t op_mux_ld_addr(struct lp5523 *chip, unsigned int e,
			       uint16_t w)
{
	chip->eng[e].mux_ptr = sram_addr(chip, w);
	return INSN_TABLE_CYCLES;
}

static uint64_t op_mux_map_addr(struct lp5523 *chip, unsigned int e,
				uint16_t w)
{
	chip->eng[e].mux_ptr = sram_addr(chip, w);
	mux_activate(chip, e);
	return INSN_TABLE_CYCLES;
}

static uint64_t op_rst(struct lp5523 *chip, unsigned int e, uint16_t w)
{
	(void)w;
	chip->eng[e].next_pc = 0;
	eng_reset_loops(&chip->eng[e]);
	return INSN_TABLE_CYCLES;
}

static uint64_t do_branch(struct lp5523 *chip, unsigned int e, uint16_t w,
			  unsigned int target, unsigned int count)
{
	struct lp5523_engine *eng = &chip->eng[e];
	unsigned int key = LP5523_U_LOOP_PER_BRANCH ? eng->pc : 0;

	if (target >= M(chip)->prog_words)
		return eng_undefined(chip, e, w, "branch target");
	if (!count) {			/* 0 = forever */
		eng->next_pc = target;
		return INSN_TABLE_CYCLES;
	}
	if (!eng->loop_active[key]) {
		eng->loop_active[key] = true;
		eng->loop_left[key] = count - 1 + LP5523_U_BRANCH_EXTRA_RUN;
	}
	if (eng->loop_left[key]) {
		eng->loop_left[key]--;
		eng->next_pc = target;
	} else {
		eng->loop_active[key] = false;
	}
	return INSN_TABLE_CYCLES;
}

static uint64_t op_branch(struct lp5523 *chip, unsigned int e, uint16_t w)
{
	return do_branch(chip, e, w, INSN_BRANCH_STEP(w),
			 INSN_BRANCH_COUNT(w));
}

static uint64_t op_branch_var(struct lp5523 *chip, unsigned int e,
			      uint16_t w)
{
	uint8_t count = get_var(chip, e, INSN_VAR_Y(w));

	if (!count && !LP5523_U_BRANCH_VAR_ZERO_FOREVER)
		return INSN_TABLE_CYCLES;	/* no loop at all */
	return do_branch(chip, e, w, INSN_BRANCHV_STEP(w), count);
}

static uint64_t op_int(struct lp5523 *chip, unsigned int e, uint16_t w)
{
	(void)w;
	lp5523_note(chip, "engine%u int", e + 1);
	set_int(chip, e);
	if (!LP5523_U_INT_CONTINUES)
		set_exec(chip, e, LP5523_EXEC_HOLD);
	return INSN_TABLE_CYCLES;
}

static uint64_t op_end(struct lp5523 *chip, unsigned int e, uint16_t w)
{
	bool irq = INSN_END_INT(w), reset = INSN_END_RESET(w);

	lp5523_note(chip, "engine%u end%s%s", e + 1, irq ? " int" : "",
		    reset ? " reset" : "");
	if (irq)
		set_int(chip, e);
	if (reset) {
		/* "PWM register values of the mapped drivers will be set
		 * to 0000 0000" [DS]; and the engine's master fader */
		chip->eng[e].pwm = 0;
		eng_drive(chip, e);
		chip->regs[M(chip)->reg_fader + e] = 0;
		update_outputs(chip);
	}
	chip->eng[e].next_pc = 0;
	eng_reset_loops(&chip->eng[e]);
	if (LP5523_U_END_CLEARS_EXEC)
		set_exec(chip, e, LP5523_EXEC_HOLD);
	return INSN_TABLE_CYCLES;
}

/* Latch a trigger from @from (engine 0..2 or LP5523_TRIG_EXT) in @to. */
static void trig_deliver(struct lp5523 *chip, unsigned int from,
			 unsigned int to)
{
	struct lp5523_engine *eng = &chip->eng[to];

	eng->trig_seen |= 1 << from;
	if (!eng->wait_trig ||
	    (eng->trig_seen & eng->trig_wait_mask) != eng->trig_wait_mask)
		return;
	eng->trig_seen &= ~eng->trig_wait_mask;
	eng->wait_trig = false;
	eng->busy = true;
	eng->end = eng->start + LP5523_INSN_CYCLES;
	if (eng->end < chip->cycle)
		eng->end = chip->cycle;
}

void lp5523_trig_in(struct lp5523 *chip, uint64_t cycle)
{
	unsigned int e;

	if (cycle > chip->cycle) {
		chip->cycle = cycle;
		chip->t_us = lp5523_cycles_to_us(cycle);
	}
	for (e = 0; e < LP5523_ENGINES; e++)
		trig_deliver(chip, LP5523_TRIG_EXT, e);
}

static uint64_t op_trigger(struct lp5523 *chip, unsigned int e, uint16_t w)
{
	struct lp5523_engine *eng = &chip->eng[e];
	unsigned int i;

	/* send first [DS] */
	if (INSN_TRIG_SEND_EXT(w)) {
		lp5523_note(chip, "engine%u trigger ext", e + 1);
		if (chip->trig_out)
			chip->trig_out(chip, chip->trig_ctx);
	}
	for (i = 0; i < LP5523_ENGINES; i++)
		if (INSN_TRIG_SEND(w) & (1 << i))
			trig_deliver(chip, e, i);

	eng->trig_wait_mask = INSN_TRIG_WAIT(w);
	if (INSN_TRIG_WAIT_EXT(w))
		eng->trig_wait_mask |= 1 << LP5523_TRIG_EXT;
	if ((eng->trig_seen & eng->trig_wait_mask) == eng->trig_wait_mask) {
		eng->trig_seen &= ~eng->trig_wait_mask;
		return INSN_TABLE_CYCLES;
	}
	eng->wait_trig = true;
	return LP5523_NEVER;
}

static uint64_t op_jump(struct lp5523 *chip, unsigned int e, uint16_t w)
{
	int x = get_var(chip, e, INSN_VAR_X(w));
	int y = get_var(chip, e, INSN_VAR_Y(w));
	bool take;

	if (LP5523_U_JUMP_SIGNED) {
		x = (int8_t)x;
		y = (int8_t)y;
	}
	switch (w & 0xfe00) {
	case 0x8800:		/* jne */
		take = x != y;
		break;
	case 0x8a00:		/* jl */
		take = x < y;
		break;
	case 0x8c00:		/* jge */
		take = x >= y;
		break;
	default:		/* je */
		take = x == y;
		break;
	}
	if (take)
		chip->eng[e].next_pc = chip->eng[e].pc + 1 +
				       INSN_JUMP_SKIP(w);
	return INSN_TABLE_CYCLES;
}

static uint64_t op_undefined(struct lp5523 *chip, unsigned int e,
			     uint16_t w)
{
	return eng_undefined(chip, e, w, "opcode");
}

static uint64_t op_ld(struct lp5523 *chip, unsigned int e, uint16_t w)
{
	set_var(chip, e, INSN_VAR_TARGET(w), INSN_ARITH_VALUE(w));
	return INSN_TABLE_CYCLES;
}

static uint64_t op_add(struct lp5523 *chip, unsigned int e, uint16_t w)
{
	unsigned int t = INSN_VAR_TARGET(w);

	set_var(chip, e, t, get_var(chip, e, t) + INSN_ARITH_VALUE(w));
	return INSN_TABLE_CYCLES;
}

static uint64_t op_sub(struct lp5523 *chip, unsigned int e, uint16_t w)
{
	unsigned int t = INSN_VAR_TARGET(w);

	set_var(chip, e, t, get_var(chip, e, t) - INSN_ARITH_VALUE(w));
	return INSN_TABLE_CYCLES;
}

static uint64_t op_add_var(struct lp5523 *chip, unsigned int e, uint16_t w)
{
	set_var(chip, e, INSN_VAR_TARGET(w),
		get_var(chip, e, INSN_VAR_X(w)) +
		get_var(chip, e, INSN_VAR_Y(w)));
	return INSN_TABLE_CYCLES;
}

static uint64_t op_sub_var(struct lp5523 *chip, unsigned int e, uint16_t w)
{
	set_var(chip, e, INSN_VAR_TARGET(w),
		get_var(chip, e, INSN_VAR_X(w)) -
		get_var(chip, e, INSN_VAR_Y(w)));
	return INSN_TABLE_CYCLES;
}

/*
 * Instruction set, [DS] tables 4-7, first match wins.  The cycles column
 * is the timing table the dispatcher applies: T_DS = 16 cycles as [DS]
 * gives it (set_pwm, branch, rst, end, trigger send; a trigger wait
 * lasts at least that), T_U = LP5523_U_OTHER_INSN_CYCLES for int, mux_*,
 * ld/add/sub, the jumps and undefined words ([DS] silent), 0 = ramp/wait:
 * n x s x (16 or 512) cycles, computed by the handler.
 */
#define T_DS	LP5523_INSN_CYCLES
#define T_U	LP5523_U_OTHER_INSN_CYCLES
static const struct lp5523_insn lp5523_insns[] = {
	{ 0xffff, 0x0000, "rst",		T_DS, op_rst },
	{ 0xff00, 0x4000, "set_pwm",		T_DS, op_set_pwm },
	{ 0x8000, 0x0000, "ramp",		0, op_ramp },
	{ 0xfffc, 0x8460, "set_pwm_var",	T_DS, op_set_pwm_var },
	{ 0xffc0, 0x8400, "ramp_var",		0, op_ramp_var },
	{ 0xfe00, 0x8600, "branch_var",		T_DS, op_branch_var },
	{ 0xfe00, 0x8800, "jne",		T_U, op_jump },
	{ 0xfe00, 0x8a00, "jl",			T_U, op_jump },
	{ 0xfe00, 0x8c00, "jge",		T_U, op_jump },
	{ 0xfe00, 0x8e00, "je",			T_U, op_jump },
	{ 0xff80, 0x9c00, "mux_map_start",	T_U, op_mux_map_start },
	{ 0xff80, 0x9c80, "mux_ld_end",		T_U, op_mux_ld_end },
	{ 0xffff, 0x9d80, "mux_map_next",	T_U, op_mux_map_next },
	{ 0xffff, 0x9dc0, "mux_map_prev",	T_U, op_mux_map_next },
	{ 0xffff, 0x9d81, "mux_ld_next",	T_U, op_mux_ld_next },
	{ 0xffff, 0x9dc1, "mux_ld_prev",	T_U, op_mux_ld_next },
	{ 0xffff, 0x9d00, "mux_clr",		T_U, op_mux_sel },
	{ 0xff80, 0x9d00, "mux_sel",		T_U, op_mux_sel },
	{ 0xff80, 0x9e00, "mux_ld_start",	T_U, op_mux_ld_start },
	{ 0xff80, 0x9f00, "mux_ld_addr",	T_U, op_mux_ld_addr },
	{ 0xff80, 0x9f80, "mux_map_addr",	T_U, op_mux_map_addr },
	{ 0xfc00, 0x9c00, "undefined",		T_U, op_undefined }, /* tt=3 */
	{ 0xf300, 0x9000, "ld",			T_U, op_ld },
	{ 0xf300, 0x9100, "add",		T_U, op_add },
	{ 0xf300, 0x9200, "sub",		T_U, op_sub },
	{ 0xf3f0, 0x9300, "add_var",		T_U, op_add_var },
	{ 0xf3f0, 0x9310, "sub_var",		T_U, op_sub_var },
	{ 0xe000, 0xa000, "branch",		T_DS, op_branch },
	{ 0xffff, 0xc400, "int",		T_U, op_int },
	{ 0xe7ff, 0xc000, "end",		T_DS, op_end },
	{ 0xe000, 0xe000, "trigger",		T_DS, op_trigger },
	{ 0x0000, 0x0000, "undefined",		T_U, op_undefined }, /* rest */
};

static const struct lp5523_insn *decode(uint16_t w)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lp5523_insns); i++)
		if ((w & lp5523_insns[i].mask) == lp5523_insns[i].value)
			break;
	return &lp5523_insns[i];
}

static void eng_start_insn(struct lp5523 *chip, unsigned int e)
{
	struct lp5523_engine *eng = &chip->eng[e];
	unsigned int addr = (eng_start_addr(chip, e) + eng->pc) %
			    M(chip)->prog_words;
	uint16_t w = chip->prog[addr];
	const struct lp5523_insn *in = decode(w);
	uint64_t cycles;

	if (chip->trace)
		lp5523_note(chip, "engine%u pc %u 0x%04x %s", e + 1, eng->pc,
			    w, in->name);
	eng->start = chip->cycle;
	eng->next_pc = eng_exec(chip, e) == LP5523_EXEC_ONCE ?
		       eng->pc : eng->pc + 1;
	eng->steps_left = 0;
	cycles = in->exec(chip, e, w);
	if (cycles == INSN_TABLE_CYCLES)
		cycles = in->cycles;
	if (eng_start_addr(chip, e) + eng->next_pc >= M(chip)->prog_words)
		eng->next_pc = 0;	/* PC returns to 0 at its limit */
	if (cycles == LP5523_NEVER)
		return;		/* blocked in a trigger wait */
	eng->busy = true;
	eng->end = chip->cycle + cycles;
}

static void eng_finish_insn(struct lp5523 *chip, unsigned int e)
{
	struct lp5523_engine *eng = &chip->eng[e];
	unsigned int exec = eng_exec(chip, e);

	eng->busy = false;
	eng->pc = eng->next_pc;
	eng->ready = chip->cycle;
	if (exec == LP5523_EXEC_STEP || exec == LP5523_EXEC_ONCE)
		set_exec(chip, e, LP5523_EXEC_HOLD);
}

static bool eng_runnable(const struct lp5523 *chip, unsigned int e)
{
	return !chip_paused(chip) && eng_mode(chip, e) == LP5523_MODE_RUN;
}

static uint64_t eng_next_event(const struct lp5523 *chip, unsigned int e)
{
	const struct lp5523_engine *eng = &chip->eng[e];

	if (!eng_runnable(chip, e) || eng->wait_trig)
		return LP5523_NEVER;
	if (eng->busy)
		return eng->steps_left ? eng->next_step : eng->end;
	if (eng_exec(chip, e) == LP5523_EXEC_HOLD)
		return LP5523_NEVER;
	return eng->ready;
}

static void eng_event(struct lp5523 *chip, unsigned int e)
{
	struct lp5523_engine *eng = &chip->eng[e];

	if (!eng->busy) {
		eng_start_insn(chip, e);
		return;
	}
	if (eng->steps_left && eng->next_step == chip->cycle) {
		if (eng->ramp_down) {
			if (eng->pwm)
				eng->pwm--;
		} else if (eng->pwm < 255) {
			eng->pwm++;
		}
		eng_drive(chip, e);
		eng->steps_left--;
		eng->next_step += eng->step_cycles;
	}
	if (!eng->steps_left && eng->end == chip->cycle)
		eng_finish_insn(chip, e);
}

/* Called around anything that may pause or resume all engines. */
static void pause_update(struct lp5523 *chip, bool was_paused)
{
	bool paused = chip_paused(chip);
	uint64_t delta;
	unsigned int e;

	if (paused == was_paused)
		return;
	if (paused) {
		chip->pause_start = chip->cycle;
		return;
	}
	delta = chip->cycle - chip->pause_start;
	for (e = 0; e < LP5523_ENGINES; e++) {
		struct lp5523_engine *eng = &chip->eng[e];

		eng->start += delta;
		eng->end += delta;
		eng->next_step += delta;
		/* a start scheduled before the pause moves with it */
		if (eng->ready > chip->pause_start &&
		    eng->kicked < chip->pause_start)
			eng->ready += delta;
		if (eng->ready <= chip->cycle)
			eng->ready = chip->cycle + 1;
	}
}

uint64_t lp5523_next_event_cycle(const struct lp5523 *chip)
{
	uint64_t next = LP5523_NEVER, t;
	unsigned int e;

	for (e = 0; e < LP5523_ENGINES; e++) {
		t = eng_next_event(chip, e);
		if (t < next)
			next = t;
	}
	return next;
}

uint64_t lp5523_next_event_ns(const struct lp5523 *chip)
{
	uint64_t next = lp5523_next_event_cycle(chip);

	if (next == LP5523_NEVER)
		return UINT64_MAX;
	return lp5523_cycles_to_ns(next) + 1;	/* round up to the tick */
}

void lp5523_run_to(struct lp5523 *chip, uint64_t target)
{
	uint64_t t, best;
	unsigned int e, be;

	for (;;) {
		best = LP5523_NEVER;
		be = 0;
		for (e = 0; e < LP5523_ENGINES; e++) {
			t = eng_next_event(chip, e);
			if (t < best) {
				best = t;
				be = e;
			}
		}
		if (best > target)
			break;
		if (best > chip->cycle)
			chip->cycle = best;
		chip->t_us = lp5523_cycles_to_us(chip->cycle);
		eng_event(chip, be);
	}
	if (target > chip->cycle)
		chip->cycle = target;
}

void lp5523_advance(struct lp5523 *chip, uint64_t now_ns)
{
	if (now_ns < chip->now_ns)
		now_ns = chip->now_ns;
	lp5523_run_to(chip, lp5523_ns_to_cycles(now_ns));
	chip->now_ns = now_ns;
	chip->t_us = now_ns / 1000;
}

/* ------------------------------------------------------------------ */
/* Registers                                                           */

static void write_op_mode(struct lp5523 *chip, uint8_t val)
{
	unsigned int e, old, mode;

	for (e = 0; e < LP5523_ENGINES; e++) {
		struct lp5523_engine *eng = &chip->eng[e];

		old = eng_mode(chip, e);
		mode = (val >> ctl_shift(chip, e)) & 3;
		if (mode == old)
			continue;
		if (mode == LP5523_MODE_LOAD && old != LP5523_MODE_DISABLED) {
			/* disabled is "the only state from which LOAD may
			 * be entered"; "Entering LOAD from RUN is not
			 * allowed" [DS] */
			lp5523_note(chip, "bad-access engine%u %s->load ignored",
				    e + 1, lp5523_mode_name[old]);
			continue;
		}
		set_mode(chip, e, mode);
		lp5523_note(chip, "engine%u %s", e + 1, lp5523_mode_name[mode]);
		switch (mode) {
		case LP5523_MODE_DISABLED:
			eng_abort(eng);
			if (LP5523_U_DISABLE_RELEASES_MAP && eng->map)
				eng_set_map(chip, e, 0);
			break;
		case LP5523_MODE_LOAD:
			eng_clear(eng);	/* PC and internal registers [DS] */
			eng->load_busy_until = chip->cycle +
					       LP5523_U_LOAD_BUSY_CYCLES;
			break;
		case LP5523_MODE_RUN:
			eng_kick(chip, e);
			break;
		case LP5523_MODE_HALT:
			eng_abort(eng);	/* aborts immediately [DS] */
			break;
		}
	}
}

/*
 * A write to the CHIP_EN register, the EXEC register, or (LP5523, LP8501)
 * the one register that holds both.
 */
static void write_enable(struct lp5523 *chip, unsigned int reg, uint8_t val)
{
	const struct lp55xx_model *m = M(chip);
	uint8_t old = chip->regs[reg];
	uint8_t exec_mask = 0x3f << (m->ctl_shift - 4);
	bool has_en = reg == m->reg_enable, has_exec = reg == m->reg_exec;
	unsigned int e, exec;

	if (has_exec && !chip_enabled(chip)) {
		/* EXEC bits ignored while CHIP_EN = 0 [DS] */
		if (val & exec_mask & ~old)
			lp5523_note(chip, "bad-access exec while disabled");
		val = (val & ~exec_mask) | (old & exec_mask);
	}
	if (has_en && ((val ^ old) & LP5523_CHIP_EN)) {
		lp5523_note(chip, "chip %s",
			    val & LP5523_CHIP_EN ? "enable" : "disable");
		if (val & LP5523_CHIP_EN)
			chip->startup_until = chip->cycle +
					      LP5523_U_STARTUP_BUSY_CYCLES;
	}
	if (has_en)
		chip->regs[reg] = (old & ~LP5523_CHIP_EN) |
				  (val & LP5523_CHIP_EN);
	if (!has_exec)
		return;
	for (e = 0; e < LP5523_ENGINES; e++) {
		exec = (val >> ctl_shift(chip, e)) & 3;
		if (exec != LP5523_EXEC_HOLD &&
		    eng_exec(chip, e) == LP5523_EXEC_HOLD &&
		    chip->eng[e].ready <= chip->cycle)
			eng_kick(chip, e);
		set_exec(chip, e, exec);
	}
}

static uint8_t read_status(struct lp5523 *chip)
{
	const struct lp55xx_model *m = M(chip);
	uint8_t val = chip->regs[m->reg_status];
	unsigned int e;

	if (!chip_enabled(chip) || chip->cycle < chip->startup_until)
		val |= m->status_startup_busy;
	for (e = 0; e < LP5523_ENGINES; e++)
		if (eng_mode(chip, e) == LP5523_MODE_LOAD &&
		    chip->cycle < chip->eng[e].load_busy_until)
			val |= m->status_engine_busy;
	if (m->status_ledtest_done && chip->ledtest_done &&
	    chip->cycle >= chip->ledtest_done)
		val |= m->status_ledtest_done;
	/* LP5523: [7] and [2:0] clear on read [DS] */
	if (val & m->status_ledtest_done)
		chip->ledtest_done = 0;
	if (chip->regs[m->reg_status] & 0x07)
		lp5523_note(chip, "int released");
	chip->regs[m->reg_status] &= ~m->status_clear;
	return val;
}

static int prog_index(struct lp5523 *chip, unsigned int reg, bool write)
{
	const struct lp55xx_model *m = M(chip);
	unsigned int page = chip->regs[m->reg_page_sel] & m->page_mask;

	if (!any_load(chip)) {
		lp5523_note(chip, "bad-access %s 0x%02x without load",
			    write ? "write" : "read", reg);
		return -1;
	}
	if (page >= m->pages) {		/* LP5523: LP5523_U_PAGES */
		lp5523_note(chip, "bad-access page %u", page);
		return -1;
	}
	return page * LP5523_PAGE_WORDS + (reg - m->reg_prog_mem) / 2;
}

static void start_ledtest(struct lp5523 *chip, uint8_t val)
{
	unsigned int src = val & 0x1f;
	uint8_t adc;

	if (!(val & 0x80))
		return;
	if (src < LP5523_OUTPUTS)
		adc = src < 6 ? LP5523_ADC_LED_WHITE : LP5523_ADC_LED_RED;
	else if (src == 15)
		adc = LP5523_ADC_VOUT;
	else if (src == 16)
		adc = LP5523_ADC_VDD;
	else
		adc = LP5523_ADC_INT_PIN;
	chip->regs[M(chip)->reg_ledtest_adc] = adc;
	chip->ledtest_done = chip->cycle + LP5523_LEDTEST_CYCLES;
}

static uint8_t rd_pc(struct lp5523 *chip, unsigned int reg)
{
	return chip->eng[reg - M(chip)->reg_pc].pc;
}

static uint8_t rd_zero(struct lp5523 *chip, unsigned int reg)
{
	(void)chip;
	(void)reg;
	return 0;
}

static uint8_t rd_status(struct lp5523 *chip, unsigned int reg)
{
	(void)reg;
	return read_status(chip);
}

static uint8_t rd_temp_ctrl(struct lp5523 *chip, unsigned int reg)
{
	return chip->regs[reg] |
	       (chip->temp_done_valid && chip->cycle < chip->temp_done ?
		0x80 : 0);
}

static uint8_t rd_var_a(struct lp5523 *chip, unsigned int reg)
{
	return chip->eng[reg - M(chip)->reg_var_a].var_a;
}

static uint8_t rd_prog(struct lp5523 *chip, unsigned int reg)
{
	int idx = prog_index(chip, reg, false);

	if (idx < 0)
		return LP5523_U_PROG_NO_LOAD_READ;
	return reg & 1 ? chip->prog[idx] & 0xff : chip->prog[idx] >> 8;
}

static uint8_t rd_map(struct lp5523 *chip, unsigned int reg)
{
	unsigned int e = (reg - M(chip)->reg_map) / 2;

	return reg & 1 ? chip->eng[e].map & 0xff : chip->eng[e].map >> 8;
}

static void wr_enable(struct lp5523 *chip, unsigned int reg, uint8_t val)
{
	bool was_paused = chip_paused(chip);

	write_enable(chip, reg, val);
	chip->frozen = any_load(chip);
	pause_update(chip, was_paused);
	update_outputs(chip);
}

static void wr_op_mode(struct lp5523 *chip, unsigned int reg, uint8_t val)
{
	bool was_paused = chip_paused(chip);

	(void)reg;
	write_op_mode(chip, val);
	chip->frozen = any_load(chip);
	pause_update(chip, was_paused);
	update_outputs(chip);
}

/* a plain register whose value the outputs depend on */
static void wr_outputs(struct lp5523 *chip, unsigned int reg, uint8_t val)
{
	chip->regs[reg] = val;
	update_outputs(chip);
}

/* LP5569 MISC: INT_CLK_EN [0] starts and stops the engines' clock */
static void wr_misc(struct lp5523 *chip, unsigned int reg, uint8_t val)
{
	bool was_paused = chip_paused(chip);
	uint8_t clk = M(chip)->misc_int_clk;

	if ((chip->regs[reg] ^ val) & clk)
		lp5523_note(chip, "clock %s", val & clk ? "internal" : "off");
	chip->regs[reg] = val;
	pause_update(chip, was_paused);
	update_outputs(chip);
}

/*
 * LP8501 POWER CONFIG: which supply feeds D1-D6 [1] and D7-D9 [0], the
 * charge pump output or VDD.  Logged; the duty does not change.
 */
static void wr_pwr_config(struct lp5523 *chip, unsigned int reg, uint8_t val)
{
	if (chip->regs[reg] != val)
		lp5523_note(chip, "supply D1-D6 %s D7-D9 %s",
			    val & 2 ? "vout" : "vdd", val & 1 ? "vout" : "vdd");
	chip->regs[reg] = val;
}

static void wr_led_ctrl(struct lp5523 *chip, unsigned int reg, uint8_t val)
{
	const struct lp55xx_model *m = M(chip);
	unsigned int i = reg - m->reg_led_ctrl;
	uint8_t old = chip->regs[reg];

	chip->regs[reg] = val;
	if ((old ^ val) & m->log_en)
		lp5523_note(chip, "D%u %s", i + 1,
			    val & m->log_en ? "log" : "linear");
	if (((old ^ val) >> m->fader_shift) & m->fader_mask)
		lp5523_note(chip, "D%u fader %u", i + 1,
			    (val >> m->fader_shift) & m->fader_mask);
	update_outputs(chip);
}

static void wr_pwm(struct lp5523 *chip, unsigned int reg, uint8_t val)
{
	if (!chip_enabled(chip)) {	/* ignored [DS] */
		lp5523_note(chip, "bad-access pwm 0x%02x while disabled", reg);
		return;
	}
	wr_outputs(chip, reg, val);
}

static void wr_current(struct lp5523 *chip, unsigned int reg, uint8_t val)
{
	if (chip->regs[reg] != val)
		lp5523_note(chip, "D%u current %u.%u mA",
			    reg - M(chip)->reg_current + 1,
			    val / 10, val % 10);
	chip->regs[reg] = val;
}

static void wr_pc(struct lp5523 *chip, unsigned int reg, uint8_t val)
{
	unsigned int i = reg - M(chip)->reg_pc;

	/* R/W only in hold, ignored while CHIP_EN = 0 [DS] */
	if (!chip_enabled(chip) || eng_exec(chip, i) != LP5523_EXEC_HOLD ||
	    chip->eng[i].busy || val >= M(chip)->prog_words) {
		lp5523_note(chip, "bad-access pc%u <- 0x%02x", i + 1, val);
		return;
	}
	/* a trigger wait is left: the engine goes on from here */
	chip->eng[i].wait_trig = false;
	chip->eng[i].pc = val;
	chip->eng[i].next_pc = val;
}

static void wr_reset(struct lp5523 *chip, unsigned int reg, uint8_t val)
{
	(void)reg;
	if (val == 0xff)
		lp5523_reset(chip);
}

static void wr_temp_ctrl(struct lp5523 *chip, unsigned int reg, uint8_t val)
{
	chip->regs[reg] = val;
	if (val & 0x04) {
		chip->temp_done = chip->cycle + LP5523_TEMP_CYCLES;
		chip->temp_done_valid = 1;
	}
}

static void wr_temp_write(struct lp5523 *chip, unsigned int reg, uint8_t val)
{
	/* clamped to -39..89 C [DS] */
	if ((int8_t)val < -39)
		val = (uint8_t)-39;
	else if ((int8_t)val > 89)
		val = 89;
	chip->regs[reg] = val;
}

static void wr_ledtest(struct lp5523 *chip, unsigned int reg, uint8_t val)
{
	chip->regs[reg] = val;
	start_ledtest(chip, val);
}

static void wr_start_addr(struct lp5523 *chip, unsigned int reg, uint8_t val)
{
	if (val >= M(chip)->prog_words)
		lp5523_note(chip, "bad-access start 0x%02x", val);
	chip->regs[reg] = val % M(chip)->prog_words;
}

static void wr_prog(struct lp5523 *chip, unsigned int reg, uint8_t val)
{
	int idx = prog_index(chip, reg, true);

	if (idx < 0)
		return;
	if (reg & 1)
		chip->prog[idx] = (chip->prog[idx] & 0xff00) | val;
	else
		chip->prog[idx] = (chip->prog[idx] & 0x00ff) | val << 8;
}

/*
 * The register map, [DS] table 3 and 7.6.2: address range, reset value,
 * writable bits (a write is masked with them), access, and the handlers
 * of registers with side effects (NULL: plain storage in regs[]).
 * Addresses not in the table are reserved: reads 0, writes ignored, both
 * logged as bad-access.
 */
enum { ACC_R = 1, ACC_W = 2, ACC_RW = 3 };

struct lp5523_reg {
	uint8_t first, last;
	uint8_t reset, wmask, access;
	const char *name;
	uint8_t (*read)(struct lp5523 *chip, unsigned int reg);
	void (*write)(struct lp5523 *chip, unsigned int reg, uint8_t val);
};

#define REG(a, b, rst, wm, acc, nm, rd, wr) \
	{ (a), (b), (rst), (wm), (acc), (nm), (rd), (wr) }
static const struct lp5523_reg lp5523_regs[] = {
	REG(0x00, 0x00, 0x00, 0x7f, ACC_RW, "ENABLE/ENGINE CNTRL1", NULL, wr_enable),
	REG(0x01, 0x01, 0x00, 0x3f, ACC_RW, "ENGINE CNTRL2", NULL, wr_op_mode),
	REG(0x02, 0x02, 0x00, 0x01, ACC_RW, "OUTPUT RATIOMETRIC MSB", NULL, NULL),
	REG(0x03, 0x03, 0x00, 0xff, ACC_RW, "OUTPUT RATIOMETRIC LSB", NULL, NULL),
	REG(0x04, 0x04, 0x01, 0x01, ACC_RW, "OUTPUT ON/OFF MSB", NULL, wr_outputs),
	REG(0x05, 0x05, 0xff, 0xff, ACC_RW, "OUTPUT ON/OFF LSB", NULL, wr_outputs),
	REG(0x06, 0x0e, 0x00, 0xff, ACC_RW, "D1-D9 CONTROL", NULL, wr_led_ctrl),
	REG(0x16, 0x1e, 0x00, 0xff, ACC_RW, "D1-D9 PWM", NULL, wr_pwm),
	REG(0x26, 0x2e, 0xaf, 0xff, ACC_RW, "D1-D9 CURRENT CONTROL", NULL, wr_current),
	REG(0x36, 0x36, 0x40, 0xff, ACC_RW, "MISC", NULL, NULL),
	REG(0x37, 0x39, 0x00, 0x7f, ACC_RW, "ENGINE1-3 PC", rd_pc, wr_pc),
	REG(0x3a, 0x3a, 0x40, 0x00, ACC_R, "STATUS/INTERRUPT", rd_status, NULL),
	REG(0x3b, 0x3b, 0x00, 0x05, ACC_RW, "INT/GPO", NULL, NULL),
	REG(0x3c, 0x3c, 0x00, 0xff, ACC_RW, "VARIABLE", NULL, NULL),
	REG(0x3d, 0x3d, 0x00, 0xff, ACC_RW, "RESET", rd_zero, wr_reset),
	REG(0x3e, 0x3e, 0x00, 0x07, ACC_RW, "TEMP ADC CONTROL", rd_temp_ctrl, wr_temp_ctrl),
	REG(0x3f, 0x3f, LP5523_TEMP_25C, 0x00, ACC_R, "TEMPERATURE READ", NULL, NULL),
	REG(0x40, 0x40, 0x00, 0xff, ACC_RW, "TEMPERATURE WRITE", NULL, wr_temp_write),
	REG(0x41, 0x41, 0x00, 0xff, ACC_RW, "LED TEST CONTROL", NULL, wr_ledtest),
	REG(0x42, 0x42, 0x00, 0x00, ACC_R, "LED TEST ADC", NULL, NULL),
	REG(0x45, 0x47, 0x00, 0x00, ACC_R, "ENGINE1-3 VARIABLE A", rd_var_a, NULL),
	REG(0x48, 0x4a, 0x00, 0xff, ACC_RW, "MASTER FADER1-3", NULL, wr_outputs),
	REG(0x4c, 0x4c, 0x00, 0x7f, ACC_RW, "ENG1 PROG START ADDR", NULL, wr_start_addr),
	REG(0x4d, 0x4d, 0x08, 0x7f, ACC_RW, "ENG2 PROG START ADDR", NULL, wr_start_addr),
	REG(0x4e, 0x4e, 0x10, 0x7f, ACC_RW, "ENG3 PROG START ADDR", NULL, wr_start_addr),
	REG(0x4f, 0x4f, 0x00, 0x07, ACC_RW, "PROG MEM PAGE SEL", NULL, NULL),
	REG(0x50, 0x6f, 0x00, 0xff, ACC_RW, "PROGRAM MEMORY", rd_prog, wr_prog),
	REG(0x70, 0x75, 0x00, 0x00, ACC_R, "ENG1-3 MAPPING MSB/LSB", rd_map, NULL),
	REG(0x76, 0x76, 0x00, 0xfc, ACC_RW, "GAIN CHANGE CTRL", NULL, NULL),
};

/*
 * LP5569, SNVSAP8A (Documentation/lp5569-lp8501-emulator.md, "LP5569"):
 * CHIP_EN, EXEC and MODE in three registers, EXEC and MODE in bits
 * [7:2], 256 words of program memory in 16 pages, 8-bit PC and start
 * addresses, ENGINE_STATUS at 0x3c, current at 0x22.  No ON/OFF, LED
 * test ADC or temperature registers.  Reset values: LP55XX_U_* choices
 * where the datasheet's table could not be read.
 */
static const struct lp5523_reg lp5569_regs[] = {
	REG(0x00, 0x00, 0x00, 0x40, ACC_RW, "CONFIG", NULL, wr_enable),
	REG(0x01, 0x01, 0x00, 0xfc, ACC_RW, "LED_ENGINE_CONTROL1", NULL, wr_enable),
	REG(0x02, 0x02, 0x00, 0xfc, ACC_RW, "LED_ENGINE_CONTROL2", NULL, wr_op_mode),
	REG(0x07, 0x0f, 0x00, 0xff, ACC_RW, "LED0-8_CONTROL", NULL, wr_led_ctrl),
	REG(0x16, 0x1e, 0x00, 0xff, ACC_RW, "LED0-8_PWM", NULL, wr_pwm),
	REG(0x22, 0x2a, 0xaf, 0xff, ACC_RW, "LED0-8_CURRENT", NULL, wr_current),
	REG(0x2f, 0x2f, LP55XX_U_LP5569_MISC_RESET, 0xff, ACC_RW, "MISC", NULL, wr_misc),
	REG(0x30, 0x32, 0x00, 0xff, ACC_RW, "ENGINE1-3_PC", rd_pc, wr_pc),
	REG(0x33, 0x33, 0x00, 0xff, ACC_RW, "MISC2", NULL, NULL),
	REG(0x3c, 0x3c, LP5569_STATUS_MASK_BUSY, 0x00, ACC_R, "ENGINE_STATUS", rd_status, NULL),
	REG(0x3d, 0x3d, 0x00, 0xff, ACC_RW, "IO_CONTROL", NULL, NULL),
	REG(0x3e, 0x3e, 0x00, 0xff, ACC_RW, "VARIABLE_D", NULL, NULL),
	REG(0x3f, 0x3f, 0x00, 0xff, ACC_RW, "RESET", rd_zero, wr_reset),
	REG(0x42, 0x44, 0x00, 0x00, ACC_R, "ENGINE1-3_VARIABLE_A", rd_var_a, NULL),
	REG(0x46, 0x48, 0x00, 0xff, ACC_RW, "MASTER_FADER1-3", NULL, wr_outputs),
	REG(0x4a, 0x4a, 0x00, 0xff, ACC_RW, "MASTER_FADER_PWM", NULL, NULL),
	REG(0x4b, 0x4b, 0x00, 0xff, ACC_RW, "ENGINE1_PROG_START", NULL, wr_start_addr),
	REG(0x4c, 0x4c, 0x40, 0xff, ACC_RW, "ENGINE2_PROG_START", NULL, wr_start_addr),
	REG(0x4d, 0x4d, 0x80, 0xff, ACC_RW, "ENGINE3_PROG_START", NULL, wr_start_addr),
	REG(0x4f, 0x4f, 0x00, 0x0f, ACC_RW, "PROG_MEM_PAGE_SELECT", NULL, NULL),
	REG(0x50, 0x6f, 0x00, 0xff, ACC_RW, "PROGRAM_MEM_00-31", rd_prog, wr_prog),
	REG(0x70, 0x75, 0x00, 0x00, ACC_R, "ENGINE1-3_MAPPING1/2", rd_map, NULL),
};

/*
 * LP8501, SNVS548D: the LP5523's map and reset values, except 0x04-0x05
 * (no ON/OFF registers; 0x05 is POWER CONFIG) and CONFIG [7]
 * (PWM_PWRSAVE: variable D is always the VARIABLE register).
 */
static const struct lp5523_reg lp8501_regs[] = {
	REG(0x00, 0x00, 0x00, 0x7f, ACC_RW, "ENABLE/ENGINE CNTRL1", NULL, wr_enable),
	REG(0x01, 0x01, 0x00, 0x3f, ACC_RW, "ENGINE CNTRL2", NULL, wr_op_mode),
	REG(0x02, 0x02, 0x00, 0x01, ACC_RW, "OUTPUT RATIOMETRIC MSB", NULL, NULL),
	REG(0x03, 0x03, 0x00, 0xff, ACC_RW, "OUTPUT RATIOMETRIC LSB", NULL, NULL),
	REG(0x05, 0x05, 0x00, 0x03, ACC_RW, "POWER CONFIG", NULL, wr_pwr_config),
	REG(0x06, 0x0e, 0x00, 0xff, ACC_RW, "D1-D9 CONTROL", NULL, wr_led_ctrl),
	REG(0x16, 0x1e, 0x00, 0xff, ACC_RW, "D1-D9 PWM", NULL, wr_pwm),
	REG(0x26, 0x2e, 0xaf, 0xff, ACC_RW, "D1-D9 CURRENT CONTROL", NULL, wr_current),
	REG(0x36, 0x36, 0x40, 0xff, ACC_RW, "CONFIG", NULL, NULL),
	REG(0x37, 0x39, 0x00, 0x7f, ACC_RW, "ENGINE1-3 PC", rd_pc, wr_pc),
	REG(0x3a, 0x3a, 0x40, 0x00, ACC_R, "STATUS/INTERRUPT", rd_status, NULL),
	REG(0x3b, 0x3b, 0x00, 0x05, ACC_RW, "INT/GPO", NULL, NULL),
	REG(0x3c, 0x3c, 0x00, 0xff, ACC_RW, "VARIABLE", NULL, NULL),
	REG(0x3d, 0x3d, 0x00, 0xff, ACC_RW, "RESET", rd_zero, wr_reset),
	REG(0x3e, 0x3e, 0x00, 0x07, ACC_RW, "TEMP ADC CONTROL", rd_temp_ctrl, wr_temp_ctrl),
	REG(0x3f, 0x3f, LP5523_TEMP_25C, 0x00, ACC_R, "TEMPERATURE READ", NULL, NULL),
	REG(0x40, 0x40, 0x00, 0xff, ACC_RW, "TEMPERATURE WRITE", NULL, wr_temp_write),
	REG(0x41, 0x41, 0x00, 0xff, ACC_RW, "LED TEST CONTROL", NULL, wr_ledtest),
	REG(0x42, 0x42, 0x00, 0x00, ACC_R, "LED TEST ADC", NULL, NULL),
	REG(0x45, 0x47, 0x00, 0x00, ACC_R, "ENGINE1-3 VARIABLE A", rd_var_a, NULL),
	REG(0x48, 0x4a, 0x00, 0xff, ACC_RW, "MASTER FADER1-3", NULL, wr_outputs),
	REG(0x4c, 0x4c, 0x00, 0x7f, ACC_RW, "ENG1 PROG START ADDR", NULL, wr_start_addr),
	REG(0x4d, 0x4d, 0x08, 0x7f, ACC_RW, "ENG2 PROG START ADDR", NULL, wr_start_addr),
	REG(0x4e, 0x4e, 0x10, 0x7f, ACC_RW, "ENG3 PROG START ADDR", NULL, wr_start_addr),
	REG(0x4f, 0x4f, 0x00, 0x07, ACC_RW, "PROG MEM PAGE SEL", NULL, NULL),
	REG(0x50, 0x6f, 0x00, 0xff, ACC_RW, "PROGRAM MEMORY", rd_prog, wr_prog),
	REG(0x70, 0x75, 0x00, 0x00, ACC_R, "ENG1-3 MAPPING MSB/LSB", rd_map, NULL),
};

/* One description per chip; the engines, outputs and I2C are shared. */
const struct lp55xx_model lp5523_model = {
	.name = "lp5523",
	.prog_words = LP5523_PROG_WORDS, .pages = LP5523_U_PAGES,
	.page_mask = 0x07, .num_regs = LP5523_NUM_REGS,
	.reg_enable = LP5523_REG_ENABLE, .reg_exec = LP5523_REG_ENABLE,
	.reg_op_mode = LP5523_REG_OP_MODE, .ctl_shift = 4,
	.reg_led_ctrl = LP5523_REG_LED_CTRL_BASE,
	.reg_pwm = LP5523_REG_LED_PWM_BASE,
	.reg_current = LP5523_REG_LED_CURRENT_BASE,
	.reg_misc = LP5523_REG_CONFIG, .reg_pc = LP5523_REG_PC1,
	.reg_status = LP5523_REG_STATUS, .reg_variable = LP5523_REG_VARIABLE,
	.reg_reset = LP5523_REG_RESET,
	.reg_var_a = LP5523_REG_ENG1_VARIABLE_A,
	.reg_fader = LP5523_REG_MASTER_FADER_BASE,
	.reg_prog_start = LP5523_REG_CH1_PROG_START,
	.reg_page_sel = LP5523_REG_PROG_PAGE_SEL,
	.reg_prog_mem = LP5523_REG_PROG_MEM, .reg_map = LP5523_REG_ENG1_MAP_MSB,
	.reg_ledtest_adc = LP5523_REG_LED_TEST_ADC,
	.reg_onoff_msb = LP5523_REG_ENABLE_LEDS_MSB,
	.misc_auto_inc = LP5523_MISC_AUTO_INC,
	.misc_var_d_sel = LP5523_MISC_VARIABLE_D_SEL,
	.status_startup_busy = LP5523_STATUS_STARTUP_BUSY,
	.status_engine_busy = LP5523_STATUS_ENGINE_BUSY,
	.status_ledtest_done = LP5523_STATUS_LEDTEST_DONE,
	.status_clear = LP5523_STATUS_LEDTEST_DONE | 0x07,
	.fader_shift = 6, .fader_mask = 0x3, .log_en = LP5523_LED_CTRL_LOG_EN,
	.regs = lp5523_regs, .nregs = ARRAY_SIZE(lp5523_regs),
};

const struct lp55xx_model lp5569_model = {
	.name = "lp5569",
	.prog_words = LP5569_PROG_WORDS, .pages = 16,
	.page_mask = 0x0f, .num_regs = LP55XX_MAX_REGS,
	.reg_enable = LP5569_REG_CONFIG, .reg_exec = LP5569_REG_ENGINE_CONTROL1,
	.reg_op_mode = LP5569_REG_ENGINE_CONTROL2, .ctl_shift = 6,
	.reg_led_ctrl = LP5569_REG_LED_CTRL_BASE,
	.reg_pwm = LP5569_REG_LED_PWM_BASE,
	.reg_current = LP5569_REG_LED_CURRENT_BASE,
	.reg_misc = LP5569_REG_MISC, .reg_pc = LP5569_REG_PC1,
	.reg_status = LP5569_REG_STATUS, .reg_variable = LP5569_REG_VARIABLE,
	.reg_reset = LP5569_REG_RESET,
	.reg_var_a = LP5569_REG_ENG1_VARIABLE_A,
	.reg_fader = LP5569_REG_MASTER_FADER_BASE,
	.reg_prog_start = LP5569_REG_CH1_PROG_START,
	.reg_page_sel = LP5569_REG_PROG_PAGE_SEL,
	.reg_prog_mem = LP5569_REG_PROG_MEM, .reg_map = LP5569_REG_ENG1_MAP_MSB,
	.misc_auto_inc = LP5569_MISC_AUTO_INC,
	.misc_int_clk = LP5569_MISC_INT_CLK_EN,
	.status_startup_busy = LP5569_STATUS_STARTUP_BUSY,
	.status_engine_busy = LP5569_STATUS_ENGINE_BUSY,
	.status_clear = 0x07,
	.fader_shift = 5, .fader_mask = 0x7,
	.map_priority = true,
	.regs = lp5569_regs, .nregs = ARRAY_SIZE(lp5569_regs),
};

const struct lp55xx_model lp8501_model = {
	.name = "lp8501",
	.prog_words = LP8501_PROG_WORDS, .pages = 6,
	.page_mask = 0x07, .num_regs = LP5523_NUM_REGS,
	.reg_enable = LP5523_REG_ENABLE, .reg_exec = LP5523_REG_ENABLE,
	.reg_op_mode = LP5523_REG_OP_MODE, .ctl_shift = 4,
	.reg_led_ctrl = LP5523_REG_LED_CTRL_BASE,
	.reg_pwm = LP5523_REG_LED_PWM_BASE,
	.reg_current = LP5523_REG_LED_CURRENT_BASE,
	.reg_misc = LP8501_REG_CONFIG, .reg_pc = LP5523_REG_PC1,
	.reg_status = LP5523_REG_STATUS, .reg_variable = LP5523_REG_VARIABLE,
	.reg_reset = LP5523_REG_RESET,
	.reg_var_a = LP5523_REG_ENG1_VARIABLE_A,
	.reg_fader = LP5523_REG_MASTER_FADER_BASE,
	.reg_prog_start = LP5523_REG_CH1_PROG_START,
	.reg_page_sel = LP5523_REG_PROG_PAGE_SEL,
	.reg_prog_mem = LP5523_REG_PROG_MEM, .reg_map = LP5523_REG_ENG1_MAP_MSB,
	.reg_ledtest_adc = LP5523_REG_LED_TEST_ADC,
	.misc_auto_inc = LP5523_MISC_AUTO_INC,
	.status_startup_busy = LP5523_STATUS_STARTUP_BUSY,
	.status_engine_busy = LP5523_STATUS_ENGINE_BUSY,
	.status_ledtest_done = LP5523_STATUS_LEDTEST_DONE,
	.status_clear = LP5523_STATUS_LEDTEST_DONE | 0x07,
	.fader_shift = 6, .fader_mask = 0x3, .log_en = LP5523_LED_CTRL_LOG_EN,
	.regs = lp8501_regs, .nregs = ARRAY_SIZE(lp8501_regs),
};

const struct lp55xx_model *lp55xx_model_find(const char *name)
{
	static const struct {
		const char *name;
		const struct lp55xx_model *model;
	} names[] = {
		{ "lp5523", &lp5523_model }, { "lp55231", &lp5523_model },
		{ "lp5569", &lp5569_model }, { "lp8501", &lp8501_model },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i].name))
			return names[i].model;
	return NULL;
}

const char *lp55xx_model_name(const struct lp55xx_model *model)
{
	return model->name;
}

static const struct lp5523_reg *reg_desc(const struct lp5523 *chip,
					 unsigned int reg)
{
	const struct lp55xx_model *m = M(chip);
	size_t i;

	for (i = 0; i < m->nregs; i++)
		if (reg >= m->regs[i].first && reg <= m->regs[i].last)
			return &m->regs[i];
	return NULL;
}

static uint8_t reg_read(struct lp5523 *chip, unsigned int reg)
{
	const struct lp5523_reg *d = reg_desc(chip, reg);

	if (!d || !(d->access & ACC_R)) {
		lp5523_note(chip, "bad-access read 0x%02x", reg);
		return 0;
	}
	return d->read ? d->read(chip, reg) : chip->regs[reg];
}

static void reg_write(struct lp5523 *chip, unsigned int reg, uint8_t val)
{
	const struct lp5523_reg *d = reg_desc(chip, reg);

	if (!d || !(d->access & ACC_W)) {
		lp5523_note(chip, "bad-access write 0x%02x <- 0x%02x", reg, val);
		return;
	}
	val &= d->wmask;
	if (d->write)
		d->write(chip, reg, val);
	else
		chip->regs[reg] = val;
}

static void pointer_next(struct lp5523 *chip)
{
	uint8_t p = chip->pointer;

	if (!(chip->regs[M(chip)->reg_misc] & M(chip)->misc_auto_inc))
		return;
	if (LP5523_U_AUTOINC_STOPS_AT_PWM && p >= M(chip)->reg_pwm &&
	    p <= M(chip)->reg_pwm + 8)
		return;
	chip->pointer = (p + 1) % M(chip)->num_regs;
}

static bool fault_nack_due(struct lp5523 *chip, struct lp5523_msg *msg)
{
	struct lp5523_faults *f = &chip->faults;
	int reg;

	if (f->nack_every && ++f->nack_count >= f->nack_every) {
		f->nack_count = 0;
		lp5523_note(chip, "fault nack every %u", f->nack_every);
		return true;
	}
	if (f->nack_first < 0)
		return false;
	reg = !(msg->flags & LP5523_MSG_RD) && msg->len ? msg->buf[0] :
							  chip->pointer;
	if (reg < f->nack_first || reg > f->nack_last)
		return false;
	if (f->nack_nth) {
		/* one message in the middle of a series; later ones pass */
		if (f->nack_seen == UINT_MAX || ++f->nack_seen != f->nack_nth)
			return false;
		lp5523_note(chip, "fault nack reg 0x%02x nth %u", reg,
			    f->nack_nth);
		return true;
	}
	lp5523_note(chip, "fault nack reg 0x%02x", reg);
	return true;
}

/*
 * A NACK due on a message that more of its transfer follow hits the
 * transfer's last message instead, as a chip that NACKs the read after its
 * register pointer was written: Linux 6.12's i2c-virtio stops waiting at a
 * transfer's first failed request and frees the requests behind it while
 * its interrupt handler, on another CPU, may still complete them (slab
 * corruption on 2 CPUs; later kernels wait for every request).  The
 * driver sees the transfer fail either way.
 */
static bool fault_nack(struct lp5523 *chip, struct lp5523_msg *msg)
{
	struct lp5523_faults *f = &chip->faults;
	bool nack = f->nack_deferred || fault_nack_due(chip, msg);

	f->nack_deferred = nack && (msg->flags & LP5523_MSG_MORE);
	return nack && !f->nack_deferred;
}

/* --trace: "i2c w 3d ff" (register, data) or "i2c r 00 40" */
static void trace_msg(struct lp5523 *chip, struct lp5523_msg *msg,
		      unsigned int reg)
{
	char text[200];
	uint32_t i;
	int n;

	n = snprintf(text, sizeof(text), "i2c %c",
		     msg->flags & LP5523_MSG_RD ? 'r' : 'w');
	if (msg->flags & LP5523_MSG_RD)
		n += snprintf(text + n, sizeof(text) - n, " %02x", reg);
	for (i = 0; i < msg->len && n < (int)sizeof(text) - 4; i++)
		n += snprintf(text + n, sizeof(text) - n, " %02x",
			      msg->buf[i]);
	lp5523_note(chip, "%s", text);
}

static int lp5523_xfer(void *dev, struct lp5523_msg *msg)
{
	struct lp5523 *chip = dev;
	unsigned int reg = chip->pointer;
	uint32_t i;

	if (msg->addr != chip->addr)
		return -ENXIO;
	chip->msgs++;
	chip->t_us = chip->now_ns / 1000;
	if (fault_nack(chip, msg))
		return -EIO;
	if (msg->flags & LP5523_MSG_RD) {
		for (i = 0; i < msg->len; i++) {
			msg->buf[i] = reg_read(chip, chip->pointer);
			/* advances when the master ACKs, not on the last */
			if (i + 1 < msg->len)
				pointer_next(chip);
		}
		if (chip->trace)
			trace_msg(chip, msg, reg);
		return 0;
	}
	if (chip->trace)
		trace_msg(chip, msg, reg);
	if (!msg->len)
		return 0;	/* zero-length: address ACK only */
	chip->pointer = msg->buf[0] % M(chip)->num_regs;
	for (i = 1; i < msg->len; i++) {
		reg_write(chip, chip->pointer, msg->buf[i]);
		if (!LP5523_U_RESET_ACKS &&
		    chip->pointer == M(chip)->reg_reset && msg->buf[i] == 0xff)
			return -EIO;
		pointer_next(chip);
	}
	return 0;
}

const struct lp5523_i2c_ops lp5523_i2c_ops = {
	.xfer = lp5523_xfer,
};

void lp5523_reset(struct lp5523 *chip)
{
	unsigned int e;
	size_t i;

	lp5523_note(chip, "reset");
	memset(chip->regs, 0, sizeof(chip->regs));
	/* reset values of the register table; reserved ones read 0 */
	for (i = 0; i < M(chip)->nregs; i++)
		memset(&chip->regs[M(chip)->regs[i].first],
		       M(chip)->regs[i].reset,
		       M(chip)->regs[i].last - M(chip)->regs[i].first + 1);
	memset(chip->prog, 0, sizeof(chip->prog));
	for (e = 0; e < LP5523_ENGINES; e++) {
		memset(&chip->eng[e], 0, sizeof(chip->eng[e]));
		chip->eng[e].ready = chip->cycle + 1;
	}
	chip->var_c = 0;
	chip->pointer = 0;
	chip->frozen = false;
	chip->startup_until = 0;
	chip->ledtest_done = 0;
	chip->temp_done_valid = 0;
	chip->pause_start = chip->cycle;
	update_outputs(chip);
}

void lp55xx_init(struct lp5523 *chip, const struct lp55xx_model *model,
		 const struct lp5523_sink *sink)
{
	unsigned int i;

	memset(chip, 0, sizeof(*chip));
	chip->model = model ? model : &lp5523_model;
	chip->addr = LP5523_I2C_ADDR;
	if (sink)
		chip->sink = *sink;
	chip->faults.nack_first = -1;
	chip->faults.nack_last = -1;
	chip->t_us = 0;
	for (i = 0; i < LP5523_OUTPUTS; i++)
		chip->out[i] = 0;	/* outputs start dark */
	lp5523_reset(chip);
}

void lp5523_init(struct lp5523 *chip, const struct lp5523_sink *sink)
{
	lp55xx_init(chip, &lp5523_model, sink);
}
