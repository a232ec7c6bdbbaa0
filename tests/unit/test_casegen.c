/*
 * test_casegen.c - cmocka tests for grader/problem/casegen.c: expanding a case spec
 * into test cases, with no YAML involved.
 *
 * Expected values are written out by hand from casegen.h's contract, or
 * come from an independent source: the splitmix64 reference outputs for
 * seed 0 (published with the algorithm), figures worked out with a separate
 * implementation of the generator (Python, from the published algorithm),
 * and the YAML loader's cases for an equivalent file (good/full.yaml).
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

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "problem/casegen.h"
#include "base/digest.h"
#include "problem/problem.h"
#include "unit.h"

/* ---- building specs ---- */

static struct arg_spec literal(enum value_type t, long long v)
{
	struct arg_spec a = { .kind = ARG_LITERAL, .type = t };
	a.literal.type = t;
	a.literal.i = v;
	return a;
}

/* The spec owns the array: a copy of v. */
static struct arg_spec literal_array(const long long *v, size_t n)
{
	struct arg_spec a = { .kind = ARG_LITERAL, .type = VT_INT_ARRAY };
	a.literal.type = VT_INT_ARRAY;
	a.literal.arr = xcalloc(n + 1, sizeof(*a.literal.arr));
	memcpy(a.literal.arr, v, n * sizeof(*a.literal.arr));
	a.literal.len = n;
	return a;
}

static struct arg_spec range(enum value_type t, long long lo, long long hi)
{
	struct arg_spec a = { .kind = ARG_RANGE, .type = t, .lo = lo, .hi = hi };
	return a;
}

static struct arg_spec random_value(enum value_type t, long long lo, long long hi)
{
	struct arg_spec a = { .kind = ARG_RANDOM, .type = t, .lo = lo, .hi = hi };
	return a;
}

static struct arg_spec random_array(long long len_lo, long long len_hi, long long lo, long long hi)
{
	struct arg_spec a = { .kind = ARG_RANDOM_ARRAY, .type = VT_INT_ARRAY, .lo = lo, .hi = hi,
			      .len_lo = len_lo, .len_hi = len_hi };
	return a;
}

/* A spec for function func with nargs arguments (struct arg_spec values) following. */
static struct case_spec make_spec(int func, long long count, uint64_t seed, int nargs, ...)
{
	struct case_spec spec = CASE_SPEC_INIT;
	va_list ap;
	spec.func = func;
	spec.count = count;
	spec.seed = seed;
	spec.nargs = nargs;
	spec.args = xcalloc((size_t)nargs + 1, sizeof(*spec.args));
	va_start(ap, nargs);
	for (int i = 0; i < nargs; i++)
		spec.args[i] = va_arg(ap, struct arg_spec);
	va_end(ap);
	return spec;
}

/* ---- the generated cases ---- */

struct cases {
	struct test_case *c;
	int n;
	size_t alloc;
	int *nargs; /* per case: how many args to release */
	size_t nargs_alloc;
};
#define CASES_INIT { NULL, 0, 0, NULL, 0 }

static size_t expand(struct cases *cs, const struct case_spec *spec, int group)
{
	int before = cs->n;
	size_t added = casegen_expand(spec, group, &cs->c, &cs->n, &cs->alloc);
	assert_int_equal(cs->n, before + (int)added);
	ALLOC_GROW(cs->nargs, cs->n, cs->nargs_alloc);
	for (int k = before; k < cs->n; k++)
		cs->nargs[k] = spec->nargs;
	return added;
}

static void cases_release(struct cases *cs)
{
	for (int k = 0; k < cs->n; k++) {
		for (int i = 0; i < cs->nargs[k]; i++)
			value_release(&cs->c[k].args[i]);
		free(cs->c[k].args);
		free(cs->c[k].name);
	}
	free(cs->c);
	free(cs->nargs);
}

