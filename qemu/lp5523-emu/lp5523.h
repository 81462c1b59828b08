/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LP5523 / LP55231 chip model: registers, program engines, outputs; and
 * the LP5569 and LP8501, which run the same instruction set behind other
 * register maps.  A chip is a struct lp5523 whose model
 * (struct lp55xx_model, lp5523.c) describes its type: register addresses,
 * bit positions, memory size and paging, reset values.  Everything else
 * (engines, instructions, outputs, I2C) is shared.
 *
 * The model knows nothing about sockets or clocks: the caller feeds it
 * I2C messages through lp5523_i2c_ops.xfer() and the current time through
 * lp5523_advance().  Output changes and events go to a struct lp5523_sink.
 */
#ifndef LP5523_H
#define LP5523_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#ifndef __printf
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#endif

#define LP5523_I2C_ADDR		0x32	/* ASEL1,ASEL0 = GND,GND [DS] */
#define LP5523_I2C_ADDR2	0x33	/* ASEL1,ASEL0 = GND,VEN [DS] */
#define LP5523_OUTPUTS		9
#define LP5523_ENGINES		3
#define LP5523_PROG_WORDS	96	/* 6 pages x 16 instructions [DS] */
#define LP5523_PAGE_WORDS	16
#define LP5523_CLOCK_HZ		32768	/* engine clock [DS] */
#define LP5523_NUM_REGS		0x80
/* the family's largest: LP5569, 256 words in 16 pages, registers to 0xff */
#define LP55XX_MAX_PROG_WORDS	256
#define LP55XX_MAX_REGS		0x100

/* Register names as in Linux 6.1 drivers/leds/leds-lp5523.c where it has one */
#define LP5523_REG_ENABLE		0x00
#define LP5523_REG_OP_MODE		0x01
#define LP5523_REG_RATIO_MSB		0x02
#define LP5523_REG_RATIO_LSB		0x03
#define LP5523_REG_ENABLE_LEDS_MSB	0x04
#define LP5523_REG_ENABLE_LEDS_LSB	0x05
#define LP5523_REG_LED_CTRL_BASE	0x06
#define LP5523_REG_LED_PWM_BASE		0x16
#define LP5523_REG_LED_CURRENT_BASE	0x26
#define LP5523_REG_CONFIG		0x36
#define LP5523_REG_PC1			0x37
#define LP5523_REG_STATUS		0x3A
#define LP5523_REG_INT			0x3B
#define LP5523_REG_VARIABLE		0x3C
#define LP5523_REG_RESET		0x3D
#define LP5523_REG_TEMP_CTRL		0x3E
#define LP5523_REG_TEMP_READ		0x3F
#define LP5523_REG_TEMP_WRITE		0x40
#define LP5523_REG_LED_TEST_CTRL	0x41
#define LP5523_REG_LED_TEST_ADC		0x42
#define LP5523_REG_ENG1_VARIABLE_A	0x45
#define LP5523_REG_MASTER_FADER_BASE	0x48
#define LP5523_REG_CH1_PROG_START	0x4C
#define LP5523_REG_PROG_PAGE_SEL	0x4F
#define LP5523_REG_PROG_MEM		0x50
#define LP5523_REG_PROG_MEM_END		0x6F
#define LP5523_REG_ENG1_MAP_MSB		0x70
#define LP5523_REG_GAIN_CHANGE		0x76

/*
 * LP5569 registers, TI SNVSAP8A (names as the datasheet's register map;
 * see Documentation/lp5569-lp8501-emulator.md for each one's source)
 */
#define LP5569_REG_CONFIG		0x00	/* [6] CHIP_EN */
#define LP5569_REG_ENGINE_CONTROL1	0x01	/* EXEC [7:6] [5:4] [3:2] */
#define LP5569_REG_ENGINE_CONTROL2	0x02	/* MODE [7:6] [5:4] [3:2] */
#define LP5569_REG_LED_CTRL_BASE	0x07	/* LED0..8_CONTROL */
#define LP5569_REG_LED_PWM_BASE		0x16
#define LP5569_REG_LED_CURRENT_BASE	0x22
#define LP5569_REG_MISC			0x2F
#define LP5569_REG_PC1			0x30	/* ENGINE1..3_PC, 8 bits */
#define LP5569_REG_MISC2		0x33
#define LP5569_REG_STATUS		0x3C	/* ENGINE_STATUS */
#define LP5569_REG_IO_CONTROL		0x3D
#define LP5569_REG_VARIABLE		0x3E	/* VARIABLE_D */
#define LP5569_REG_RESET		0x3F
#define LP5569_REG_ENG1_VARIABLE_A	0x42
#define LP5569_REG_MASTER_FADER_BASE	0x46
#define LP5569_REG_MASTER_FADER_PWM	0x4A
#define LP5569_REG_CH1_PROG_START	0x4B	/* ENGINE1..3_PROG_START */
#define LP5569_REG_PROG_PAGE_SEL	0x4F
#define LP5569_REG_PROG_MEM		0x50
#define LP5569_REG_ENG1_MAP_MSB		0x70	/* ENGINE1_MAPPING1 */
#define LP5569_PROG_WORDS		256	/* 16 pages x 16 */
#define LP5569_PAGES_PER_ENGINE		4
/* LP5569 MISC */
#define LP5569_MISC_AUTO_INC		0x40
#define LP5569_MISC_INT_CLK_EN		0x01
/* LP5569 ENGINE_STATUS */
#define LP5569_STATUS_MASK_BUSY		0x80
#define LP5569_STATUS_STARTUP_BUSY	0x40
#define LP5569_STATUS_ENGINE_BUSY	0x20

