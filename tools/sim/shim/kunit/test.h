/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of KUnit's interface the kunit/ cases use, for running the same cases
 * on the host (tools/sim/kunit-host.c).  A failed EXPECT marks the case
 * failed and goes on; a failed ASSERT ends the case.
 */
#ifndef CS_SIM_KUNIT_TEST_H
#define CS_SIM_KUNIT_TEST_H

#include <setjmp.h>

#include "../sim-shim.h"

struct kunit {
	const char *name;
	int failed;
	jmp_buf abort;
	void *allocs[4096];
	unsigned int nr_allocs;
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
};

struct kunit_suite {
	const char *name;
	struct kunit_case *test_cases;
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
};

#define KUNIT_CASE(f)	{ .run_case = f, .name = #f }

void kunit_fail(struct kunit *test, const char *file, int line,
		const char *what, unsigned long long a, unsigned long long b,
		bool fatal);
void *kunit_kzalloc(struct kunit *test, size_t n, gfp_t gfp);
void kunit_info(struct kunit *test, const char *fmt, ...);

#define cs_ku_v(x)	((unsigned long long)(uintptr_t)(x))
#define CS_KU_CMP(test, a, op, b, fatal) do {				\
	typeof(a) __a = (a);						\
	typeof(b) __b = (b);						\
	if (!(__a op __b))						\
		kunit_fail(test, __FILE__, __LINE__, #a " " #op " " #b,	\
			   cs_ku_v(__a), cs_ku_v(__b), fatal);		\
} while (0)

#define KUNIT_EXPECT_EQ(t, a, b)	CS_KU_CMP(t, a, ==, b, false)
#define KUNIT_EXPECT_NE(t, a, b)	CS_KU_CMP(t, a, !=, b, false)
#define KUNIT_EXPECT_LT(t, a, b)	CS_KU_CMP(t, a, <, b, false)
#define KUNIT_EXPECT_LE(t, a, b)	CS_KU_CMP(t, a, <=, b, false)
#define KUNIT_EXPECT_GT(t, a, b)	CS_KU_CMP(t, a, >, b, false)
#define KUNIT_EXPECT_GE(t, a, b)	CS_KU_CMP(t, a, >=, b, false)
#define KUNIT_EXPECT_PTR_EQ(t, a, b)	CS_KU_CMP(t, a, ==, b, false)
#define KUNIT_EXPECT_PTR_NE(t, a, b)	CS_KU_CMP(t, a, !=, b, false)
#define KUNIT_EXPECT_TRUE(t, c)		CS_KU_CMP(t, !!(c), ==, 1, false)
#define KUNIT_EXPECT_FALSE(t, c)	CS_KU_CMP(t, !!(c), ==, 0, false)
#define KUNIT_EXPECT_NULL(t, p)		CS_KU_CMP(t, p, ==, NULL, false)
#define KUNIT_EXPECT_NOT_NULL(t, p)	CS_KU_CMP(t, p, !=, NULL, false)
#define KUNIT_ASSERT_EQ(t, a, b)	CS_KU_CMP(t, a, ==, b, true)
#define KUNIT_ASSERT_NE(t, a, b)	CS_KU_CMP(t, a, !=, b, true)
#define KUNIT_ASSERT_LT(t, a, b)	CS_KU_CMP(t, a, <, b, true)
#define KUNIT_ASSERT_LE(t, a, b)	CS_KU_CMP(t, a, <=, b, true)
#define KUNIT_ASSERT_GT(t, a, b)	CS_KU_CMP(t, a, >, b, true)
#define KUNIT_ASSERT_GE(t, a, b)	CS_KU_CMP(t, a, >=, b, true)
#define KUNIT_ASSERT_PTR_EQ(t, a, b)	CS_KU_CMP(t, a, ==, b, true)
#define KUNIT_ASSERT_PTR_NE(t, a, b)	CS_KU_CMP(t, a, !=, b, true)
#define KUNIT_ASSERT_TRUE(t, c)		CS_KU_CMP(t, !!(c), ==, 1, true)
#define KUNIT_ASSERT_FALSE(t, c)	CS_KU_CMP(t, !!(c), ==, 0, true)
#define KUNIT_ASSERT_NOT_NULL(t, p)	CS_KU_CMP(t, p, !=, NULL, true)
#define KUNIT_EXPECT_EQ_MSG(t, a, b, ...)	KUNIT_EXPECT_EQ(t, a, b)
#define KUNIT_EXPECT_LE_MSG(t, a, b, ...)	KUNIT_EXPECT_LE(t, a, b)
#define KUNIT_EXPECT_GE_MSG(t, a, b, ...)	KUNIT_EXPECT_GE(t, a, b)
#define KUNIT_EXPECT_LT_MSG(t, a, b, ...)	KUNIT_EXPECT_LT(t, a, b)
#define KUNIT_EXPECT_GT_MSG(t, a, b, ...)	KUNIT_EXPECT_GT(t, a, b)
#define KUNIT_EXPECT_TRUE_MSG(t, c, ...)	KUNIT_EXPECT_TRUE(t, c)
#define KUNIT_EXPECT_FALSE_MSG(t, c, ...)	KUNIT_EXPECT_FALSE(t, c)

#define kunit_test_suites(...)						\
	struct kunit_suite *cs_kunit_host_suites[] = { __VA_ARGS__, NULL }

#endif /* CS_SIM_KUNIT_TEST_H */
