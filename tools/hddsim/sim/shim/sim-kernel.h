/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel interfaces model.c and profile.c use, for building them
 * in userspace (sim/).  Every linux/ header here includes only this file.
 */
#ifndef HDDSIM_SIM_KERNEL_H
#define HDDSIM_SIM_KERNEL_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;

#define NSEC_PER_USEC	1000ULL
#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_SEC	1000000000ULL

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define ARRAY_SIZE(arr)	(sizeof(arr) / sizeof((arr)[0]))
#define min(a, b) ({ typeof(a) _a = (a); typeof(b) _b = (b); _a < _b ? _a : _b; })
#define max(a, b) ({ typeof(a) _a = (a); typeof(b) _b = (b); _a > _b ? _a : _b; })
#define min_t(type, a, b) ({ type _a = (a); type _b = (b); _a < _b ? _a : _b; })
#define max_t(type, a, b) ({ type _a = (a); type _b = (b); _a > _b ? _a : _b; })

static inline u64 div_u64(u64 a, u32 b)
{
	return a / b;
}

static inline u64 div64_u64(u64 a, u64 b)
{
	return a / b;
}

static inline u64 div_u64_rem(u64 a, u32 b, u32 *rem)
{
	*rem = a % b;
	return a / b;
}

static inline u32 int_sqrt64(u64 x)
{
	u64 r = 0, b = 1ULL << 62;

	while (b > x)
		b >>= 2;
	while (b) {
		if (x >= r + b) {
			x -= r + b;
			r = (r >> 1) + b;
		} else {
			r >>= 1;
		}
		b >>= 2;
	}
	return (u32)r;
}

static inline int kstrtou32(const char *s, unsigned int base, u32 *res)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, base);
	if (errno || !*s || *end || v > UINT32_MAX || *s == '-')
		return -EINVAL;
	*res = (u32)v;
	return 0;
}

static inline int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!size)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n < 0 ? 0 : (size_t)n >= size ? (int)size - 1 : n;
}

#endif
