// SPDX-License-Identifier: GPL-2.0
/*
 * lp-fuzz: write random, boundary, malformed and maximal values into every
 * attribute of every LED (/sys/class/leds/<led>/) and every led_pattern
 * engine (/sys/class/led_pattern/<engine>/) from several threads at once,
 * interleaved with link/unlink, run/stop, color_component changes and
 * reads; then check that every attribute reads back what its last
 * accepted write left there.
 *
 * What a write must do comes from the value written, not from the kernel:
 * the documented ABI (Documentation/ABI/testing/sysfs-class-led-pattern,
 * sysfs-class-led) says which values an attribute takes, with which errno
 * it refuses the others, and the normal form it reads back.  A write the
 * ABI refuses must be refused; one it takes must be taken by a software
 * engine or an LED (a chip's engine may refuse more: -EBUSY, -E2BIG,
 * -EINVAL for what its program cannot run), with the documented errno
 * otherwise; what a taken write reads back is its normal form, at once
 * and at the end.  Every kind of write must be taken a minimum number of
 * times: a kernel that refuses every pattern fails.
 *
 *   lp-fuzz [-s SEED] [-t SECONDS] [-n MAX_WRITES] [-j THREADS] [-r CLASSDIR]
 *
 * CLASSDIR (default /sys/class) holds leds/ and led_pattern/.
 *
 * Each thread draws from its own generator seeded with SEED + thread
 * number.  The threads race, so a seed repeats the values, not their
 * interleaving.  Writes to one LED (all its attributes) or to one engine
 * attribute are serialised by a lock in this program, so that "last
 * accepted" is well defined; writes to different LEDs and engines, and
 * to different attributes of one engine, run concurrently.
 *
 * Output: "# " lines (diagnostics, then a summary, one line per kind:
 * "# lp-fuzz: <kind> <n> writes <n> valid <n> must-take <n> accepted").
 * Exit status 0 when everything read back as expected, 1 on a mismatch,
 * a bad read, a write refused or taken against the ABI or a kind taken
 * too few times, 2 when
 * a write had not returned SECONDS + 30 s after the start (the stuck
 * thread and what it wrote are printed first).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_ATTRS	512
#define MAX_THREADS	16
#define VAL_MAX		(64 * 1024)
#define READ_MAX	(64 * 1024)
#define PATH_LEN	1024
#define STUCK_GRACE_S	30

enum kind {
	K_PATTERN,	/* engine: pattern */
	K_REPEAT,	/* engine: repeat */
	K_STATE,	/* engine: state */
	K_TRIGGER,	/* LED: trigger (link/unlink) */
	K_BRIGHTNESS,	/* LED: brightness */
	K_COLOR,	/* LED: color_component */
	K_NUMBER,	/* any other writable attribute: numbers mostly */
	K_READONLY,	/* written anyway: must be refused */
	K_NKINDS
};

static const char *const kind_names[] = {
	"pattern", "repeat", "state", "trigger", "brightness",
	"color_component", "number", "read-only",
};

struct group {			/* one LED or one engine attribute */
	pthread_mutex_t lock;
};

struct attr {
	char path[PATH_LEN];
	enum kind kind;
	struct group *grp;
	/* the normal form of the last accepted write (at the start: read) */
	char *expect;
	int stable;		/* expect must still read back at the end */
	int software;		/* engine attribute: a software engine's */
	unsigned int max_steps;	/* engine attribute: the engine's */
	char *offered;		/* trigger: " none name ... " as listed at the start */
	unsigned long writes, valid, must, accepted, empty;
};

static struct attr attrs[MAX_ATTRS];
static int nattrs;
static struct group groups[MAX_ATTRS];
static int ngroups;

static char engine_names[16][256];
static int engine_software[16];
static int nengines;
static unsigned int max_steps = 1024;

/*
 * The least share of each kind's writes that an engine or LED must take:
 * the generator's weights make at least 6 % of every kind such writes
 * ("stop" to a software engine is the rarest: a third of the state
 * values, on two of the board's eight engines).  Below 1 in 50, the
 * generator or the kernel's parser has changed: look before trusting
 * the run.
 */
#define MUST_SHARE_MIN	50

static unsigned long long seed;
static double duration_s = 60;
static unsigned long max_writes = 200000;
static int nthreads = 4;
static const char *class_dir = "/sys/class";

static volatile int stop_flag;
static unsigned long total_writes;	/* atomics */
static unsigned long total_accepted;
static unsigned long total_reads;
static unsigned long hw_links_refused;
static unsigned long errnos[256];
static int failures;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

enum doing {
	IDLE,
	WRITING,
	READING,
	READING_BACK,	/* a write's result, its group locked */
	LOCKING,	/* waiting for another thread's write to the group */
};

static const char *const doing_names[] = {
	"between calls", "write", "read", "read-back", "waiting for the group lock",
};

struct thread {
	pthread_t tid;
	pid_t ktid;		/* for /proc/self/task/<ktid>/stack */
	int joined;
	int id;
	uint64_t rng;
	char *buf;
	char *rbuf;
	char *norm;		/* the model's normal form of the value */
	char *got;		/* the read-back, normalised */
	/* what the thread is doing, for the stuck report */
	volatile enum doing busy;
	volatile int cur_attr;
	volatile size_t cur_len;
	char cur_val[64];
	volatile double since;
};

