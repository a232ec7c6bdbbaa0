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
static struct arg_spec literal_array(const int *v, size_t n)
{
	struct arg_spec a = { .kind = ARG_LITERAL, .type = VT_INT_ARRAY };
	a.literal.type = VT_INT_ARRAY;
	a.literal.arr = xcalloc(n + 1, sizeof(int));
	memcpy(a.literal.arr, v, n * sizeof(int));
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
		assert_memory_equal(x->arr, y->arr, x->len * sizeof(int));
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
	static const int first[] = { -51, -67, -34 }, second[] = { -49, -75, -38 };
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
	static const int arr[] = { 4, 3, 1, 2 };
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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
