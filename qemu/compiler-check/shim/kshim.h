/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel types, helpers and logging the LP5523 pattern compiler
 * (drivers/leds/leds-lp5523-compiler.c) uses, for building that file
 * unchanged on the host.  Every <linux/...> header it includes is one
 * line including this one.
 */
#ifndef KSHIM_H
#define KSHIM_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef unsigned long long u64;
typedef long long s64;

#define U64_MAX		ULLONG_MAX
#define S64_MAX		LLONG_MAX
#define S64_MIN		LLONG_MIN
#define U32_MAX		UINT32_MAX
#define USEC_PER_MSEC	1000UL
#define BIT(n)		(1UL << (n))
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define min(a, b)	((a) < (b) ? (a) : (b))
#define max(a, b)	((a) > (b) ? (a) : (b))
#define min_t(t, a, b)	((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b)	((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define abs(x)		__extension__ ({ __typeof__(x) _x = (x);	\
				 _x < 0 ? -_x : _x; })
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define DIV_ROUND_UP_ULL(n, d)	DIV_ROUND_UP((unsigned long long)(n), (d))
#define rounddown(x, y)	((x) - ((x) % (y)))
#define roundup(x, y)	((((x) + (y) - 1) / (y)) * (y))

static inline u64 div_u64(u64 a, u32 b) { return a / b; }
static inline u64 div64_u64(u64 a, u64 b) { return a / b; }
static inline s64 div64_s64(s64 a, s64 b) { return a / b; }
static inline u64 div_u64_rem(u64 a, u32 b, u32 *rem)
{
	*rem = a % b;
	return a / b;
}
static inline u64 mul_u32_u32(u32 a, u32 b) { return (u64)a * b; }
static inline u64 mul_u64_u64_div_u64(u64 a, u64 b, u64 c)
{
	return (u64)((unsigned __int128)a * b / c);
}

struct device;
struct led_pattern {
	u32 delta_t;
	int brightness;
};

/* the compiler's log lines, for the test to read */
extern char kshim_log[512];
#define dev_err(dev, ...)	snprintf(kshim_log, sizeof(kshim_log), __VA_ARGS__)
#define dev_warn(dev, ...)	snprintf(kshim_log, sizeof(kshim_log), __VA_ARGS__)
#define dev_dbg(dev, ...)	snprintf(kshim_log, sizeof(kshim_log), __VA_ARGS__)
#define dev_err_ratelimited	dev_err
#define dev_warn_ratelimited	dev_warn
#define EXPORT_SYMBOL_GPL(s)
#define MODULE_DESCRIPTION(s)
#define MODULE_LICENSE(s)

#endif /* KSHIM_H */
