/*
 * test_growth.c - cmocka tests for the fit and the words of grader/judge/growth.c.
 * The points are made up here from known laws (t = c N^k, t = c 2^N), with a
 * fixed cost and a deterministic +-8% wobble standing for a noisy machine;
 * the expected exponents, classes and seconds are worked out from the laws.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#undef malloc
#undef calloc
#undef realloc
#undef free

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/growth.h"
#include "problem/problem.h"

static const double wobble[] = { 1.08, 0.93, 1.05, 0.95, 1.0, 1.07, 0.92, 1.03 };

/* Points at sizes from, 2 from, ... (n of them): law(N) ms plus a fixed cost, wobbled. */
static struct growth_result *made_up(long long from, int n, long long step, double (*law)(double), double fixed_ms)
{
	struct growth_result *g = calloc(1, sizeof(*g));
	g->call = strdup("f");
	g->expected = 2;
	for (int i = 0; i < n; i++) {
		long long size = step ? from + i * step : from << i;
		struct growth_point *pt = &g->points[g->npoints++];
		pt->size = size;
		pt->ms = law((double)size) * wobble[i % 8] + fixed_ms;
		pt->runs = 5;
		if (pt->ms > GROWTH_RUN_CAP_MS) {
			pt->ms = GROWTH_RUN_CAP_MS;
			pt->capped = true;
		}
	}
	return g;
}

static double quadratic(double n) { return 4e-6 * n * n; }   /* 4096: 67 ms */
static double cubic(double n) { return 5e-8 * n * n * n; }    /* 1024: 54 ms */
static double exponential(double n) { return 1e-6 * pow(2, n); } /* 24: 17 ms */
static double linear(double n) { return 1e-6 * n; }

static void test_quadratic(void **state)
{
	/* 16 ... 65536: the fixed 0.2 ms dominates the small sizes */
	struct growth_result *g = made_up(16, 13, 0, quadratic, 0.2);
	(void)state;
	g->target = 4000;
	growth_fit(g);
	assert_true(g->known);
	assert_false(g->exponential);
	assert_true(g->decided);
	assert_int_equal(g->order, 2);
	assert_true(fabs(g->exponent - 2) < 0.1);
	/* 2048 (16.8 ms) ... 16384 (1.07 s); 1024 is 4.2 ms, 32768 (4.3 s) and 65536 over the cap */
	assert_int_equal(g->nused, 4);
	/* 4e-6 * 4000^2 ms = 64 ms, give or take the wobble */
	assert_true(g->extrapolated_s > 0.05 && g->extrapolated_s < 0.08);
	/* the law says 64 ms; the wobbled fit, between 60 and 69 */
	assert_non_null(strstr(g->sentence, "f grows like N^2.0 (expected N^2): an O(N^2) algorithm, as expected; "
					    "at N = 4000 one call would take about 6"));
	assert_string_equal(g->sentence + strlen(g->sentence) - 3, " ms");
	growth_result_free(g);
}

static void test_cubic(void **state)
{
	/* 512: 6.7 ms, 1024: 54 ms, 2048: 430 ms, 4096: over the cap */
	struct growth_result *g = made_up(16, 9, 0, cubic, 0.2);
	(void)state;
	g->target = 3537;
	g->target_group = strdup("long-rows");
	growth_fit(g);
	assert_true(g->known);
	assert_int_equal(g->nused, 3);
	assert_true(g->decided);
	assert_int_equal(g->order, 3);
	assert_true(fabs(g->exponent - 3) < 0.2);
	/* 5e-8 * 3537^3 ms = 2.2 s */
	assert_true(g->extrapolated_s > 1.8 && g->extrapolated_s < 2.7);
	assert_non_null(strstr(g->sentence, "(expected N^2): an O(N^3) algorithm; at N = 3537 (group long-rows) one call "
					    "would take about 2."));
	assert_null(strstr(g->sentence, "as expected"));
	growth_result_free(g);
}