static void assert_same_value(const struct value *x, const struct value *y)
{
	assert_int_equal(x->type, y->type);
	if (x->i != y->i)
		fail_msg("values differ: %lld and %lld", x->i, y->i);
	assert_int_equal(x->len, y->len);
	if (x->len)
		assert_memory_equal(x->arr, y->arr, x->len * sizeof(*x->arr));
}

/* ---- tests ---- */

static void test_range_every_value(void **state)
{
	struct case_spec spec = make_spec(2, 1, 99, 1, range(VT_INT, -2, 2));
	struct cases cs = CASES_INIT;
	(void)state;
	spec.line = 17;
	assert_int_equal(case_spec_ntests(&spec), 5);
	assert_int_equal(expand(&cs, &spec, 4), 5);
	for (int k = 0; k < 5; k++) {
		const struct test_case *tc = &cs.c[k];
		assert_int_equal(tc->group, 4);
		assert_int_equal(tc->func, 2);
		assert_int_equal(tc->line, 17);
		assert_false(tc->has_expected);
		assert_null(tc->name);
		assert_int_equal(tc->args[0].type, VT_INT);
		assert_int_equal(tc->args[0].i, k - 2); /* -2, -1, 0, 1, 2 */
	}
	cases_release(&cs);
	case_spec_release(&spec);
}

static void test_range_cross_product(void **state)
{
	/* first argument slowest, last fastest; a literal between them changes nothing */
	static const long long want[][3] = {
		{ 1, 7, 10 }, { 1, 7, 11 }, { 2, 7, 10 }, { 2, 7, 11 }, { 3, 7, 10 }, { 3, 7, 11 },
	};
	struct case_spec spec = make_spec(0, 1, 0, 3, range(VT_INT, 1, 3), literal(VT_INT, 7),
					  range(VT_LONG, 10, 11));
	struct cases cs = CASES_INIT;
	(void)state;
	assert_int_equal(expand(&cs, &spec, 0), 6);
	for (int k = 0; k < 6; k++) {
		for (int i = 0; i < 3; i++)
			if (cs.c[k].args[i].i != want[k][i])
				fail_msg("case %d arg %d: %lld, expected %lld", k, i, cs.c[k].args[i].i, want[k][i]);
		assert_int_equal(cs.c[k].args[0].type, VT_INT);
		assert_int_equal(cs.c[k].args[2].type, VT_LONG);
	}
	cases_release(&cs);
	case_spec_release(&spec);
}

/* The generator's raw outputs: a random value over the whole 64-bit range is one. */
static void test_generator_reference_values(void **state)
{
	/* splitmix64 from seed 0 */
	static const uint64_t want[] = { 0xe220a8397b1dcdafULL, 0x6e789e6aa1b965f4ULL,
					 0x06c45d188009454fULL, 0xf88bb8a8724c81ecULL };
	struct case_spec spec = make_spec(0, 2, 0, 2, random_value(VT_LONG, LLONG_MIN, LLONG_MAX),
					  random_value(VT_LONG, LLONG_MIN, LLONG_MAX));
	struct cases cs = CASES_INIT;
	(void)state;
	assert_int_equal(expand(&cs, &spec, 0), 2);
	/* within a test the last argument draws first */
	for (int k = 0; k < 2; k++) {
		if ((uint64_t)cs.c[k].args[1].i != want[2 * k])
			fail_msg("case %d arg 1: %#llx", k, (unsigned long long)cs.c[k].args[1].i);
		if ((uint64_t)cs.c[k].args[0].i != want[2 * k + 1])
			fail_msg("case %d arg 0: %#llx", k, (unsigned long long)cs.c[k].args[0].i);
	}
	cases_release(&cs);
	case_spec_release(&spec);
}