static struct thread threads[MAX_THREADS];

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void diag(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&out_lock);
	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
}

static int failures_shown;

static void fail(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&out_lock);
	failures++;
	if (++failures_shown <= 20) {
		fputs("# FAIL ", stdout);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		fputc('\n', stdout);
		fflush(stdout);
	}
	pthread_mutex_unlock(&out_lock);
}

/* xorshift64*: small, fast, seedable */
static uint64_t rnd(struct thread *t)
{
	t->rng ^= t->rng >> 12;
	t->rng ^= t->rng << 25;
	t->rng ^= t->rng >> 27;
	return t->rng * 2685821657736338717ULL;
}

static unsigned int below(struct thread *t, unsigned int n)
{
	return n ? (unsigned int)(rnd(t) % n) : 0;
}

/* printable form of a value for diagnostics */
static void shorten(char *dst, size_t dlen, const char *v, size_t len)
{
	size_t i, o = 0;

	for (i = 0; i < len && o + 5 < dlen; i++) {
		unsigned char c = v[i];

		if (c >= 0x20 && c < 0x7f && c != '\\') {
			dst[o++] = c;
		} else {
			o += snprintf(dst + o, dlen - o, "\\x%02x", c);
		}
	}
	if (i < len && o + 4 < dlen)
		o += snprintf(dst + o, dlen - o, "...");
	dst[o < dlen ? o : dlen - 1] = '\0';
}

static ssize_t read_attr(const char *path, char *buf, size_t size)
{
	ssize_t n, total = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while ((size_t)total < size - 1) {
		n = read(fd, buf + total, size - 1 - total);
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (n == 0)
			break;
		total += n;
	}
	close(fd);
	buf[total] = '\0';
	return total;
}

/* 0 when accepted, else the errno of open() or write() */
static int write_attr(const char *path, const char *val, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return errno;
	n = write(fd, val, len);
	if (n < 0)
		err = errno;
	else if ((size_t)n != len && len <= 4095)
		err = EMSGSIZE;	/* short write: the store took part of it */
	close(fd);
	return err;
}

/*
 * A read never shows a kernel pointer (a 64-bit hex number with the
 * linear map's or vmalloc's top bits) or bytes that are not text.
 */
static int read_is_clean(const struct attr *a, const char *buf, ssize_t n)
{
	ssize_t i;
	const char *p;

	for (i = 0; i < n; i++) {
		unsigned char c = buf[i];

		if (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f))
			continue;
		fail("%s: read byte 0x%02x at offset %zd", a->path, c, i);
		return 0;
	}
	for (p = buf; (p = strstr(p, "ffff")); p++) {
		size_t hex = strspn(p, "0123456789abcdefABCDEF");

		if (hex >= 12) {
			char s[48];

			shorten(s, sizeof(s), p, 20);
			fail("%s: read shows what looks like a kernel address: %s",
			     a->path, s);
			return 0;
		}
	}
	return 1;
}

/* the bracketed word of a "a [b] c" list, or the whole text */
static void normalise(const struct attr *a, const char *in, char *out,
		      size_t len)
{
	const char *l, *r;

	if (a->kind == K_TRIGGER || a->kind == K_COLOR) {
		l = strchr(in, '[');
		r = l ? strchr(l, ']') : NULL;
		if (l && r && (size_t)(r - l) < len) {
			memcpy(out, l + 1, r - l - 1);
			out[r - l - 1] = '\0';
			return;
		}
		snprintf(out, len, "(no bracket)");
		return;
	}
	snprintf(out, len, "%s", in);
}

static void record_expect(struct attr *a, char *rbuf)
{
	ssize_t n;
	char *e;

	n = read_attr(a->path, rbuf, READ_MAX);

	if (n < 0)
		return;
	e = malloc(READ_MAX);
	if (!e)
		return;
	normalise(a, rbuf, e, READ_MAX);
	free(a->expect);
	a->expect = e;
}

/* ------------------------------------------------------------ values */

static const char *const numbers[] = {
	"0", "-0", "1", "-1", "2", "-2", "127", "128", "255", "256", "1000",
	"65535", "65536", "2147483647", "2147483648", "-2147483648",
	"-2147483649", "4294967295", "4294967296", "9223372036854775807",
	"9223372036854775808", "18446744073709551615", "18446744073709551616",
	"99999999999999999999999999", "0x10", "0x", "010", "08", "+1", " 1",
	"1 ", "1\n", "1\n\n", "\n", "1.5", "1e3", "-", "+", "0b1", "1,2",
};

static const char *const words[] = {
	"none", "run", "stop", "run\n", "stop\n", "running", "stopped",
	"finished", "error", "red", "green", "blue", "none\n", "[red]", "RED",
	"timer", "heartbeat", "heartbeat-rgb", "pattern", "default-on",
	"oneshot", "transient", "software99", "software", "",
};

/* ------------------------------------------------------------ the ABI */

static const char *const components[] = { "none", "red", "green", "blue" };

/* isspace() of the kernel's lib/ctype.c: also 0xa0 (Latin-1 no-break space) */
static int k_isspace(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xa0;
}