static void test_exponential(void **state)
{
	/* 18, 20 ... 32: 0.26 ms ... 4.3 s (capped from 32) */
	struct growth_result *g = made_up(18, 8, 2, exponential, 0);
	(void)state;
	g->target = 3000;
	growth_fit(g);
	assert_true(g->known);
	assert_true(g->exponential);
	assert_true(g->exponent > GROWTH_EXP_CUTOFF);
	assert_true(fabs(g->base - 2) < 0.1);
	assert_true(g->extrapolated_s >= 1e9);
	assert_non_null(strstr(g->sentence, "f grows exponentially, about 2.0"));
	assert_non_null(strstr(g->sentence, "an exponential algorithm; at N = 3000 one call would take more than a year"));
	growth_result_free(g);
}

static void test_unknown(void **state)
{
	/* linear and tiny: no size reaches 5 ms */
	struct growth_result *g = made_up(16, 10, 0, linear, 0.1);
	(void)state;
	growth_fit(g);
	assert_false(g->known);
	assert_int_equal(g->nused, 0);
	assert_true(g->extrapolated_s < 0);
	assert_false(g->decided);
	assert_string_equal(g->sentence, "f: the grader cannot say how its time grows: every call up to N = 8192 took "
					 "under 5 ms, too quick to time");
	growth_result_free(g);
}

/* Points at the given sizes and times, each with the given scatter between its two least runs. */
static struct growth_result *points_of(const long long *sizes, const double *ms, int n, double scatter)
{
	struct growth_result *g = calloc(1, sizeof(*g));
	g->call = strdup("f");
	g->expected = 2;
	for (int i = 0; i < n; i++) {
		struct growth_point *pt = &g->points[g->npoints++];
		pt->size = sizes[i];
		pt->ms = ms[i];
		pt->second = ms[i] * exp(scatter);
		pt->scatter = scatter;
		pt->runs = 5;
	}
	return g;
}

/*
 * Python's cubic p4_dp (tests/mistakes/py-p4dp-cubic): sum(L[i:j]) runs in C under an O(N^2) loop in
 * Python, and the loop's cost drags the exponent down at the sizes under the cap.  Times measured by
 * the grader on 2026-11-26 on this 2-core machine, busy with other work (load 5 to 9): the least of 5
 * runs, and the median of 5 (as before).  Fitted exponents 2.7 both - and "N^2.4" in the run issue 30
 * quotes, which rounding called O(N^2).
 */
static void test_cubic_dragged(void **state)
{
	static const long long sizes[] = { 24, 48, 96, 192, 384, 768 };
	static const double least[] = { 1.003, 1.147, 2.922, 12.444, 76.18, 535.51 };
	static const double median[] = { 1.116, 1.698, 4.505, 19.241, 107.975, 767.633 };
	const double *runs[] = { least, median };
	(void)state;
	for (int r = 0; r < 2; r++) {
		struct growth_result *g = points_of(sizes, runs[r], 6, 0.02);
		growth_fit(g);
		assert_true(g->exponent > 2.5 && g->exponent < 2.85);
		assert_true(g->decided);
		assert_int_equal(g->order, 3);
		assert_non_null(strstr(g->sentence, "(expected N^2): an O(N^3) algorithm"));
		growth_result_free(g);
	}
}