/* random x range x random, count 2: each range value twice in a row, fresh draws each time */
static void test_random_with_range_order(void **state)
{
	/* worked out with a separate splitmix64: seed 5, per test arg 2 then arg 0 draw */
	static const long long want[][3] = { { -1, 1, 11 }, { -5, 1, 15 }, { -4, 2, 14 }, { 2, 2, 18 } };
	struct case_spec spec = make_spec(0, 2, 5, 3, random_value(VT_INT, -5, 5), range(VT_INT, 1, 2),
					  random_value(VT_INT, 10, 20));
	struct cases cs = CASES_INIT;
	(void)state;
	assert_true(case_spec_is_random(&spec));
	assert_false(case_spec_is_explicit(&spec));
	assert_int_equal(expand(&cs, &spec, 0), 4);
	for (int k = 0; k < 4; k++)
		for (int i = 0; i < 3; i++)
			if (cs.c[k].args[i].i != want[k][i])
				fail_msg("case %d arg %d: %lld, expected %lld", k, i, cs.c[k].args[i].i, want[k][i]);
	cases_release(&cs);
	case_spec_release(&spec);
}

static void test_random_reproducible_and_bounded(void **state)
{
	struct case_spec spec = make_spec(1, 50, 7, 2, random_value(VT_INT, -5, 5),
					  random_value(VT_LONG, 1000000000000LL, 2000000000000LL));
	struct case_spec other = make_spec(1, 50, 8, 2, random_value(VT_INT, -5, 5),
					   random_value(VT_LONG, 1000000000000LL, 2000000000000LL));
	struct cases a = CASES_INIT, b = CASES_INIT, c = CASES_INIT;
	int seen[11] = { 0 }, distinct = 0, differ = 0;
	(void)state;
	assert_int_equal(expand(&a, &spec, 0), 50);
	assert_int_equal(expand(&b, &spec, 0), 50);
	assert_int_equal(expand(&c, &other, 0), 50);
	for (int k = 0; k < 50; k++) {
		assert_between(a.c[k].args[0].i, -5, 5);
		assert_between(a.c[k].args[1].i, 1000000000000LL, 2000000000000LL);
		assert_int_equal(a.c[k].args[0].type, VT_INT);
		assert_int_equal(a.c[k].args[1].type, VT_LONG);
		/* the same seed, the same values */
		assert_same_value(&a.c[k].args[0], &b.c[k].args[0]);
		assert_same_value(&a.c[k].args[1], &b.c[k].args[1]);
		differ += a.c[k].args[1].i != c.c[k].args[1].i;
		if (!seen[a.c[k].args[0].i + 5]++)
			distinct++;
	}
	/* another seed, other values; and values vary within one expansion */
	assert_true(differ >= 49);
	assert_true(distinct >= 8);
	cases_release(&a);
	cases_release(&b);
	cases_release(&c);
	case_spec_release(&spec);
	case_spec_release(&other);
}

static void test_random_array_bounds(void **state)
{
	struct case_spec spec = make_spec(0, 200, 9, 1, random_array(0, 6, -3, 3));
	struct cases cs = CASES_INIT;
	int seen_len[7] = { 0 }, lengths = 0, seen_el[7] = { 0 }, elements = 0;
	(void)state;
	assert_int_equal(expand(&cs, &spec, 0), 200);
	for (int k = 0; k < 200; k++) {
		const struct value *v = &cs.c[k].args[0];
		assert_int_equal(v->type, VT_INT_ARRAY);
		assert_between(v->len, 0, 6);
		if (!seen_len[v->len]++)
			lengths++;
		for (size_t e = 0; e < v->len; e++) {
			assert_between(v->arr[e], -3, 3);
			if (!seen_el[v->arr[e] + 3]++)
				elements++;
		}
	}
	/* both ends of both bounds are reached */
	assert_int_equal(lengths, 7);
	assert_int_equal(elements, 7);
	cases_release(&cs);
	case_spec_release(&spec);
}

