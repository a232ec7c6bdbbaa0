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
 * Arguments that depend on others: a bound of a random integer or of an
 * array's length or values may be an expression over the other inputs
 * (struct expr: an int input's value, an array input's length).  Within a
 * test the arguments are then drawn in dependency order, and among those
 * that are ready the last first, so a spec without expressions draws in the
 * order above.  A bound evaluates in 64-bit arithmetic that saturates,
 * x / 0 and x % 0 are 0, and the result is clamped to what the parameter
 * can hold (an array's length to [0, CASEGEN_MAX_LEN]); a low bound above
 * the high one gives the low bound.
 *
 * Arrays with a property, each drawn from the same generator after the
 * length: distinct (partial Fisher-Yates when the span is at most 4 x the
 * length, else draws with duplicates skipped; the length is cut to the
 * span), XOR (the elements XOR to the given value: all but the last drawn,
 * the last one completing the XOR, the one before redrawn up to 64 times
 * while that is above the high bound, then all zeros and the value), sorted
 * (ascending, after the rest).
 *
 * Tests chosen by the reference's answer (`answer:` or `balance:`): the spec
 * expands to `tries` candidates; which `count` of them stay is decided once
 * the reference has answered them (casegen_select).
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

/* The largest array a generated length may give (the loader's MAX_ARRAY_LEN). */
#define CASEGEN_MAX_LEN 1000000

/*
 * An integer expression over a case's inputs, in postfix order: numbers,
 * inputs, + - * / % and unary minus.  Parsed by expr_parse, owned by the
 * arg_spec that holds it.
 */
enum expr_op_kind { EX_NUM, EX_ARG, EX_NEG, EX_ADD, EX_SUB, EX_MUL, EX_DIV, EX_MOD };
struct expr_op {
	enum expr_op_kind kind;
	long long v;   /* EX_NUM */
	int arg;       /* EX_ARG: the input's index */
};
struct expr {
	int nops;
	struct expr_op *ops;
};

/*
 * Parse text ("n - 1", "maxChoosableInteger * (maxChoosableInteger + 1) / 2")
 * naming the inputs names[0 .. ninputs).  0 and a new *out, or -1 with a
 * message in err (no location).
 */
int expr_parse(const char *text, const char *const *names, int ninputs, struct expr **out, struct strbuf *err);
void expr_free(struct expr *e);

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
	/* an expression instead of the constant above, or NULL (ARG_RANDOM, ARG_RANDOM_ARRAY only) */
	struct expr *lo_e, *hi_e, *len_lo_e, *len_hi_e;
	bool sorted, distinct;    /* ARG_RANDOM_ARRAY: properties of the array */
	bool has_xor;
	long long xor_value;      /* ARG_RANDOM_ARRAY: the elements XOR to this */
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
	/* tests chosen by the reference's answer: tries candidates, count of them kept */
	long long tries;       /* 0: not chosen (every draw is a test) */
	bool balance;          /* count / 2 answers false (0) and count / 2 true (1) */
	bool has_answer;
	long long answer;      /* else: answers equal to this */
	/* an extra input N at index nargs that bounds may name (a growth measurement's size, growth.h) */
	bool has_n;
	long long n;
};
#define CASE_SPEC_INIT { 0, 0, NULL, 1, 0, false, 0, NULL, 0, 0, false, false, 0, false, 0 }

/* Free args (with their literals) and name; spec is then CASE_SPEC_INIT again. */
void case_spec_release(struct case_spec *spec);

/* Does some argument use an expression or an array property (then shrinking keeps the inputs as they are)? */
bool case_spec_is_dependent(const struct case_spec *spec);

/*
 * Which inputs argument i reads in its expressions: deps[j] set for each.
 * casegen_order: the order the arguments are drawn in (see above); -1 when
 * they depend on each other in a circle (the loader refuses that).
 */
void arg_spec_deps(const struct arg_spec *arg, bool *deps, int nargs);
int casegen_order(const struct case_spec *spec, int *order);

/*
 * The range an expression can take when the inputs take any value their
 * specs allow (interval arithmetic over the static bounds; an input's own
 * expressions followed as far as the order allows): *lo, *hi.  For the
 * loader's checks and caps; needs an order (no circle).
 */
void casegen_expr_span(const struct case_spec *spec, const struct expr *e, long long *lo, long long *hi);

/* Does some argument draw random values (ARG_RANDOM or ARG_RANDOM_ARRAY)? */
bool case_spec_is_random(const struct case_spec *spec);
/* Is every argument a literal, so that the spec is one explicit call? */
bool case_spec_is_explicit(const struct case_spec *spec);

/* How many values the argument takes in turn: hi - lo + 1 for a range, 1 otherwise. */
size_t arg_spec_nvalues(const struct arg_spec *arg);
/*
 * How many test cases spec expands to: the product of its arguments'
 * nvalues, times count (tries when the tests are chosen by answer).  The caller keeps that product within size_t
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

/*
 * Which of a chosen spec's ntries candidates stay, given the reference's
 * answers (count, balance and answer as in the spec): the first `count` with the wanted answer, or with balance the
 * first count / 2 of each of false and true, in candidate order.  keep[]
 * is set for those; returns how many were kept (below count: not enough
 * candidates had the answer).  have[k] false: candidate k has no answer
 * and is not kept.
 */
size_t casegen_select(long long count, bool balance, long long answer, const long long *answers, const bool *have,
		      size_t ntries, bool *keep);

#endif
