// SPDX-License-Identifier: GPL-2.0
/*
 * lp5523-emu: an LP5523 at I2C address 0x32 behind QEMU's
 * vhost-user-i2c-device.  See README.md.
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
 * At most one engine wake-up per ENGINE_BATCH_NS: events are stamped with
 * their own clock tick and every I2C transfer, control command and exit
 * brings the chip to now first, so handling a few ticks late in one batch
 * changes nothing the guest or the timeline sees (the view redraws every
 * 40 ms anyway); it saves most wake-ups of a fast ramp.
 */
#define ENGINE_BATCH_NS	4000000ull

static struct emu emu;
static uint64_t start_ns;
static FILE *timeline;
static bool view_on, view_dirty, view_armed, quit, vhost_drop;
static int engine_tfd = -1, view_tfd = -1, sig_fd = -1, vhost_lfd = -1;
static int cpu_tfd = -1;
static uint64_t engine_woke_ns;
static const char *socket_path, *control_path;

static void die(const char *what, int err)
{
	fprintf(stderr, "lp5523-emu: %s: %s\n", what, strerror(err));
	exit(1);
}

uint64_t emu_now_ns(void)
{
	return vi2c_now_ns() - start_ns;
}

void emu_sync(struct emu *e)
{
	lp5523_advance(&e->chip, emu_now_ns());
}

/* ------------------------------------------------------------------ */
/* Timeline and view                                                   */

static void tl_output(void *ctx, uint64_t t_us, unsigned int out,
		      unsigned int pwm)
{
	(void)ctx;
	if (timeline)
		fprintf(timeline, "%llu %u %u\n", (unsigned long long)t_us, out,
			pwm);
	if (view_on) {
		view_output(out, pwm);
		view_dirty = true;
	}
}

static void tl_event(void *ctx, uint64_t t_us, const char *text)
{
	(void)ctx;
	if (timeline)
		fprintf(timeline, "# %llu %s\n", (unsigned long long)t_us, text);
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

/* After anything that touched the chip: next engine event, view. */
static void emu_rearm(void)
{
	uint64_t next = lp5523_next_event_ns(&emu.chip);

	if (next != UINT64_MAX) {
		next += start_ns;
		if (next < engine_woke_ns + ENGINE_BATCH_NS)
			next = engine_woke_ns + ENGINE_BATCH_NS;
	}
	arm_abs(engine_tfd, next);
	if (view_on && view_dirty && !view_armed) {
		arm_abs(view_tfd, vi2c_now_ns() + VIEW_PERIOD_NS);
		view_armed = true;
	}
}

static void engine_timer_event(struct ev_handler *h, uint32_t events)
{
	uint64_t ticks;

	(void)h;
	(void)events;
	if (read(engine_tfd, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN)
		return;
	engine_woke_ns = vi2c_now_ns();
	emu_sync(&emu);
}

static void view_timer_event(struct ev_handler *h, uint32_t events)
{
	uint64_t ticks;

	(void)h;
	(void)events;
	if (read(view_tfd, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN)
		return;
	view_armed = false;
	if (!view_dirty)
		return;
	view_dirty = false;
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
	lp5523_note(&emu.chip, "cpu %llu %llu",
		    (unsigned long long)(t.tms_utime + t.tms_stime),
		    (unsigned long long)us);
}

static void cpu_timer_event(struct ev_handler *h, uint32_t events)
{
	uint64_t ticks;

	(void)h;
	(void)events;
	if (read(cpu_tfd, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN)
		return;
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
	lp5523_note(&emu.chip, "exit signal %u", si.ssi_signo);
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
	struct emu *e = ctx;

	lp5523_note(&e->chip, "fault delay %u ms", ms);
}

static void vhost_gone(void *ctx)
{
	struct emu *e = ctx;

	emu_sync(e);
	if (!vi2c_used(e->vi2c)) {	/* a probe of the socket: keep going */
		vhost_drop = true;
		return;
	}
	lp5523_note(&e->chip, "exit front end disconnected");
	quit = true;
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
	if (emu.vi2c) {		/* one front end at a time */
		close(fd);
		return;
	}
	emu.vi2c = vi2c_new(fd, emu.epfd, &lp5523_i2c_ops, &emu.chip, &hooks);
	if (!emu.vi2c)
		die("vhost-user", errno);
	vi2c_set_delay(emu.vi2c, emu.delay_ms);
	emu_sync(&emu);
}

/* Listen on @path; a live socket there is an error, a stale one goes. */
static int listen_unix(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "lp5523-emu: %s: %s\n", path,
			strerror(ENAMETOOLONG));
		exit(1);
	}
	strcpy(sa.sun_path, path);
	if (stat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			fprintf(stderr, "lp5523-emu: %s: %s\n", path,
				strerror(EEXIST));
			exit(1);
		}
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd >= 0 &&
		    connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
			fprintf(stderr, "lp5523-emu: %s: socket in use\n",
				path);
			exit(1);
		}
		if (fd >= 0)
			close(fd);
		unlink(path);
	}
	return 0;
}

static void add_fd(int fd, struct ev_handler *h)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = h };

	if (epoll_ctl(emu.epfd, EPOLL_CTL_ADD, fd, &ev) < 0)
		die("epoll_ctl", errno);
}

/* ------------------------------------------------------------------ */

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: lp5523-emu --socket PATH [--control PATH] [--timeline FILE]\n"
		"                  [--view] [--trace] [--nack-every N]\n"
		"                  [--nack-reg A-B] [--delay-ms N] [--stuck-engine]\n"
		"                  [--cpu-report]\n");
}