static void test_random_array_values(void **state)
{
	/* worked out with a separate splitmix64: seed 42, length [2, 4], values [-100, 100] */
	static const long long first[] = { -51, -67, -34 }, second[] = { -49, -75, -38 };
	struct case_spec spec = make_spec(0, 2, 42, 1, random_array(2, 4, -100, 100));
	struct cases cs = CASES_INIT;
	(void)state;
	assert_int_equal(expand(&cs, &spec, 0), 2);
	assert_int_equal(cs.c[0].args[0].len, 3);
	assert_memory_equal(cs.c[0].args[0].arr, first, sizeof(first));
	assert_int_equal(cs.c[1].args[0].len, 3);
	assert_memory_equal(cs.c[1].args[0].arr, second, sizeof(second));
	cases_release(&cs);
	case_spec_release(&spec);
}

static void test_explicit_keeps_expected_and_name(void **state)
{
	static const long long arr[] = { 4, 3, 1, 2 };
	struct case_spec spec = make_spec(3, 1, 0, 2, literal_array(arr, 4), literal(VT_BOOL, 1));
	struct cases cs = CASES_INIT;
	(void)state;
	spec.has_expected = true;
	spec.expected = -10;
	spec.name = xstrdup("sum of four");
	spec.line = 21;
	assert_true(case_spec_is_explicit(&spec));
	assert_false(case_spec_is_random(&spec));
	assert_int_equal(expand(&cs, &spec, 1), 1);
	/* the case owns copies: release the spec before looking */
	case_spec_release(&spec);
	assert_null(spec.args);
	assert_null(spec.name);
	assert_int_equal(cs.c[0].func, 3);
	assert_int_equal(cs.c[0].group, 1);
	assert_int_equal(cs.c[0].line, 21);
	assert_true(cs.c[0].has_expected);
	assert_int_equal(cs.c[0].expected, -10);
	assert_string_equal(cs.c[0].name, "sum of four");
	assert_int_equal(cs.c[0].args[0].type, VT_INT_ARRAY);
	assert_int_equal(cs.c[0].args[0].len, 4);
	assert_memory_equal(cs.c[0].args[0].arr, arr, sizeof(arr));
	assert_int_equal(cs.c[0].args[1].type, VT_BOOL);
	assert_int_equal(cs.c[0].args[1].i, 1);
	cases_release(&cs);
}

static void test_no_arguments(void **state)
{
	struct case_spec spec = make_spec(0, 1, 0, 0);
	struct cases cs = CASES_INIT;
	(void)state;
	assert_true(case_spec_is_explicit(&spec));
	assert_int_equal(case_spec_ntests(&spec), 1);
	assert_int_equal(expand(&cs, &spec, 0), 1);
	cases_release(&cs);
	case_spec_release(&spec);
}

static void test_appends_after_existing(void **state)
{
	struct case_spec first = make_spec(0, 1, 0, 1, range(VT_INT, 1, 40));
	struct case_spec second = make_spec(1, 3, 0, 2, range(VT_INT, 5, 6), random_value(VT_INT, 0, 9));
	struct cases cs = CASES_INIT;
	(void)state;
	assert_int_equal(arg_spec_nvalues(&first.args[0]), 40);
	assert_int_equal(arg_spec_nvalues(&second.args[1]), 1);
	assert_int_equal(case_spec_ntests(&second), 6);
	assert_int_equal(expand(&cs, &first, 0), 40);
	assert_int_equal(expand(&cs, &second, 1), 6);
	assert_int_equal(cs.n, 46);
	/* the first expansion survives the array growing under the second */
	for (int k = 0; k < 40; k++) {
		assert_int_equal(cs.c[k].group, 0);
		assert_int_equal(cs.c[k].args[0].i, k + 1);
	}
	for (int k = 40; k < 46; k++) {
		assert_int_equal(cs.c[k].group, 1);
		assert_int_equal(cs.c[k].func, 1);
		assert_int_equal(cs.c[k].args[0].i, k < 43 ? 5 : 6);
		assert_between(cs.c[k].args[1].i, 0, 9);
	}
	cases_release(&cs);
	case_spec_release(&first);
	case_spec_release(&second);
}

