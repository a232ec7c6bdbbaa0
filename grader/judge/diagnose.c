/* diagnose.c - see diagnose.h */
#include "judge/diagnose.h"

#include <stdint.h>
#include <stdlib.h>

#include "base/util.h"

/* Replace a test's message with "message\nadvice". */
static void add_advice(struct test_result *t, const char *advice)
{
	char *m = t->message ? xasprintf("%s\n%s", t->message, advice) : xstrdup(advice);
	free(t->message);
	t->message = m;
}

/* The low 32 bits agree, or the sign is wrong where the answer needs more than 32 bits. */
static bool looks_like_overflow(long long actual, long long expected)
{
	uint64_t a = (uint64_t)actual, e = (uint64_t)expected;
	bool beyond_32 = expected > INT32_MAX || expected < INT32_MIN;

	if (actual == expected)
		return false;
	return (uint32_t)a == (uint32_t)e || (beyond_32 && (actual < 0) != (expected < 0));
}

static void diagnose_overflow(const struct problem *p, struct test_result *t)
{
	if (t->verdict != V_WRONG_ANSWER || !t->has_actual || !t->has_expected ||
	    p->funcs[t->tc->func].ret == VT_BOOL || !looks_like_overflow(t->actual, t->expected))
		return;
	add_advice(t, "This looks like 32-bit overflow (the answer is right in its low 32 bits, or only its sign is "
		      "wrong): use long long for sums and products");
}

/* The first time limit of a group after at least two earlier tests, all of them correct. */
static void diagnose_slow(const struct problem *p, struct problem_result *pr, const struct group *grp)
{
	int first = grp->first_case, end = grp->first_case + grp->ncases;
	struct strbuf call = STRBUF_INIT;
	char *advice;

	for (int k = first; k < end; k++) {
		struct test_result *t = &pr->tests[k];
		if (t->verdict == V_CORRECT)
			continue;
		if (t->verdict != V_TIMELIMIT || k - first < 2)
			return;
		test_case_format_call(&call, p, t->tc);
		advice = xasprintf("Correct on the %d earlier tests of this group, too slow from %s on: the algorithm "
				   "needs to be faster for larger inputs (memoisation, or a loop over a table)",
				   k - first, call.buf);
		add_advice(t, advice);
		free(advice);
		strbuf_release(&call);
		return;
	}
}

void diagnose_result(struct grade_result *r, enum visibility vis)
{
	for (int i = 0; i < r->nproblems; i++) {
		struct problem_result *pr = &r->problems[i];
		const struct problem *p = pr->problem;
		if (pr->build_verdict != V_CORRECT)
			continue;
		for (int k = 0; k < pr->ntests; k++)
			if (p->groups[pr->tests[k].tc->group].visibility == vis)
				diagnose_overflow(p, &pr->tests[k]);
		for (int g = 0; g < p->ngroups; g++)
			if (p->groups[g].visibility == vis)
				diagnose_slow(p, pr, &p->groups[g]);
	}
}
