// SPDX-License-Identifier: GPL-2.0
/*
 * lp5523-emu: LP5523s at I2C addresses 0x32 and 0x33 (and an LP5569,
 * LP8501 or LP5523 wherever --chip puts one) behind QEMU's
 * vhost-user-i2c-device.  See README.md.
 *
 * This file is the event loop: options, sockets, timers, signals.  The
 * emulator's state is emu.c's; the chips are lp5523.c's, the bus bus.c's.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/times.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "emu.h"
#include "vhost-i2c.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define VIEW_PERIOD_NS	40000000ull	/* 25 redraws a second */
#define CPU_PERIOD_NS	1000000000ull	/* --cpu-report: once a second */
/*
 * At most one engine wake-up per ENGINE_BATCH_NS.  The timer is armed for
 * the next output change only (emu_next_wake_ns()): events are stamped
 * with their own clock tick and every I2C transfer, control command and
 * exit brings the chips to now first, so the host needs to look only when
 * an output changes (the view) or an engine has run long enough.
 */
#define ENGINE_BATCH_NS	4000000ull

struct options {
	const char *socket_path, *control_path, *timeline_path;
	const char *nack_every, *nack_reg, *nack_nth, *delay_ms;
	bool view, trace, stuck, cpu;
	unsigned int chips;
	/* --chip TYPE@ADDR, in order; applied on top of --chips */
	const char *chip_args[LP5523_BUS_MAX_CHIPS * 2];
	unsigned int n_chip_args;
};

static struct emu emu;
static struct vi2c *vi2c;
static bool view_armed, quit, vhost_drop;
static int engine_tfd = -1, view_tfd = -1, sig_fd = -1, vhost_lfd = -1;
static int cpu_tfd = -1;
static uint64_t engine_woke_ns;
static const char *socket_path, *control_path;

static void die(const char *what, int err)
{
	fprintf(stderr, "lp5523-emu: %s: %s\n", what, strerror(err));
	exit(1);
}

static void add_fd(int fd, struct ev_handler *h)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = h };

	if (epoll_ctl(emu.epfd, EPOLL_CTL_ADD, fd, &ev) < 0)
		die("epoll_ctl", errno);
}

static int new_timer(struct ev_handler *h)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);

	if (fd < 0)
		die("timerfd_create", errno);
	add_fd(fd, h);
	return fd;
}

static void arm_abs(int fd, uint64_t abs_ns)
{
	struct itimerspec its = { 0 };

	if (abs_ns != UINT64_MAX) {
		its.it_value.tv_sec = abs_ns / 1000000000ull;
		its.it_value.tv_nsec = abs_ns % 1000000000ull;
	}
	timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL);
}

static bool timer_read(int fd)
{
	uint64_t ticks;

	return read(fd, &ticks, sizeof(ticks)) >= 0 || errno == EAGAIN;
}

/* ------------------------------------------------------------------ */
/* Timers                                                              */

/* After anything that touched the chips: next output change, view. */
static void emu_rearm(void)
{
	uint64_t next = emu_next_wake_ns(&emu);

	if (next != UINT64_MAX &&
	    next < engine_woke_ns + ENGINE_BATCH_NS)
		next = engine_woke_ns + ENGINE_BATCH_NS;
	arm_abs(engine_tfd, next);
	if (emu.view_on && emu.view_dirty && !view_armed) {
		arm_abs(view_tfd, vi2c_now_ns() + VIEW_PERIOD_NS);
		view_armed = true;
	}
}

static void engine_timer_event(struct ev_handler *h, uint32_t events)
{
	(void)h;
	(void)events;
	if (!timer_read(engine_tfd))
		return;
	engine_woke_ns = vi2c_now_ns();
	emu_sync(&emu);
}

static void view_timer_event(struct ev_handler *h, uint32_t events)
{
	(void)h;
	(void)events;
	if (!timer_read(view_tfd))
		return;
	view_armed = false;
	if (!emu.view_dirty)
		return;
	emu.view_dirty = false;
	view_draw();
}