static void test_between(void **state)
{
	/* three sizes, the time ~N^2.45, on a machine whose runs scatter by 30%: N^2 fits within the scatter and
	 * so does N^3 (a N^3 + b N^2): the sentence says it cannot tell */
	static const long long sizes[] = { 1000, 1414, 2000 };
	static const double ms[] = { 100, 233, 546 };
	struct growth_result *g = points_of(sizes, ms, 3, 0.3);
	(void)state;
	g->target = 4000;
	growth_fit(g);
	assert_true(g->known);
	assert_false(g->decided);
	assert_false(g->uneven);
	assert_int_equal(g->lo, 2);
	assert_int_equal(g->hi, 3);
	assert_non_null(strstr(g->sentence, "f grows like N^2.4 (expected N^2): between O(N^2) and O(N^3), the "
					    "measurements cannot tell which; at N = 4000 one call would take about "));
	assert_null(strstr(g->sentence, "as expected"));
	/* the same points from a quiet machine (scatter 2%): N^2 is off by more than the tolerance of 15% now,
	 * and N^3 fits them, but N^2 misses by less than the tolerance plus GROWTH_MARGIN: over a factor 2 of
	 * N the two are not told apart (a slowed largest size looks the same) - still between */
	for (int i = 0; i < g->npoints; i++)
		g->points[i].scatter = 0.02;
	growth_fit(g);
	assert_false(g->decided);
	assert_false(g->uneven);
	assert_int_equal(g->lo, 2);
	assert_int_equal(g->hi, 3);
	growth_result_free(g);

	/* the same law over a factor 16 of N (9 sizes x sqrt 2 apart): N^2 misses by far more, N^3 is named -
	 * the smallest class the measurements allow */
	{
		long long wide[9];
		double wide_ms[9];
		for (int i = 0; i < 9; i++) {
			wide[i] = llround(1000 * pow(2, i / 2.0));
			wide_ms[i] = 100 * pow((double)wide[i] / 1000, 2.45);
		}
		g = points_of(wide, wide_ms, 9, 0.02);
		growth_fit(g);
		assert_true(g->decided);
		assert_int_equal(g->order, 3);
		growth_result_free(g);
	}
}

/*
 * tests/games' Nim scan, O(n^2) on losing rows, timed by the grader on 2026-11-27 with the machine busy
 * (other work at load 4): least and second least runs at n = 1953 ... 31248.  The largest size's runs all
 * came out some 40% slow (484 and 598 ms; 303 to 377 ms in the runs before and after).  The grader took
 * the 1.6 ms at 1953 off every time as a fixed cost (it is mostly the scan's own work), which made 3906's
 * time grow like N^2.5 to the next size; the exponent was 2.3, a N^3 + b N^2 model met every point within
 * its tolerance, and the grader said "O(N^3)" (as a CI rehearsal at load 5 to 6 did).  Now no fixed cost
 * is taken off (the smallest sizes' times grow), and neither class is named: between, not a wrong class.
 * The same times with the largest at what a quiet moment gives: O(N^2).
 */
static void test_slowed_top(void **state)
{
	static const long long sizes[] = { 1953, 3906, 7812, 15624, 31248 };
	static const double least[] = { 1.6, 5.3, 22.3, 84.7, 483.9 };
	static const double second[] = { 1.6, 5.9, 22.4, 86.3, 597.9 };
	struct growth_result *g = points_of(sizes, least, 5, 0);
	(void)state;
	for (int i = 0; i < 5; i++) {
		g->points[i].second = second[i];
		g->points[i].scatter = log(second[i] / least[i]);
	}
	growth_fit(g);
	assert_true(g->known);
	assert_true(g->exponent > 2.0 && g->exponent < 2.4);
	assert_false(g->decided);
	assert_int_equal(g->lo, 2);
	assert_int_equal(g->hi, 3);
	assert_non_null(strstr(g->sentence, "(expected N^2): between O(N^2) and O(N^3)"));
	assert_true(g->fixed_ms == 0);
	assert_null(strstr(g->sentence, "an O(N^3) algorithm"));

	g->points[4].ms = 340;
	g->points[4].second = 352;
	g->points[4].scatter = log(352.0 / 340.0);
	growth_fit(g);
	assert_true(g->decided);
	assert_int_equal(g->order, 2);
	growth_result_free(g);
}

