/*
 * test_diagnose.c - cmocka tests for grader/judge/diagnose.c: "f was correct
 * on every test up to length N and crashed on every test from length M on",
 * drawn from the sizes of the tests that ran, and never when passes and
 * crashes interleave in size.
 *
 * The problem is loaded from tests/unit/data/good/crash_sizes.yaml (rows of
 * lengths 2, 5, 10, 12 | 13, 16, 20; g(bool, n) with n = 3, 7, 30); the
 * verdicts are set by hand, so every expected sentence is read off the
 * lengths written there, not made by the code under test.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#undef malloc
#undef calloc
#undef realloc
#undef free

#include <stdlib.h>
#include <string.h>

#include "judge/diagnose.h"
#include "problem/problem.h"
#include "unit.h"

struct fixture {
	struct problem p;
	struct grade_result r;
};

/* The problem and a result whose tests all passed; the caller sets verdicts, then diagnoses. */
static void setup_result(struct fixture *fx)
{
	char *path = data_path("good/crash_sizes.yaml");
	struct strbuf err = STRBUF_INIT;
	if (problem_load(&fx->p, path, &err) != 0)
		fail_msg("%s did not load:\n%s", path, err.buf);
	strbuf_release(&err);
	free(path);
	assert_int_equal(fx->p.ncases, 10);
	memset(&fx->r, 0, sizeof(fx->r));
	fx->r.nproblems = 1;
	fx->r.problems = calloc(1, sizeof(*fx->r.problems));
	fx->r.problems[0].problem = &fx->p;
	fx->r.problems[0].build_verdict = V_CORRECT;
	fx->r.problems[0].ntests = fx->p.ncases;
	fx->r.problems[0].tests = calloc((size_t)fx->p.ncases, sizeof(struct test_result));
	for (int k = 0; k < fx->p.ncases; k++) {
		fx->r.problems[0].tests[k].tc = &fx->p.cases[k];
		fx->r.problems[0].tests[k].verdict = V_CORRECT;
	}
}

static void crash(struct fixture *fx, int k)
{
	struct test_result *t = &fx->r.problems[0].tests[k];
	t->verdict = V_RUN_ERROR;
	t->message = strdup("crashed with SIGSEGV");
}

static const char *message(const struct fixture *fx, int k)
{
	const char *m = fx->r.problems[0].tests[k].message;
	return m ? m : "";
}

static void release(struct fixture *fx)
{
	for (int k = 0; k < fx->p.ncases; k++)
		free(fx->r.problems[0].tests[k].message);
	free(fx->r.problems[0].tests);
	free(fx->r.problems);
	problem_release(&fx->p);
}

#define SENTENCE "f was correct on every test up to length 12 and crashed on every test from length 13 on"

/* rows up to 12 pass, from 13 on crash: said once per group, on its first crash */
static void test_crash_from_a_length(void **state)
{
	struct fixture fx;
	(void)state;
	setup_result(&fx);
	for (int k = 4; k < 7; k++)
		crash(&fx, k);
	diagnose_result(&fx.r, VIS_PUBLIC);
	assert_non_null(strstr(message(&fx, 4), "crashed with SIGSEGV. " SENTENCE ": "));
	assert_null(strstr(message(&fx, 5), SENTENCE));
	assert_null(strstr(message(&fx, 6), SENTENCE));
	assert_string_equal(message(&fx, 0), "");
	release(&fx);
}

/* a crash in the first group, at length 12, and a pass at 13: interleaved, nothing said */
static void test_interleaved_sizes(void **state)
{
	struct fixture fx;
	(void)state;
	setup_result(&fx);
	crash(&fx, 3); /* length 12 */
	crash(&fx, 5); /* length 16; 13 passes */
	crash(&fx, 6);
	diagnose_result(&fx.r, VIS_PUBLIC);
	assert_string_equal(message(&fx, 3), "crashed with SIGSEGV");
	assert_string_equal(message(&fx, 5), "crashed with SIGSEGV");
	release(&fx);
}

/* the tests not run (skipped) say nothing: up to 10, from 16 on */
static void test_skipped_tests_left_out(void **state)
{
	struct fixture fx;
	(void)state;
	setup_result(&fx);
	fx.r.problems[0].tests[3].verdict = V_SKIPPED; /* 12 */
	fx.r.problems[0].tests[4].verdict = V_SKIPPED; /* 13 */
	crash(&fx, 5);
	crash(&fx, 6);
	diagnose_result(&fx.r, VIS_PUBLIC);
	assert_non_null(strstr(message(&fx, 5), "f was correct on every test up to length 10 and crashed on every "
						"test from length 16 on"));
	release(&fx);
}

/* another failure of the call (a wrong answer at length 2), a crash before the tests, one pass only: nothing */
static void test_no_sentence(void **state)
{
	struct fixture fx;
	(void)state;
	setup_result(&fx);
	fx.r.problems[0].tests[0].verdict = V_WRONG_ANSWER;
	crash(&fx, 4);
	diagnose_result(&fx.r, VIS_PUBLIC);
	assert_string_equal(message(&fx, 4), "crashed with SIGSEGV");
	release(&fx);

	setup_result(&fx);
	crash(&fx, 4);
	fx.r.problems[0].tests[4].at_startup = true;
	diagnose_result(&fx.r, VIS_PUBLIC);
	assert_string_equal(message(&fx, 4), "crashed with SIGSEGV");
	release(&fx);

	setup_result(&fx);
	for (int k = 1; k < 7; k++) /* only length 2 passes */
		crash(&fx, k);
	diagnose_result(&fx.r, VIS_PUBLIC);
	assert_null(strstr(message(&fx, 1), "correct on every test"));
	release(&fx);
}

/* a crash without a message (none is guaranteed) gets the sentence as its message */
static void test_crash_without_message(void **state)
{
	struct fixture fx;
	(void)state;
	setup_result(&fx);
	for (int k = 4; k < 7; k++)
		fx.r.problems[0].tests[k].verdict = V_RUN_ERROR;
	diagnose_result(&fx.r, VIS_PUBLIC);
	assert_non_null(strstr(message(&fx, 4), SENTENCE));
	release(&fx);
}

/* g(bool first, int n): the size is the first integer's value, named */
static void test_crash_from_a_value(void **state)
{
	struct fixture fx;
	(void)state;
	setup_result(&fx);
	crash(&fx, 9); /* n = 30 */
	diagnose_result(&fx.r, VIS_PUBLIC);
	assert_non_null(strstr(message(&fx, 9), "g was correct on every test up to n = 7 and crashed on every test "
						"from n = 30 on"));
	/* f's tests all passed: nothing said of them */
	assert_string_equal(message(&fx, 4), "");
	release(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crash_from_a_length),
		cmocka_unit_test(test_interleaved_sizes),
		cmocka_unit_test(test_skipped_tests_left_out),
		cmocka_unit_test(test_no_sentence),
		cmocka_unit_test(test_crash_without_message),
		cmocka_unit_test(test_crash_from_a_value),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
