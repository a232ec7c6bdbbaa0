/*
 * test_problem.c - cmocka tests for grader/problem/problem.c, the YAML loader.
 *
 * Fixtures live in tests/unit/data (found relative to this source file):
 *   good/   valid problems; the expected counts, values and limits below
 *           are worked out by hand from the YAML text
 *   bad/    one error each; the table in test_bad_files gives the line and
 *           column of the offending node, counted by hand in the file
 *   sets/   directories for problem_set_load
 */
#define _GNU_SOURCE /* asprintf */
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

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/engine.h"
#include "problem/problem.h"
#include "problem/casegen.h"
#include "judge/reference.h"
#include "unit.h"

#define assert_double_equal(a, b)                                                      \
	do {                                                                            \
		double a_ = (a), b_ = (b);                                              \
		if (!(fabs(a_ - b_) <= 1e-9))                                           \
			fail_msg("%s is %.17g, expected %.17g", #a, a_, b_);            \
	} while (0)

/* Load a good fixture; fails the test with the loader's messages otherwise. */
static void load_good(struct problem *p, const char *rel)
{
	char *path = data_path(rel);
	struct strbuf err = STRBUF_INIT;
	if (problem_load(p, path, &err) != 0)
		fail_msg("%s did not load:\n%s", path, err.buf);
	assert_string_equal(err.buf, "");
	strbuf_release(&err);
	free(path);
}

static const struct group *group_named(const struct problem *p, const char *name)
{
	for (int g = 0; g < p->ngroups; g++)
		if (!strcmp(p->groups[g].name, name))
			return &p->groups[g];
	fail_msg("no group '%s'", name);
	return NULL;
}

static void assert_call(const struct problem *p, const struct test_case *tc, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	test_case_format_call(&sb, p, tc);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

/* ---- a valid file with every feature (good/full.yaml) ---- */

static void test_full_structure(void **state)
{
	struct problem p;
	(void)state;
	load_good(&p, "good/full.yaml");
	assert_string_equal(p.id, "full");
	assert_string_equal(p.title, "Every feature");
	assert_string_equal(p.source, "full.c");
	assert_non_null(strstr(p.path, "good/full.yaml"));
	assert_int_equal(strlen(p.digest), 64);
	assert_null(p.equivalent_to);

	assert_int_equal(p.nfuncs, 3);
	assert_string_equal(p.funcs[0].name, "win");
	assert_string_equal(p.funcs[1].name, "sum");
	assert_string_equal(p.funcs[2].name, "pair");
	assert_int_equal(p.funcs[1].ninputs, 1);
	assert_int_equal(p.funcs[2].ninputs, 2);

	assert_int_equal(p.ngroups, 4);
	assert_string_equal(p.groups[0].name, "explicit");
	assert_string_equal(p.groups[1].name, "ranges");
	assert_string_equal(p.groups[2].name, "random");
	assert_string_equal(p.groups[3].name, "factor-override");
	/* explicit: 6; ranges: 3 x 2 + 3; random: 20 + 20 + 20 + 30; factor-override: 1 + 200 */
	assert_int_equal(p.groups[0].ncases, 6);
	assert_int_equal(p.groups[1].ncases, 9);
	assert_int_equal(p.groups[2].ncases, 90);
	assert_int_equal(p.groups[3].ncases, 201);
	assert_int_equal(p.ncases, 306);
	assert_int_equal(p.groups[0].first_case, 0);
	assert_int_equal(p.groups[1].first_case, 6);
	assert_int_equal(p.groups[2].first_case, 15);
	assert_int_equal(p.groups[3].first_case, 105);
	for (int g = 0; g < p.ngroups; g++)
		for (int k = p.groups[g].first_case; k < p.groups[g].first_case + p.groups[g].ncases; k++)
			assert_int_equal(p.cases[k].group, g);

	/* defaults and explicit settings */
	assert_int_equal(p.groups[0].visibility, VIS_PUBLIC);
	assert_int_equal(p.groups[0].scoring, SCORE_SUM);
	assert_string_equal(p.groups[0].hint, "Explicit cases.");
	assert_int_equal(p.groups[1].visibility, VIS_PUBLIC);
	assert_int_equal(p.groups[1].scoring, SCORE_ALL_OR_NOTHING);
	assert_null(p.groups[1].hint);
	assert_int_equal(p.groups[2].visibility, VIS_HIDDEN);
	assert_int_equal(p.groups[2].scoring, SCORE_SUM);
	assert_double_equal(p.groups[0].points, 0.5);
	assert_double_equal(p.groups[1].points, 3);
	assert_double_equal(p.groups[2].points, 0.25);

	/* sum: points per test; all-or-nothing: points once */
	assert_double_equal(p.max_score, 0.5 * 6 + 3 + 0.25 * 90 + 1 * 201);
	problem_release(&p);
	assert_null(p.cases);
	assert_int_equal(p.ncases, 0);
}

static void test_full_explicit_cases(void **state)
{
	struct problem p;
	const struct test_case *c;
	(void)state;
	load_good(&p, "good/full.yaml");
	c = p.cases;

	assert_int_equal(c[0].func, 0);
	assert_int_equal(c[0].args[0].type, VT_INT);
	assert_int_equal(c[0].args[0].i, 3);
	assert_true(c[0].has_expected);
	assert_int_equal(c[0].expected, 1);
	assert_int_equal(c[0].line, 19);

	assert_int_equal(c[1].args[0].i, 4);
	assert_true(c[1].has_expected);
	assert_int_equal(c[1].expected, 0);
	assert_int_equal(c[1].line, 20);

	assert_int_equal(c[2].func, 1);
	assert_string_equal(c[2].name, "sum of four");
	assert_int_equal(c[2].args[0].type, VT_INT_ARRAY);
	assert_int_equal(c[2].args[0].len, 4);
	assert_int_equal(c[2].args[0].arr[0], 4);
	assert_int_equal(c[2].args[0].arr[1], 3);
	assert_int_equal(c[2].args[0].arr[2], 1);
	assert_int_equal(c[2].args[0].arr[3], 2);
	assert_int_equal(c[2].expected, 10);
	assert_int_equal(c[2].line, 21);
	assert_call(&p, &c[2], "sum([4, 3, 1, 2])");

	assert_int_equal(c[3].args[0].len, 0);
	assert_true(c[3].has_expected);
	assert_int_equal(c[3].expected, 0);
	assert_string_equal(c[3].name, "explicit/sum([])");

	/* extremes of int and long long survive */
	assert_int_equal(c[4].func, 2);
	assert_false(c[4].has_expected);
	assert_int_equal(c[4].args[0].type, VT_INT);
	assert_int_equal(c[4].args[0].i, INT_MIN);
	assert_int_equal(c[4].args[1].type, VT_LONG);
	assert_true(c[4].args[1].i == LLONG_MAX);
	assert_string_equal(c[4].name, "explicit/pair(-2147483648, 9223372036854775807)");

	assert_true(c[5].expected == LLONG_MIN);
	assert_int_equal(c[5].args[0].len, 10);
	assert_int_equal(c[5].args[0].arr[9], 10);
	/* long arrays are shortened in names */
	assert_string_equal(c[5].name, "explicit/sum([1, 2, 3, 4, 5, 6, 7, 8, ... (10 values)])");

	/* auto names of public cases show the call */
	assert_string_equal(c[0].name, "explicit/win(3)");
	assert_string_equal(c[1].name, "explicit/win(4)");
	problem_release(&p);
}

static void test_full_range_expansion(void **state)
{
	static const struct {
		long long a, b;
	} pairs[] = { { 1, 10 }, { 1, 11 }, { 2, 10 }, { 2, 11 }, { 3, 10 }, { 3, 11 } };
	struct problem p;
	const struct test_case *c;
	(void)state;
	load_good(&p, "good/full.yaml");
	c = p.cases + 6;
	/* the cross product in order, the first argument varying slowest */
	for (int k = 0; k < 6; k++) {
		assert_int_equal(c[k].func, 2);
		assert_int_equal(c[k].args[0].i, pairs[k].a);
		assert_int_equal(c[k].args[1].i, pairs[k].b);
		assert_int_equal(c[k].args[1].type, VT_LONG);
		assert_false(c[k].has_expected);
		assert_int_equal(c[k].line, 32);
	}
	assert_string_equal(c[0].name, "ranges/pair(1, 10)");
	assert_string_equal(c[5].name, "ranges/pair(3, 11)");
	for (int k = 6; k < 9; k++) {
		assert_int_equal(c[k].func, 0);
		assert_int_equal(c[k].args[0].i, k - 7); /* -1, 0, 1 */
		assert_int_equal(c[k].line, 34);
	}
	assert_string_equal(c[6].name, "ranges/win(-1)");
	problem_release(&p);
}

static void test_full_random(void **state)
{
	struct problem p, again;
	const struct test_case *c;
	int differ = 0, distinct_a = 0, seen_a[11] = { 0 }, seen_len[7] = { 0 }, nlen = 0;
	int zeros = 0, ones = 0;
	(void)state;
	load_good(&p, "good/full.yaml");
	c = p.cases + 15;
	for (int k = 0; k < 60; k++) {
		assert_int_equal(c[k].func, 2);
		assert_between(c[k].args[0].i, -5, 5);
		if (c[k].args[1].i < 1000000000000LL || c[k].args[1].i > 2000000000000LL)
			fail_msg("case %d: %lld out of [1e12, 2e12]", k, c[k].args[1].i);
		if (!seen_a[c[k].args[0].i + 5]++)
			distinct_a++;
	}
	/* the same seed gives the same sequence; another seed another one */
	for (int k = 0; k < 20; k++) {
		assert_int_equal(c[k].args[0].i, c[20 + k].args[0].i);
		assert_true(c[k].args[1].i == c[20 + k].args[1].i);
		differ += c[k].args[1].i != c[40 + k].args[1].i;
	}
	assert_true(differ >= 19);
	/* and the values vary within a sequence */
	assert_true(distinct_a >= 5);
	assert_true(c[0].args[1].i != c[1].args[1].i || c[1].args[1].i != c[2].args[1].i);

	/* random arrays: lengths and values within bounds, lengths vary */
	for (int k = 60; k < 90; k++) {
		const struct value *v = &c[k].args[0];
		assert_int_equal(c[k].func, 1);
		assert_int_equal(v->type, VT_INT_ARRAY);
		assert_between(v->len, 0, 6);
		if (!seen_len[v->len]++)
			nlen++;
		for (size_t e = 0; e < v->len; e++)
			if (v->arr[e] < -3 || v->arr[e] > 3)
				fail_msg("case %d element %zu: %d out of [-3, 3]", k, e, v->arr[e]);
	}
	assert_true(nlen >= 3);

	/* random [0, 1] two hundred times: both ends are reached */
	c = p.cases + 106;
	for (int k = 0; k < 200; k++) {
		assert_between(c[k].args[0].i, 0, 1);
		assert_int_equal(c[k].args[1].i, 5);
		zeros += c[k].args[0].i == 0;
		ones += c[k].args[0].i == 1;
	}
	assert_true(zeros > 50 && ones > 50);

	/* loading again reproduces every value, also with the default seed */
	load_good(&again, "good/full.yaml");
	assert_int_equal(again.ncases, p.ncases);
	assert_string_equal(again.digest, p.digest);
	for (int k = 0; k < p.ncases; k++) {
		const struct signature *sig = &p.funcs[p.cases[k].func];
		assert_string_equal(again.cases[k].name, p.cases[k].name);
		for (int a = 0; a < sig->ninputs; a++) {
			const struct value *x = &p.cases[k].args[a], *y = &again.cases[k].args[a];
			assert_true(x->i == y->i);
			assert_int_equal(x->len, y->len);
			if (x->len)
				assert_memory_equal(x->arr, y->arr, x->len * sizeof(int));
		}
	}
	problem_release(&again);
	problem_release(&p);
}

/* How each case was drawn (shrink.h keeps a smaller input within these), read off full.yaml by hand. */
static void test_full_generator_bounds(void **state)
{
	struct problem p;
	const struct test_case *c;
	(void)state;
	load_good(&p, "good/full.yaml");
	c = p.cases;
	/* explicit calls: none */
	for (int k = 0; k < 6; k++)
		assert_null(c[k].gen);
	/* pair({range: [1, 3]}, {range: [10, 11]}): one array for the entry's six cases */
	assert_non_null(c[6].gen);
	assert_ptr_equal(c[6].gen, c[11].gen);
	assert_true(c[6].gen[0].generated && c[6].gen[1].generated);
	assert_true(c[6].gen[0].lo == 1 && c[6].gen[0].hi == 3);
	assert_true(c[6].gen[1].lo == 10 && c[6].gen[1].hi == 11);
	/* win({range: [-1, 1]}): another entry, another array */
	assert_true(c[12].gen != c[6].gen && c[12].gen[0].lo == -1 && c[12].gen[0].hi == 1);
	/* sum({array: {length: [0, 6], values: [-3, 3]}}) */
	c = p.cases + 75;
	assert_true(c->gen[0].generated && c->gen[0].len_lo == 0 && c->gen[0].len_hi == 6);
	assert_true(c->gen[0].lo == -3 && c->gen[0].hi == 3);
	/* pair({random: [0, 1]}, 5): the literal is kept */
	c = p.cases + 106;
	assert_true(c->gen[0].generated && c->gen[0].lo == 0 && c->gen[0].hi == 1);
	assert_false(c->gen[1].generated);
	problem_release(&p);
}

static void test_full_hidden_names(void **state)
{
	struct problem p;
	const struct group *g;
	(void)state;
	load_good(&p, "good/full.yaml");
	g = group_named(&p, "random");
	for (int k = g->first_case; k < g->first_case + g->ncases; k++) {
		char want[32];
		const char *name = p.cases[k].name;
		snprintf(want, sizeof(want), "random/%d", k - g->first_case + 1);
		assert_string_equal(name, want);
		/* nothing of the call: no parentheses, no argument digits beyond the index */
		assert_null(strchr(name, '('));
		assert_null(strstr(name, "pair"));
		assert_null(strstr(name, "sum"));
	}
	/* every name in the problem is unique */
	for (int a = 0; a < p.ncases; a++)
		for (int b = 0; b < a; b++)
			if (!strcmp(p.cases[a].name, p.cases[b].name))
				fail_msg("cases %d and %d are both named '%s'", b, a, p.cases[a].name);
	problem_release(&p);
}

static void test_full_limits(void **state)
{
	struct problem p;
	const struct limits *l;
	(void)state;
	load_good(&p, "good/full.yaml");
	/* the problem's own */
	assert_int_equal(p.limits.cpu_ms, 0);
	assert_double_equal(p.limits.cpu_factor, 4);
	assert_int_equal(p.limits.cpu_floor_ms, 300);
	assert_int_equal(p.limits.memory_mb, 128);
	assert_int_equal(p.limits.output_kb, DEFAULT_OUTPUT_KB);

	/* explicit: everything inherited */
	l = &p.groups[0].limits;
	assert_int_equal(l->cpu_ms, 0);
	assert_double_equal(l->cpu_factor, 4);
	assert_int_equal(l->cpu_floor_ms, 300);
	assert_int_equal(l->memory_mb, 128);
	assert_int_equal(l->output_kb, 1024);
	assert_int_equal(l->wall_ms, 0);

	/* ranges: an absolute CPU limit replaces the relative one entirely */
	l = &p.groups[1].limits;
	assert_int_equal(l->cpu_ms, 2000);
	assert_double_equal(l->cpu_factor, 0);
	assert_int_equal(l->cpu_floor_ms, 0);
	assert_int_equal(l->memory_mb, 128);
	assert_int_equal(l->output_kb, 1024);

	/* random: memory and output overridden, CPU inherited */
	l = &p.groups[2].limits;
	assert_int_equal(l->cpu_ms, 0);
	assert_double_equal(l->cpu_factor, 4);
	assert_int_equal(l->cpu_floor_ms, 300);
	assert_int_equal(l->memory_mb, 64);
	assert_int_equal(l->output_kb, 8);

	/* factor-override: its own factor and floor, wall clock set */
	l = &p.groups[3].limits;
	assert_int_equal(l->cpu_ms, 0);
	assert_double_equal(l->cpu_factor, 2);
	assert_int_equal(l->cpu_floor_ms, 50);
	assert_int_equal(l->wall_ms, 9000);
	assert_int_equal(l->memory_mb, 128);
	problem_release(&p);
}

/* ---- only the required keys (good/minimal.yaml) ---- */

static void test_minimal_defaults(void **state)
{
	struct problem p, q;
	const struct group *g;
	(void)state;
	load_good(&p, "good/minimal.yaml");
	assert_string_equal(p.id, "minimal");
	assert_int_equal(p.nfuncs, 1);
	assert_int_equal(p.ngroups, 1);
	assert_int_equal(p.ncases, 4);
	g = &p.groups[0];
	assert_int_equal(g->visibility, VIS_PUBLIC);
	assert_int_equal(g->scoring, SCORE_SUM);
	assert_null(g->hint);
	/* the grader's defaults: 1000 ms CPU, 256 MB, 1024 KB output */
	assert_int_equal(p.limits.cpu_ms, 1000);
	assert_double_equal(p.limits.cpu_factor, 0);
	assert_int_equal(p.limits.memory_mb, 256);
	assert_int_equal(p.limits.output_kb, 1024);
	assert_int_equal(g->limits.cpu_ms, 1000);
	assert_double_equal(g->limits.cpu_factor, 0);
	assert_int_equal(g->limits.cpu_floor_ms, 0);
	assert_int_equal(g->limits.memory_mb, 256);
	assert_int_equal(g->limits.output_kb, 1024);
	assert_int_equal(g->limits.wall_ms, 0);
	assert_double_equal(p.max_score, 2 * 4);
	assert_int_equal(p.cases[0].args[0].i, 1);
	assert_false(p.cases[0].has_expected);
	for (int k = 1; k < 4; k++)
		assert_between(p.cases[k].args[0].i, 1, 100);
	assert_string_equal(p.cases[0].name, "only/f(1)");
	/* without a seed: still the same values on every load */
	load_good(&q, "good/minimal.yaml");
	for (int k = 1; k < 4; k++)
		assert_int_equal(q.cases[k].args[0].i, p.cases[k].args[0].i);
	problem_release(&q);
	problem_release(&p);
}

/* ---- growth: (good/growth.yaml; the numbers are the file's) ---- */

/* long long arrays (issue 33) and the statement key */
static void test_long_array(void **state)
{
	struct problem p;
	(void)state;
	load_good(&p, "good/long_array.yaml");
	assert_string_equal(p.statement, "The XOR of the piles.\nTwo lines.\n");
	assert_int_equal(p.funcs[0].input_types[0], VT_LONG_ARRAY);
	assert_int_equal(p.ncases, 8);
	assert_int_equal(p.cases[0].args[0].type, VT_LONG_ARRAY);
	assert_int_equal(p.cases[0].args[0].len, 2);
	assert_true(p.cases[0].args[0].arr[0] == 4294967296LL);
	assert_true(p.cases[0].args[0].arr[1] == LLONG_MIN);
	for (int c = 1; c < 5; c++) {
		const struct value *v = &p.cases[c].args[0];
		assert_int_equal(v->type, VT_LONG_ARRAY);
		assert_int_equal(v->len, 3);
		for (size_t e = 0; e < v->len; e++)
			assert_true(v->arr[e] >= 3000000000LL && v->arr[e] <= 3000000005LL);
	}
	for (int c = 5; c < 8; c++) {
		const struct value *v = &p.cases[c].args[0];
		long long x = 0;
		bool big = false;
		for (size_t e = 0; e < v->len; e++) {
			x ^= v->arr[e];
			big |= v->arr[e] > INT_MAX;
		}
		assert_true(x == 0);
		assert_true(big);
	}
	assert_call(&p, &p.cases[0], "nimSum([4294967296, -9223372036854775808])");
	/* growth by a long long array's name: its length grows, drawn beyond 2^31 with XOR 0 */
	assert_true(p.growth.declared);
	assert_true(p.growth.by_length);
	assert_int_equal(p.growth.size_arg, 0);
	assert_non_null(p.growth.gen);
	{
		struct case_spec spec = *p.growth.gen;
		struct test_case *cases = NULL;
		int ncases = 0;
		size_t alloc = 0;
		long long x = 0;
		spec.n = 1000;
		casegen_expand(&spec, 0, &cases, &ncases, &alloc);
		assert_int_equal(ncases, 1);
		assert_int_equal(cases[0].args[0].type, VT_LONG_ARRAY);
		assert_int_equal(cases[0].args[0].len, 1000);
		for (size_t e = 0; e < cases[0].args[0].len; e++)
			x ^= cases[0].args[0].arr[e];
		assert_true(x == 0);
		value_release(&cases[0].args[0]);
		free(cases[0].args);
		free(cases);
	}
	problem_release(&p);
}

static void test_growth(void **state)
{
	struct problem p, q;
	(void)state;
	load_good(&p, "good/growth.yaml");
	assert_int_equal(problem_nvariants(&p), 2);
	for (int k = 0; k < 2; k++) {
		const struct growth_spec *gs = &problem_variant(&p, k)->growth;
		assert_true(gs->declared);
		assert_int_equal(gs->func, 1);       /* canWin */
		assert_int_equal(gs->size_arg, 1);   /* arg 2: n */
		assert_false(gs->by_length);
		assert_int_equal(gs->expected, GROWTH_EXPONENTIAL);
		assert_int_equal(gs->from, 4);
		assert_int_equal(gs->to, 64);
		assert_int_equal(gs->lo, -5);
		assert_int_equal(gs->hi, 5);
		assert_int_equal(gs->line, 9);
		assert_int_equal(gs->column, 3);
	}
	/* a file without the key declares nothing */
	load_good(&q, "good/minimal.yaml");
	assert_false(q.growth.declared);
	problem_release(&q);
	problem_release(&p);
}

static void test_growth_repository(void **state)
{
	/* p4_dp's own declaration: quadratic in the row's length */
	char *dir = repo_path("problems/p4_dp.yaml");
	struct problem p;
	struct strbuf err = STRBUF_INIT;
	(void)state;
	if (problem_load(&p, dir, &err) != 0)
		fail_msg("%s", err.buf);
	assert_true(p.growth.declared);
	assert_true(p.growth.by_length);
	assert_int_equal(p.growth.size_arg, 0);
	assert_int_equal(p.growth.expected, 2);
	assert_true(p.growth.to >= 16 * p.growth.from);
	problem_release(&p);
	strbuf_release(&err);
	free(dir);
}

/* growth args: the games' inputs drawn at a size N - N long, XOR 0 for Nim; the moves alike at every pile (issue 33) */
static void test_growth_args(void **state)
{
	char *nim = repo_path("examples/games/problems/nim.yaml"), *grundy = repo_path("examples/games/problems/grundy.yaml");
	struct problem p, q;
	struct strbuf err = STRBUF_INIT;
	struct test_case *cases = NULL;
	int ncases = 0;
	size_t alloc = 0;
	struct case_spec spec;
	unsigned x = 0;
	(void)state;
	if (problem_load(&p, nim, &err) != 0 || problem_load(&q, grundy, &err) != 0)
		fail_msg("%s", err.buf);
	assert_non_null(p.growth.gen);
	assert_true(p.growth.by_length);
	spec = *p.growth.gen;
	spec.n = 1953;
	casegen_expand(&spec, 0, &cases, &ncases, &alloc);
	assert_int_equal(ncases, 1);
	assert_int_equal(cases[0].args[0].len, 1953);
	for (size_t i = 0; i < cases[0].args[0].len; i++)
		x ^= (unsigned)cases[0].args[0].arr[i];
	assert_int_equal(x, 0);
	/* grundy: n is the size, the 16 moves 1..16 the same at both sizes */
	assert_false(q.growth.by_length);
	assert_int_equal(q.growth.size_arg, 0);
	spec = *q.growth.gen;
	for (long long n = 15; n <= 30; n += 15) {
		spec.n = n;
		casegen_expand(&spec, 0, &cases, &ncases, &alloc);
	}
	assert_int_equal(ncases, 3);
	assert_int_equal(cases[1].args[0].i, 15);
	assert_int_equal(cases[2].args[0].i, 30);
	assert_int_equal(cases[1].args[1].len, 16);
	assert_memory_equal(cases[1].args[1].arr, cases[2].args[1].arr, 16 * sizeof(int));
	for (int k = 0; k < ncases; k++) {
		for (int a = 0; a < 2; a++)
			value_release(&cases[k].args[a]);
		free(cases[k].args);
	}
	free(cases);
	problem_release(&p);
	problem_release(&q);
	strbuf_release(&err);
	free(nim);
	free(grundy);
}

static void test_duplicate_display_names(void **state)
{
	struct problem p;
	(void)state;
	load_good(&p, "good/dupnames.yaml");
	assert_int_equal(p.ncases, 9);
	/* the first of equal names keeps it; explicit names stay as written */
	assert_string_equal(p.cases[0].name, "a/f(1)");
	assert_string_equal(p.cases[2].name, "a/f(2)");
	assert_int_equal(p.cases[2].args[0].i, 5);
	/* the others are told apart */
	assert_true(strncmp(p.cases[1].name, "a/f(1)", 6) == 0 && strlen(p.cases[1].name) > 6);
	assert_true(strncmp(p.cases[3].name, "a/f(2)", 6) == 0 && strlen(p.cases[3].name) > 6);
	assert_true(strncmp(p.cases[4].name, "a/f(1)", 6) == 0 && strlen(p.cases[4].name) > 6);
	assert_string_equal(p.cases[5].name, "h/1");
	assert_string_equal(p.cases[6].name, "h/2");
	assert_string_equal(p.cases[7].name, "h/3");
	for (int a = 0; a < p.ncases; a++)
		for (int b = 0; b < a; b++)
			if (!strcmp(p.cases[a].name, p.cases[b].name))
				fail_msg("cases %d and %d are both named '%s'", b, a, p.cases[a].name);
	problem_release(&p);
}

/* ---- one problem in several languages (good/languages.yaml) ---- */

/* The C variant (the first, filled by problem_load) and the Python one. */
static void load_languages(struct problem *p, struct problem **c, struct problem **py)
{
	load_good(p, "good/languages.yaml");
	assert_int_equal(problem_nvariants(p), 2);
	*c = problem_variant(p, 0);
	*py = problem_variant(p, 1);
}

static void assert_answer(const struct problem *p, int func, long long answer, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	problem_format_answer(&sb, p, func, answer);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void test_languages_variants(void **state)
{
	struct problem p, *c, *py;
	(void)state;
	load_languages(&p, &c, &py);
	/* c: first in the file, so the struct problem_load filled; python owned by it */
	assert_ptr_equal(c, &p);
	assert_int_equal(p.nvariants, 1);
	assert_non_null(p.variants);
	assert_ptr_equal(py, &p.variants[0]);
	assert_int_equal(py->nvariants, 0);
	assert_int_equal(c->nlanguages, 2);
	assert_int_equal(py->nlanguages, 2);
	assert_ptr_equal(c->lang, &language_c);
	assert_ptr_equal(py->lang, &language_python);
	assert_string_equal(c->lang->name, "c");
	assert_string_equal(py->lang->name, "python");

	/* C looks for the common source; Python for its own (languages.python.source) */
	assert_string_equal(c->source, "langs.c");
	assert_string_equal(py->source, "Langs_py.py");

	/* the same problem: id, title, file, functions */
	for (int k = 0; k < 2; k++) {
		const struct problem *v = problem_variant(&p, k);
		assert_string_equal(v->id, "langs");
		assert_string_equal(v->title, "Two languages");
		assert_string_equal(v->path, p.path);
		assert_string_equal(v->digest, p.digest);
		assert_int_equal(v->id_line, 6);
		assert_int_equal(v->id_column, 5);
		assert_null(v->equivalent_to);
		assert_int_equal(v->nfuncs, 3);
		assert_string_equal(v->funcs[0].name, "canWin");
		assert_string_equal(v->funcs[1].name, "total");
		assert_string_equal(v->funcs[2].name, "pick");
		assert_int_equal(v->ngroups, 3);
		assert_string_equal(v->groups[0].name, "same");
		assert_string_equal(v->groups[1].name, "sizes");
		assert_string_equal(v->groups[2].name, "arrays");
		/* same: 1 x 3 tests; sizes: 0.5 x 4 tests (10..13 in C, 20..23 in
		 * Python); arrays: all-or-nothing 4, whatever its count */
		assert_double_equal(v->max_score, 1 * 3 + 0.5 * 4 + 4);
	}
	/* where the source a student's file is looked up by is given (for messages) */
	assert_int_equal(c->source_line, 8);
	assert_int_equal(c->source_column, 9);
	assert_int_equal(py->source_line, 45);
	assert_int_equal(py->source_column, 13);

	/* calls: Python renames canWin and total; pick keeps its C name */
	assert_string_equal(problem_call_name(c, 0), "canWin");
	assert_string_equal(problem_call_name(c, 1), "total");
	assert_string_equal(problem_call_name(c, 2), "pick");
	assert_string_equal(problem_call_name(py, 0), "P_CanWin");
	assert_string_equal(problem_call_name(py, 1), "P_Total");
	assert_string_equal(problem_call_name(py, 2), "pick");
	problem_release(&p);
	assert_null(p.variants);
	assert_int_equal(p.nvariants, 0);
}

static void test_languages_cases(void **state)
{
	struct problem p, *c, *py;
	const struct test_case *tc;
	(void)state;
	load_languages(&p, &c, &py);

	/* C: same 3, sizes 4 (range [10, 13]), arrays 3 (count: 3) */
	assert_int_equal(c->ncases, 10);
	assert_int_equal(c->groups[0].first_case, 0);
	assert_int_equal(c->groups[0].ncases, 3);
	assert_int_equal(c->groups[1].first_case, 3);
	assert_int_equal(c->groups[1].ncases, 4);
	assert_int_equal(c->groups[2].first_case, 7);
	assert_int_equal(c->groups[2].ncases, 3);
	/* Python: same 3, sizes 4 (range [20, 23]), arrays 2 (count: 2) */
	assert_int_equal(py->ncases, 9);
	assert_int_equal(py->groups[0].first_case, 0);
	assert_int_equal(py->groups[0].ncases, 3);
	assert_int_equal(py->groups[1].first_case, 3);
	assert_int_equal(py->groups[1].ncases, 4);
	assert_int_equal(py->groups[2].first_case, 7);
	assert_int_equal(py->groups[2].ncases, 2);
	for (int v = 0; v < 2; v++) {
		const struct problem *q = problem_variant(&p, v);
		for (int g = 0; g < q->ngroups; g++)
			for (int k = q->groups[g].first_case; k < q->groups[g].first_case + q->groups[g].ncases; k++)
				assert_int_equal(q->cases[k].group, g);
	}

	/* same: no change for Python, so the same cases, lines and values */
	for (int v = 0; v < 2; v++) {
		tc = problem_variant(&p, v)->cases;
		assert_int_equal(tc[0].func, 0);
		assert_int_equal(tc[0].args[0].i, 7);
		assert_true(tc[0].has_expected);
		assert_int_equal(tc[0].expected, 1);
		assert_int_equal(tc[0].line, 22);
		assert_int_equal(tc[1].func, 1);
		assert_int_equal(tc[1].args[0].len, 4);
		assert_int_equal(tc[1].args[0].arr[0], 4);
		assert_int_equal(tc[1].args[0].arr[3], 2);
		assert_true(tc[1].has_expected);
		assert_int_equal(tc[1].expected, 10);
		assert_int_equal(tc[1].line, 23);
		assert_int_equal(tc[2].func, 2);
		assert_int_equal(tc[2].args[0].type, VT_BOOL);
		assert_int_equal(tc[2].args[0].i, 1);
		assert_int_equal(tc[2].args[1].i, 3);
		assert_false(tc[2].has_expected);
		assert_int_equal(tc[2].line, 24);
	}
	/* ... shown as each language calls them: its names, its bools; arrays as lists */
	assert_call(c, &c->cases[0], "canWin(7)");
	assert_call(c, &c->cases[1], "total([4, 3, 1, 2])");
	assert_call(c, &c->cases[2], "pick(true, 3)");
	assert_call(py, &py->cases[0], "P_CanWin(7)");
	assert_call(py, &py->cases[1], "P_Total([4, 3, 1, 2])");
	assert_call(py, &py->cases[2], "pick(True, 3)");
	assert_string_equal(c->cases[0].name, "same/canWin(7)");
	assert_string_equal(c->cases[1].name, "same/total([4, 3, 1, 2])");
	assert_string_equal(c->cases[2].name, "same/pick(true, 3)");
	assert_string_equal(py->cases[0].name, "same/P_CanWin(7)");
	assert_string_equal(py->cases[1].name, "same/P_Total([4, 3, 1, 2])");
	assert_string_equal(py->cases[2].name, "same/pick(True, 3)");
	assert_answer(c, 0, 1, "true");
	assert_answer(c, 0, 0, "false");
	assert_answer(py, 0, 1, "True");
	assert_answer(py, 0, 0, "False");
	assert_answer(c, 1, 10, "10");
	assert_answer(py, 1, 10, "10");

	/* sizes: C's range [10, 13] (line 30); Python's own cases, [20, 23] (line 53) */
	for (int k = 0; k < 4; k++) {
		char want[32];
		tc = &c->cases[3 + k];
		assert_int_equal(tc->func, 0);
		assert_int_equal(tc->args[0].i, 10 + k);
		assert_false(tc->has_expected);
		assert_int_equal(tc->line, 30);
		snprintf(want, sizeof(want), "sizes/canWin(%d)", 10 + k);
		assert_string_equal(tc->name, want);
		tc = &py->cases[3 + k];
		assert_int_equal(tc->func, 0);
		assert_int_equal(tc->args[0].i, 20 + k);
		assert_false(tc->has_expected);
		assert_int_equal(tc->line, 53);
		snprintf(want, sizeof(want), "sizes/P_CanWin(%d)", 20 + k);
		assert_string_equal(tc->name, want);
	}
	assert_call(py, &py->cases[3], "P_CanWin(20)");

	/* arrays (hidden): C 3 arrays of 100-200 values in [-1000, 1000] (line 38),
	 * Python 2 of 5-8 values in [0, 9] (line 59) */
	for (int k = 7; k < 10; k++) {
		const struct value *a = &c->cases[k].args[0];
		char want[16];
		assert_int_equal(c->cases[k].func, 1);
		assert_int_equal(c->cases[k].line, 38);
		assert_int_equal(a->type, VT_INT_ARRAY);
		assert_between(a->len, 100, 200);
		for (size_t e = 0; e < a->len; e++)
			assert_between(a->arr[e], -1000, 1000);
		snprintf(want, sizeof(want), "arrays/%d", k - 6);
		assert_string_equal(c->cases[k].name, want);
	}
	for (int k = 7; k < 9; k++) {
		const struct value *a = &py->cases[k].args[0];
		char want[16];
		assert_int_equal(py->cases[k].func, 1);
		assert_int_equal(py->cases[k].line, 59);
		assert_int_equal(a->type, VT_INT_ARRAY);
		assert_between(a->len, 5, 8);
		for (size_t e = 0; e < a->len; e++)
			assert_between(a->arr[e], 0, 9);
		snprintf(want, sizeof(want), "arrays/%d", k - 6);
		assert_string_equal(py->cases[k].name, want);
	}
	problem_release(&p);
}

static void test_languages_limits(void **state)
{
	struct problem p, *c, *py;
	const struct limits *l;
	(void)state;
	load_languages(&p, &c, &py);

	/* the problem's: Python raises the floor and the memory on top of them */
	l = &c->limits;
	assert_int_equal(l->cpu_ms, 0);
	assert_double_equal(l->cpu_factor, 10);
	assert_int_equal(l->cpu_floor_ms, 500);
	assert_int_equal(l->memory_mb, 128);
	assert_int_equal(l->output_kb, DEFAULT_OUTPUT_KB);
	l = &py->limits;
	assert_int_equal(l->cpu_ms, 0);
	assert_double_equal(l->cpu_factor, 10);
	assert_int_equal(l->cpu_floor_ms, 2000);
	assert_int_equal(l->memory_mb, 192);
	assert_int_equal(l->output_kb, DEFAULT_OUTPUT_KB);

	/* same: inherits each language's problem limits */
	l = &c->groups[0].limits;
	assert_int_equal(l->cpu_ms, 0);
	assert_double_equal(l->cpu_factor, 10);
	assert_int_equal(l->cpu_floor_ms, 500);
	assert_int_equal(l->memory_mb, 128);
	assert_int_equal(l->output_kb, 1024);
	assert_int_equal(l->wall_ms, 0);
	l = &py->groups[0].limits;
	assert_int_equal(l->cpu_ms, 0);
	assert_double_equal(l->cpu_factor, 10);
	assert_int_equal(l->cpu_floor_ms, 2000);
	assert_int_equal(l->memory_mb, 192);
	assert_int_equal(l->output_kb, 1024);
	assert_int_equal(l->wall_ms, 0);

	/* sizes: the group's factor 3 in both, each language's floor; Python's memory 512 */
	l = &c->groups[1].limits;
	assert_int_equal(l->cpu_ms, 0);
	assert_double_equal(l->cpu_factor, 3);
	assert_int_equal(l->cpu_floor_ms, 500);
	assert_int_equal(l->memory_mb, 128);
	assert_int_equal(l->output_kb, 1024);
	assert_int_equal(l->wall_ms, 0);
	l = &py->groups[1].limits;
	assert_int_equal(l->cpu_ms, 0);
	assert_double_equal(l->cpu_factor, 3);
	assert_int_equal(l->cpu_floor_ms, 2000);
	assert_int_equal(l->memory_mb, 512);
	assert_int_equal(l->output_kb, 1024);
	assert_int_equal(l->wall_ms, 0);

	/* arrays: C absolute 2000 ms; Python's cpu_factor 20 replaces it (floor
	 * from Python's problem limits); wall and memory the group's in both */
	l = &c->groups[2].limits;
	assert_int_equal(l->cpu_ms, 2000);
	assert_double_equal(l->cpu_factor, 0);
	assert_int_equal(l->cpu_floor_ms, 0);
	assert_int_equal(l->wall_ms, 5000);
	assert_int_equal(l->memory_mb, 64);
	assert_int_equal(l->output_kb, 1024);
	l = &py->groups[2].limits;
	assert_int_equal(l->cpu_ms, 0);
	assert_double_equal(l->cpu_factor, 20);
	assert_int_equal(l->cpu_floor_ms, 2000);
	assert_int_equal(l->wall_ms, 5000);
	assert_int_equal(l->memory_mb, 64);
	assert_int_equal(l->output_kb, 1024);

	/* a runner must hold the largest: C the problem's 128, Python sizes' 512 */
	assert_int_equal(problem_max_memory_mb(c), 128);
	assert_int_equal(problem_max_memory_mb(py), 512);
	problem_release(&p);
}

static void test_languages_groups(void **state)
{
	struct problem p, *c, *py;
	(void)state;
	load_languages(&p, &c, &py);
	/* hints: same unchanged, sizes replaced for Python, arrays only in Python */
	assert_string_equal(c->groups[0].hint, "Same in both.");
	assert_string_equal(py->groups[0].hint, "Same in both.");
	assert_string_equal(c->groups[1].hint, "Think in C.");
	assert_string_equal(py->groups[1].hint, "Think in Python.");
	assert_null(c->groups[2].hint);
	assert_string_equal(py->groups[2].hint, "Only in Python.");
	/* what a language cannot change: visibility, scoring, points */
	for (int v = 0; v < 2; v++) {
		const struct group *g = problem_variant(&p, v)->groups;
		assert_int_equal(g[0].visibility, VIS_PUBLIC);
		assert_int_equal(g[0].scoring, SCORE_SUM);
		assert_double_equal(g[0].points, 1);
		assert_int_equal(g[1].visibility, VIS_PUBLIC);
		assert_int_equal(g[1].scoring, SCORE_SUM);
		assert_double_equal(g[1].points, 0.5);
		assert_int_equal(g[2].visibility, VIS_HIDDEN);
		assert_int_equal(g[2].scoring, SCORE_ALL_OR_NOTHING);
		assert_double_equal(g[2].points, 4);
	}
	problem_release(&p);
}

/* good/languages_order.yaml: variants in the file's order, sources from the stem */
static void test_languages_order(void **state)
{
	struct problem p, *py, *c;
	(void)state;
	load_good(&p, "good/languages_order.yaml");
	assert_int_equal(problem_nvariants(&p), 2);
	py = problem_variant(&p, 0);
	c = problem_variant(&p, 1);
	assert_ptr_equal(py, &p);
	assert_string_equal(py->lang->name, "python");
	assert_string_equal(c->lang->name, "c");
	assert_int_equal(py->nlanguages, 2);
	assert_int_equal(c->nlanguages, 2);
	/* source: order.c: Python looks for order.py, C for order.c */
	assert_string_equal(py->source, "order.py");
	assert_string_equal(c->source, "order.c");
	for (int v = 0; v < 2; v++) {
		const struct problem *q = problem_variant(&p, v);
		assert_int_equal(q->source_line, 7);
		assert_int_equal(q->source_column, 9);
		assert_string_equal(problem_call_name(q, 0), "even");
		assert_int_equal(q->ncases, 3);
		assert_double_equal(q->max_score, 3);
		assert_int_equal(q->limits.cpu_ms, DEFAULT_CPU_MS);
		assert_int_equal(q->limits.memory_mb, DEFAULT_MEMORY_MB);
		for (int k = 0; k < 3; k++)
			assert_int_equal(q->cases[k].args[0].i, k + 1);
	}
	assert_string_equal(py->cases[0].name, "g/even(1)");
	assert_string_equal(c->cases[2].name, "g/even(3)");
	assert_answer(py, 0, 0, "False");
	assert_answer(c, 0, 0, "false");
	problem_release(&p);
}

/* Without languages: one variant, in the language of `source`. */
static void test_no_languages(void **state)
{
	static const char *const c_files[] = { "good/minimal.yaml", "good/full.yaml", "good/explicit_only.yaml" };
	struct problem p;
	(void)state;
	for (size_t i = 0; i < sizeof(c_files) / sizeof(c_files[0]); i++) {
		load_good(&p, c_files[i]);
		assert_ptr_equal(p.lang, &language_c);
		assert_int_equal(p.nvariants, 0);
		assert_int_equal(p.nlanguages, 1);
		assert_int_equal(problem_nvariants(&p), 1);
		assert_ptr_equal(problem_variant(&p, 0), &p);
		for (int f = 0; f < p.nfuncs; f++) {
			assert_true(!p.calls || !p.calls[f]);
			assert_string_equal(problem_call_name(&p, f), p.funcs[f].name);
		}
		problem_release(&p);
	}
	load_good(&p, "good/minimal.yaml");
	assert_string_equal(p.source, "minimal.c");
	assert_string_equal(p.cases[0].name, "only/f(1)");
	problem_release(&p);

	/* a .py source: Python only, with Python's True and False */
	load_good(&p, "good/python_only.yaml");
	assert_ptr_equal(p.lang, &language_python);
	assert_int_equal(p.nvariants, 0);
	assert_int_equal(p.nlanguages, 1);
	assert_int_equal(problem_nvariants(&p), 1);
	assert_string_equal(p.source, "solo.py");
	assert_string_equal(problem_call_name(&p, 0), "flip");
	assert_int_equal(p.ncases, 2);
	assert_string_equal(p.cases[0].name, "g/flip(True)");
	assert_string_equal(p.cases[1].name, "g/flip(False)");
	assert_answer(&p, 0, 1, "True");
	problem_release(&p);
}

/* ---- limits as the engine derives them (engine.h) ---- */

static void test_engine_cpu_limit(void **state)
{
	struct problem p, m, x;
	struct problem *list[3] = { &p, &m, &x };
	struct reference_answers ref[3];
	bool have[306];
	unsigned times[306];
	long long answers[306];
	struct engine e;
	(void)state;
	load_good(&p, "good/full.yaml");
	load_good(&m, "good/minimal.yaml");
	load_good(&x, "good/explicit_only.yaml");
	assert_int_equal(p.ncases, 306);
	for (int k = 0; k < 306; k++) {
		have[k] = true;
		times[k] = 0;
		answers[k] = 0;
	}
	memset(ref, 0, sizeof(ref));
	for (int i = 0; i < 3; i++) {
		ref[i].have = have;
		ref[i].time_us = times;
		ref[i].answer = answers;
	}
	memset(&e, 0, sizeof(e));
	e.problems = list;
	e.nproblems = 3;
	e.ref = ref;
	e.ref_loaded = true;

	/* explicit (cases 0-5): 4 x the slowest, at least 300 ms */
	times[0] = 1000;
	times[1] = 100100; /* 100.1 ms x 4 = 400.4 ms: never below that */
	times[2] = 5000;
	assert_int_equal(engine_cpu_limit(&e, 0, 0), 401);
	/* a case the reference did not answer does not count */
	have[1] = false;
	assert_int_equal(engine_cpu_limit(&e, 0, 0), 300); /* 4 x 5 ms = 20 ms: the floor */
	have[1] = true;
	/* ranges: absolute 2000 ms whatever the reference took */
	times[6] = 5000000;
	assert_int_equal(engine_cpu_limit(&e, 0, 1), 2000);
	/* random (cases 15-104): only its own cases count */
	assert_int_equal(engine_cpu_limit(&e, 0, 2), 300);
	times[20] = 1000000;
	assert_int_equal(engine_cpu_limit(&e, 0, 2), 4000);
	/* factor-override: 2 x 0 ms, floor 50 */
	assert_int_equal(engine_cpu_limit(&e, 0, 3), 50);
	/* the grader's default and an absolute problem limit */
	assert_int_equal(engine_cpu_limit(&e, 1, 0), DEFAULT_CPU_MS);
	assert_int_equal(engine_cpu_limit(&e, 2, 0), 500);

	/* the reference is needed for answers not in the file or for relative limits */
	assert_true(reference_needed(&p));
	assert_true(reference_needed(&m));
	assert_false(reference_needed(&x));
	problem_release(&x);
	problem_release(&m);
	problem_release(&p);
}

/* The repository's own problems load (and release cleanly under ASan). */
static void test_repository_problems(void **state)
{
	char *dir = repo_path("problems");
	struct problem_set set = PROBLEM_SET_INIT;
	struct strbuf err = STRBUF_INIT;
	(void)state;
	if (problem_set_load(&set, dir, &err) != 0)
		fail_msg("problems/ did not load:\n%s", err.buf);
	assert_true(set.nproblems >= 1);
	for (int i = 1; i < set.nproblems; i++)
		assert_true(strcmp(set.problems[i - 1].id, set.problems[i].id) < 0);
	for (int i = 0; i < set.nproblems; i++)
		assert_ptr_equal(problem_set_find(&set, set.problems[i].id), &set.problems[i]);
	problem_set_release(&set);
	strbuf_release(&err);
	free(dir);
}

/* ---- errors: file:line:column ---- */

struct bad_case {
	const char *file;  /* under data/bad */
	int line, col;     /* 0: not checked */
	const char *msg;   /* a part of the message */
};

static const struct bad_case bad_cases[] = {
	/* YAML syntax */
	{ "syntax.yaml", 3, 9, "YAML syntax error" },
	/* growth: */
	{ "growth_not_mapping.yaml", 9, 3, "growth must be a mapping, not a list" },
	{ "growth_unknown_key.yaml", 13, 3, "unknown key 'repeat' in growth" },
	{ "growth_no_size.yaml", 9, 3, "growth is missing the required key 'size'" },
	{ "growth_no_call.yaml", 9, 3, "this problem has 2 functions: say which one with 'call'" },
	{ "growth_bad_call.yaml", 9, 9, "call 'g' names no function" },
	{ "growth_bad_expected.yaml", 11, 13, "growth expected must be N, N^2 ... N^6 or 2^N, not 'N log N'" },
	{ "growth_no_array.yaml", 10, 9, "growth size 'length': canWin takes no array" },
	{ "growth_bad_arg.yaml", 10, 9, "growth size 'arg 3' names no input of canWin (its inputs: n, b); say an "
					"input's name, 'length' or 'arg K' (K from 1 to 2)" },
	{ "growth_bool_arg.yaml", 10, 9, "growth size 'arg 2': that input is no integer" },
	{ "growth_narrow_sizes.yaml", 12, 10, "growth sizes [16, 32] must span at least a factor 4" },
	{ "growth_huge_length.yaml", 12, 10, "growth size 2000000 is too large for an array" },
	{ "growth_int_overflow.yaml", 12, 10, "growth size 4000000000 is too large for int" },
	{ "growth_zero_from.yaml", 12, 10, "growth sizes must start at 1 or more, not 0" },
	{ "growth_bad_values.yaml", 13, 11, "growth values must fit an int" },
	{ "growth_args_fixed_length.yaml", 13, 10, "growth args: 'L' is the array that grows: give it as "
						  "{array: {length: N, ...}}" },
	{ "growth_args_and_values.yaml", 13, 11, "growth values only applies without args" },
	{ "growth_bool_by_name.yaml", 10, 9, "growth size 'b': a bool cannot grow" },
	{ "syntax.yaml", 3, 9, "mapping values are not allowed" },
	{ "unclosed_flow.yaml", 0, 0, "YAML syntax error" },
	/* empty */
	{ "empty.yaml", 1, 1, "empty" },
	{ "comments_only.yaml", 1, 1, "empty" },
	{ "scalar_root.yaml", 2, 1, "must be a mapping, not a scalar" },
	/* unknown keys */
	{ "unknown_key_top.yaml", 4, 1, "unknown key 'author'" },
	{ "unknown_key_group.yaml", 10, 5, "unknown key 'weight'" },
	{ "unknown_key_case.yaml", 12, 21, "unknown key 'expect'" },
	{ "unknown_key_limits.yaml", 9, 3, "unknown key 'cpu'" },
	{ "unknown_key_group_limits.yaml", 10, 27, "unknown key 'stack_mb'" },
	/* wrong types */
	{ "string_for_integer.yaml", 8, 14, "must be an integer" },
	{ "word_for_integer.yaml", 12, 16, "count must be an integer, not 'twenty'" },
	{ "string_arg.yaml", 11, 16, "must be an integer" },
	{ "list_for_mapping.yaml", 7, 9, "limits must be a mapping, not a list" },
	{ "list_for_group.yaml", 8, 5, "must be a mapping, not a list" },
	{ "mapping_for_list.yaml", 6, 3, "functions must be a list, not a mapping" },
	{ "scalar_for_args.yaml", 11, 15, "args must be a list, not a scalar" },
	/* missing required fields: reported at the mapping that lacks them */
	{ "missing_id.yaml", 2, 1, "missing the required key 'id'" },
	{ "missing_title.yaml", 2, 1, "missing the required key 'title'" },
	{ "missing_source.yaml", 2, 1, "missing the required key 'source'" },
	{ "missing_functions.yaml", 2, 1, "missing the required key 'functions'" },
	{ "missing_groups.yaml", 2, 1, "missing the required key 'groups'" },
	{ "missing_group_name.yaml", 12, 5, "missing the required key 'name'" },
	{ "missing_group_points.yaml", 8, 5, "missing the required key 'points'" },
	{ "missing_group_cases.yaml", 8, 5, "missing the required key 'cases'" },
	{ "missing_args.yaml", 11, 9, "missing the required key 'args'" },
	/* duplicates */
	{ "duplicate_key_top.yaml", 5, 1, "duplicate key 'title'" },
	{ "duplicate_key_case.yaml", 11, 21, "duplicate key 'args'" },
	{ "duplicate_group.yaml", 17, 11, "duplicate group name 'g'" },
	{ "duplicate_function.yaml", 7, 5, "'f' is listed twice" },
	/* calls and arguments */
	{ "unknown_call.yaml", 13, 16, "call 'CcanWin' names no function" },
	{ "missing_call.yaml", 13, 9, "'call'" },
	{ "arg_count.yaml", 12, 17, "canWin takes 2 arguments, args gives 3" },
	{ "arg_count_array.yaml", 11, 15, "f takes 1 argument, args gives 2" },
	/* a case's name: a string that is not empty (a list once read past the node: undefined behaviour) */
	{ "name_list.yaml", 10, 16, "name must be a scalar, not a list" },
	{ "name_empty.yaml", 10, 16, "name must not be empty" },
	{ "int_overflow.yaml", 13, 16, "2147483648 does not fit" },
	{ "array_element_overflow.yaml", 12, 20, "-2147483649 does not fit" },
	{ "range_overflow.yaml", 11, 0, "2147483648 does not fit" },
	{ "long_overflow.yaml", 11, 16, "does not fit in 64 bits" },
	{ "bool_expected_int.yaml", 12, 31, "must be true or false, not '1'" },
	{ "bool_arg_int.yaml", 12, 16, "must be true or false, not '0'" },
	{ "expected_overflow.yaml", 11, 31, "does not fit" },
	/* limits */
	{ "cpu_ms_and_factor.yaml", 9, 15, "either cpu_ms" },
	{ "group_cpu_ms_and_factor.yaml", 10, 26, "either cpu_ms" },
	{ "floor_without_factor.yaml", 9, 17, "cpu_floor_ms only applies with cpu_factor" },
	{ "calibration_without_cpu_ms.yaml", 9, 19, "calibration_ms only applies with cpu_ms" },
	{ "memory_too_small.yaml", 8, 14, "memory_mb must be between 16" },
	{ "wall_below_cpu.yaml", 13, 0, "wall_ms (1000) must not be below cpu_ms (2000)" },
	/* generators */
	{ "range_too_large.yaml", 11, 24, "more than 200000" },
	{ "range_product_too_large.yaml", 11, 36, "more than 200000" },
	{ "array_ints_too_many.yaml", 14, 9, "arrays would hold more than 16777216 ints" },
	{ "array_literal_times_range.yaml", 11, 9, "arrays would hold more than 16777216 ints" },
	{ "range_reversed.yaml", 11, 25, "low 10 is above high 1" },
	{ "count_without_random.yaml", 12, 16, "count only applies to random" },
	{ "expected_with_range.yaml", 12, 19, "expected can only be given for a single explicit call" },
	{ "array_for_int.yaml", 11, 16, "this parameter is int" },
	{ "array_missing_values.yaml", 11, 24, "missing the required key 'values'" },
	/* other values */
	{ "bad_signature.yaml", 7, 5, "bad signature 'double g(double x)': unknown type 'double': the types are bool, "
	  "int, long long, and the arrays const int * and const long long *" },
	/* the column of the word in a quoted scalar: 5 for the quote, 1 more for the opening quote */
	{ "bad_signature_type.yaml", 6, 20, "unknown type 'unsigned'" },
	{ "long_array_int_values.yaml", 11, 49, "value 3000000000 does not fit the parameter's type int" },
	/* generators that know the game (issue 33): columns counted by hand in each file */
	{ "gen_expr_unknown_name.yaml", 11, 47, "random 'm - 1': 'm' names no argument of this function (it takes n, k)" },
	{ "gen_circle.yaml", 11, 15, "the arguments' bounds depend on each other in a circle" },
	{ "gen_xor_distinct.yaml", 11, 78, "xor and distinct cannot be combined" },
	{ "gen_xor_low.yaml", 11, 49, "xor needs values from 0" },
	{ "gen_balance_odd.yaml", 13, 18, "balance needs an even count (half false, half true), not 5" },
	{ "gen_balance_int.yaml", 13, 18, "balance needs a bool function" },
	{ "gen_answer_range.yaml", 12, 17, "give every argument as random, not range" },
	{ "gen_tries_alone.yaml", 12, 16, "tries only applies with answer or balance" },
	{ "gen_tries_below_count.yaml", 14, 16, "tries must be between count (10) and 200000" },
	{ "gen_distinct_too_few.yaml", 11, 67, "distinct: at least 6 different values are asked from the 5 of [1, 5]" },
	{ "gen_answer_and_balance.yaml", 14, 18, "give answer or balance, not both" },
	{ "bad_id.yaml", 2, 5, "id 'p/1'" },
	{ "bad_source.yaml", 4, 9, "source must be a file name ending in .c" },
	{ "bad_visibility.yaml", 9, 17, "visibility must be public or hidden, not 'secret'" },
	{ "bad_scoring.yaml", 9, 14, "scoring must be sum or all-or-nothing, not 'best-of'" },
	{ "negative_points.yaml", 9, 13, "points must be a non-negative decimal number" },
	{ "no_cases.yaml", 10, 12, "has no cases" },
	{ "no_groups.yaml", 7, 9, "at least one group" },
	/* languages: (the part above languages: is valid in each file) */
	{ "lang_unknown.yaml", 14, 3, "unknown language 'java' (known: c, python)" },
	{ "lang_not_mapping.yaml", 12, 12, "languages must be a mapping, not a list" },
	{ "lang_empty.yaml", 12, 12, "languages must name at least one language" },
	{ "lang_twice.yaml", 15, 3, "language 'c' is listed twice" },
	{ "lang_part_scalar.yaml", 14, 11, "a language's part must be a mapping, not a scalar" },
	{ "lang_unknown_key.yaml", 15, 5, "unknown key 'limit' in a language's part" },
	{ "lang_source_extension.yaml", 15, 13, "the python source must end in .py, not 'e_py.c'" },
	{ "lang_source_unknown.yaml", 15, 13, "source must be a file name ending in .c or .py, not 'e.txt'" },
	{ "lang_calls_unknown.yaml", 15, 13, "calls: 'g' names no function of this problem" },
	{ "lang_calls_bad_name.yaml", 15, 16, "'2f' is not a function name" },
	{ "lang_calls_not_mapping.yaml", 15, 12, "calls must be a mapping, not a list" },
	/* libyaml keeps both of two equal keys: this once loaded, the last rename winning */
	{ "lang_calls_twice.yaml", 15, 19, "duplicate key 'f' in calls" },
	{ "lang_calls_in_c.yaml", 14, 12, "calls: C calls each function by its signature's name" },
	{ "lang_limits_floor.yaml", 15, 13, "cpu_floor_ms only applies with cpu_factor" },
	{ "lang_groups_not_mapping.yaml", 15, 13, "groups must be a mapping, not a list" },
	{ "lang_group_missing.yaml", 16, 7, "no group 'h' in this problem" },
	/* ... and this one applied both changes to g */
	{ "lang_group_twice.yaml", 18, 7, "duplicate key 'g' in groups" },
	{ "lang_group_unknown_key.yaml", 17, 9, "unknown key 'points' in a group's changes for a language" },
	{ "lang_hint_not_string.yaml", 17, 15, "hint must be a scalar, not a list" },
	{ "lang_group_limits_floor.yaml", 18, 17, "cpu_floor_ms only applies with cpu_factor" },
	{ "lang_override_args.yaml", 18, 19, "f takes 1 argument, args gives 2" },
	/* reported at the languages mapping (where its first key, c:, stands) */
	{ "lang_max_score.yaml", 14, 3, "python gives 2 points in all, c 1: a language may change sizes" },
};

/*
 * err must start with "path:line:col: " (any numbers where line or col is
 * 0) and its first line must hold msg.  Returns 0, or prints why and -1.
 */
static int check_error(const char *err, const char *path, int line, int col, const char *msg)
{
	size_t pl = strlen(path);
	const char *p;
	char *first_line;
	int ok;
	if (strncmp(err, path, pl) || err[pl] != ':') {
		print_error("error does not start with '%s:': %s\n", path, err);
		return -1;
	}
	p = err + pl + 1;
	if (line) {
		char want[64];
		if (col)
			snprintf(want, sizeof(want), "%d:%d: ", line, col);
		else
			snprintf(want, sizeof(want), "%d:", line);
		if (strncmp(p, want, strlen(want))) {
			print_error("%s: wanted \"%s\" at %d:%d, got: %s", path, msg, line, col, err);
			return -1;
		}
	}
	/* whatever the numbers: line:col: message */
	ok = isdigit((unsigned char)*p);
	while (isdigit((unsigned char)*p))
		p++;
	ok = ok && *p++ == ':' && isdigit((unsigned char)*p);
	while (isdigit((unsigned char)*p))
		p++;
	if (!ok || strncmp(p, ": ", 2)) {
		print_error("no line:column: in: %s", err);
		return -1;
	}
	/* the message is on the first line; the text ends in a newline */
	first_line = strndup(err, strcspn(err, "\n"));
	ok = strstr(first_line, msg) != NULL;
	free(first_line);
	if (!ok) {
		print_error("%s: message lacks \"%s\": %s", path, msg, err);
		return -1;
	}
	if (err[strlen(err) - 1] != '\n') {
		print_error("message does not end in a newline: %s\n", err);
		return -1;
	}
	return 0;
}

static void test_bad_files(void **state)
{
	int failures = 0;
	(void)state;
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *bc = &bad_cases[i];
		char *rel = NULL, *path;
		struct problem p;
		struct strbuf err = STRBUF_INIT;
		int r;
		assert_true(asprintf(&rel, "bad/%s", bc->file) >= 0);
		path = data_path(rel);
		r = problem_load(&p, path, &err);
		if (r != -1) {
			print_error("%s loaded (returned %d)\n", path, r);
			failures++;
		} else if (check_error(err.buf, path, bc->line, bc->col, bc->msg) < 0) {
			failures++;
		}
		/* a failed load leaves nothing behind (ASan checks the freeing) */
		assert_null(p.id);
		assert_null(p.cases);
		assert_null(p.groups);
		assert_int_equal(p.ncases, 0);
		strbuf_release(&err);
		free(path);
		free(rel);
	}
	assert_int_equal(failures, 0);
}

static void test_every_bad_file_is_listed(void **state)
{
	/* a fixture in data/bad that the table forgot would go untested */
	char *dir = data_path("bad"), *cmd = NULL;
	FILE *ls;
	char name[256];
	int n = 0;
	(void)state;
	assert_true(asprintf(&cmd, "ls '%s'", dir) >= 0);
	ls = popen(cmd, "r");
	assert_non_null(ls);
	while (fgets(name, sizeof(name), ls)) {
		int found = 0;
		name[strcspn(name, "\n")] = '\0';
		for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++)
			found |= !strcmp(bad_cases[i].file, name);
		if (!found)
			fail_msg("data/bad/%s is not in bad_cases", name);
		n++;
	}
	assert_int_equal(pclose(ls), 0);
	assert_true(n >= 50);
	free(cmd);
	free(dir);
}

static void test_unreadable_file(void **state)
{
	struct problem p;
	struct strbuf err = STRBUF_INIT;
	char *path = data_path("bad/no-such-file.yaml");
	(void)state;
	assert_int_equal(problem_load(&p, path, &err), -1);
	assert_true(strncmp(err.buf, path, strlen(path)) == 0);
	assert_non_null(strstr(err.buf, "No such file"));
	assert_null(p.id);
	strbuf_release(&err);
	free(path);
}

/* ---- directories ---- */

static void test_set_ok(void **state)
{
	char *dir = data_path("sets/ok");
	struct problem_set set = PROBLEM_SET_INIT;
	struct strbuf err = STRBUF_INIT;
	(void)state;
	if (problem_set_load(&set, dir, &err) != 0)
		fail_msg("sets/ok did not load:\n%s", err.buf);
	assert_string_equal(err.buf, "");
	/* a.yaml and b.yml; not notes.txt, not .hidden.yaml; sorted by id */
	assert_int_equal(set.nproblems, 2);
	assert_string_equal(set.problems[0].id, "alpha");
	assert_string_equal(set.problems[1].id, "zeta");
	assert_string_equal(set.problems[0].equivalent_to, "zeta");
	assert_ptr_equal(problem_set_find(&set, "zeta"), &set.problems[1]);
	assert_ptr_equal(problem_set_find(&set, "alpha"), &set.problems[0]);
	assert_null(problem_set_find(&set, "Alpha"));
	assert_null(problem_set_find(&set, ""));
	assert_double_equal(set.problems[0].max_score, 4);
	assert_double_equal(set.problems[1].max_score, 1);
	problem_set_release(&set);
	assert_int_equal(set.nproblems, 0);
	assert_null(set.problems);
	strbuf_release(&err);
	free(dir);
}

/* Load a set that must fail; err must name file (under the set) at line:col with msg. */
static void set_fails(const char *rel, const char *file, int line, int col, const char *msg)
{
	char *dir = data_path(rel), *path = NULL;
	struct problem_set set = PROBLEM_SET_INIT;
	struct strbuf err = STRBUF_INIT;
	if (problem_set_load(&set, dir, &err) != -1)
		fail_msg("%s loaded", dir);
	if (file) {
		assert_true(asprintf(&path, "%s/%s", dir, file) >= 0);
		assert_int_equal(check_error(err.buf, path, line, col, msg), 0);
	} else if (!strstr(err.buf, msg)) {
		fail_msg("%s: \"%s\" lacks \"%s\"", dir, err.buf, msg);
	}
	problem_set_release(&set); /* also after a failure (ASan checks) */
	strbuf_release(&err);
	free(path);
	free(dir);
}

static void test_set_errors(void **state)
{
	(void)state;
	/* both files have id "same": the message names both files */
	{
		char *dir = data_path("sets/dup_ids");
		struct problem_set set = PROBLEM_SET_INIT;
		struct strbuf err = STRBUF_INIT;
		assert_int_equal(problem_set_load(&set, dir, &err), -1);
		assert_non_null(strstr(err.buf, "duplicate problem id 'same'"));
		assert_non_null(strstr(err.buf, "one.yaml"));
		assert_non_null(strstr(err.buf, "two.yaml"));
		problem_set_release(&set);
		strbuf_release(&err);
		free(dir);
	}
	set_fails("sets/dup_sources", "two.yaml", 0, 0, "source 'p.c' is already used by problem 'first'");
	set_fails("sets/equiv_missing", "p.yaml", 0, 0, "equivalent_to names no problem 'ghost'");
	set_fails("sets/equiv_self", "p.yaml", 0, 0, "must be another problem");
	set_fails("sets/with_bad", "bad.yaml", 9, 5, "unknown key 'colour'");
	set_fails("sets/empty", NULL, 0, 0, "no problem files");
	set_fails("sets/no-such-dir", NULL, 0, 0, "cannot open");
}

/* Loader bugs found while writing these tests, now fixed (regressions). */
static void test_fixed_bugs(void **state)
{
	struct problem p;
	struct strbuf err = STRBUF_INIT;
	char *path;
	int failures = 0;
	(void)state;

	/* points: inf is accepted (max_score becomes inf) */
	path = data_path("regressions/points_inf.yaml");
	if (problem_load(&p, path, &err) == 0) {
		print_error("points: inf was accepted (max_score %g)\n", p.max_score);
		problem_release(&p);
		failures++;
	} else if (check_error(err.buf, path, 9, 13, "points") < 0) {
		failures++;
	}
	strbuf_reset(&err);
	free(path);

	/* a group that sets only cpu_factor loses the problem's cpu_floor_ms */
	load_good(&p, "regressions/floor_inherit.yaml");
	if (p.groups[0].limits.cpu_floor_ms != 500) {
		print_error("group cpu_floor_ms is %u, expected the problem's 500\n", p.groups[0].limits.cpu_floor_ms);
		failures++;
	}
	problem_release(&p);

	/* an integer literal longer than 63 characters is truncated silently */
	path = data_path("regressions/long_literal.yaml");
	if (problem_load(&p, path, &err) == 0) {
		if (p.cases[0].args[0].i != 7) {
			print_error("000...0007 was read as %lld\n", p.cases[0].args[0].i);
			failures++;
		}
		problem_release(&p);
	}
	strbuf_reset(&err);
	free(path);

	/* the "#k" suffix of a duplicate can collide with an explicit name */
	load_good(&p, "regressions/name_suffix.yaml");
	for (int a = 0; a < p.ncases; a++)
		for (int b = 0; b < a; b++)
			if (!strcmp(p.cases[a].name, p.cases[b].name)) {
				print_error("cases %d and %d are both named '%s'\n", b, a, p.cases[a].name);
				failures++;
			}
	problem_release(&p);

	/* a language's own source, already used by another problem: the error
	 * pointed at the common `source:` line (5:9), not at languages.python.source */
	set_fails("sets/lang_sources", "beta.yaml", 16, 13, "source 'Shared.py' is already used by problem 'alpha'");

	/* directory-level errors point at 1:1 instead of the offending value */
	{
		static const struct {
			const char *dir, *file1, *file2;
			int line1, col1, line2, col2;
		} sets[] = {
			{ "sets/dup_ids", "one.yaml", "two.yaml", 1, 5, 3, 5 },
			{ "sets/dup_sources", "one.yaml", "two.yaml", 3, 9, 3, 9 },
			{ "sets/equiv_missing", "p.yaml", "p.yaml", 5, 16, 5, 16 },
		};
		for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
			char *dir = data_path(sets[i].dir), *f1 = NULL, *f2 = NULL;
			struct problem_set set = PROBLEM_SET_INIT;
			char want1[64], want2[64];
			strbuf_reset(&err);
			assert_int_equal(problem_set_load(&set, dir, &err), -1);
			assert_true(asprintf(&f1, "%s/%s", dir, sets[i].file1) >= 0);
			assert_true(asprintf(&f2, "%s/%s", dir, sets[i].file2) >= 0);
			snprintf(want1, sizeof(want1), ":%d:%d: ", sets[i].line1, sets[i].col1);
			snprintf(want2, sizeof(want2), ":%d:%d: ", sets[i].line2, sets[i].col2);
			/* either file of a pair may be the one named */
			if (!(strncmp(err.buf, f1, strlen(f1)) == 0 && strncmp(err.buf + strlen(f1), want1, strlen(want1)) == 0) &&
			    !(strncmp(err.buf, f2, strlen(f2)) == 0 && strncmp(err.buf + strlen(f2), want2, strlen(want2)) == 0)) {
				print_error("%s: not at the offending value: %s", sets[i].dir, err.buf);
				failures++;
			}
			problem_set_release(&set);
			free(f1);
			free(f2);
			free(dir);
		}
	}
	strbuf_release(&err);
	assert_int_equal(failures, 0);
}