/*
 * --cpu-report: "# <t_us> cpu <ticks> <us>", the emulator's user + system
 * CPU time so far in clock ticks (as utime + stime in /proc/<pid>/stat)
 * and in microseconds.
 */
static void cpu_report(void)
{
	struct rusage ru;
	struct tms t;
	uint64_t us;

	times(&t);
	getrusage(RUSAGE_SELF, &ru);
	us = (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 +
	     ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
	emu_sync(&emu);
	emu_note(&emu, "cpu %llu %llu",
		 (unsigned long long)(t.tms_utime + t.tms_stime),
		 (unsigned long long)us);
}

static void cpu_timer_event(struct ev_handler *h, uint32_t events)
{
	(void)h;
	(void)events;
	if (timer_read(cpu_tfd))
		cpu_report();
}

static void signal_event(struct ev_handler *h, uint32_t events)
{
	struct signalfd_siginfo si;

	(void)h;
	(void)events;
	if (read(sig_fd, &si, sizeof(si)) != sizeof(si))
		return;
	if (si.ssi_signo == SIGWINCH) {
		view_resize();
		return;
	}
	emu_sync(&emu);
	emu_note(&emu, "exit signal %u", si.ssi_signo);
	quit = true;
}

/* ------------------------------------------------------------------ */
/* vhost-user socket                                                   */

static void vhost_begin(void *ctx)
{
	emu_sync(ctx);
}

static void vhost_end(void *ctx)
{
	(void)ctx;
}

static void vhost_delayed(void *ctx, unsigned int ms)
{
	emu_note(ctx, "fault delay %u ms", ms);
}

static void vhost_gone(void *ctx)
{
	emu_sync(ctx);
	if (!vi2c_used(vi2c)) {		/* a probe of the socket: keep going */
		vhost_drop = true;
		return;
	}
	emu_note(ctx, "exit front end disconnected");
	quit = true;
}

static void vhost_set_delay(void *ctx, unsigned int ms)
{
	(void)ctx;
	if (vi2c)
		vi2c_set_delay(vi2c, ms);
}

static void vhost_accept_event(struct ev_handler *h, uint32_t events)
{
	static const struct vi2c_hooks hooks = {
		.begin = vhost_begin, .end = vhost_end, .gone = vhost_gone,
		.delayed = vhost_delayed, .ctx = &emu,
	};
	int fd;

	(void)h;
	(void)events;
	fd = accept4(vhost_lfd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		return;
	if (vi2c) {		/* one front end at a time */
		close(fd);
		return;
	}
	vi2c = vi2c_new(fd, emu.epfd, &lp5523_bus_i2c_ops, &emu.bus, &hooks);
	if (!vi2c)
		die("vhost-user", errno);
	vi2c_set_delay(vi2c, emu.delay_ms);
	emu_sync(&emu);
}

/* A live socket at @path is an error, a stale one goes. */
static void unlink_stale(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path))
		die(path, ENAMETOOLONG);
	strcpy(sa.sun_path, path);
	if (stat(path, &st) != 0)
		return;
	if (!S_ISSOCK(st.st_mode))
		die(path, EEXIST);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
		fprintf(stderr, "lp5523-emu: %s: socket in use\n", path);
		exit(1);
	}
	if (fd >= 0)
		close(fd);
	unlink(path);
}

static void listen_vhost(const char *path)
{
	static struct ev_handler accept_h = { vhost_accept_event };
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	unlink_stale(path);
	strcpy(sa.sun_path, path);
	vhost_lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (vhost_lfd < 0)
		die("socket", errno);
	if (bind(vhost_lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		die(path, errno);
	if (listen(vhost_lfd, 1) < 0)
		die(path, errno);
	add_fd(vhost_lfd, &accept_h);
}

/* ------------------------------------------------------------------ */
/* Start-up                                                            */

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: lp5523-emu --socket PATH [--control PATH] [--timeline FILE]\n"
		"                  [--view] [--trace] [--chips 1|2] [--nack-every N]\n"
		"                  [--nack-reg A-B [--nack-nth N]] [--delay-ms N]\n"
		"                  [--stuck-engine] [--cpu-report]\n"
		"                  [--chip lp5523|lp5569|lp8501@ADDR]...\n");
}