static void test_uneven(void **state)
{
	/* N^2, but the 4096 point 50% too slow (a burst of load on all its runs): no class within 16% */
	static const long long sizes[] = { 1024, 2048, 4096, 8192 };
	static const double ms[] = { 10, 40, 240, 640 };
	struct growth_result *g = points_of(sizes, ms, 4, 0.01);
	(void)state;
	growth_fit(g);
	assert_true(g->known);
	assert_false(g->decided);
	assert_true(g->uneven);
	assert_int_equal(g->lo, 2);
	assert_int_equal(g->hi, 3);
	assert_string_equal(g->sentence, "f grows like N^2.1 (expected N^2): between O(N^2) and O(N^3), its times (from "
					 "10 ms at N = 1024 to 640 ms at N = 8192) were too uneven to tell which (the "
					 "machine may have been busy)");
	growth_result_free(g);
}

/*
 * The CI run of 2026-11-26 (make test's other lane busy all along): the C reference's O(N^2) p4_dp, least
 * of 9 runs, 18.3, 89.5 and 272 ms at N = 6144, 12288, 24576 - the middle one some 25% over the line
 * through the others.  Three points: no class fits, and too few to set one aside.  With the sizes that
 * widen() adds (halfway, x sqrt 2: 8689 and 17378, here on the line t = 4.85e-7 N^2) one slowed size among
 * five is set aside and N^2 named.  The same point 25% BELOW the line is not noise (noise only adds
 * time): nothing is set aside.
 */
static void test_set_aside(void **state)
{
	static const long long ci_sizes[] = { 1536, 3072, 6144, 12288, 24576 };
	static const double ci_ms[] = { 1.867, 4.547, 18.289, 89.522, 272.076 };
	static const long long sizes[] = { 6144, 8689, 12288, 17378, 24576 };
	double ms[5];
	struct growth_result *g = points_of(ci_sizes, ci_ms, 5, 0.02);
	(void)state;
	growth_fit(g);
	assert_true(g->known);
	assert_true(g->uneven);
	assert_int_equal(g->set_aside, 0);
	growth_result_free(g);

	for (int i = 0; i < 5; i++)
		ms[i] = 4.85e-7 * (double)sizes[i] * (double)sizes[i] * (sizes[i] == 12288 ? 1.25 : 1.0);
	g = points_of(sizes, ms, 5, 0.02);
	growth_fit(g);
	assert_true(g->decided);
	assert_int_equal(g->order, 2);
	assert_int_equal(g->set_aside, 12288);
	assert_true(g->exponent > 1.9 && g->exponent < 2.1);
	assert_non_null(strstr(g->sentence, "an O(N^2) algorithm, as expected; the time at N = 12288 was left out, "
					     "slower than the other sizes allow (the machine may have been busy)"));
	growth_result_free(g);

	ms[2] = 4.85e-7 * 12288.0 * 12288.0 * 0.75;
	g = points_of(sizes, ms, 5, 0.02);
	growth_fit(g);
	assert_false(g->decided);
	assert_int_equal(g->set_aside, 0);
	growth_result_free(g);

	/* with four points (one fewer than GROWTH_ASIDE_POINTS) the slowed one stays in: uneven */
	ms[2] = 4.85e-7 * 12288.0 * 12288.0 * 1.25;
	g = points_of(sizes, ms, 4, 0.02);
	growth_fit(g);
	assert_false(g->decided);
	assert_int_equal(g->set_aside, 0);
	growth_result_free(g);
}

/*
 * The points of a CI rehearsal (2026-11-27, tests/growth's bump: 12288 slowed on purpose): the four
 * usable sizes cannot set it aside (uneven, "between"); with the size halfway below 6144 that widen()
 * now measures - its time here is 6144's over 2, the O(N^2) law - there are five, and 12288 is set aside.
 */