/* The seed problem.c derives for an entry without `seed:`: problem id, group name, entry position. */
/* The documented default seed: SHA-256 of id, group and the entry's position in decimal, each with its NUL. */
static uint64_t default_seed(const char *id, const char *group, int entry_index)
{
	struct digest h;
	char index[16];
	snprintf(index, sizeof(index), "%d", entry_index);
	digest_init(&h);
	digest_add_str(&h, id);
	digest_add_str(&h, group);
	digest_add_str(&h, index);
	return digest_u64(&h);
}

/*
 * The generated groups of good/full.yaml, written as specs by hand from
 * the YAML text, expand to exactly the loader's cases.
 */
static void test_agrees_with_loader(void **state)
{
	enum { WIN, SUM, PAIR };
	struct case_spec specs[] = {
		/* group ranges (1), from case 6 */
		make_spec(PAIR, 1, 0, 2, range(VT_INT, 1, 3), range(VT_LONG, 10, 11)),
		make_spec(WIN, 1, 0, 1, range(VT_INT, -1, 1)),
		/* group random (2), from case 15 */
		make_spec(PAIR, 20, 7, 2, random_value(VT_INT, -5, 5),
			  random_value(VT_LONG, 1000000000000LL, 2000000000000LL)),
		make_spec(PAIR, 20, 7, 2, random_value(VT_INT, -5, 5),
			  random_value(VT_LONG, 1000000000000LL, 2000000000000LL)),
		make_spec(PAIR, 20, 8, 2, random_value(VT_INT, -5, 5),
			  random_value(VT_LONG, 1000000000000LL, 2000000000000LL)),
		make_spec(SUM, 30, 9, 1, random_array(0, 6, -3, 3)),
		/* group factor-override (3), from case 105: the first entry has no seed */
		make_spec(WIN, 1, default_seed("full", "factor-override", 0), 1, random_value(VT_INT, 0, 1000)),
		make_spec(PAIR, 200, 1, 2, random_value(VT_INT, 0, 1), literal(VT_LONG, 5)),
	};
	static const int group[] = { 1, 1, 2, 2, 2, 2, 3, 3 };
	struct cases cs = CASES_INIT;
	struct problem p;
	struct strbuf err = STRBUF_INIT;
	char *path = data_path("good/full.yaml");
	(void)state;

	if (problem_load(&p, path, &err) != 0)
		fail_msg("%s did not load:\n%s", path, err.buf);
	for (size_t s = 0; s < sizeof(specs) / sizeof(specs[0]); s++)
		expand(&cs, &specs[s], group[s]);
	assert_int_equal(cs.n, 300);
	assert_int_equal(p.ncases, 6 + cs.n);
	for (int k = 0; k < cs.n; k++) {
		const struct test_case *want = &cs.c[k], *got = &p.cases[6 + k];
		assert_int_equal(got->group, want->group);
		assert_int_equal(got->func, want->func);
		assert_false(got->has_expected);
		assert_int_equal(p.funcs[got->func].ninputs, cs.nargs[k]);
		for (int i = 0; i < cs.nargs[k]; i++)
			assert_same_value(&got->args[i], &want->args[i]);
	}
	problem_release(&p);
	cases_release(&cs);
	for (size_t s = 0; s < sizeof(specs) / sizeof(specs[0]); s++)
		case_spec_release(&specs[s]);
	strbuf_release(&err);
	free(path);
}


/* ---- generators that know the game (issue 33) ---- */

static struct expr *parse(const char *text, int n, ...)
{
	const char *names[8];
	struct expr *e = NULL;
	struct strbuf err = STRBUF_INIT;
	va_list ap;
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		names[i] = va_arg(ap, const char *);
	va_end(ap);
	if (expr_parse(text, names, n, &e, &err) < 0)
		fail_msg("'%s' does not parse: %s", text, err.buf);
	strbuf_release(&err);
	return e;
}