static void cleanup(void)
{
	view_close();
	if (emu.vi2c)
		vi2c_free(emu.vi2c);
	if (timeline)
		fflush(timeline);
	if (socket_path)
		unlink(socket_path);
	if (control_path)
		unlink(control_path);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "control", required_argument, NULL, 'c' },
		{ "timeline", required_argument, NULL, 't' },
		{ "view", no_argument, NULL, 'v' },
		{ "trace", no_argument, NULL, 'T' },
		{ "nack-every", required_argument, NULL, 'n' },
		{ "nack-reg", required_argument, NULL, 'r' },
		{ "delay-ms", required_argument, NULL, 'd' },
		{ "stuck-engine", no_argument, NULL, 'S' },
		{ "cpu-report", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct ev_handler engine_h = { engine_timer_event };
	static struct ev_handler view_h = { view_timer_event };
	static struct ev_handler sig_h = { signal_event };
	static struct ev_handler accept_h = { vhost_accept_event };
	static struct ev_handler cpu_h = { cpu_timer_event };
	const struct lp5523_sink sink = {
		.output = tl_output, .event = tl_event,
	};
	const char *timeline_path = NULL;
	char *fault_args[3] = { NULL, NULL, NULL }, line[64];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct epoll_event evs[16];
	bool trace = false, stuck = false, cpu = false;
	sigset_t sigs;
	int c, i, n, ret;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			socket_path = optarg;
			break;
		case 'c':
			control_path = optarg;
			break;
		case 't':
			timeline_path = optarg;
			break;
		case 'v':
			view_on = true;
			break;
		case 'T':
			trace = true;
			break;
		case 'n':
			fault_args[0] = optarg;
			break;
		case 'r':
			fault_args[1] = optarg;
			break;
		case 'd':
			fault_args[2] = optarg;
			break;
		case 'S':
			stuck = true;
			break;
		case 'C':
			cpu = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	if (!socket_path || optind != argc) {
		usage(stderr);
		return 1;
	}

	start_ns = vi2c_now_ns();
	if (timeline_path) {
		timeline = fopen(timeline_path, "w");
		if (!timeline)
			die(timeline_path, errno);
		setvbuf(timeline, NULL, _IOFBF, 1 << 16);
	}
	emu.epfd = epoll_create1(EPOLL_CLOEXEC);
	if (emu.epfd < 0)
		die("epoll_create1", errno);
	lp5523_init(&emu.chip, &sink);
	emu.chip.trace = trace;
	lp5523_note(&emu.chip, "start lp5523-emu 0x%02x", LP5523_I2C_ADDR);

	/* fault options go through the control language, logged alike */
	if (fault_args[0]) {
		snprintf(line, sizeof(line), "nack every %s", fault_args[0]);
		if (control_command(&emu, line))
			die("--nack-every", EINVAL);
	}
	if (fault_args[1]) {
		snprintf(line, sizeof(line), "nack reg %s", fault_args[1]);
		if (control_command(&emu, line))
			die("--nack-reg", EINVAL);
	}
	if (fault_args[2]) {
		snprintf(line, sizeof(line), "delay %s", fault_args[2]);
		if (control_command(&emu, line))
			die("--delay-ms", EINVAL);
	}
	if (stuck) {
		snprintf(line, sizeof(line), "stuck on");
		control_command(&emu, line);
	}

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
	engine_tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	view_tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (engine_tfd < 0 || view_tfd < 0)
		die("timerfd_create", errno);
	add_fd(engine_tfd, &engine_h);
	add_fd(view_tfd, &view_h);
	if (cpu) {
		struct itimerspec its = {
			.it_interval.tv_sec = CPU_PERIOD_NS / 1000000000ull,
			.it_value.tv_sec = CPU_PERIOD_NS / 1000000000ull,
		};

		cpu_tfd = timerfd_create(CLOCK_MONOTONIC,
					 TFD_CLOEXEC | TFD_NONBLOCK);
		if (cpu_tfd < 0)
			die("timerfd_create", errno);
		add_fd(cpu_tfd, &cpu_h);
		timerfd_settime(cpu_tfd, 0, &its, NULL);
		lp5523_note(&emu.chip, "cpu-report %ld ticks/s",
			    sysconf(_SC_CLK_TCK));
		cpu_report();
	}

	/* control first: when the vhost-user socket shows, both are up */
	if (control_path) {
		listen_unix(control_path);
		ret = control_listen(&emu, control_path);
		if (ret < 0)
			die(control_path, -ret);
	}
	listen_unix(socket_path);
	strcpy(sa.sun_path, socket_path);
	vhost_lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (vhost_lfd < 0)
		die("socket", errno);
	if (bind(vhost_lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		die(socket_path, errno);
	if (listen(vhost_lfd, 1) < 0)
		die(socket_path, errno);
	add_fd(vhost_lfd, &accept_h);
	atexit(cleanup);

	if (view_on && view_open() < 0) {
		fprintf(stderr, "lp5523-emu: /dev/tty: %s (no view)\n",
			strerror(errno));
		view_on = false;
	}

	while (!quit) {
		emu_rearm();
		if (timeline)
			fflush(timeline);
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
			vi2c_free(emu.vi2c);
			emu.vi2c = NULL;
			vhost_drop = false;
		}
	}
	emu_sync(&emu);
	if (view_on)
		view_draw();
	return 0;
}