static int k_isdigit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static int k_hex(unsigned char c)
{
	if (k_isdigit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * sysfs_streq(): equal, or equal but for one trailing newline.  @s is what
 * the store saw: the written bytes up to the first NUL.
 */
static int k_streq(const char *s, const char *word)
{
	size_t n = strlen(word);

	return !strncmp(s, word, n) && (!s[n] || (s[n] == '\n' && !s[n + 1]));
}

/*
 * kstrtoull() after its sign: decimal digits, one optional trailing
 * newline; -ERANGE past 64 bits (checked before the trailing text),
 * -EINVAL otherwise.
 */
static int k_strtoull(const char *s, unsigned long long *res)
{
	unsigned long long v = 0;
	int n = 0, over = 0;

	for (; k_isdigit(*s); s++, n++) {
		if (v > (~0ULL - (*s - '0')) / 10)
			over = 1;
		v = v * 10 + (*s - '0');
	}
	if (over)
		return -ERANGE;
	if (!n)
		return -EINVAL;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = v;
	return 0;
}

/* kstrtoul(s, 10): brightness */
static int k_strtoul(const char *s, unsigned long long *res)
{
	return k_strtoull(s[0] == '+' ? s + 1 : s, res);
}

/* kstrtoint(s, 10): repeat */
static int k_strtoint(const char *s, long long *res)
{
	unsigned long long v;
	int ret;

	if (s[0] == '-') {
		ret = k_strtoull(s + 1, &v);
		if (ret)
			return ret;
		if (v > 1ULL << 31)
			return -ERANGE;
		*res = -(long long)v;
		return 0;
	}
	ret = k_strtoull(s[0] == '+' ? s + 1 : s, &v);
	if (ret)
		return ret;
	if (v > 0x7fffffff)
		return -ERANGE;
	*res = v;
	return 0;
}

/* one pattern token: its start, its length (0 at the end) */
static const char *pattern_token(const char *s, size_t *len)
{
	const char *e;

	while (k_isspace(*s))
		s++;
	for (e = s; *e && !k_isspace(*e); e++)
		;
	*len = e - s;
	return s;
}

/* a duration, or a grey value: decimal digits, at most 4294967295 */
static int pattern_number(const char *tok, size_t len, unsigned long long *v)
{
	size_t i;

	*v = 0;
	if (!len)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		if (!k_isdigit(tok[i]))
			return -EINVAL;
		*v = *v * 10 + (tok[i] - '0');
		if (*v > 0xffffffffULL)
			return -EINVAL;
	}
	return 0;
}

/*
 * The pattern ABI: "<value> <ms> ..." tuples, a value 0-255 or #rrggbb,
 * a duration 0-4294967295 ms, both without a sign; nothing, or only white
 * space, clears it.  -EINVAL for a bad token, a single tuple or a
 * pattern of 0 ms; -E2BIG for more than max_steps tuples or a normal
 * form longer than 4094 characters.  On success @norm holds what a read
 * returns: one space between fields, grey in decimal, colours as
 * lower-case #rrggbb, a newline.
 */
static int model_pattern(const char *s, unsigned int steps_max, char *norm,
			 size_t size)
{
	unsigned long long period = 0, v, ms;
	unsigned int n = 0;
	size_t len, o = 0, i;
	const char *tok;
	int bad = 0;

	norm[0] = '\0';
	for (tok = pattern_token(s, &len); len;
	     tok = pattern_token(tok + len, &len)) {
		char val[16];

		if (tok[0] == '#') {
			if (len != 7)
				return -EINVAL;
			for (v = 0, i = 1; i < len; i++) {
				if (k_hex(tok[i]) < 0)
					return -EINVAL;
				v = v << 4 | k_hex(tok[i]);
			}
			snprintf(val, sizeof(val), "#%06llx", v);
		} else {
			if (pattern_number(tok, len, &v) || v > 255)
				return -EINVAL;
			snprintf(val, sizeof(val), "%llu", v);
		}
		tok = pattern_token(tok + len, &len);
		if (!len || pattern_number(tok, len, &ms))
			return -EINVAL;
		period += ms;
		n++;
		if (o < size)
			o += snprintf(norm + o, size - o, "%s%s %llu", n > 1 ? " " : "",
				      val, ms);
		else
			bad = 1;
	}
	if (n > steps_max)
		return -E2BIG;
	if (n == 1 || (n && !period))
		return -EINVAL;
	if (bad || o > 4094)
		return -E2BIG;
	snprintf(norm + o, size - o, "\n");
	return 0;
}

/*
 * What the ABI says of writing @val (@len bytes) to @a: 0 when it takes
 * it, with the normal form it reads back in @norm (empty: not read back
 * or unchanged), else the errno it refuses it with.  A store sees the
 * bytes up to the first NUL, of at most a page: sysfs hands it the first
 * 4096 bytes of a longer write (and write() returns 4096 when it takes
 * them).
 */
static int model_write(const struct attr *a, const char *val, size_t len,
		       char *norm, size_t size)
{
	char *s;
	unsigned long long u;
	long long i;
	int ret = 0;

	norm[0] = '\0';
	if (len > 4096)
		len = 4096;
	s = strndup(val, len);
	if (!s)
		return -ENOMEM;
	switch (a->kind) {
	case K_PATTERN:
		ret = model_pattern(s, a->max_steps, norm, size);
		break;
	case K_REPEAT:
		ret = k_strtoint(s, &i);
		if (!ret && (i < -1 || i == 0))
			ret = -EINVAL;
		if (!ret)
			snprintf(norm, size, "%lld\n", i);
		break;
	case K_STATE:
		if (!k_streq(s, "run") && !k_streq(s, "stop"))
			ret = -EINVAL;
		break;
	case K_COLOR:
		ret = -EINVAL;
		for (i = 0; i < 4 && ret; i++)
			if (k_streq(s, components[i]))
				ret = snprintf(norm, size, "%s", components[i]) < 0;
		break;
	case K_TRIGGER: {
		/* "none", or a trigger the LED offered at the start */
		char *w, *save = NULL, *list = strdup(a->offered);

		ret = -EINVAL;
		for (w = strtok_r(list, " ", &save); w && ret;
		     w = strtok_r(NULL, " ", &save))
			if (k_streq(s, w))
				ret = snprintf(norm, size, "%s", w) < 0;
		free(list);
		break;
	}
	case K_BRIGHTNESS:
		ret = k_strtoul(s, &u);
		/* brightness 0 unlinks the trigger: recorded by the caller */
		if (!ret)
			snprintf(norm, size, "%llu", u);
		break;
	case K_READONLY:
		ret = -EACCES;
		break;
	default:
		ret = 1;	/* no model: not judged */
		break;
	}
	free(s);
	return ret;
}

/*
 * Whether @a must take a write the ABI allows: a software engine has no
 * reason to refuse one (but "run" without a pattern), an LED neither; a
 * chip's engine may (another owner, its program memory, a ramp its
 * clock cannot run).
 */
static int must_take(const struct attr *a, const char *val, size_t len,
		     const char *norm)
{
	int i;

	switch (a->kind) {
	case K_PATTERN:
	case K_REPEAT:
		return a->software;
	case K_STATE:
		return a->software && len && k_streq(val, "stop");
	case K_TRIGGER:
		/* a chip's engine may refuse to link: see do_write() */
		for (i = 0; i < nengines; i++)
			if (!engine_software[i] && !strcmp(norm, engine_names[i]))
				return 0;
		return 1;
	case K_BRIGHTNESS:
	case K_COLOR:
		return 1;
	default:
		return 0;
	}
}

/* the errnos the ABI gives for a refused write to a chip's engine */
static int documented_errno(int err)
{
	return err == EINVAL || err == E2BIG || err == EBUSY || err == ENODEV ||
	       err == ERANGE;
}

static const char *const fast_patterns[] = {
	"0 1 255 1", "0 0 255 0", "255 1 0 1", "#000000 1 #ffffff 1",
	"#ff0000 1 #00ff00 1 #0000ff 1", "#000000 0 #ff00ff 0",
	"0 1 255 1 0 1", "#ffffff 1 #000000 0", "1 1 254 1", "0 2 255 2",
};

static const char *const bad_patterns[] = {
	"0 1 255", "0", "#12345 1", "#1234567 1", "#gg0000 1", "256 1",
	"-1 1", "0 -1", "0 4294967296", "0 1 255 1 x", "0 1\n255 1\n",
	"0\t1 255 1", "0 1  255  1", "# 1", "#ff00ff", "0x10 1", "0 1.5",
	"0 1 255 1\n\n", "\n0 1", "0 18446744073709551616", "0 2147483648",
	"0,1,255,1", "#FF00FF 1 #ff00ff 1",
};

static size_t put(char *dst, size_t max, const char *s)
{
	size_t n = strlen(s);

	if (n > max)
		n = max;
	memcpy(dst, s, n);
	return n;
}

static size_t gen_random(struct thread *t, char *buf, size_t max)
{
	size_t i, n = below(t, 96);

	if (n > max)
		n = max;
	for (i = 0; i < n; i++)
		buf[i] = (char)rnd(t);
	return n;
}

static size_t gen_huge(struct thread *t, char *buf, size_t max)
{
	size_t i, n = 4000 + below(t, VAL_MAX - 4000);
	const char *tok = below(t, 2) ? "0 1 255 1 " : "#ff00ff 1 ";

	if (n > max)
		n = max;
	for (i = 0; i < n; i++)
		buf[i] = below(t, 4) ? tok[i % 10] : (char)(' ' + below(t, 95));
	return n;
}

/* a pattern of n tuples with short segments (ramps at every level) */
static size_t gen_tuples(struct thread *t, char *buf, size_t max,
			 unsigned int n)
{
	size_t o = 0;
	unsigned int i;
	int colour = below(t, 2);

	for (i = 0; i < n && o + 24 < max; i++) {
		if (colour)
			o += snprintf(buf + o, max - o, "#%06x %u ",
				      (unsigned int)(rnd(t) & 0xffffff),
				      below(t, 4));
		else
			o += snprintf(buf + o, max - o, "%u %u ",
				      below(t, 256), below(t, 4));
	}
	if (o)
		buf[o - 1] = below(t, 2) ? '\n' : ' ';
	return o;
}

static size_t gen_value(struct thread *t, const struct attr *a, char *buf,
			size_t max)
{
	unsigned int r = below(t, 100);
	char tmp[96];

	/* common: random bytes, empty, huge, boundary numbers, words */
	if (r < 6)
		return gen_random(t, buf, max);
	if (r < 8)
		return below(t, 2) ? 0 : put(buf, max, "\n");
	if (r < 10)
		return gen_huge(t, buf, max);
	if (r < 18)
		return put(buf, max, numbers[below(t, sizeof(numbers) / sizeof(*numbers))]);
	if (r < 22)
		return put(buf, max, words[below(t, sizeof(words) / sizeof(*words))]);

	switch (a->kind) {
	case K_PATTERN:
		r = below(t, 100);
		if (r < 45)
			return put(buf, max, fast_patterns[below(t, sizeof(fast_patterns) / sizeof(*fast_patterns))]);
		if (r < 65)
			return put(buf, max, bad_patterns[below(t, sizeof(bad_patterns) / sizeof(*bad_patterns))]);
		if (r < 80)
			return gen_tuples(t, buf, max, 2 + below(t, 16));
		if (r < 90)	/* maximal */
			return gen_tuples(t, buf, max, a->max_steps);
		if (r < 95)	/* one too many */
			return gen_tuples(t, buf, max, a->max_steps + 1);
		return put(buf, max, "#ff00ff 1000 #000000 1000");
	case K_REPEAT:
		snprintf(tmp, sizeof(tmp), "%d", (int)below(t, 12) - 2);
		return put(buf, max, tmp);
	case K_STATE:
		return put(buf, max, below(t, 3) ? "run" : "stop");
	case K_TRIGGER:
		r = below(t, 100);
		if (r < 45 && nengines)	/* link */
			return put(buf, max, engine_names[below(t, nengines)]);
		if (r < 80)		/* unlink */
			return put(buf, max, below(t, 2) ? "none" : "none\n");
		return put(buf, max, words[below(t, sizeof(words) / sizeof(*words))]);
	case K_COLOR:
		return put(buf, max, words[9 + below(t, 4)]);	/* red..none */
	case K_BRIGHTNESS:
	case K_NUMBER:
	case K_READONLY:
	default:
		snprintf(tmp, sizeof(tmp), "%u", below(t, 300));
		return put(buf, max, tmp);
	}
}

/* ------------------------------------------------------------ threads */

static int pick_attr(struct thread *t)
{
	unsigned int r = below(t, 100);
	int i, tries;
	enum kind want;

	/* weights: links, engines, colour; then anything */
	if (r < 25)
		want = K_TRIGGER;
	else if (r < 40)
		want = K_PATTERN;
	else if (r < 52)
		want = K_STATE;
	else if (r < 58)
		want = K_REPEAT;
	else if (r < 68)
		want = K_COLOR;
	else
		return below(t, nattrs);
	for (tries = 0; tries < 64; tries++) {
		i = below(t, nattrs);
		if (attrs[i].kind == want)
			return i;
	}
	return below(t, nattrs);
}

/* what the stuck report says the thread is doing, and since when */
static void doing(struct thread *t, enum doing what, int attr)
{
	t->cur_attr = attr;
	t->since = now_s();
	t->busy = what;
}

static void do_read(struct thread *t)
{
	int i = below(t, nattrs);
	struct attr *a = &attrs[i];
	ssize_t n;

	doing(t, READING, i);
	n = read_attr(a->path, t->rbuf, READ_MAX);
	t->busy = IDLE;
	__atomic_add_fetch(&total_reads, 1, __ATOMIC_RELAXED);
	if (n >= 0)
		read_is_clean(a, t->rbuf, n);
}

/* the bracketed word of a trigger or color_component read, or the text */
static int read_norm(struct attr *a, char *rbuf, char *out, size_t len)
{
	ssize_t n = read_attr(a->path, rbuf, READ_MAX);

	if (n < 0)
		return n;
	normalise(a, rbuf, out, len);
	return 0;
}

static void set_expect(struct attr *a, const char *norm)
{
	char *e = strdup(norm);

	if (!e)
		return;
	free(a->expect);
	a->expect = e;
}

static void do_write(struct thread *t)
{
	int i = pick_attr(t);
	struct attr *a = &attrs[i];
	/* NUL-terminated for the model; the kernel is handed len bytes */
	size_t len = gen_value(t, a, t->buf, VAL_MAX - 1);
	char val[64], got[64], want[64];
	int err, model, must;

	t->buf[len] = '\0';
	t->cur_len = len;
	shorten(t->cur_val, sizeof(t->cur_val), t->buf, len);
	shorten(val, sizeof(val), t->buf, len);
	/* what the ABI says, before the kernel does */
	model = len ? model_write(a, t->buf, len, t->norm, READ_MAX) : 0;
	must = model == 0 && must_take(a, t->buf, len, t->norm);
	doing(t, LOCKING, i);
	pthread_mutex_lock(&a->grp->lock);
	doing(t, WRITING, i);
	err = write_attr(a->path, t->buf, len);
	t->busy = READING_BACK;
	a->writes++;
	a->valid += model == 0 && len;
	a->must += must && len;
	if (!err && !len) {
		/* sysfs calls no store for an empty write: nothing changes */
		a->empty++;
	} else if (!err) {
		a->accepted++;
		__atomic_add_fetch(&total_accepted, 1, __ATOMIC_RELAXED);
		if (model < 0) {
			fail("%s: \"%s\" (%zu bytes) taken, the ABI refuses it with %s",
			     a->path, val, len, strerrorname_np(-model));
		} else if (a->kind == K_BRIGHTNESS && !strcmp(t->norm, "0")) {
			/* brightness 0 unlinks the LED's trigger */
			int j;

			for (j = 0; j < nattrs; j++)
				if (attrs[j].grp == a->grp &&
				    attrs[j].kind == K_TRIGGER)
					set_expect(&attrs[j], "none");
		} else if (a->stable && model == 0) {
			/*
			 * Read back at once, still serialised: the normal form
			 * of what was written.  A chip's engine that cannot
			 * take an LED leaves it unlinked: the trigger write
			 * returns success (6.1's led_trigger_write() ignores
			 * the activation's error) and the kernel logs
			 * "cannot link".
			 */
			if (read_norm(a, t->rbuf, t->got, READ_MAX) == 0 &&
			    strcmp(t->got, t->norm)) {
				int hw = 0, j;

				for (j = 0; j < nengines; j++)
					hw |= !engine_software[j] &&
					      !strcmp(t->norm, engine_names[j]);
				if (a->kind == K_TRIGGER && hw &&
				    !strcmp(t->got, "none")) {
					strcpy(t->norm, "none");
					a->accepted--;	/* the link was refused */
					__atomic_add_fetch(&hw_links_refused, 1,
							   __ATOMIC_RELAXED);
				} else {
					shorten(want, sizeof(want), t->norm, strlen(t->norm));
					shorten(got, sizeof(got), t->got, strlen(t->got));
					fail("%s: wrote \"%s\", reads \"%s\", want \"%s\"",
					     a->path, val, got, want);
				}
			}
			set_expect(a, t->norm);
		}
	} else {
		__atomic_add_fetch(&errnos[err & 0xff], 1, __ATOMIC_RELAXED);
		if (must)
			fail("%s: \"%s\" (%zu bytes) refused with %s, the ABI takes it",
			     a->path, val, len, strerrorname_np(err));
		else if (model < 0 && (a->software || a->kind >= K_TRIGGER) &&
			 a->kind != K_READONLY && err != -model)
			fail("%s: \"%s\" (%zu bytes) refused with %s, the ABI says %s",
			     a->path, val, len, strerrorname_np(err),
			     strerrorname_np(-model));
		else if (a->kind <= K_STATE && !documented_errno(err))
			fail("%s: \"%s\" (%zu bytes) refused with %s, not an errno the ABI gives",
			     a->path, val, len, strerrorname_np(err));
	}
	t->busy = IDLE;
	pthread_mutex_unlock(&a->grp->lock);
	__atomic_add_fetch(&total_writes, 1, __ATOMIC_RELAXED);
}

static void *worker(void *arg)
{
	struct thread *t = arg;

	t->ktid = gettid();
	while (!stop_flag) {
		if (below(t, 8) == 0)
			do_read(t);
		else
			do_write(t);
		if (__atomic_load_n(&total_writes, __ATOMIC_RELAXED) >= max_writes)
			stop_flag = 1;
	}
	return NULL;
}

/* ------------------------------------------------------------ stalls */

/* the kernel stack of a thread of this process, as "# " lines */
static void print_stack(pid_t ktid)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stack", ktid);
	f = fopen(path, "r");
	if (!f) {
		printf("#   (no %s: %s)\n", path, strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), f))
		printf("#   %s", line);
	fclose(f);
}