/*
 * LP8501 registers, TI SNVS548D: the LP5523's map except the ones below
 * (see Documentation/lp5569-lp8501-emulator.md)
 */
#define LP8501_REG_PWR_CONFIG		0x05	/* [1:0] D1-D6, D7-D9 supply */
#define LP8501_REG_CONFIG		0x36	/* [7] PWM_PWRSAVE, not VAR D */
#define LP8501_PROG_WORDS		96

/* 0x00 ENABLE */
#define LP5523_CHIP_EN			0x40
#define LP5523_EXEC_SHIFT(e)		(4 - 2 * (e))	/* e = 0..2 */
/* 0x01 OP_MODE */
#define LP5523_MODE_SHIFT(e)		(4 - 2 * (e))
/* 0x36 MISC */
#define LP5523_MISC_VARIABLE_D_SEL	0x80
#define LP5523_MISC_AUTO_INC		0x40
/* 0x3A STATUS */
#define LP5523_STATUS_LEDTEST_DONE	0x80
#define LP5523_STATUS_MASK_BUSY		0x40
#define LP5523_STATUS_STARTUP_BUSY	0x20
#define LP5523_STATUS_ENGINE_BUSY	0x10
#define LP5523_STATUS_EXT_CLK_USED	0x08
#define LP5523_STATUS_ENG_INT(e)	(0x04 >> (e))

enum lp5523_mode {
	LP5523_MODE_DISABLED = 0,
	LP5523_MODE_LOAD = 1,
	LP5523_MODE_RUN = 2,
	LP5523_MODE_HALT = 3,
};

enum lp5523_exec {
	LP5523_EXEC_HOLD = 0,
	LP5523_EXEC_STEP = 1,
	LP5523_EXEC_RUN = 2,
	LP5523_EXEC_ONCE = 3,
};

/* The chips of the family (struct lp55xx_model in lp5523.c) */
struct lp55xx_model;
extern const struct lp55xx_model lp5523_model, lp5569_model, lp8501_model;
/* "lp5523", "lp55231", "lp5569", "lp8501"; NULL if none */
const struct lp55xx_model *lp55xx_model_find(const char *name);
const char *lp55xx_model_name(const struct lp55xx_model *model);

/*
 * One I2C message, the unit the virtio-i2c device hands over; MORE: more
 * messages of the same transfer follow (the request's FAIL_NEXT)
 */
#define LP5523_MSG_RD	0x1
#define LP5523_MSG_MORE	0x2

struct lp5523_msg {
	uint16_t addr;		/* 7-bit address */
	uint16_t flags;		/* LP5523_MSG_RD */
	uint32_t len;
	uint8_t *buf;
};

/* Where output changes and events go. */
struct lp5523_sink {
	/* output 1..9, duty 0..255 after faders/on-off/enable */
	void (*output)(void *ctx, uint64_t t_us, unsigned int out,
		       unsigned int pwm);
	/* one event, without the leading "# <t_us> " */
	void (*event)(void *ctx, uint64_t t_us, const char *text);
	void *ctx;
};

struct lp5523_faults {
	unsigned int nack_every;	/* 0 = off; NACK every Nth message */
	unsigned int nack_count;
	int nack_first, nack_last;	/* register range, -1 = off */
	/*
	 * 0: every message in the range is NACKed; N: only the Nth one
	 * after arming (one page of a program load), the others go through
	 */
	unsigned int nack_nth;
	unsigned int nack_seen;		/* messages in the range so far */
	bool nack_deferred;		/* NACK the transfer's next message */
	bool stuck;			/* STATUS ENGx_INT never set */
};