static void expect_parse_error(const char *text, const char *msg)
{
	const char *names[2] = { "n", "moves" };
	struct expr *e = NULL;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(expr_parse(text, names, 2, &e, &err), -1);
	assert_null(e);
	if (!strstr(err.buf, msg))
		fail_msg("'%s': message '%s' lacks '%s'", text, err.buf, msg);
	strbuf_release(&err);
}

static void test_expr_errors(void **state)
{
	(void)state;
	expect_parse_error("m - 1", "'m' names no argument of this function (it takes n, moves)");
	expect_parse_error("n -", "the expression ends too early");
	expect_parse_error("(n + 1", "a '(' is not closed");
	expect_parse_error("n + 1)", "unexpected ')'");
	expect_parse_error("n $ 2", "unexpected '$'");
	expect_parse_error("99999999999999999999", "too large");
}

/* k drawn from [1, n - 1] after n: every test has 1 <= k < n, and n takes several values */
static void test_dependent_bound(void **state)
{
	struct cases cs = CASES_INIT;
	struct case_spec spec = make_spec(0, 300, 7, 2, random_value(VT_INT, 2, 40), random_value(VT_INT, 1, 1));
	bool seen_small = false, seen_large = false;
	(void)state;
	spec.args[1].hi_e = parse("n - 1", 2, "n", "k");
	assert_true(case_spec_is_dependent(&spec));
	assert_int_equal(expand(&cs, &spec, 0), 300);
	for (int k = 0; k < cs.n; k++) {
		long long n = cs.c[k].args[0].i, kk = cs.c[k].args[1].i;
		if (n < 2 || n > 40 || kk < 1 || kk >= n)
			fail_msg("test %d: n = %lld, k = %lld", k, n, kk);
		seen_small |= n == 2;
		seen_large |= kk > 30;
	}
	assert_true(seen_small);
	assert_true(seen_large);
	cases_release(&cs);
	case_spec_release(&spec);
}

/* the canIWin shape: T in [M + 1, M (M + 1) / 2], where the first argument depends on nothing */
static void test_total_within_reach(void **state)
{
	struct cases cs = CASES_INIT;
	struct case_spec spec = make_spec(0, 200, 464, 2, random_value(VT_INT, 1, 20), random_value(VT_INT, 0, 0));
	(void)state;
	spec.args[1].lo_e = parse("M + 1", 2, "M", "T");
	spec.args[1].hi_e = parse("M * (M + 1) / 2", 2, "M", "T");
	expand(&cs, &spec, 0);
	for (int k = 0; k < cs.n; k++) {
		long long m = cs.c[k].args[0].i, t = cs.c[k].args[1].i;
		/* M = 1 and 2 give a low bound above the high one: the low bound */
		long long lo = m + 1, hi = m * (m + 1) / 2 < lo ? lo : m * (m + 1) / 2;
		if (t < lo || t > hi)
			fail_msg("test %d: M = %lld, T = %lld outside [%lld, %lld]", k, m, t, lo, hi);
	}
	cases_release(&cs);
	case_spec_release(&spec);
}

/* an array whose length is another argument (the second input, drawn first whatever its place) */
static void test_length_from_argument(void **state)
{
	struct cases cs = CASES_INIT;
	struct case_spec spec = make_spec(0, 50, 3, 2, random_array(0, 0, -5, 5), random_value(VT_INT, 0, 30));
	int order[2];
	(void)state;
	spec.args[0].len_lo_e = parse("n", 2, "a", "n");
	spec.args[0].len_hi_e = parse("n", 2, "a", "n");
	assert_int_equal(casegen_order(&spec, order), 0);
	assert_int_equal(order[0], 1);
	assert_int_equal(order[1], 0);
	expand(&cs, &spec, 0);
	for (int k = 0; k < cs.n; k++)
		assert_int_equal((long long)cs.c[k].args[0].len, cs.c[k].args[1].i);
	cases_release(&cs);
	case_spec_release(&spec);
}