/* calibration_ms (a student pack's, calibrate.h): inherited with cpu_ms, dropped by a cpu_ms without one */
static void test_calibrated_limits(void **state)
{
	struct problem p;
	const struct problem *py;
	(void)state;
	load_good(&p, "good/calibrated.yaml");
	assert_int_equal(group_named(&p, "plain")->limits.cpu_ms, 2000);
	assert_int_equal(group_named(&p, "plain")->limits.calibration_ms, 124);
	assert_int_equal(group_named(&p, "own")->limits.cpu_ms, 3000);
	assert_int_equal(group_named(&p, "own")->limits.calibration_ms, 130);
	assert_int_equal(group_named(&p, "bare")->limits.cpu_ms, 500);
	assert_int_equal(group_named(&p, "bare")->limits.calibration_ms, 0);
	assert_int_equal(p.nvariants, 1);
	py = &p.variants[0];
	assert_string_equal(py->lang->name, "python");
	assert_int_equal(group_named(py, "plain")->limits.cpu_ms, 4000);
	assert_int_equal(group_named(py, "plain")->limits.calibration_ms, 108);
	assert_int_equal(group_named(py, "own")->limits.calibration_ms, 130);
	assert_int_equal(group_named(py, "bare")->limits.calibration_ms, 0);
	problem_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_structure),
		cmocka_unit_test(test_calibrated_limits),
		cmocka_unit_test(test_full_explicit_cases),
		cmocka_unit_test(test_full_range_expansion),
		cmocka_unit_test(test_full_random),
		cmocka_unit_test(test_full_generator_bounds),
		cmocka_unit_test(test_full_hidden_names),
		cmocka_unit_test(test_full_limits),
		cmocka_unit_test(test_minimal_defaults),
		cmocka_unit_test(test_long_array),
		cmocka_unit_test(test_growth),
		cmocka_unit_test(test_growth_repository),
		cmocka_unit_test(test_growth_args),
		cmocka_unit_test(test_duplicate_display_names),
		cmocka_unit_test(test_languages_variants),
		cmocka_unit_test(test_languages_cases),
		cmocka_unit_test(test_languages_limits),
		cmocka_unit_test(test_languages_groups),
		cmocka_unit_test(test_languages_order),
		cmocka_unit_test(test_no_languages),
		cmocka_unit_test(test_engine_cpu_limit),
		cmocka_unit_test(test_repository_problems),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_every_bad_file_is_listed),
		cmocka_unit_test(test_unreadable_file),
		cmocka_unit_test(test_set_ok),
		cmocka_unit_test(test_set_errors),
		cmocka_unit_test(test_fixed_bugs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
