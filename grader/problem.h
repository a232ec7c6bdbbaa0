/*
 * problem.h - the problem set: what to call, on which inputs, for how many
 * points, under which limits.  Loaded from YAML files (one per problem,
 * see README.md "Problem files") with libyaml.
 *
 * Ownership: a struct problem_set owns every problem, group, case and
 * string below it; problem_set_release() frees everything.  Pointers into
 * it (e.g. a struct test_case *) stay valid until then.
 */
#ifndef GRADER_PROBLEM_H
#define GRADER_PROBLEM_H

#include "digest.h"
#include "signature.h"
#include "value.h"

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
};

#define DEFAULT_CPU_MS 1000u
#define DEFAULT_MEMORY_MB 256u
#define DEFAULT_OUTPUT_KB 1024u

struct test_case {
	char *name;              /* unique within the problem, e.g. "small/AcanWin(7)" */
	int group;               /* index into problem->groups */
	int func;                /* index into problem->funcs */
	struct value *args;      /* funcs[func].ninputs values */
	bool has_expected;       /* an explicit `expected:` in the YAML */
	long long expected;
	int line;                /* YAML line of the case (1-based), for messages */
};

struct group {
	char *name;
	enum visibility visibility;
	enum scoring scoring;
	double points;           /* per test (sum) or for the whole group (all-or-nothing) */
	char *hint;              /* shown on failure; may be NULL */
	struct limits limits;    /* effective limits */
	int first_case, ncases;  /* cases[first_case .. first_case + ncases) */
};

struct problem {
	char *id;                /* "p1" */
	char *title;
	char *source;            /* "p1.c": matched case-insensitively in a submission */
	char *path;              /* the YAML file */
	char digest[DIGEST_HEX_SIZE]; /* SHA-256 of the YAML file's bytes */
	struct signature *funcs;
	int nfuncs;
	struct limits limits;    /* problem-level (effective defaults for groups) */
	struct group *groups;
	int ngroups;
	struct test_case *cases;
	int ncases;
	double max_score;
	char *equivalent_to;     /* selftest: this reference must agree with that problem's on its cases */
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

/* Find a problem by id, or NULL. */
struct problem *problem_set_find(const struct problem_set *set, const char *id);

const char *visibility_name(enum visibility v);
const char *scoring_name(enum scoring s);

/* The largest memory limit of p's groups (what its runner must be able to hold). */
unsigned problem_max_memory_mb(const struct problem *p);

/* Display a call: "AcanWin(7)", arrays shortened. */
void test_case_format_call(struct strbuf *sb, const struct problem *p, const struct test_case *tc);

#endif
