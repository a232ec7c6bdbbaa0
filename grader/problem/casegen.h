/*
 * casegen.h - expand a case spec into test cases.
 *
 * A case spec is what one `cases:` entry of a problem file says, once the
 * loader (problem.c) has checked it: which function, how each argument is
 * generated, how many random draws, the seed, an explicit expected value and
 * name.  Expanding it needs no YAML and no loader, so it can be tested alone.
 *
 * Order: the expansion is a cross product of the ranges, the first argument
 * varying slowest and the last fastest (ranges vary slowest-last); each
 * combination of range values is repeated `count` times in a row, each
 * repetition with fresh random values.  Random values come from one
 * splitmix64 generator started at `seed` for the whole spec; within a test
 * the arguments draw from it last to first, and a random array draws its
 * length, then its elements in order.  The generator uses only 64-bit
 * unsigned arithmetic, so a spec expands to the same values on every
 * platform, and the same values as long as these rules stay.
 *
 * Ownership: a struct case_spec owns its args (and their literal arrays)
 * and its name; case_spec_release() frees them.  The expansion copies
 * everything it puts in a test case: the appended cases own their args
 * (arrays included) and name, and whoever owns the case array frees them
 * (for a problem, problem_release()).
 */
#ifndef GRADER_CASEGEN_H
#define GRADER_CASEGEN_H

#include "problem/problem.h"
#include "problem/value.h"

enum arg_kind {
	ARG_LITERAL,      /* one given value */
	ARG_RANGE,        /* every integer of [lo, hi] in turn */
	ARG_RANDOM,       /* an integer drawn uniformly from [lo, hi] */
	ARG_RANDOM_ARRAY, /* an int array: length from [len_lo, len_hi], each element from [lo, hi] */
};

/* How one argument is generated.  Bounds are inclusive, lo <= hi and len_lo <= len_hi. */
struct arg_spec {
	enum arg_kind kind;
	enum value_type type;     /* the parameter's type, for every kind */
	struct value literal;     /* ARG_LITERAL: the value (of that type), owned */
	long long lo, hi;         /* ARG_RANGE, ARG_RANDOM: the values; ARG_RANDOM_ARRAY: the elements */
	long long len_lo, len_hi; /* ARG_RANDOM_ARRAY: the length, at least 0 */
};

struct case_spec {
	int func;              /* index into the problem's funcs */
	int nargs;             /* the function's input count */
	struct arg_spec *args; /* nargs entries, owned (may be NULL when nargs is 0) */
	long long count;       /* draws per combination of ranges, at least 1 */
	uint64_t seed;         /* where the generator starts */
	bool has_expected;     /* an explicit expected value (explicit calls only) */
	long long expected;
	char *name;            /* an explicit name, owned; NULL: the loader names the case later */
	int line;              /* YAML line of the entry (1-based), for messages */
};
#define CASE_SPEC_INIT { 0, 0, NULL, 1, 0, false, 0, NULL, 0 }

/* Free args (with their literals) and name; spec is then CASE_SPEC_INIT again. */
void case_spec_release(struct case_spec *spec);

/* Does some argument draw random values (ARG_RANDOM or ARG_RANDOM_ARRAY)? */
bool case_spec_is_random(const struct case_spec *spec);
/* Is every argument a literal, so that the spec is one explicit call? */
bool case_spec_is_explicit(const struct case_spec *spec);

/* How many values the argument takes in turn: hi - lo + 1 for a range, 1 otherwise. */
size_t arg_spec_nvalues(const struct arg_spec *arg);
/*
 * How many test cases spec expands to: the product of its arguments'
 * nvalues, times count.  The caller keeps that product within size_t
 * (the loader caps it far below).
 */
size_t case_spec_ntests(const struct case_spec *spec);

/*
 * Append case_spec_ntests(spec) test cases of group `group` to *cases, which
 * holds *ncases entries with room for *alloc (grown as ALLOC_GROW does, so
 * pointers into *cases do not survive the call).  Each case gets spec's
 * func, line, expected value and a copy of its name.  Returns how many
 * cases were appended.  Never fails (allocation failure exits).
 */
size_t casegen_expand(const struct case_spec *spec, int group, struct test_case **cases, int *ncases,
		      size_t *alloc);

#endif
