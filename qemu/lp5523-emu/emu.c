// SPDX-License-Identifier: GPL-2.0
/*
 * lp5523-emu: the emulator's state (see emu.h) and the timeline sink.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "emu.h"

/* The host looks again at least this often while an engine runs. */
#define EMU_HORIZON_NS	1000000000ull

static void tl_output(void *ctx, uint64_t t_us, unsigned int out,
		      unsigned int pwm)
{
	struct emu *emu = ctx;

	if (emu->timeline)
		fprintf(emu->timeline, "%llu %u %u\n",
			(unsigned long long)t_us, out, pwm);
	if (emu->view_on) {
		view_output(out, pwm);
		emu->view_dirty = true;
	}
}

static void tl_event(void *ctx, uint64_t t_us, const char *text)
{
	struct emu *emu = ctx;

	if (emu->timeline)
		fprintf(emu->timeline, "# %llu %s\n",
			(unsigned long long)t_us, text);
}

static void emu_init_state(struct emu *emu, uint64_t (*clock_ns)(void),
			   FILE *tl)
{
	memset(emu, 0, sizeof(*emu));
	emu->epfd = -1;
	emu->timeline = tl;
	emu->clock_ns = clock_ns;
	emu->start_ns = clock_ns();
}

static struct lp5523_sink emu_sink(struct emu *emu)
{
	return (struct lp5523_sink){
		.output = tl_output, .event = tl_event, .ctx = emu,
	};
}

void emu_init(struct emu *emu, unsigned int chips, uint64_t (*clock_ns)(void),
	      FILE *tl)
{
	struct lp5523_sink sink;

	emu_init_state(emu, clock_ns, tl);
	sink = emu_sink(emu);
	lp5523_bus_init(&emu->bus, chips, &sink);
}

void emu_init_chips(struct emu *emu, const struct lp5523_bus_spec *spec,
		    unsigned int n, uint64_t (*clock_ns)(void), FILE *tl)
{
	struct lp5523_sink sink;

	emu_init_state(emu, clock_ns, tl);
	sink = emu_sink(emu);
	lp5523_bus_init_chips(&emu->bus, spec, n, &sink);
}

void emu_start_line(const struct emu *emu, char *buf, size_t len)
{
	const struct lp5523 *chip;
	unsigned int i;
	int n;

	n = snprintf(buf, len, "start lp5523-emu");
	for (i = 0; i < emu->bus.n && n > 0 && (size_t)n < len; i++) {
		chip = &emu->bus.chip[i];
		n += snprintf(buf + n, len - n, " 0x%02x%s%s", chip->addr,
			      chip->model == &lp5523_model ? "" : ":",
			      chip->model == &lp5523_model ? "" :
			      lp55xx_model_name(chip->model));
	}
}

uint64_t emu_now_ns(const struct emu *emu)
{
	return emu->clock_ns() - emu->start_ns;
}

void emu_sync(struct emu *emu)
{
	lp5523_bus_advance(&emu->bus, emu_now_ns(emu));
}

void emu_note(struct emu *emu, const char *fmt, ...)
{
	struct lp5523 *chip = &emu->bus.chip[0];
	char text[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (chip->sink.event)
		chip->sink.event(chip->sink.ctx, lp5523_now_us(chip), text);
}

void emu_counters(const struct emu *emu, char *buf, size_t len)
{
	unsigned int i;
	int n;

	n = snprintf(buf, len, " | i2c");
	for (i = 0; i < emu->bus.n && n > 0 && (size_t)n < len; i++)
		n += snprintf(buf + n, len - n, " 0x%02x=%llu",
			      emu->bus.chip[i].addr,
			      (unsigned long long)emu->bus.chip[i].msgs);
}

void emu_set_delay(struct emu *emu, unsigned int ms)
{
	emu->delay_ms = ms;
	if (emu->set_delay)
		emu->set_delay(emu->set_delay_ctx, ms);
}

uint64_t emu_next_wake_ns(const struct emu *emu)
{
	uint64_t next = lp5523_bus_next_change_ns(&emu->bus, EMU_HORIZON_NS);

	return next == UINT64_MAX ? UINT64_MAX : next + emu->start_ns;
}