static void test_set_aside_r11(void **state)
{
	static const long long sizes[] = { 4345, 6144, 8689, 12288, 17378 };
	static const double ms[] = { 17.195 / 2, 17.195, 32.487, 104.654, 134.709 };
	struct growth_result *g = points_of(sizes + 1, ms + 1, 4, 0.02);
	(void)state;
	growth_fit(g);
	assert_false(g->decided);
	assert_int_equal(g->set_aside, 0);
	growth_result_free(g);

	g = points_of(sizes, ms, 5, 0.02);
	growth_fit(g);
	assert_true(g->decided);
	assert_int_equal(g->order, 2);
	assert_int_equal(g->set_aside, 12288);
	growth_result_free(g);
}

/*
 * Times that bend from N^2 to N^3 half-way (a table that leaves the cache): without the smallest size N^3
 * would fit the rest, but the ends are never set aside (a lower-order term shows there): still undecided.
 */
static void test_set_aside_ends(void **state)
{
	static const long long sizes[] = { 1024, 1448, 2048, 2896, 4096 };
	static const double ms[] = { 10, 20, 40, 113, 320 };
	struct growth_result *g = points_of(sizes, ms, 5, 0.02);
	(void)state;
	growth_fit(g);
	assert_false(g->decided);
	assert_int_equal(g->set_aside, 0);
	assert_null(strstr(g->sentence, "left out"));
	growth_result_free(g);
}

static void test_flat(void **state)
{
	/* an early exit: 6 to 6.5 ms from N = 1000 to 8000 - no class, however usable the times */
	static const long long sizes[] = { 1000, 2000, 4000, 8000 };
	static const double ms[] = { 6, 6.3, 6.1, 6.5 };
	struct growth_result *g = points_of(sizes, ms, 4, 0.01);
	(void)state;
	g->target = 100000;
	growth_fit(g);
	assert_false(g->known);
	assert_true(g->flat);
	assert_false(g->decided);
	assert_true(g->extrapolated_s < 0);
	assert_string_equal(g->sentence, "f: the grader cannot say how its time grows: it hardly changed with N (from "
					 "6 ms at N = 1000 to 6 ms at N = 8000); the inputs may let it finish early");
	growth_result_free(g);
}

static void test_too_few(void **state)
{
	/* two usable sizes (issue 33): any two-term model meets two points, so no class is named, however clean
	 * the times - the sentence says the grader cannot say, and why the sizes stopped */
	static const long long sizes[] = { 1000, 2000, 4000, 8000 };
	static const double ms[] = { 0.5, 1.2, 40, 160 };
	struct growth_result *g = points_of(sizes, ms, 4, 0.01);
	(void)state;
	g->target = 100000;
	g->stopped = strdup("at N = 16000 a call took over 2000 ms");
	growth_fit(g);
	assert_int_equal(g->nused, 2);
	assert_false(g->known);
	assert_false(g->decided);
	assert_false(g->exponential);
	assert_true(g->extrapolated_s < 0);
	assert_string_equal(g->sentence, "f: the grader cannot say how its time grows: only 2 sizes took from 5 ms to "
					 "the 2000 ms cap, and 3 are needed (at N = 16000 a call took over 2000 ms)");
	/* one usable size: the same, in the singular */
	g->points[2].ms = 4;
	growth_fit(g);
	assert_int_equal(g->nused, 1);
	assert_non_null(strstr(g->sentence, "only 1 size took from 5 ms to the 2000 ms cap, and 3 are needed"));
	growth_result_free(g);
}

static void test_names(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	(void)state;
	growth_class_name(&sb, 1, false);
	growth_class_name(&sb, 3, false);
	growth_class_name(&sb, 3, true);
	growth_expected_name(&sb, GROWTH_EXPONENTIAL);
	assert_string_equal(sb.buf, "NN^3exponential2^N");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quadratic),
		cmocka_unit_test(test_cubic),
		cmocka_unit_test(test_exponential),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_cubic_dragged),
		cmocka_unit_test(test_between),
		cmocka_unit_test(test_slowed_top),
		cmocka_unit_test(test_uneven),
		cmocka_unit_test(test_set_aside),
		cmocka_unit_test(test_set_aside_r11),
		cmocka_unit_test(test_set_aside_ends),
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_too_few),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
