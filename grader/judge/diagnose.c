/* diagnose.c - see diagnose.h */
#include "judge/diagnose.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/l10n.h"

/* Replace a test's message with "message\nadvice". */
static void add_advice(struct test_result *t, const char *advice)
{
	/* in English, then (L10N) in the students' language: both parts are remembered translations */
	char *m = L10N(t->message ? xasprintf("%s\n%s", l10n_message(t->message), l10n_message(advice))
				  : xstrdup(l10n_message(advice)));
	free(t->message);
	t->message = m;
}

/* Put advice at the end of the message's first line (before a traceback), as "line<sep>advice": the
 * report wraps that line (a traceback below it is left as it is). */
static void add_advice_inline(struct test_result *t, const char *sep, const char *advice)
{
	char *m = L10N(({
		const char *old = l10n_message(t->message);
		size_t l = strcspn(old, "\n");
		xasprintf("%.*s%s%s%s", (int)l, old, sep, l10n_message(advice), old + l);
	}));
	free(t->message);
	t->message = m;
}

/*
 * Python's recursion limit: a missing base case only when no test of the
 * function passed (the smallest inputs neither); when some did, the
 * recursion ends and its depth grows with the input's size.
 */
static void diagnose_recursion(const struct problem *p, const struct problem_result *pr, struct test_result *t,
			       enum visibility vis)
{
	bool passed = false;
	char *advice;

	if (!t->recursion_limit)
		return;
	/* the tests that ran: the public ones, and those of vis (the hidden ones run after the public) */
	for (int k = 0; k < pr->ntests && !passed; k++) {
		const struct test_result *o = &pr->tests[k];
		enum visibility ov = p->groups[o->tc->group].visibility;
		passed = (ov == VIS_PUBLIC || ov == vis) && o->tc->func == t->tc->func && o->verdict == V_CORRECT;
	}
	if (passed)
		advice = L10N(xasprintf(_("%s passed smaller inputs, so the recursion ends, but its depth grows with "
					  "the input's size: raise the limit with sys.setrecursionlimit(...) (deep recursion "
					  "then needs memory), or compute the values with a loop and a table"),
					p->funcs[t->tc->func].name));
	else
		advice = L10N(xasprintf(_("%s passed no test, the smallest inputs neither: a missing base case?"),
					p->funcs[t->tc->func].name));
	add_advice_inline(t, ": ", advice);
	free(advice);
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
	char *advice;

	if (t->verdict != V_WRONG_ANSWER || !t->has_actual || !t->has_expected ||
	    p->funcs[t->tc->func].ret == VT_BOOL || !looks_like_overflow(t->actual, t->expected))
		return;
	advice = L10N(xstrdup(_("This looks like 32-bit overflow (the answer is right in its low 32 bits, or "
				"only its sign is wrong): use long long for sums and products")));
	add_advice(t, advice);
	free(advice);
}

/*
 * The size test tc gives its call: with a `growth:` size for that call, that
 * input's; else the first array's length, or else the first integer's
 * value.  *name is the input's name, *by_length whether the size is an
 * array's length.  false: the call takes neither (only bools).
 */
static bool test_size(const struct problem *p, const struct test_case *tc, long long *size, const char **name,
		      bool *by_length)
{
	const struct signature *sig = &p->funcs[tc->func];
	int arg = -1;

	if (p->growth.declared && p->growth.func == tc->func) {
		arg = p->growth.size_arg;
	} else {
		for (int k = 0; k < sig->ninputs && arg < 0; k++)
			if (value_type_is_array(sig->input_types[k]))
				arg = k;
		for (int k = 0; k < sig->ninputs && arg < 0; k++)
			if (sig->input_types[k] != VT_BOOL)
				arg = k;
	}
	if (arg < 0)
		return false;
	*by_length = value_type_is_array(sig->input_types[arg]);
	*size = *by_length ? (long long)tc->args[arg].len : tc->args[arg].i;
	*name = "";
	for (int j = 0, k = 0; j < sig->nparams; j++)
		if (!sig->params[j].is_length && k++ == arg)
			*name = sig->params[j].name;
	return true;
}