static void test_circle(void **state)
{
	struct case_spec spec = make_spec(0, 1, 3, 2, random_value(VT_INT, 0, 9), random_value(VT_INT, 0, 9));
	int order[2];
	(void)state;
	spec.args[0].hi_e = parse("b", 2, "a", "b");
	spec.args[1].hi_e = parse("a + 1", 2, "a", "b");
	assert_int_equal(casegen_order(&spec, order), -1);
	case_spec_release(&spec);
}

static unsigned xor_of(const struct value *v)
{
	unsigned x = 0;
	for (size_t e = 0; e < v->len; e++)
		x ^= (unsigned)v->arr[e];
	return x;
}

/* Nim's losing positions: XOR 0 and every pile in bounds, rows up to 100 000 piles */
static void test_xor_zero(void **state)
{
	struct cases cs = CASES_INIT;
	struct case_spec spec = make_spec(0, 40, 504, 1, random_array(0, 2000, 0, 1000000000));
	bool nonzero = false;
	(void)state;
	spec.args[0].has_xor = true;
	expand(&cs, &spec, 0);
	spec.args[0].len_lo = spec.args[0].len_hi = 100000;
	spec.count = 2;
	expand(&cs, &spec, 0);
	for (int k = 0; k < cs.n; k++) {
		const struct value *v = &cs.c[k].args[0];
		assert_int_equal(xor_of(v), 0);
		for (size_t e = 0; e < v->len; e++) {
			if (v->arr[e] < 0 || v->arr[e] > 1000000000)
				fail_msg("test %d: pile %zu is %lld", k, e, v->arr[e]);
			nonzero |= v->arr[e] != 0;
		}
	}
	assert_int_equal(cs.c[cs.n - 1].args[0].len, 100000);
	assert_true(nonzero); /* not the all-zeros fallback every time */
	/* a given XOR: 1, a winning position */
	spec.args[0].xor_value = 1;
	spec.args[0].len_lo = 1;
	spec.args[0].len_hi = 50;
	spec.count = 30;
	int before = cs.n;
	expand(&cs, &spec, 0);
	for (int k = before; k < cs.n; k++)
		assert_int_equal(xor_of(&cs.c[k].args[0]), 1);
	cases_release(&cs);
	case_spec_release(&spec);
}

static void test_sorted_distinct(void **state)
{
	struct cases cs = CASES_INIT;
	/* dense (a permutation of 1..12), sparse, and sorted */
	struct case_spec dense = make_spec(0, 10, 1, 1, random_array(12, 12, 1, 12));
	struct case_spec sparse = make_spec(0, 10, 2, 1, random_array(1, 300, -1000000, 1000000));
	struct case_spec cut = make_spec(0, 5, 3, 1, random_array(20, 20, 1, 5));
	(void)state;
	dense.args[0].distinct = sparse.args[0].distinct = cut.args[0].distinct = true;
	sparse.args[0].sorted = true;
	expand(&cs, &dense, 0);
	expand(&cs, &sparse, 0);
	expand(&cs, &cut, 0);
	for (int k = 0; k < cs.n; k++) {
		const struct value *v = &cs.c[k].args[0];
		for (size_t a = 0; a < v->len; a++)
			for (size_t b = a + 1; b < v->len; b++)
				if (v->arr[a] == v->arr[b])
					fail_msg("test %d: %lld twice", k, v->arr[a]);
		if (k >= 10 && k < 20)
			for (size_t a = 1; a < v->len; a++)
				assert_true(v->arr[a - 1] < v->arr[a]);
		if (k < 10)
			assert_int_equal(v->len, 12);
		if (k >= 20)
			assert_int_equal(v->len, 5); /* cut to the 5 values of [1, 5] */
	}
	/* the dense draws are shuffled, not 1..12 in order every time */
	bool shuffled = false;
	for (int k = 0; k < 10; k++)
		for (size_t a = 0; a < 12; a++)
			shuffled |= cs.c[k].args[0].arr[a] != (int)a + 1;
	assert_true(shuffled);
	cases_release(&cs);
	case_spec_release(&dense);
	case_spec_release(&sparse);
	case_spec_release(&cut);
}