static void parse_options(int argc, char **argv, struct options *o)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "control", required_argument, NULL, 'c' },
		{ "timeline", required_argument, NULL, 't' },
		{ "view", no_argument, NULL, 'v' },
		{ "trace", no_argument, NULL, 'T' },
		{ "chips", required_argument, NULL, 'N' },
		{ "chip", required_argument, NULL, 'D' },
		{ "nack-every", required_argument, NULL, 'n' },
		{ "nack-reg", required_argument, NULL, 'r' },
		{ "nack-nth", required_argument, NULL, 'R' },
		{ "delay-ms", required_argument, NULL, 'd' },
		{ "stuck-engine", no_argument, NULL, 'S' },
		{ "cpu-report", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->chips = LP5523_BUS_BOARD_CHIPS;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's': o->socket_path = optarg; break;
		case 'c': o->control_path = optarg; break;
		case 't': o->timeline_path = optarg; break;
		case 'v': o->view = true; break;
		case 'T': o->trace = true; break;
		case 'N':
			o->chips = atoi(optarg);
			if (o->chips < 1 || o->chips > LP5523_BUS_BOARD_CHIPS) {
				usage(stderr);
				exit(1);
			}
			break;
		case 'D':
			if (o->n_chip_args >= ARRAY_SIZE(o->chip_args)) {
				usage(stderr);
				exit(1);
			}
			o->chip_args[o->n_chip_args++] = optarg;
			break;
		case 'n': o->nack_every = optarg; break;
		case 'r': o->nack_reg = optarg; break;
		case 'R': o->nack_nth = optarg; break;
		case 'd': o->delay_ms = optarg; break;
		case 'S': o->stuck = true; break;
		case 'C': o->cpu = true; break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(1);
		}
	}
	if (!o->socket_path || optind != argc) {
		usage(stderr);
		exit(1);
	}
}

/* Fault options go through the control language, logged alike. */
static void start_faults(const struct options *o)
{
	char reg[96];
	const struct { const char *fmt, *arg, *opt; } f[] = {
		{ "nack every %s", o->nack_every, "--nack-every" },
		{ "nack reg %s", o->nack_reg ? reg : NULL, "--nack-reg" },
		{ "delay %s", o->delay_ms, "--delay-ms" },
		{ "stuck %s", o->stuck ? "on" : NULL, "--stuck-engine" },
	};
	char line[128];
	size_t i;

	/* --nack-nth picks one message of --nack-reg's range (a probe's load) */
	if (o->nack_nth && !o->nack_reg)
		die("--nack-nth without --nack-reg", EINVAL);
	if (o->nack_reg)
		snprintf(reg, sizeof(reg), "%s%s%s", o->nack_reg,
			 o->nack_nth ? " nth " : "",
			 o->nack_nth ? o->nack_nth : "");
	for (i = 0; i < ARRAY_SIZE(f); i++) {
		if (!f[i].arg)
			continue;
		snprintf(line, sizeof(line), f[i].fmt, f[i].arg);
		if (control_command(&emu, line))
			die(f[i].opt, EINVAL);
	}
}

static void start_signals(void)
{
	static struct ev_handler sig_h = { signal_event };
	sigset_t sigs;

	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGHUP);
	sigaddset(&sigs, SIGWINCH);
	sigprocmask(SIG_BLOCK, &sigs, NULL);
	signal(SIGPIPE, SIG_IGN);
	sig_fd = signalfd(-1, &sigs, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sig_fd < 0)
		die("signalfd", errno);
	add_fd(sig_fd, &sig_h);
}

