/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lp5523-emu: shared pieces of the event loop.
 */
#ifndef EMU_H
#define EMU_H

#include <stdbool.h>
#include <stdint.h>

#include "lp5523.h"

/* Every epoll registration carries one of these in data.ptr. */
struct ev_handler {
	void (*fn)(struct ev_handler *h, uint32_t events);
};

struct vi2c;

struct emu {
	struct lp5523 chip;
	struct vi2c *vi2c;
	unsigned int delay_ms;
	int epfd;
};

/* Time since the emulator started, from CLOCK_MONOTONIC. */
uint64_t emu_now_ns(void);
/* Bring the chip to now (call before touching it). */
void emu_sync(struct emu *emu);

/* control.c: one line of the control protocol; 0 or -EINVAL */
int control_command(struct emu *emu, char *line);
int control_listen(struct emu *emu, const char *path);

/* view.c: one-line live view on the controlling terminal */
int view_open(void);
void view_output(unsigned int out, unsigned int pwm);
void view_draw(void);
void view_resize(void);
void view_close(void);

#endif /* EMU_H */
