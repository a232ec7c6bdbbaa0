/*
 * problem.h - the problem set: what to call, on which inputs, for how many
 * points, under which limits.  Loaded from YAML files (one per problem,
 * see docs/problem-files.md) with libyaml.
 *
 * Ownership: a struct problem_set owns every problem, group, case and
 * string below it; problem_set_release() frees everything.  Pointers into
 * it (e.g. a struct test_case *) stay valid until then.
 */
#ifndef GRADER_PROBLEM_H
#define GRADER_PROBLEM_H

#include "base/digest.h"
#include "problem/language.h"
#include "problem/signature.h"
#include "problem/test_case.h"
#include "problem/value.h"

enum visibility { VIS_PUBLIC, VIS_HIDDEN };
enum scoring { SCORE_SUM, SCORE_ALL_OR_NOTHING };

/*
 * Limits; 0 means "not set here" (inherit).  After loading, every group's
 * `limits` holds the effective values (problem defaults, group overrides,
 * grader defaults).  A CPU limit is absolute (cpu_ms) or relative to the
 * reference's slowest test in the group (cpu_factor x, at least cpu_floor_ms).
 */
struct limits {
	unsigned cpu_ms;
	double cpu_factor;
	unsigned cpu_floor_ms;
	unsigned wall_ms;       /* wall-clock backstop; 0: 2 x the CPU limit + 1 s */
	unsigned memory_mb;
	unsigned output_kb;     /* total stdout+stderr before output-limit */
	unsigned startup_ms;    /* problem-level only: CPU a runner may use before the tests (constructors, import) */
	unsigned calibration_ms;/* with cpu_ms: the calibration workload's CPU time on the machine cpu_ms was
				 * measured on (a student pack, calibrate.h); 0: cpu_ms is absolute everywhere */
};

#define DEFAULT_CPU_MS 1000u
#define DEFAULT_MEMORY_MB 256u
#define DEFAULT_OUTPUT_KB 1024u
#define DEFAULT_STARTUP_MS 5000u

/* struct arg_bounds and struct test_case: test_case.h */

/*
 * A mutant of the reference that behaves like it on every input (grader
 * mutate): listed in the problem file so that it does not count as a
 * survivor.  id as mutate.h forms it, "p4.c:38:29:rel".
 */
struct equivalent_mutant {
	char *id;
	char *reason;
	int line, column;        /* where the entry stands in the file */
};

/*
 * A `cases:` entry whose tests the reference's answers choose (answer:,
 * balance:): its candidates, and what to keep of them (casegen_select).
 */
struct case_filter {
	int first, ntries;       /* cases[first .. first + ntries) before the choice */
	long long count;         /* tests to keep */
	bool balance;            /* count / 2 false and count / 2 true */
	long long answer;        /* else: answers equal to this */
	int line;                /* the entry's line */
};

struct group {
	char *name;
	enum visibility visibility;
	enum scoring scoring;
	double points;           /* per test (sum) or for the whole group (all-or-nothing) */
	char *hint;              /* shown on failure; may be NULL */
	char *hint_ko;           /* the hint in Korean (hint_ko:, or hints: {en, ko}), for Korean reports (l10n.h);
				  * NULL: the English one; set only with hint */
	struct limits limits;    /* effective limits */
	int first_case, ncases;  /* cases[first_case .. first_case + ncases) */
};

/*
 * How a problem's cost should grow (the `growth:` key): which call, which
 * argument is the size N (an array's length, or an integer's value), the
 * expected order, and the sizes the measurement may try (growth.h does it).
 */
#define GROWTH_EXPONENTIAL (-1) /* expected: 2^N */
struct case_spec;
struct growth_spec {
	bool declared;           /* the file has a growth: key */
	int func;                /* index into funcs */
	int size_arg;            /* the input whose size is N */
	bool by_length;          /* N is that array's length; else the integer's value */
	int expected;            /* the exponent k of N^k (1..6), or GROWTH_EXPONENTIAL */
	long long from, to;      /* the smallest and the largest N to try */
	long long lo, hi;        /* without args: the values generated for elements and the other integer inputs */
	long long step;          /* `step:` sizes go up by this; 0: they double */
	/*
	 * `args:` how every input is drawn at a size, with the generators of
	 * `cases:` (casegen.h): the size's own entry is N (an int) or an array
	 * of length N, and any bound may name N (has_n; seed fixed, so what does
	 * not depend on N is drawn alike at every size).  Owned (problem_release
	 * frees it); NULL: every array has length N, the rest from [lo, hi].
	 */
	struct case_spec *gen;
	int line, column;        /* where the key stands */
};

/*
 * One problem in one language.  A problem file accepting several languages
 * (`languages:`) loads as one struct problem per language - its variants -
 * each complete in itself (groups, cases, limits, names as shown to a
 * student of that language), so grading, scoring and every report work on a
 * variant without knowing about the others.  The first variant (the one in
 * problem_set.problems) owns the others in `variants`; all variants of a
 * problem have the same id, title, functions and maximum score.
 */