/* the same spec twice: the same tests (reproducible from the seed) */
static void test_reproducible(void **state)
{
	struct cases a = CASES_INIT, b = CASES_INIT;
	struct case_spec spec = make_spec(0, 20, 99, 2, random_value(VT_INT, 1, 100), random_array(0, 0, 1, 1));
	(void)state;
	spec.args[1].len_hi_e = parse("n / 2", 2, "n", "moves");
	spec.args[1].hi_e = parse("n + 5", 2, "n", "moves");
	spec.args[1].distinct = spec.args[1].sorted = true;
	expand(&a, &spec, 0);
	expand(&b, &spec, 0);
	for (int k = 0; k < a.n; k++)
		for (int i = 0; i < 2; i++)
			assert_same_value(&a.c[k].args[i], &b.c[k].args[i]);
	cases_release(&a);
	cases_release(&b);
	case_spec_release(&spec);
}

/* a chosen spec expands to its tries; casegen_select keeps by hand-written answers */
static void test_select(void **state)
{
	long long answers[10] = { 1, 1, 0, 1, 0, 1, 0, 0, 1, 0 };
	bool have[10], keep[10];
	bool want_balance[10] = { true, true, true, false, true, false, false, false, false, false };
	bool want_false[10] = { false, false, true, false, true, false, true, false, false, false };
	struct case_spec spec = make_spec(0, 4, 1, 1, random_value(VT_INT, 0, 9));
	(void)state;
	spec.tries = 10;
	assert_int_equal(case_spec_ntests(&spec), 10);
	for (int k = 0; k < 10; k++)
		have[k] = true;
	assert_int_equal(casegen_select(4, true, 0, answers, have, 10, keep), 4);
	for (int k = 0; k < 10; k++)
		assert_int_equal(keep[k], want_balance[k]);
	assert_int_equal(casegen_select(3, false, 0, answers, have, 10, keep), 3);
	for (int k = 0; k < 10; k++)
		assert_int_equal(keep[k], want_false[k]);
	/* not enough: 5 zeros among 10, 6 wanted; a candidate without an answer is never kept */
	have[2] = false;
	assert_int_equal(casegen_select(6, false, 0, answers, have, 10, keep), 4);
	assert_false(keep[2]);
	case_spec_release(&spec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_range_every_value),
		cmocka_unit_test(test_range_cross_product),
		cmocka_unit_test(test_generator_reference_values),
		cmocka_unit_test(test_random_with_range_order),
		cmocka_unit_test(test_random_reproducible_and_bounded),
		cmocka_unit_test(test_random_array_bounds),
		cmocka_unit_test(test_random_array_values),
		cmocka_unit_test(test_explicit_keeps_expected_and_name),
		cmocka_unit_test(test_no_arguments),
		cmocka_unit_test(test_appends_after_existing),
		cmocka_unit_test(test_agrees_with_loader),
		cmocka_unit_test(test_expr_errors),
		cmocka_unit_test(test_dependent_bound),
		cmocka_unit_test(test_total_within_reach),
		cmocka_unit_test(test_length_from_argument),
		cmocka_unit_test(test_circle),
		cmocka_unit_test(test_xor_zero),
		cmocka_unit_test(test_sorted_distinct),
		cmocka_unit_test(test_reproducible),
		cmocka_unit_test(test_select),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