/* 1 when the thread is still inside a call: what it does, for how long */
static int report_stuck(struct thread *t)
{
	enum doing what = t->busy;
	int i = t->cur_attr;

	if (t->joined)
		return 0;
	if (what == IDLE) {
		printf("# thread %d (tid %d) is between calls\n", t->id, t->ktid);
		print_stack(t->ktid);
		return 0;
	}
	printf("# FAIL thread %d (tid %d): %s of %s has not returned for %.0f s",
	       t->id, t->ktid, doing_names[what], i >= 0 ? attrs[i].path : "?",
	       now_s() - t->since);
	if (what == WRITING || what == LOCKING)
		printf(" (%zu bytes \"%s\")", t->cur_len, t->cur_val);
	printf("\n");
	print_stack(t->ktid);
	return 1;
}

/* ------------------------------------------------------------ setup */

static struct group *new_group(void)
{
	struct group *g = &groups[ngroups++];

	pthread_mutex_init(&g->lock, NULL);
	return g;
}

static int skip_name(const char *n)
{
	static const char *const skip[] = {
		".", "..", "uevent", "power", "subsystem", "device", "leds",
		"of_node", "driver", "firmware_node",
	};
	unsigned int i;

	for (i = 0; i < sizeof(skip) / sizeof(*skip); i++)
		if (!strcmp(n, skip[i]))
			return 1;
	return 0;
}

