/*
 * test_result.c - cmocka tests for grader/judge/result.c: verdict spellings and
 * scoring (sum groups, all-or-nothing groups, problem and grade totals).
 *
 * The problems here are built by hand, so every expected score is
 * arithmetic on the points written below, not something the loader made.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* cmocka.h wraps malloc/free under UNIT_TESTING; the grader uses the real ones. */
#undef malloc
#undef calloc
#undef realloc
#undef free

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/result.h"

#define EPS 1e-9

/* cmocka 1.1.5 has only assert_float_equal (single precision) */
#define assert_double_equal(a, b, eps)                                                  \
	do {                                                                             \
		double a_ = (a), b_ = (b);                                               \
		if (!(fabs(a_ - b_) <= (eps)))                                           \
			fail_msg("%s is %.17g, expected %.17g", #a, a_, b_);             \
	} while (0)

/* ---- verdicts ---- */

static const struct {
	enum verdict v;
	const char *name;
} spellings[] = {
	{ V_CORRECT, "correct" },
	{ V_WRONG_ANSWER, "wrong-answer" },
	{ V_TIMELIMIT, "timelimit" },
	{ V_MEMORY_LIMIT, "memory-limit" },
	{ V_RUN_ERROR, "run-error" },
	{ V_OUTPUT_LIMIT, "output-limit" },
	{ V_NO_OUTPUT, "no-output" },
	{ V_COMPILER_ERROR, "compiler-error" },
	{ V_MISSING, "missing" },
	{ V_FORBIDDEN, "forbidden" },
	{ V_SKIPPED, "skipped" },
	{ V_JUDGE_ERROR, "judge-error" },
};

static void test_verdict_spellings(void **state)
{
	(void)state;
	/* the table above names every verdict exactly once */
	assert_int_equal(sizeof(spellings) / sizeof(spellings[0]), V_COUNT);
	for (size_t i = 0; i < sizeof(spellings) / sizeof(spellings[0]); i++) {
		assert_string_equal(verdict_name(spellings[i].v), spellings[i].name);
		assert_int_equal(verdict_from_name(spellings[i].name), spellings[i].v);
	}
}

static void test_verdict_round_trip(void **state)
{
	(void)state;
	for (int v = 0; v < V_COUNT; v++) {
		const char *name = verdict_name((enum verdict)v);
		const char *words = verdict_words((enum verdict)v);
		assert_non_null(name);
		assert_non_null(words);
		assert_true(strlen(words) > 0);
		assert_int_equal(verdict_from_name(name), v);
		/* names are distinct */
		for (int w = 0; w < v; w++)
			assert_string_not_equal(verdict_name((enum verdict)w), name);
	}
}

static void test_verdict_unknown_names(void **state)
{
	(void)state;
	assert_int_equal(verdict_from_name(""), -1);
	assert_int_equal(verdict_from_name("Correct"), -1);
	assert_int_equal(verdict_from_name("wrong answer"), -1);
	assert_int_equal(verdict_from_name("wrong_answer"), -1);
	assert_int_equal(verdict_from_name("time-limit"), -1);
	assert_int_equal(verdict_from_name("correct "), -1);
	assert_int_equal(verdict_from_name("run-error\n"), -1);
}

static void test_verdict_words(void **state)
{
	(void)state;
	assert_string_equal(verdict_words(V_CORRECT), "correct");
	assert_string_equal(verdict_words(V_WRONG_ANSWER), "wrong answer");
}

/* ---- scoring ---- */

/*
 * A hand-built problem: group "s" sums 0.25 per test over 4 tests, group
 * "a" is all-or-nothing for 3 points over 3 tests, group "b" sums 1 point
 * over 2 tests.  Max score: 4 * 0.25 + 3 + 2 * 1 = 6.
 */
struct fixture {
	struct group groups[3];
	struct test_case cases[9];
	struct problem p;
};

static void fixture_init(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	f->groups[0] = (struct group){ .name = "s", .scoring = SCORE_SUM, .points = 0.25, .first_case = 0, .ncases = 4 };
	f->groups[1] = (struct group){ .name = "a", .scoring = SCORE_ALL_OR_NOTHING, .points = 3, .first_case = 4, .ncases = 3 };
	f->groups[2] = (struct group){ .name = "b", .scoring = SCORE_SUM, .points = 1, .first_case = 7, .ncases = 2 };
	for (int k = 0; k < 9; k++)
		f->cases[k].group = k < 4 ? 0 : k < 7 ? 1 : 2;
	f->p.id = "px";
	f->p.groups = f->groups;
	f->p.ngroups = 3;
	f->p.cases = f->cases;
	f->p.ncases = 9;
	f->p.max_score = 6;
}

/* A problem_result with every test at `v`; the caller frees tests. */
static void result_init(struct problem_result *pr, const struct problem *p, enum verdict v)
{
	memset(pr, 0, sizeof(*pr));
	pr->problem = p;
	pr->ntests = p->ncases;
	pr->tests = calloc((size_t)p->ncases, sizeof(*pr->tests));
	assert_non_null(pr->tests);
	for (int k = 0; k < p->ncases; k++) {
		pr->tests[k].tc = &p->cases[k];
		pr->tests[k].verdict = v;
	}
}

static void test_all_correct(void **state)
{
	struct fixture f;
	struct problem_result pr;
	(void)state;
	fixture_init(&f);
	result_init(&pr, &f.p, V_CORRECT);
	problem_result_score(&pr);
	assert_double_equal(pr.score, 6.0, EPS);
	assert_double_equal(pr.max_score, 6.0, EPS);
	for (int k = 0; k < 4; k++) {
		assert_double_equal(pr.tests[k].score, 0.25, EPS);
		assert_double_equal(pr.tests[k].max_score, 0.25, EPS);
	}
	for (int k = 4; k < 7; k++) {
		assert_double_equal(pr.tests[k].score, 1.0, EPS);
		assert_double_equal(pr.tests[k].max_score, 1.0, EPS);
	}
	for (int k = 7; k < 9; k++) {
		assert_double_equal(pr.tests[k].score, 1.0, EPS);
		assert_double_equal(pr.tests[k].max_score, 1.0, EPS);
	}
	free(pr.tests);
}

static void test_nothing_correct(void **state)
{
	struct fixture f;
	struct problem_result pr;
	(void)state;
	fixture_init(&f);
	result_init(&pr, &f.p, V_WRONG_ANSWER);
	problem_result_score(&pr);
	assert_double_equal(pr.score, 0.0, EPS);
	assert_double_equal(pr.max_score, 6.0, EPS);
	for (int k = 0; k < 9; k++)
		assert_double_equal(pr.tests[k].score, 0.0, EPS);
	/* max shares are there even when nothing passed */
	assert_double_equal(pr.tests[0].max_score, 0.25, EPS);
	assert_double_equal(pr.tests[5].max_score, 1.0, EPS);
	free(pr.tests);
}

static void test_sum_counts_each_passed_test(void **state)
{
	struct fixture f;
	struct problem_result pr;
	(void)state;
	fixture_init(&f);
	result_init(&pr, &f.p, V_CORRECT);
	pr.tests[1].verdict = V_TIMELIMIT;
	pr.tests[3].verdict = V_RUN_ERROR;
	pr.tests[8].verdict = V_WRONG_ANSWER;
	problem_result_score(&pr);
	/* s: 2 of 4 at 0.25; a: all 3; b: 1 of 2 */
	assert_double_equal(pr.score, 0.5 + 3 + 1, EPS);
	assert_double_equal(pr.tests[0].score, 0.25, EPS);
	assert_double_equal(pr.tests[1].score, 0.0, EPS);
	assert_double_equal(pr.tests[2].score, 0.25, EPS);
	assert_double_equal(pr.tests[3].score, 0.0, EPS);
	assert_double_equal(pr.tests[7].score, 1.0, EPS);
	assert_double_equal(pr.tests[8].score, 0.0, EPS);
	free(pr.tests);
}

static void test_all_or_nothing(void **state)
{
	static const enum verdict spoilers[] = { V_WRONG_ANSWER, V_TIMELIMIT, V_MEMORY_LIMIT, V_RUN_ERROR,
						 V_OUTPUT_LIMIT, V_NO_OUTPUT, V_FORBIDDEN, V_SKIPPED,
						 V_JUDGE_ERROR };
	(void)state;
	/* one test of the group not correct, in any position, costs the whole group */
	for (size_t s = 0; s < sizeof(spoilers) / sizeof(spoilers[0]); s++)
		for (int bad = 4; bad < 7; bad++) {
			struct fixture f;
			struct problem_result pr;
			fixture_init(&f);
			result_init(&pr, &f.p, V_CORRECT);
			pr.tests[bad].verdict = spoilers[s];
			problem_result_score(&pr);
			assert_double_equal(pr.score, 1 + 0 + 2, EPS);
			for (int k = 4; k < 7; k++) {
				assert_double_equal(pr.tests[k].score, 0.0, EPS);
				assert_double_equal(pr.tests[k].max_score, 1.0, EPS);
			}
			/* the other groups are untouched */
			assert_double_equal(pr.tests[0].score, 0.25, EPS);
			assert_double_equal(pr.tests[8].score, 1.0, EPS);
			free(pr.tests);
		}
}

static void test_all_or_nothing_shares_add_up(void **state)
{
	/* 4 points over 3 tests: shares of 4/3 that add back up to 4 */
	struct group g = { .name = "g", .scoring = SCORE_ALL_OR_NOTHING, .points = 4, .first_case = 0, .ncases = 3 };
	struct test_case cases[3] = { { .group = 0 }, { .group = 0 }, { .group = 0 } };
	struct problem p = { .id = "q", .groups = &g, .ngroups = 1, .cases = cases, .ncases = 3, .max_score = 4 };
	struct problem_result pr;
	double sum_max = 0, sum = 0;
	(void)state;
	result_init(&pr, &p, V_CORRECT);
	problem_result_score(&pr);
	for (int k = 0; k < 3; k++) {
		assert_double_equal(pr.tests[k].max_score, 4.0 / 3.0, 1e-6);
		sum_max += pr.tests[k].max_score;
		sum += pr.tests[k].score;
	}
	assert_double_equal(sum_max, 4.0, 1e-6);
	assert_double_equal(sum, 4.0, 1e-6);
	assert_double_equal(pr.score, 4.0, EPS);
	free(pr.tests);
}

static void test_decimal_points_sum_exactly(void **state)
{
	/* 0.1 x 3 is 0.30000000000000004 in binary floating point */
	struct group g = { .name = "g", .scoring = SCORE_SUM, .points = 0.1, .first_case = 0, .ncases = 3 };
	struct test_case cases[3] = { { .group = 0 }, { .group = 0 }, { .group = 0 } };
	struct problem p = { .id = "q", .groups = &g, .ngroups = 1, .cases = cases, .ncases = 3, .max_score = 0.3 };
	struct problem_result pr;
	(void)state;
	result_init(&pr, &p, V_CORRECT);
	problem_result_score(&pr);
	assert_double_equal(pr.score, 0.3, 1e-9);
	assert_true(pr.score <= pr.max_score); /* never "0.30000000000000004 of 0.3" */
	free(pr.tests);
}

static void test_grade_totals_and_failures(void **state)
{
	struct fixture f1, f2;
	struct grade_result r;
	(void)state;
	fixture_init(&f1);
	fixture_init(&f2);
	f2.p.id = "py";
	memset(&r, 0, sizeof(r));
	r.nproblems = 2;
	r.problems = calloc(2, sizeof(*r.problems));
	assert_non_null(r.problems);
	result_init(&r.problems[0], &f1.p, V_CORRECT);
	result_init(&r.problems[1], &f2.p, V_CORRECT);
	/* problem 1: s loses one test (0.25) -> 5.75 */
	r.problems[0].tests[2].verdict = V_WRONG_ANSWER;
	/* problem 2: a loses all 3 points, b loses 1 -> 2 */
	r.problems[1].tests[6].verdict = V_SKIPPED;
	r.problems[1].tests[7].verdict = V_MISSING;
	r.problems[1].tests[5].message = strdup("why");
	r.submission = strdup("sub/");
	r.isolation = strdup("none");
	r.problems[0].source = strdup("p1.c");
	r.problems[1].build_message = strdup("msg");

	grade_result_score(&r);
	assert_double_equal(r.problems[0].score, 5.75, EPS);
	assert_double_equal(r.problems[1].score, 2.0, EPS);
	assert_double_equal(r.score, 7.75, EPS);
	assert_double_equal(r.max_score, 12.0, EPS);
	/* skipped and missing count as failures too */
	assert_int_equal(grade_result_failures(&r), 3);

	/* scoring again gives the same totals (no accumulation) */
	grade_result_score(&r);
	assert_double_equal(r.score, 7.75, EPS);
	assert_double_equal(r.max_score, 12.0, EPS);

	grade_result_release(&r); /* frees tests, strings, problems (ASan checks) */
	assert_int_equal(r.nproblems, 0);
	assert_null(r.problems);
	assert_null(r.submission);
}

static void test_failures_all_verdicts(void **state)
{
	struct fixture f;
	struct grade_result r;
	(void)state;
	fixture_init(&f);
	memset(&r, 0, sizeof(r));
	r.nproblems = 1;
	r.problems = calloc(1, sizeof(*r.problems));
	assert_non_null(r.problems);
	result_init(&r.problems[0], &f.p, V_CORRECT);
	assert_int_equal(grade_result_failures(&r), 0);
	/* every verdict but correct is a failure: put 8 different ones on 8 tests */
	for (int k = 0; k < 8; k++)
		r.problems[0].tests[k].verdict = (enum verdict)(V_WRONG_ANSWER + k);
	assert_int_equal(grade_result_failures(&r), 8);
	r.problems[0].tests[8].verdict = V_JUDGE_ERROR;
	assert_int_equal(grade_result_failures(&r), 9);
	grade_result_release(&r);
}

static void test_empty_grade(void **state)
{
	struct grade_result r;
	(void)state;
	memset(&r, 0, sizeof(r));
	r.score = 99;
	r.max_score = 99;
	grade_result_score(&r);
	assert_double_equal(r.score, 0.0, EPS);
	assert_double_equal(r.max_score, 0.0, EPS);
	assert_int_equal(grade_result_failures(&r), 0);
	grade_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdict_spellings),
		cmocka_unit_test(test_verdict_round_trip),
		cmocka_unit_test(test_verdict_unknown_names),
		cmocka_unit_test(test_verdict_words),
		cmocka_unit_test(test_all_correct),
		cmocka_unit_test(test_nothing_correct),
		cmocka_unit_test(test_sum_counts_each_passed_test),
		cmocka_unit_test(test_all_or_nothing),
		cmocka_unit_test(test_all_or_nothing_shares_add_up),
		cmocka_unit_test(test_decimal_points_sum_exactly),
		cmocka_unit_test(test_grade_totals_and_failures),
		cmocka_unit_test(test_failures_all_verdicts),
		cmocka_unit_test(test_empty_grade),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