struct problem {
	char *id;                /* "p1" */
	char *title;
	char *statement;         /* statement: the task in a few lines, for the generated skeletons (skeleton.h); may be NULL */
	char *source;            /* "p1.c", "p1.py": matched case-insensitively in a submission */
	const struct language *lang;
	char **calls;            /* per function: the name a test calls in this language (NULL: the C name) */
	struct problem *variants;/* the first variant only: the problem in its other languages */
	int nvariants;
	int nlanguages;          /* how many languages the problem accepts (every variant knows) */
	char *path;              /* the YAML file */
	char digest[DIGEST_HEX_SIZE]; /* SHA-256 of the YAML file's bytes */
	struct signature *funcs;
	int nfuncs;
	struct limits limits;    /* problem-level (effective defaults for groups) */
	struct group *groups;
	int ngroups;
	struct test_case *cases;
	int ncases;
	struct arg_bounds **gens;/* the cases' gen arrays, one per generated `cases:` entry, owned */
	int ngens;
	double max_score;
	struct growth_spec growth; /* declared or not (growth.declared) */
	struct case_filter *filters; /* entries chosen by answer, in case order, owned */
	int nfilters;
	bool chosen;             /* problem_choose_cases has kept the chosen candidates only */
	char *equivalent_to;     /* selftest: this reference must agree with that problem's on its cases */
	struct equivalent_mutant *equivalents; /* equivalent_mutants: (every variant holds a copy of the list) */
	int nequivalents;
	int id_line, id_column;  /* where id, source and equivalent_to stand in the file */
	int source_line, source_column;
	int equivalent_line, equivalent_column;
};

struct problem_set {
	struct problem *problems;
	int nproblems;
	char *dir;
};
#define PROBLEM_SET_INIT { NULL, 0, NULL }

/*
 * Load one YAML file into *p.  On error returns -1 and appends
 * "file:line:column: message" lines to err; *p is then released.
 */
int problem_load(struct problem *p, const char *path, struct strbuf *err);
void problem_release(struct problem *p);

/*
 * Load every *.yaml / *.yml file of dir, sorted by problem id.  Duplicate
 * ids are errors.  Returns 0 or -1 with messages in err.
 */
int problem_set_load(struct problem_set *set, const char *dir, struct strbuf *err);
void problem_set_release(struct problem_set *set);

/*
 * Keep, of every entry chosen by answer, the candidates casegen_select
 * picks given the reference's answers (per case, before the choice), and
 * drop the others: the groups' case ranges shrink to match.  keep[] (ncases
 * entries, as the problem had them) tells the caller which cases stayed,
 * so that it can compact its own per-case arrays the same way.  0; or -1
 * with "problem p, line L: ..." in why when an entry found fewer tests than
 * it wants (then nothing is dropped).  Once chosen, a problem is not chosen
 * again (0, every keep[] true).
 */
int problem_choose_cases(struct problem *p, const long long *answers, const bool *have, bool *keep,
			 struct strbuf *why);

/* How many tests group g has once chosen (before the choice its candidates are more). */
int problem_group_tests(const struct problem *p, int g);
/* ... and the whole problem */
int problem_tests(const struct problem *p);

/* Does the comma-separated list `only` (--only) name id? */
bool problem_only_names(const char *only, const char *id);
/* Every id of `only` must be a problem of set: 0, or -1 with "--only: no problem 'x' (known: ...)" in err. */
int problem_set_check_only(const struct problem_set *set, const char *only, struct strbuf *err);

/* Find a problem by id, or NULL. */
struct problem *problem_set_find(const struct problem_set *set, const char *id);

const char *visibility_name(enum visibility v);
const char *scoring_name(enum scoring s);

/* The largest memory limit of p's groups (what its runner must be able to hold). */
unsigned problem_max_memory_mb(const struct problem *p);

/* The name a test of function i calls in p's language ("P3_CanWin" for p3 in Python). */
const char *problem_call_name(const struct problem *p, int i);

/*
 * How group g of variant b differs from group g of variant a (another
 * language of the same problem): 0, or some of these bits.
 */
enum { GROUP_OWN_LIMITS = 1, GROUP_OWN_CASES = 2, GROUP_OWN_HINT = 4 };
unsigned problem_group_differs(const struct problem *a, const struct problem *b, int g);

/* Every variant of p (p itself first), for loops: for (k = 0; k < problem_nvariants(p); k++) problem_variant(p, k). */
int problem_nvariants(const struct problem *p);
struct problem *problem_variant(struct problem *p, int k);

/* Display a call: "AcanWin(7)", arrays shortened, in the variant's language. */
void test_case_format_call(struct strbuf *sb, const struct problem *p, const struct test_case *tc);

/* An answer of function func as its language writes it: true / True, 42. */
void problem_format_answer(struct strbuf *sb, const struct problem *p, int func, long long answer);

#endif