static void add_attr(const char *dir, const char *name, enum kind k,
		     struct group *g)
{
	struct attr *a;

	if (nattrs >= MAX_ATTRS)
		return;
	a = &attrs[nattrs++];
	snprintf(a->path, sizeof(a->path), "%s/%s", dir, name);
	a->kind = k;
	a->grp = g;
	a->stable = k == K_PATTERN || k == K_REPEAT || k == K_TRIGGER ||
		    k == K_COLOR;
}

static enum kind kind_of(const char *name, int engine)
{
	if (engine) {
		if (!strcmp(name, "pattern"))
			return K_PATTERN;
		if (!strcmp(name, "repeat"))
			return K_REPEAT;
		if (!strcmp(name, "state"))
			return K_STATE;
	} else {
		if (!strcmp(name, "trigger"))
			return K_TRIGGER;
		if (!strcmp(name, "brightness"))
			return K_BRIGHTNESS;
		if (!strcmp(name, "color_component"))
			return K_COLOR;
	}
	return K_NUMBER;
}

static int is_writable(const char *path)
{
	int fd;

	/* root passes access(): a 0444 attribute has no store, kernfs
	 * refuses to open it for writing */
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

/* " none timer ... " from a trigger file's "[none] timer ..." */
static char *offered_triggers(const char *path)
{
	char *buf = malloc(READ_MAX), *list, *p;
	ssize_t n;

	if (!buf)
		return NULL;
	n = read_attr(path, buf, READ_MAX);
	if (n < 0)
		n = 0;
	buf[n] = '\0';
	for (p = buf; *p; p++)
		if (*p == '[' || *p == ']' || *p == '\n')
			*p = ' ';
	list = malloc(strlen(buf) + 3);
	if (list)
		sprintf(list, " %s ", buf);
	free(buf);
	return list;
}

static void scan_dir(const char *dir, int engine, int software,
		     unsigned int steps)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct group *led_group = engine ? NULL : new_group();
	char path[PATH_LEN];

	if (!d)
		return;
	while ((de = readdir(d))) {
		enum kind k;

		if (skip_name(de->d_name) || de->d_type == DT_DIR ||
		    de->d_type == DT_LNK)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		k = is_writable(path) ? kind_of(de->d_name, engine)
				      : K_READONLY;
		add_attr(dir, de->d_name, k, engine ? new_group() : led_group);
		if (nattrs && !strcmp(attrs[nattrs - 1].path, path)) {
			attrs[nattrs - 1].software = software;
			attrs[nattrs - 1].max_steps = steps;
			if (k == K_TRIGGER)
				attrs[nattrs - 1].offered = offered_triggers(path);
		}
	}
	closedir(d);
}