static void start_timers(bool cpu)
{
	static struct ev_handler engine_h = { engine_timer_event };
	static struct ev_handler view_h = { view_timer_event };
	static struct ev_handler cpu_h = { cpu_timer_event };
	struct itimerspec its = {
		.it_interval.tv_sec = CPU_PERIOD_NS / 1000000000ull,
		.it_value.tv_sec = CPU_PERIOD_NS / 1000000000ull,
	};

	engine_tfd = new_timer(&engine_h);
	view_tfd = new_timer(&view_h);
	if (!cpu)
		return;
	cpu_tfd = new_timer(&cpu_h);
	timerfd_settime(cpu_tfd, 0, &its, NULL);
	emu_note(&emu, "cpu-report %ld ticks/s", sysconf(_SC_CLK_TCK));
	cpu_report();
}

static void cleanup(void)
{
	view_close();
	if (vi2c)
		vi2c_free(vi2c);
	if (emu.timeline)
		fflush(emu.timeline);
	if (socket_path)
		unlink(socket_path);
	if (control_path)
		unlink(control_path);
}

/* The board's LP5523s (--chips), then every --chip TYPE@ADDR */
static unsigned int chip_specs(const struct options *o,
			       struct lp5523_bus_spec *spec)
{
	unsigned int i, n = 0;
	int ret;

	for (i = 0; i < o->chips; i++)
		spec[n++] = (struct lp5523_bus_spec){ &lp5523_model,
						      LP5523_I2C_ADDR + i };
	for (i = 0; i < o->n_chip_args; i++) {
		ret = lp5523_bus_spec_add(spec, &n, o->chip_args[i]);
		if (ret < 0) {
			fprintf(stderr, "lp5523-emu: --chip %s: %s\n",
				o->chip_args[i], ret == -ENOSPC ?
				"too many chips" :
				"want lp5523|lp55231|lp5569|lp8501@ADDR (hex, 08-77)");
			exit(1);
		}
	}
	return n;
}

static void start(const struct options *o)
{
	struct lp5523_bus_spec spec[LP5523_BUS_MAX_CHIPS];
	char line[160];
	FILE *tl = NULL;
	unsigned int i, n;
	int ret;

	n = chip_specs(o, spec);	/* a bad --chip stops before any file */
	if (o->timeline_path) {
		tl = fopen(o->timeline_path, "w");
		if (!tl)
			die(o->timeline_path, errno);
		setvbuf(tl, NULL, _IOFBF, 1 << 16);
	}
	emu_init_chips(&emu, spec, n, vi2c_now_ns, tl);
	emu.set_delay = vhost_set_delay;
	emu.epfd = epoll_create1(EPOLL_CLOEXEC);
	if (emu.epfd < 0)
		die("epoll_create1", errno);
	for (i = 0; i < emu.bus.n; i++)
		emu.bus.chip[i].trace = o->trace;
	emu_start_line(&emu, line, sizeof(line));
	emu_note(&emu, "%s", line);
	start_faults(o);
	start_signals();
	start_timers(o->cpu);

	/* control first: when the vhost-user socket shows, both are up */
	socket_path = o->socket_path;
	if (o->control_path) {
		control_path = o->control_path;
		unlink_stale(control_path);
		ret = control_listen(&emu, control_path);
		if (ret < 0)
			die(control_path, -ret);
	}
	listen_vhost(socket_path);
	atexit(cleanup);

	emu.view_on = o->view;
	if (emu.view_on && view_open() < 0) {
		fprintf(stderr, "lp5523-emu: /dev/tty: %s (no view)\n",
			strerror(errno));
		emu.view_on = false;
	}
}

static void run(void)
{
	struct epoll_event evs[16];
	int i, n;

	while (!quit) {
		emu_rearm();
		if (emu.timeline)
			fflush(emu.timeline);
		n = epoll_wait(emu.epfd, evs, ARRAY_SIZE(evs), -1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("epoll_wait", errno);
		}
		for (i = 0; i < n && !quit; i++) {
			struct ev_handler *h = evs[i].data.ptr;

			h->fn(h, evs[i].events);
		}
		if (vhost_drop) {
			vi2c_free(vi2c);
			vi2c = NULL;
			vhost_drop = false;
		}
	}
	emu_sync(&emu);
	if (emu.view_on)
		view_draw();
}

int main(int argc, char **argv)
{
	struct options o;

	parse_options(argc, argv, &o);
	start(&o);
	run();
	return 0;
}
