/* casegen.c - see casegen.h */
#include "problem/casegen.h"

#include <stdlib.h>
#include <string.h>

/* splitmix64: small, well-mixed, reproducible on every platform */
static uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * In [lo, hi]: the next output modulo the span.  The slight modulo bias
 * stays: removing it would change every generated case of every problem.
 */
static long long rng_range(uint64_t *state, long long lo, long long hi)
{
	unsigned long long span = (unsigned long long)hi - (unsigned long long)lo + 1ULL;
	if (span == 0) /* the full 64-bit range */
		return (long long)rng_next(state);
	return (long long)((unsigned long long)lo + rng_next(state) % span);
}

void case_spec_release(struct case_spec *spec)
{
	for (int i = 0; i < spec->nargs; i++)
		value_release(&spec->args[i].literal);
	free(spec->args);
	free(spec->name);
	*spec = (struct case_spec)CASE_SPEC_INIT;
}

static bool has_kind(const struct case_spec *spec, enum arg_kind kind)
{
	for (int i = 0; i < spec->nargs; i++)
		if (spec->args[i].kind == kind)
			return true;
	return false;
}

bool case_spec_is_random(const struct case_spec *spec)
{
	return has_kind(spec, ARG_RANDOM) || has_kind(spec, ARG_RANDOM_ARRAY);
}

bool case_spec_is_explicit(const struct case_spec *spec)
{
	return !has_kind(spec, ARG_RANGE) && !case_spec_is_random(spec);
}

size_t arg_spec_nvalues(const struct arg_spec *arg)
{
	if (arg->kind != ARG_RANGE)
		return 1;
	/* unsigned: hi - lo may not fit a long long */
	return (size_t)((unsigned long long)arg->hi - (unsigned long long)arg->lo) + 1;
}

size_t case_spec_ntests(const struct case_spec *spec)
{
	size_t n = (size_t)spec->count;
	for (int i = 0; i < spec->nargs; i++)
		n *= arg_spec_nvalues(&spec->args[i]);
	return n;
}

/*
 * One argument of test number k: `rest` holds k's position among the
 * range combinations, with the ranges of the arguments after this one
 * already divided out; a range takes its digit and divides it out too.
 */
static void generate_arg(struct value *a, const struct arg_spec *s, size_t *rest, uint64_t *state)
{
	a->type = s->type;
	switch (s->kind) {
	case ARG_LITERAL:
		value_copy(a, &s->literal);
		break;
	case ARG_RANGE: {
		size_t span = arg_spec_nvalues(s);
		a->i = s->lo + (long long)(*rest % span);
		*rest /= span;
		break;
	}
	case ARG_RANDOM:
		a->i = rng_range(state, s->lo, s->hi);
		break;
	case ARG_RANDOM_ARRAY:
		a->len = (size_t)rng_range(state, s->len_lo, s->len_hi);
		a->arr = xcalloc(a->len + 1, sizeof(int));
		for (size_t e = 0; e < a->len; e++)
			a->arr[e] = (int)rng_range(state, s->lo, s->hi);
		break;
	}
}

size_t casegen_expand(const struct case_spec *spec, int group, struct test_case **cases, int *ncases,
		      size_t *alloc)
{
	size_t total = case_spec_ntests(spec);
	uint64_t state = spec->seed;

	for (size_t k = 0; k < total; k++) {
		struct test_case *tc;
		size_t rest = k / (size_t)spec->count; /* ranges vary slowest-last */
		ALLOC_GROW(*cases, *ncases + 1, *alloc);
		tc = &(*cases)[(*ncases)++];
		memset(tc, 0, sizeof(*tc));
		tc->group = group;
		tc->func = spec->func;
		tc->line = spec->line;
		tc->args = xcalloc((size_t)spec->nargs + 1, sizeof(struct value));
		tc->has_expected = spec->has_expected;
		tc->expected = spec->expected;
		if (spec->name)
			tc->name = xstrdup(spec->name);
		for (int i = spec->nargs - 1; i >= 0; i--)
			generate_arg(&tc->args[i], &spec->args[i], &rest, &state);
	}
	return total;
}