static void scan_class(const char *class, int engine)
{
	DIR *d = opendir(class);
	struct dirent *de;
	char dir[PATH_LEN];
	char buf[64];

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		unsigned int m = 0;
		int software = 0;

		snprintf(dir, sizeof(dir), "%s/%s", class, de->d_name);
		if (engine && nengines < 16) {
			snprintf(engine_names[nengines], sizeof(*engine_names), "%s", de->d_name);
			snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir),
				 "/max_steps");
			if (read_attr(dir, buf, sizeof(buf)) > 0) {
				m = strtoul(buf, NULL, 10);
				if (m && m < max_steps)
					max_steps = m;
			}
			snprintf(dir, sizeof(dir), "%s/%s/type", class, de->d_name);
			software = read_attr(dir, buf, sizeof(buf)) > 0 &&
				   !strcmp(buf, "software\n");
			engine_software[nengines++] = software;
			snprintf(dir, sizeof(dir), "%s/%s", class, de->d_name);
		}
		scan_dir(dir, engine, software, m ? m : max_steps);
	}
	closedir(d);
}

static void usage(void)
{
	fprintf(stderr, "usage: lp-fuzz [-s seed] [-t seconds] [-n max_writes] [-j threads] [-r classdir]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long counts[K_NKINDS] = { 0 }, acc[K_NKINDS] = { 0 };
	unsigned long valid[K_NKINDS] = { 0 }, must[K_NKINDS] = { 0 };
	char *rbuf, got[256], want[256], rbuf_path[PATH_LEN];
	double t0, t1;
	int i, opt, stuck = 0;

	seed = (unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 32);
	while ((opt = getopt(argc, argv, "s:t:n:j:r:")) != -1) {
		switch (opt) {
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 't': duration_s = strtod(optarg, NULL); break;
		case 'n': max_writes = strtoul(optarg, NULL, 0); break;
		case 'j': nthreads = atoi(optarg); break;
		case 'r': class_dir = optarg; break;
		default: usage();
		}
	}
	if (nthreads < 1 || nthreads > MAX_THREADS)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);

	snprintf(rbuf_path, sizeof(rbuf_path), "%s/led_pattern", class_dir);
	scan_class(rbuf_path, 1);
	snprintf(rbuf_path, sizeof(rbuf_path), "%s/leds", class_dir);
	scan_class(rbuf_path, 0);
	if (!nattrs) {
		printf("# lp-fuzz: no LED or engine attributes found\n");
		return 1;
	}
	rbuf = malloc(READ_MAX);
	if (!rbuf)
		return 1;
	for (i = 0; i < nattrs; i++)
		if (attrs[i].stable)
			record_expect(&attrs[i], rbuf);
	diag("lp-fuzz: seed %llu, %d threads, %d attributes of %d engines and the LEDs, max_steps %u, at most %.0f s or %lu writes",
	     seed, nthreads, nattrs, nengines, max_steps, duration_s, max_writes);

	t0 = now_s();
	for (i = 0; i < nthreads; i++) {
		struct thread *t = &threads[i];

		t->id = i;
		t->rng = (seed + i) * 0x9e3779b97f4a7c15ULL | 1;
		t->buf = malloc(VAL_MAX);
		t->rbuf = malloc(READ_MAX);
		t->norm = malloc(READ_MAX);
		t->got = malloc(READ_MAX);
		t->cur_attr = -1;
		if (!t->buf || !t->rbuf || !t->norm || !t->got ||
		    pthread_create(&t->tid, NULL, worker, t)) {
			printf("# lp-fuzz: cannot start thread %d\n", i);
			return 1;
		}
	}
	/* the clock: stop at the time limit, report writes that never return */
	for (;;) {
		int running = 0;

		usleep(100000);
		if (now_s() - t0 >= duration_s)
			stop_flag = 1;
		for (i = 0; i < nthreads; i++)
			if (!threads[i].joined)
				threads[i].joined = !pthread_tryjoin_np(threads[i].tid, NULL);
		for (i = 0; i < nthreads; i++)
			running += !threads[i].joined;
		if (!running)
			break;
		if (now_s() - t0 < duration_s + STUCK_GRACE_S)
			continue;
		for (i = 0; i < nthreads; i++)
			stuck += report_stuck(&threads[i]);
		if (!stuck)
			printf("# FAIL writers still running %d s after the time limit\n",
			       STUCK_GRACE_S);
		printf("# lp-fuzz: seed %llu, %lu writes before the stall\n",
		       seed, total_writes);
		fflush(stdout);
		_exit(2);
	}
	t1 = now_s();

	/* every attribute reads back what its last accepted write left */
	for (i = 0; i < nattrs; i++) {
		struct attr *a = &attrs[i];
		ssize_t n = read_attr(a->path, rbuf, READ_MAX);
		char *norm;

		counts[a->kind] += a->writes;
		acc[a->kind] += a->accepted;
		valid[a->kind] += a->valid;
		must[a->kind] += a->must;
		if (n < 0) {
			/*
			 * ENODATA: the brightness of an LED a chip's engine
			 * runs (the ABI, sysfs-class-led), which the last
			 * write may have left linked to one.
			 */
			if (n != -EACCES && n != -EIO && n != -ENODEV &&
			    !(n == -ENODATA && a->kind == K_BRIGHTNESS))
				fail("%s: read: %s", a->path, strerror(-n));
			continue;
		}
		read_is_clean(a, rbuf, n);
		if (!a->stable || !a->expect)
			continue;
		norm = malloc(READ_MAX);
		if (!norm)
			break;
		normalise(a, rbuf, norm, READ_MAX);
		if (strcmp(norm, a->expect)) {
			shorten(want, sizeof(want), a->expect, strlen(a->expect));
			shorten(got, sizeof(got), norm, strlen(norm));
			fail("%s: want \"%s\" (last accepted) got \"%s\"",
			     a->path, want, got);
		}
		free(norm);
	}

	for (i = 0; i < K_NKINDS; i++)
		if (counts[i])
			diag("lp-fuzz: %-15s %8lu writes %8lu valid %8lu must-take %8lu accepted",
			     kind_names[i], counts[i], valid[i], must[i], acc[i]);
	/*
	 * Each kind the ABI defines was taken at least as often as an engine
	 * or LED had to take it (a refused one already failed above), and
	 * the generator gave enough such writes that this means something.
	 */
	failures_shown = 0;	/* these are shown whatever came before */
	for (i = 0; i <= K_COLOR; i++) {
		if (acc[i] < must[i] || !must[i] ||
		    must[i] < counts[i] / MUST_SHARE_MIN)
			fail("lp-fuzz: %s: %lu of %lu writes taken, want at least the %lu a software engine or an LED must take, and those at least 1 in %d",
			     kind_names[i], acc[i], counts[i], must[i], MUST_SHARE_MIN);
	}
	if (acc[K_READONLY])
		fail("lp-fuzz: read-only: %lu writes taken", acc[K_READONLY]);
	diag("lp-fuzz: links to a chip's engine it refused (the LED reads none): %lu",
	     hw_links_refused);
	{
		char line[512];
		size_t o = 0;

		for (i = 1; i < 256; i++)
			if (errnos[i])
				o += snprintf(line + o, sizeof(line) - o, " %s %lu,",
					      strerrorname_np(i) ? strerrorname_np(i) : "?",
					      errnos[i]);
		if (o)
			line[o - 1] = '\0';
		diag("lp-fuzz: refused:%s", o ? line : " none");
	}
	printf("# lp-fuzz: seed %llu, %lu writes (%lu accepted), %lu reads in %.1f s, %d failures\n",
	       seed, total_writes, total_accepted, total_reads, t1 - t0, failures);
	return failures ? 1 : 0;
}
