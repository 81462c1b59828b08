// SPDX-License-Identifier: GPL-2.0
/*
 * Live view: the nine LP5523 outputs on the last line of the controlling
 * terminal, labelled as on the N900 (D1..D9 = kb1 kb2 kb3 kb4 b g r kb5
 * kb6), one block per output shaded by its duty; then, when the terminal
 * is wide enough, the second chip as the board wires it (the ring: D1-D3
 * one RGB block, D4-D9 six white segments).  A scroll region keeps the
 * guest console above that line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "emu.h"

static const struct {
	const char *label;
	unsigned char r, g, b;		/* colour at full duty */
} view_leds[LP5523_OUTPUTS] = {
	{ "kb1", 255, 255, 255 }, { "kb2", 255, 255, 255 },
	{ "kb3", 255, 255, 255 }, { "kb4", 255, 255, 255 },
	{ "b", 40, 80, 255 }, { "g", 0, 255, 0 }, { "r", 255, 0, 0 },
	{ "kb5", 255, 255, 255 }, { "kb6", 255, 255, 255 },
};

#define VIEW_OFF_GREY	40

static int view_fd = -1;
static unsigned int view_rows, view_cols;
static unsigned int view_pwm[2 * LP5523_OUTPUTS];

static void view_write(const char *s, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(view_fd, s, len);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return;
		}
		s += n;
		len -= n;
	}
}

static void view_size(void)
{
	struct winsize ws;

	if (ioctl(view_fd, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 1) {
		view_rows = ws.ws_row;
		view_cols = ws.ws_col;
	} else {
		view_rows = 24;
		view_cols = 80;
	}
}

/* Keep the console in rows 1..rows-1; the cursor stays where it was. */
static void view_region(void)
{
	char buf[64];
	int n;

	n = snprintf(buf, sizeof(buf), "\0337\033[1;%ur\0338", view_rows - 1);
	view_write(buf, n);
}

/* an unlit block stays visible as dark grey */
static unsigned int shade(unsigned int full, unsigned int v)
{
	return VIEW_OFF_GREY + ((int)full - VIEW_OFF_GREY) * (int)v / 255;
}

/* the second chip's outputs (10-18), in @room columns, or nothing */
static int view_ring(char *buf, size_t len, unsigned int room)
{
	const unsigned int *d = view_pwm + LP5523_OUTPUTS;
	unsigned int i;
	int n;

	if (room < 20)
		return 0;
	n = snprintf(buf, len, "  ring\033[48;2;%u;%u;%um   \033[0m",
		     shade(255, d[0]), shade(255, d[1]), shade(255, d[2]));
	for (i = 3; i < LP5523_OUTPUTS; i++)
		n += snprintf(buf + n, len - n, "\033[48;2;%u;%u;%um \033[0m",
			      shade(255, d[i]), shade(255, d[i]),
			      shade(255, d[i]));
	return n;
}

void view_draw(void)
{
	char buf[1024];
	unsigned int i, v, width = 0;
	int n;

	if (view_fd < 0)
		return;
	n = snprintf(buf, sizeof(buf), "\0337\033[%u;1H\033[2K", view_rows);
	for (i = 0; i < LP5523_OUTPUTS && width + 8 <= view_cols; i++) {
		v = view_pwm[i];
		n += snprintf(buf + n, sizeof(buf) - n,
			      "%s%-3s\033[48;2;%u;%u;%um   \033[0m",
			      i ? " " : "", view_leds[i].label,
			      shade(view_leds[i].r, v), shade(view_leds[i].g, v),
			      shade(view_leds[i].b, v));
		width += 8;
	}
	n += view_ring(buf + n, sizeof(buf) - n, view_cols - width);
	n += snprintf(buf + n, sizeof(buf) - n, "\0338");
	view_write(buf, n);
}

void view_output(unsigned int out, unsigned int pwm)
{
	if (out >= 1 && out <= 2 * LP5523_OUTPUTS)
		view_pwm[out - 1] = pwm;
}

void view_resize(void)
{
	if (view_fd < 0)
		return;
	view_size();
	view_region();
	view_draw();
}

int view_open(void)
{
	view_fd = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (view_fd < 0)
		return -errno;
	view_size();
	/* free the last line: scroll once if the cursor sits on it */
	view_write("\n\033[A", 4);
	view_region();
	view_draw();
	return 0;
}

void view_close(void)
{
	char buf[64];
	int n;

	if (view_fd < 0)
		return;
	n = snprintf(buf, sizeof(buf), "\0337\033[%u;1H\033[2K\033[r\0338",
		     view_rows);
	view_write(buf, n);
	close(view_fd);
	view_fd = -1;
}