static bool crashed(const struct test_result *t)
{
	return t->verdict == V_RUN_ERROR && !t->at_startup;
}

/*
 * A call correct on every test up to a size that crashes (run-error: a bad
 * access, a smashed stack, the stack's end) on every test from a larger
 * size on: "f was correct on every test up to length 20 and crashed on
 * every test from length 21 on", on the first crash of each group of
 * visibility vis.  Drawn from the tests that ran (the public ones, and
 * vis's) and nothing else: no sentence when one of them failed otherwise
 * (a wrong answer, a time limit), when passes and crashes interleave in
 * size, or from fewer than two passes.  A student's run that left tests out
 * after failures in a row (skipped) says less: "up to length 4 ... from
 * length 50 on" where every test ran says 20 and 33.
 */
static void diagnose_crash_size(const struct problem *p, struct problem_result *pr, int func, enum visibility vis)
{
	long long pass_max = LLONG_MIN, crash_min = LLONG_MAX, size = 0;
	int npass = 0, ncrash = 0;
	const char *name = "";
	bool by_length = false;
	char *advice;

	for (int k = 0; k < pr->ntests; k++) {
		const struct test_result *t = &pr->tests[k];
		enum visibility ov = p->groups[t->tc->group].visibility;
		if (t->tc->func != func || (ov != VIS_PUBLIC && ov != vis) || t->verdict == V_SKIPPED)
			continue;
		if (!test_size(p, t->tc, &size, &name, &by_length))
			return;
		if (t->verdict == V_CORRECT) {
			npass++;
			pass_max = size > pass_max ? size : pass_max;
		} else if (crashed(t)) {
			ncrash++;
			crash_min = size < crash_min ? size : crash_min;
		} else {
			return;
		}
	}
	if (npass < 2 || !ncrash || pass_max >= crash_min)
		return;
	if (by_length)
		advice = L10N(xasprintf(_("%s was correct on every test up to length %lld and crashed on every test from "
					  "length %lld on: look for what a longer input overruns (an array of a fixed "
					  "size, a recursion as deep as the input)"), problem_call_name(p, func), pass_max,
					crash_min));
	else
		advice = L10N(xasprintf(_("%s was correct on every test up to %s = %lld and crashed on every test from "
					  "%s = %lld on: look for what a larger input overruns (an array of a fixed size, "
					  "a recursion as deep as %s)"),
					problem_call_name(p, func), name, pass_max, name, crash_min, name));
	for (int g = 0; g < p->ngroups; g++) {
		const struct group *grp = &p->groups[g];
		if (grp->visibility != vis)
			continue;
		for (int k = grp->first_case; k < grp->first_case + grp->ncases; k++)
			if (pr->tests[k].tc->func == func && crashed(&pr->tests[k])) {
				if (pr->tests[k].message)
					add_advice_inline(&pr->tests[k], ". ", advice);
				else
					add_advice(&pr->tests[k], advice);
				break;
			}
	}
	free(advice);
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
		advice = L10N(xasprintf(_("Correct on the %d earlier tests of this group, too slow from %s on: the "
					  "algorithm needs to be faster for larger inputs (memoisation, or a loop over a table)"),
					k - first, call.buf));
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
			if (p->groups[pr->tests[k].tc->group].visibility == vis) {
				diagnose_overflow(p, &pr->tests[k]);
				diagnose_recursion(p, pr, &pr->tests[k], vis);
			}
		for (int g = 0; g < p->ngroups; g++)
			if (p->groups[g].visibility == vis)
				diagnose_slow(p, pr, &p->groups[g]);
		for (int f = 0; f < p->nfuncs; f++)
			diagnose_crash_size(p, pr, f, vis);
	}
}
