// SPDX-License-Identifier: GPL-2.0
/*
 * Control channel: a listening UNIX stream socket; QEMU's virtio-serial
 * port (and anyone else) connects and writes one command per line:
 *
 *   mark <text...>      copy <text> into the timeline
 *   nack every <N>      NACK every Nth transfer (0 = off)
 *   nack reg <A>-<B>    NACK transfers to registers A..B (hex or decimal)
 *   nack off            no NACKs
 *   delay <ms>          delay every reply by ms (bounded)
 *   stuck on|off        engines never set their STATUS bits
 *   faults off          all of the above off
 *
 * Every command is logged as a "# <t_us> ..." timeline line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "emu.h"
#include "vhost-i2c.h"

#define CONTROL_LINE_MAX	512

struct control_listener {
	struct ev_handler h;
	struct emu *emu;
	int fd;
};

struct control_client {
	struct ev_handler h;
	struct emu *emu;
	int fd;
	size_t len;
	char buf[CONTROL_LINE_MAX];
};

static int parse_num(const char *s, char **end)
{
	const char *p = s;
	long v;

	/* hex with or without 0x, or decimal */
	v = strtol(s, end, 0);
	if (*end != s && (**end == 0 || **end == '-' || **end == ' '))
		return v;
	v = strtol(p, end, 16);
	return *end == p ? -1 : v;
}

static int parse_range(char *arg, int *first, int *last)
{
	char *end;

	*first = parse_num(arg, &end);
	if (*first < 0)
		return -EINVAL;
	if (*end == '-')
		*last = parse_num(end + 1, &end);
	else
		*last = *first;
	if (*end || *last < *first || *last > 0xff)
		return -EINVAL;
	return 0;
}

int control_command(struct emu *emu, char *line)
{
	struct lp5523_faults *f = &emu->chip.faults;
	char *cmd, *arg, *end;
	long n;
	int a, b;

	while (*line == ' ' || *line == '\t')
		line++;
	if (!*line)
		return 0;
	emu_sync(emu);
	cmd = line;
	if (!strncmp(cmd, "mark", 4) && (cmd[4] == ' ' || !cmd[4])) {
		lp5523_note(&emu->chip, "mark %s", cmd[4] ? cmd + 5 : "");
		return 0;
	}
	lp5523_note(&emu->chip, "ctl %s", line);
	arg = strchr(cmd, ' ');
	if (arg)
		*arg++ = 0;
	else
		arg = cmd + strlen(cmd);
	if (!strcmp(cmd, "nack")) {
		if (!strcmp(arg, "off")) {
			f->nack_every = 0;
			f->nack_first = f->nack_last = -1;
			return 0;
		}
		if (!strncmp(arg, "every ", 6)) {
			n = strtol(arg + 6, &end, 10);
			if (end == arg + 6 || *end || n < 0)
				goto bad;
			f->nack_every = n;
			f->nack_count = 0;
			return 0;
		}
		if (!strncmp(arg, "reg ", 4)) {
			if (parse_range(arg + 4, &a, &b))
				goto bad;
			f->nack_first = a;
			f->nack_last = b;
			return 0;
		}
		goto bad;
	}
	if (!strcmp(cmd, "delay")) {
		n = strtol(arg, &end, 10);
		if (end == arg || *end || n < 0)
			goto bad;
		if (n > VI2C_MAX_DELAY_MS) {
			lp5523_note(&emu->chip, "ctl delay capped at %u ms",
				    VI2C_MAX_DELAY_MS);
			n = VI2C_MAX_DELAY_MS;
		}
		emu->delay_ms = n;
		if (emu->vi2c)
			vi2c_set_delay(emu->vi2c, n);
		return 0;
	}
	if (!strcmp(cmd, "stuck")) {
		if (!strcmp(arg, "on"))
			f->stuck = true;
		else if (!strcmp(arg, "off"))
			f->stuck = false;
		else
			goto bad;
		return 0;
	}
	if (!strcmp(cmd, "faults") && !strcmp(arg, "off")) {
		f->nack_every = 0;
		f->nack_first = f->nack_last = -1;
		f->stuck = false;
		emu->delay_ms = 0;
		if (emu->vi2c)
			vi2c_set_delay(emu->vi2c, 0);
		return 0;
	}
bad:
	lp5523_note(&emu->chip, "ctl-error unknown or bad command");
	return -EINVAL;
}

static void client_event(struct ev_handler *h, uint32_t events)
{
	struct control_client *c = (struct control_client *)h;
	char *nl, *p;
	ssize_t n;

	(void)events;
	n = read(c->fd, c->buf + c->len, sizeof(c->buf) - 1 - c->len);
	if (n <= 0) {
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		epoll_ctl(c->emu->epfd, EPOLL_CTL_DEL, c->fd, NULL);
		close(c->fd);
		free(c);
		return;
	}
	c->len += n;
	c->buf[c->len] = 0;
	p = c->buf;
	while ((nl = strpbrk(p, "\r\n"))) {
		*nl = 0;
		control_command(c->emu, p);
		p = nl + 1;
	}
	c->len -= p - c->buf;
	memmove(c->buf, p, c->len);
	if (c->len == sizeof(c->buf) - 1) {	/* overlong line */
		c->buf[c->len] = 0;
		control_command(c->emu, c->buf);
		c->len = 0;
	}
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
