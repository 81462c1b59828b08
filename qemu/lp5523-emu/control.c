// SPDX-License-Identifier: GPL-2.0
/*
 * Control channel: a listening UNIX stream socket; QEMU's virtio-serial
 * port (and anyone else) connects and writes one command per line:
 *
 *   mark <text...>      copy <text> into the timeline
 *   nack every <N>      NACK every Nth transfer (0 = off)
 *   nack reg <A>-<B>    NACK transfers to registers A..B (hex)
 *   nack reg <A>-<B> nth <N>
 *                       NACK only the Nth transfer to A..B from now on
 *   nack off            no NACKs
 *   delay <ms>          delay every reply by ms (bounded)
 *   stuck on|off        engines never set their STATUS bits
 *   faults off          all of the above off (every chip)
 *
 * nack and stuck apply to the chip at 0x32, or to the one a leading
 * address names ("0x33 nack every 2").  A line longer than
 * CONTROL_LINE_MAX - 1 bytes is refused whole (ctl-error).
 *
 * Every command is logged as a "# <t_us> ..." timeline line, then answered
 * on the same connection: "ok <line>" once it has taken effect (a mark is
 * in the timeline, a fault applies to the next transfer), "error <line>"
 * when it was refused ("error overlong" for a line refused for its
 * length).  The guest's emu_ctl waits for its answer before going on, so a
 * mark or a fault is ordered before the guest's next I2C transfer without
 * a sleep: QEMU carries the control port and the I2C device on separate
 * queues, and nothing else orders them.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "emu.h"

struct control_listener {
	struct ev_handler h;
	struct emu *emu;
	int fd;
};

struct control_client {
	struct ev_handler h;
	struct emu *emu;
	int fd;
	struct control_input in;
};

/* A register number: hex, with or without 0x (as 0x16-0x1e, 16-1e) */
static int parse_reg(const char *s, char **end)
{
	long v;

	if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') ||
	      (*s >= 'A' && *s <= 'F')))
		return -1;
	v = strtol(s, end, 16);
	return *end == s || v > 0xff ? -1 : v;
}

static int parse_range(char *arg, int *first, int *last)
{
	char *end;

	*first = parse_reg(arg, &end);
	if (*first < 0)
		return -EINVAL;
	if (*end == '-')
		*last = parse_reg(end + 1, &end);
	else
		*last = *first;
	if (*end || *last < *first)
		return -EINVAL;
	return 0;
}

static void nack_off(struct lp5523_faults *f)
{
	f->nack_every = 0;
	f->nack_count = 0;
	f->nack_first = f->nack_last = -1;
	f->nack_nth = 0;
	f->nack_seen = 0;
	f->nack_deferred = false;
}

static void faults_off(struct lp5523_faults *f)
{
	nack_off(f);
	f->stuck = false;
}

/*
 * "A-B" or "A-B nth N": the range and which of its messages is NACKed
 * (0: all).  Counting starts again at every command.
 */
static int parse_nack_reg(char *arg, int *first, int *last,
			  unsigned int *nth)
{
	char *tail = strstr(arg, " nth "), *end;
	long n;

	*nth = 0;
	if (tail) {
		*tail = 0;
		tail += 5;
		if (*tail < '0' || *tail > '9')
			return -EINVAL;
		n = strtol(tail, &end, 10);
		if (*end || n < 1 || n > INT_MAX)
			return -EINVAL;
		*nth = n;
	}
	return parse_range(arg, first, last);
}

static int chip_command(struct emu *emu, struct lp5523_faults *f,
			char *cmd, char *arg)
{
	char *end;
	long n;
	int a, b;

	if (!strcmp(cmd, "nack")) {
		if (!strcmp(arg, "off")) {
			nack_off(f);
			return 0;
		}
		if (!strncmp(arg, "every ", 6)) {
			n = strtol(arg + 6, &end, 10);
			if (end == arg + 6 || *end || n < 0)
				return -EINVAL;
			f->nack_every = n;
			f->nack_count = 0;
			return 0;
		}
		if (!strncmp(arg, "reg ", 4)) {
			unsigned int nth;

			if (parse_nack_reg(arg + 4, &a, &b, &nth))
				return -EINVAL;
			f->nack_first = a;
			f->nack_last = b;
			f->nack_nth = nth;
			f->nack_seen = 0;
			return 0;
		}
		return -EINVAL;
	}
	if (!strcmp(cmd, "stuck")) {
		if (!strcmp(arg, "on"))
			f->stuck = true;
		else if (!strcmp(arg, "off"))
			f->stuck = false;
		else
			return -EINVAL;
		return 0;
	}
	if (!strcmp(cmd, "delay")) {
		n = strtol(arg, &end, 10);
		if (end == arg || *end || n < 0)
			return -EINVAL;
		if (n > EMU_MAX_DELAY_MS) {
			emu_note(emu, "ctl delay capped at %u ms",
				 EMU_MAX_DELAY_MS);
			n = EMU_MAX_DELAY_MS;
		}
		emu_set_delay(emu, n);
		return 0;
	}
	if (!strcmp(cmd, "faults") && !strcmp(arg, "off")) {
		unsigned int i;

		for (i = 0; i < emu->bus.n; i++)
			faults_off(&emu->bus.chip[i].faults);
		emu_set_delay(emu, 0);
		return 0;
	}
	return -EINVAL;
}