struct lp5523_engine {
	unsigned int pc;		/* relative to the start address */
	bool busy;			/* an instruction is in progress */
	bool wait_trig;			/* blocked in a trigger wait */
	uint64_t start;			/* cycle the current instruction began */
	uint64_t end;			/* cycle it completes */
	uint64_t next_step;		/* ramp: cycle of the next +-1 */
	unsigned int step_cycles;
	unsigned int steps_left;
	bool ramp_down;
	unsigned int next_pc;		/* PC after the current instruction */
	uint64_t ready;			/* earliest cycle the next one may start */
	uint64_t kicked;		/* cycle the host last set ready */
	uint8_t pwm;			/* the engine's PWM value (pushed to
					 * the PWM registers it maps) */
	uint8_t var_a, var_b;
	uint8_t trig_wait_mask;		/* engines (bit e) we wait for */
	uint8_t trig_seen;		/* latched triggers from engine e */
	uint16_t map;			/* active mapping, bit k = D(k+1) */
	uint8_t mux_start, mux_end, mux_ptr;
	bool loop_active[LP55XX_MAX_PROG_WORDS];
	uint8_t loop_left[LP55XX_MAX_PROG_WORDS];
	uint64_t load_busy_until;	/* ENGINE_BUSY after entering LOAD */
};

struct lp5523 {
	const struct lp55xx_model *model;	/* which chip of the family */
	uint16_t addr;			/* I2C address (ASEL pins) */
	unsigned int out_first;		/* timeline number of D1, minus 1 */
	char prefix[8];			/* "" or "0x33 " before its events */
	uint64_t msgs;			/* I2C messages answered (ACK/NACK) */
	uint64_t out_changes;		/* output changes so far */
	/* TRIG pin: an external trigger send goes to the chips wired to it */
	void (*trig_out)(struct lp5523 *chip, void *ctx);
	void *trig_ctx;
	uint8_t regs[LP55XX_MAX_REGS];
	uint16_t prog[LP55XX_MAX_PROG_WORDS];
	uint8_t pointer;		/* register pointer, kept across messages */
	uint8_t var_c;
	struct lp5523_engine eng[LP5523_ENGINES];
	int out[LP5523_OUTPUTS];	/* last reported duty, -1 = none yet */
	bool frozen;			/* some engine in LOAD */
	uint64_t cycle;			/* time, in engine clock cycles */
	uint64_t now_ns;		/* time of the last lp5523_advance() */
	uint64_t t_us;			/* time stamp of the current event */
	uint64_t pause_start;		/* cycle the engines were paused */
	uint64_t startup_until;		/* START-UP_BUSY until this cycle */
	uint64_t ledtest_done;		/* LED test conversion complete */
	uint64_t temp_done;		/* temperature conversion complete */
	uint8_t temp_done_valid;
	bool trace;
	struct lp5523_faults faults;
	struct lp5523_sink sink;
};

/* The ops table the transport calls; tests call it directly. */
struct lp5523_i2c_ops {
	/*
	 * Transfer one message.  Returns 0 (ACK), -ENXIO (address not
	 * acknowledged) or -EIO (injected NACK).
	 */
	int (*xfer)(void *dev, struct lp5523_msg *msg);
};

extern const struct lp5523_i2c_ops lp5523_i2c_ops;

/* An LP5523 (the board's chip) */
void lp5523_init(struct lp5523 *chip, const struct lp5523_sink *sink);
/* A chip of the family; @model NULL = LP5523 */
void lp55xx_init(struct lp5523 *chip, const struct lp55xx_model *model,
		 const struct lp5523_sink *sink);
void lp5523_reset(struct lp5523 *chip);
/* Run the engines up to @now_ns (since start); never goes backwards. */
void lp5523_advance(struct lp5523 *chip, uint64_t now_ns);
/* Run the engines' events up to clock cycle @cycle (lock-step of chips) */
void lp5523_run_to(struct lp5523 *chip, uint64_t cycle);
/* Time of the next engine event in ns, UINT64_MAX if none. */
uint64_t lp5523_next_event_ns(const struct lp5523 *chip);
/* The same in engine clock cycles, UINT64_MAX if none. */
uint64_t lp5523_next_event_cycle(const struct lp5523 *chip);
/* The TRIG pin is pulled by another chip at @cycle: all engines latch it */
void lp5523_trig_in(struct lp5523 *chip, uint64_t cycle);
void lp5523_note(struct lp5523 *chip, const char *fmt, ...) __printf(2, 3);
uint64_t lp5523_now_us(const struct lp5523 *chip);

static inline uint64_t lp5523_cycles_to_ns(uint64_t c)
{
	/* 1e9 / 32768 = 1953125 / 64, exact */
	return c * 1953125 / 64;
}

static inline uint64_t lp5523_ns_to_cycles(uint64_t ns)
{
	return ns * 64 / 1953125;
}

static inline uint64_t lp5523_cycles_to_us(uint64_t c)
{
	return c * 15625 / 512;
}

#endif /* LP5523_H */
