/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lp5523-emu: the emulator's state, shared by the event loop (main.c),
 * the control channel (control.c) and the tests.  emu.c owns it: the bus
 * of chips, the clock, the timeline file; no module calls back into
 * main.c.
 */
#ifndef EMU_H
#define EMU_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bus.h"

/* Upper bound of an injected reply delay: the guest must not hang. */
#define EMU_MAX_DELAY_MS	1000

/* Every epoll registration carries one of these in data.ptr. */
struct ev_handler {
	void (*fn)(struct ev_handler *h, uint32_t events);
};

struct emu {
	struct lp5523_bus bus;
	FILE *timeline;			/* NULL: none */
	bool view_on, view_dirty;	/* live view; outputs changed */
	unsigned int delay_ms;		/* injected reply delay */
	int epfd;
	uint64_t start_ns;		/* CLOCK_MONOTONIC at start */
	/* the clock: CLOCK_MONOTONIC in the emulator, the test's in tests */
	uint64_t (*clock_ns)(void);
	/* the transport applies a new reply delay (NULL: none yet) */
	void (*set_delay)(void *ctx, unsigned int ms);
	void *set_delay_ctx;
};

/* A fresh emulator state with @chips chips (1 or 2), its timeline @tl */
void emu_init(struct emu *emu, unsigned int chips, uint64_t (*clock_ns)(void),
	      FILE *tl);
/* The same with the chips of @spec (bus.h) */
void emu_init_chips(struct emu *emu, const struct lp5523_bus_spec *spec,
		    unsigned int n, uint64_t (*clock_ns)(void), FILE *tl);
/* "start lp5523-emu 0x32 0x33 0x34:lp5569": every chip, its type if not an LP5523 */
void emu_start_line(const struct emu *emu, char *buf, size_t len);
/* Time since the emulator started. */
uint64_t emu_now_ns(const struct emu *emu);
/* Bring every chip to now (call before touching one). */
void emu_sync(struct emu *emu);
/* An emulator-wide timeline event, "# <t_us> <text>". */
void emu_note(struct emu *emu, const char *fmt, ...) __printf(2, 3);
/* Every chip's I2C message count: " | i2c 0x32=<n> 0x33=<m>" */
void emu_counters(const struct emu *emu, char *buf, size_t len);
void emu_set_delay(struct emu *emu, unsigned int ms);
/* When the event loop should look at the chips next (absolute ns). */
uint64_t emu_next_wake_ns(const struct emu *emu);

/* control.c: one line of the control protocol; 0 or -EINVAL */
int control_command(struct emu *emu, char *line);
int control_listen(struct emu *emu, const char *path);

/* control.c: a client's input buffer (exposed for the tests) */
#define CONTROL_LINE_MAX	512
struct control_input {
	size_t len;
	bool overlong;			/* dropping the rest of a long line */
	char buf[CONTROL_LINE_MAX];
	int reply_fd;			/* where acks go; < 0: nowhere */
	char reply[CONTROL_LINE_MAX + 16];	/* the last ack */
};
/*
 * Feed @n bytes read from a client; runs every complete line and answers
 * each with "ok <line>" or "error <line>" (see control.c).
 */
void control_feed(struct emu *emu, struct control_input *in,
		  const char *data, size_t n);

/* view.c: one-line live view on the controlling terminal */
int view_open(void);
void view_output(unsigned int out, unsigned int pwm);
void view_draw(void);
void view_resize(void);
void view_close(void);

#endif /* EMU_H */