int control_command(struct emu *emu, char *line)
{
	struct lp5523 *chip = &emu->bus.chip[0];
	char *cmd, *arg, counters[64];

	while (*line == ' ' || *line == '\t')
		line++;
	if (!*line)
		return 0;
	emu_sync(emu);
	cmd = line;
	if (!strncmp(cmd, "mark", 4) && (cmd[4] == ' ' || !cmd[4])) {
		emu_counters(emu, counters, sizeof(counters));
		emu_note(emu, "mark %s%s", cmd[4] ? cmd + 5 : "", counters);
		return 0;
	}
	emu_note(emu, "ctl %s", line);
	/* "0x33 nack every 2": a fault for that chip (default 0x32) */
	if (!strncmp(cmd, "0x", 2)) {
		char *end;
		long addr = strtol(cmd, &end, 16);

		chip = *end == ' ' ? lp5523_bus_chip(&emu->bus, addr) : NULL;
		if (!chip)
			goto bad;
		cmd = end + 1;
	}
	arg = strchr(cmd, ' ');
	if (arg)
		*arg++ = 0;
	else
		arg = cmd + strlen(cmd);
	if (!chip_command(emu, &chip->faults, cmd, arg))
		return 0;
bad:
	emu_note(emu, "ctl-error unknown or bad command");
	return -EINVAL;
}

/*
 * Answer a line.  The socket is non-blocking: a client that never reads
 * (QEMU holds the answers while the guest has the port closed) loses
 * answers once its buffer is full rather than stall the I2C bus; the guest
 * matches its answer by text, so a lost or stale one cannot be mistaken.
 */
static void control_reply(struct control_input *in, int ret,
			  const char *line)
{
	int len;

	len = snprintf(in->reply, sizeof(in->reply), "%s %s\n",
		       ret ? "error" : "ok", line);
	if (len >= (int)sizeof(in->reply))
		len = sizeof(in->reply) - 1;
	if (in->reply_fd >= 0 && write(in->reply_fd, in->reply, len) != len)
		in->reply[0] = 0;	/* nothing to retry: see above */
}

void control_feed(struct emu *emu, struct control_input *in,
		  const char *data, size_t n)
{
	char line[CONTROL_LINE_MAX];
	size_t i;
	int ret;
	char c;

	for (i = 0; i < n; i++) {
		c = data[i];
		if (c == '\n' || c == '\r') {
			if (in->overlong) {
				emu_sync(emu);
				emu_note(emu, "ctl-error line longer than %u bytes refused",
					 CONTROL_LINE_MAX - 1);
				control_reply(in, -EINVAL, "overlong");
			} else {
				in->buf[in->len] = 0;
				/* control_command() cuts the line up */
				memcpy(line, in->buf, in->len + 1);
				ret = control_command(emu, in->buf);
				control_reply(in, ret, line);
			}
			in->len = 0;
			in->overlong = false;
			continue;
		}
		if (in->overlong)
			continue;
		if (in->len == sizeof(in->buf) - 1) {
			in->overlong = true;	/* refused at its end */
			continue;
		}
		in->buf[in->len++] = c;
	}
}

static void client_event(struct ev_handler *h, uint32_t events)
{
	struct control_client *c = (struct control_client *)h;
	char buf[1024];
	ssize_t n;

	(void)events;
	n = read(c->fd, buf, sizeof(buf));
	if (n <= 0) {
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		epoll_ctl(c->emu->epfd, EPOLL_CTL_DEL, c->fd, NULL);
		close(c->fd);
		free(c);
		return;
	}
	control_feed(c->emu, &c->in, buf, n);
}

static void listener_event(struct ev_handler *h, uint32_t events)
{
	struct control_listener *l = (struct control_listener *)h;
	struct epoll_event ev = { .events = EPOLLIN };
	struct control_client *c;
	int fd;

	(void)events;
	fd = accept4(l->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	c = calloc(1, sizeof(*c));
	if (!c) {
		close(fd);
		return;
	}
	c->h.fn = client_event;
	c->emu = l->emu;
	c->fd = fd;
	c->in.reply_fd = fd;
	ev.data.ptr = &c->h;
	if (epoll_ctl(l->emu->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		close(fd);
		free(c);
	}
}

int control_listen(struct emu *emu, const char *path)
{
	static struct control_listener l;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct epoll_event ev = { .events = EPOLLIN };
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(fd, 8) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	l.h.fn = listener_event;
	l.emu = emu;
	l.fd = fd;
	ev.data.ptr = &l.h;
	if (epoll_ctl(emu->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}
