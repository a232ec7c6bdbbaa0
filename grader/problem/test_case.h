/*
 * test_case.h - one test of a problem: the call, its arguments, how a
 * generated argument was drawn.  The loader (problem.c) holds them in a
 * problem, the case generator (casegen.c) makes them: a header of its own so
 * that the generator, which the loader calls, needs nothing of the loader.
 *
 * Ownership: see problem.h (a problem_set owns its cases).
 */
#ifndef GRADER_TEST_CASE_H
#define GRADER_TEST_CASE_H

#include <stdbool.h>

#include "problem/value.h"

/*
 * How one argument of a generated case was drawn: the bounds a smaller
 * input must keep to (shrink.h).  The problem files have no other way to
 * state an argument's constraints, so these bounds are the valid inputs.
 */
struct arg_bounds {
	bool generated;           /* false: a literal, kept as it is */
	long long lo, hi;         /* an integer's values, or an array's elements */
	long long len_lo, len_hi; /* an int array's length (a literal array: its own length) */
};

struct test_case {
	char *name;              /* unique within the problem, e.g. "small/AcanWin(7)" */
	int group;               /* index into problem->groups */
	int func;                /* index into problem->funcs */
	struct value *args;      /* funcs[func].ninputs values */
	bool has_expected;       /* an explicit `expected:` in the YAML */
	long long expected;
	int line;                /* YAML line of the case (1-based), for messages */
	const struct arg_bounds *gen; /* a generated case (range, random, array): per argument how it was
				       * drawn (owned by the problem); NULL for an explicit call */
};

#endif
