// SPDX-License-Identifier: GPL-2.0
/*
 * kunit-host: the KUnit suites of kunit/ctxsched_kunit.c, built and run on
 * the host against tools/sim/shim, for quick work on the core without a
 * VM.  The suites in the debug kernel (tests/vm/kunit.sh) remain the
 * authority; this runs the same cases.
 *
 *   kunit-host [SUITE|CASE...]   run all, or the named suites and cases
 *
 * Prints one line per case and exits 1 if any failed.
 */
#include "../../kunit/ctxsched_kunit.c"

static struct kunit *cs_cur;

void kunit_fail(struct kunit *test, const char *file, int line,
		const char *what, unsigned long long a, unsigned long long b,
		bool fatal)
{
	test->failed = 1;
	printf("    # %s:%d: expected %s (%llu vs %llu)\n", file, line, what,
	       a, b);
	if (fatal)
		longjmp(test->abort, 1);
}

void *kunit_kzalloc(struct kunit *test, size_t n, gfp_t gfp)
{
	void *p = calloc(1, n);

	if (p && test->nr_allocs < ARRAY_SIZE(test->allocs))
		test->allocs[test->nr_allocs++] = p;
	return p;
}

void kunit_info(struct kunit *test, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

/* Run one case; setjmp() here so that main()'s locals are not clobbered. */
static int cs_run_case(struct kunit *test, struct kunit_case *c)
{
	if (!setjmp(test->abort))
		c->run_case(test);
	return test->failed;
}

static bool cs_wanted(int argc, char **argv, const char *suite,
		      const char *name)
{
	int i;

	if (argc < 2)
		return true;
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], suite) || !strcmp(argv[i], name))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	struct kunit_suite **s;
	struct kunit_case *c;
	unsigned int pass = 0, fail = 0, i;
	struct kunit *test;

	for (s = cs_kunit_host_suites; *s; s++) {
		for (c = (*s)->test_cases; c->run_case; c++) {
			if (!cs_wanted(argc, argv, (*s)->name, c->name))
				continue;
			test = calloc(1, sizeof(*test));
			test->name = c->name;
			cs_cur = test;
			cs_run_case(test, c);
			printf("%s - %s.%s\n", test->failed ? "not ok" : "ok",
			       (*s)->name, c->name);
			test->failed ? fail++ : pass++;
			for (i = 0; i < test->nr_allocs; i++)
				free(test->allocs[i]);
			free(test);
		}
	}
	printf("%u passed, %u failed, %lu warnings\n", pass, fail,
	       cs_sim_warnings);
	return fail || cs_sim_warnings ? 1 : 0;
}
