/*
 * result.h - the result model: what grading found, independent of how it
 * is shown.  Every report format (report_*.c) is a thin writer over it.
 *
 * Ownership: a struct grade_result owns its problems, tests and strings;
 * grade_result_release() frees them.  It points at (does not own) the
 * problems and cases of the problem set it was graded against, which must
 * outlive it.
 */
#ifndef GRADER_RESULT_H
#define GRADER_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include "problem/problem.h"

struct growth_result;

/* DOMjudge's spellings, plus missing, forbidden, skipped and judge-error */
enum verdict {
	V_CORRECT,
	V_WRONG_ANSWER,
	V_TIMELIMIT,
	V_MEMORY_LIMIT,
	V_RUN_ERROR,
	V_OUTPUT_LIMIT,
	V_NO_OUTPUT,
	V_COMPILER_ERROR,
	V_MISSING,
	V_FORBIDDEN,
	V_SKIPPED,      /* not run: an earlier test of an all-or-nothing group failed */
	V_JUDGE_ERROR,  /* the grader could not judge this test (never the student's fault) */
	V_COUNT
};

/* A student's own run (engine.h, skip_repeated_failures): after this many failures in a row of one
 * costly kind, the rest of a points-per-test group is skipped; the reports name the number */
#define REPEATED_FAILURES 3

const char *verdict_name(enum verdict v);        /* "wrong-answer" */
const char *verdict_words(enum verdict v);       /* "wrong answer" for students */
/* A failure that spends a limit or prints too much (time, memory, a crash, output): what REPEATED_FAILURES counts */
bool verdict_is_costly(enum verdict v);
int verdict_from_name(const char *name);         /* -1 if unknown */

/* What came back from a Python function that is no number: the hint follows it (report_hint). */
enum returned_kind {
	RETURNED_NUMBER = 0,       /* a number (right or wrong), or nothing came back */
	RETURNED_NONE,             /* None: a path without a return */
	RETURNED_OTHER_TYPE,       /* another type (a float, a str) */
};

struct test_result {
	const struct test_case *tc;
	enum verdict verdict;
	double score, max_score;
	unsigned time_ms;          /* CPU time */
	unsigned wall_ms;
	unsigned limit_ms;         /* the CPU limit that applied */
	unsigned long long peak_kb;/* peak resident memory */
	bool has_actual;
	long long actual;          /* the answer, when one came back */
	bool has_expected;
	long long expected;
	char *message;             /* why, in words (NULL when correct) */
	char *output;              /* captured stdout+stderr (truncated), may be NULL */
	unsigned long long output_total; /* bytes printed in all */
	enum returned_kind returned;/* a wrong answer that is no number: which kind */
	bool recursion_limit;      /* Python's RecursionError (diagnose.h says why) */
	bool at_startup;           /* the program failed before its tests (import, constructor): not this input's doing */
	int runs;                  /* how many times it ran: more than 1 when its first run ended near the CPU limit (remeasure.h) */
};

/*
 * The smallest failing input shrink.h found from a failing generated test
 * of a public group: a case of its own (not one of the problem's), with
 * what the reference and the submission made of it, and what the search
 * cost.  Owned by its problem result.
 */
struct shrunk_input {
	int from_case;             /* the failing test it started from (an index into the problem's cases) */
	char *from;                /* that input in words: "a failing row of 60 values", "AcanWin(57)" */
	struct test_case tc;       /* the input found: func, group, args (owned; name NULL) */
	enum verdict verdict;      /* the submission's verdict on it: the failing test's */
	char *message;             /* the verdict's message on it, or NULL */
	bool has_actual;
	long long actual;          /* what the submission returned */
	bool has_expected;
	long long expected;        /* what the reference returned */
	bool example;              /* it is a failing explicit public test, no bigger than any failing generated
				    * one: the smallest input already, no search made (runs 0) */
	int steps;                 /* smaller failing inputs taken in turn: 0 when the failing test is the smallest found */
	int runs;                  /* candidate inputs tried (each run by the reference and the submission) */
	double seconds;            /* the search's wall-clock time */
	int budget_runs;           /* the budget it had */
	double budget_seconds;
	bool budget_spent;         /* stopped by the budget: a smaller failing input may exist */
	bool as_is;                /* the failing test itself, not searched: a literal input, or a verdict the search
				    * does not follow (only wrong-answer and run-error are shrunk); hidden groups only */
};

struct problem_result {
	const struct problem *problem;
	double score, max_score;
	struct test_result *tests; /* problem->ncases entries, in case order */
	int ntests;
	char *source;              /* file found in the submission, or NULL */
	char *source_note;         /* which file was graded and why, when that may surprise (the template's own file,
				    * the student's elsewhere: engine_options.template_dir), or NULL; owned */
	char *build_message;       /* compiler output etc. when it did not build */
	enum verdict build_verdict;/* V_CORRECT when it built */
	unsigned compile_ms;
	char *startup_output;      /* what the submission printed before the tests (Python: at import), or NULL */
	unsigned long long startup_total;
	bool startup_hidden;       /* that came from a runner started for hidden tests, after hidden tests ran
				    * (engine.c, dispatch_order): the instructor's view only */
	struct growth_result *growth; /* how its time grows (growth.h), or NULL: not measured; owned */
	struct shrunk_input *shrunk; /* the smallest failing input found (shrink.h), or NULL */
	struct shrunk_input **revealed; /* --reveal-hidden: per group (problem->ngroups), a hidden group's smallest
				    * failing input (shrink_hidden), else NULL; the array NULL when not asked */
};

struct grade_result {
	char *submission;          /* the graded directory */
	struct problem_result *problems;
	int nproblems;
	double score, max_score;
	double elapsed_s;
	char *isolation;           /* sandbox_describe() at grading time */
	bool internal_error;       /* some test could not be judged */
	int remeasured;            /* tests run more than once because they ended near their CPU limit (remeasure.h) */
	unsigned long long remeasured_cpu_ms; /* the CPU time of their runs that did not count */
	char *calibration;         /* a student pack's limits scaled to this machine's speed: what was found, a
				    * sentence (calibrate_note), or NULL */
};

void grade_result_release(struct grade_result *r);
/* Free s (NULL is fine) and its input's arguments (p: the problem it is an input of). */
void shrunk_input_free(struct shrunk_input *s, const struct problem *p);

/* Sum scores after all verdicts are in; applies all-or-nothing groups. */
void problem_result_score(struct problem_result *pr);
void grade_result_score(struct grade_result *r);

/* Tests not correct (skipped counts as not correct). */
int grade_result_failures(const struct grade_result *r);

#endif
