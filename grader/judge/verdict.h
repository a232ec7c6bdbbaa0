/*
 * verdict.h - facts in, verdict out, in one place.
 *
 * Everything upstream only measures: the runner pool records what became of
 * a test (runner.h's struct run_facts), the build records what the compiler
 * and the ELF inspection found (struct build_facts below).  This module
 * alone decides what that means for the student - the verdict and a message
 * in words a student understands - and keeps the rule that a submission can
 * never make the grader blame itself: everything a runner reports about
 * itself is the submission's doing, so a forged or broken report costs a
 * run-error, never a judge-error.  judge-error comes only from facts the
 * submission cannot produce (the grader could not start a process; the
 * sandbox's own preinit record; the reference has no answer).
 *
 * Ownership: a struct judgement owns its message; judgement_release()
 * frees it.  Build messages are returned in new strings the caller frees.
 */
#ifndef GRADER_VERDICT_H
#define GRADER_VERDICT_H

#include <stdbool.h>

#include "judge/result.h"
#include "run/runner.h"
#include "problem/problem.h"
#include "problem/signature.h"

struct judgement {
	enum verdict verdict;
	char *message;           /* why, in words (NULL when correct) */
	bool answered;           /* an answer came back (verdict correct until compared) */
	long long answer;
	unsigned cpu_ms;         /* the CPU time to show for the test */
	unsigned long long peak_kb;
};

void judgement_release(struct judgement *j);

/*
 * What the run of task t (calling function sig) means.  An answered run
 * comes out V_CORRECT with answered set: verdict_compare() then checks the
 * answer.
 */
void verdict_of_run(struct judgement *j, const struct run_task *t, const struct signature *sig);

/*
 * Compare an answered run with the expected value: wrong-answer with
 * "returned X, expected Y", or judge-error when there is no expected value
 * (the reference failed on this test).
 */
void verdict_compare(struct judgement *j, const struct problem *p, int func, bool has_expected, long long expected);

/* ---- builds ---- */

enum build_status {
	BUILD_OK,
	BUILD_MISSING_FILE,    /* no such file in the submission */
	BUILD_COMPILE_ERROR,
	BUILD_FORBIDDEN,       /* e.g. an ifunc resolver */
	BUILD_TOO_BIG,         /* static data above the memory limit */
	BUILD_INTERNAL,        /* the grader could not build (not the student's fault) */
};

/* What one compilation of a submission's file did (build.c measures, verdict_of_build decides). */
struct build_facts {
	bool missing;                /* no such file in the submission (source: the names looked for, quoted) */
	const char *conflict;        /* files for several languages of one problem ("'p1.c' and 'p1.py'") */
	const char *lookalikes;      /* missing: advice on files that look meant for it, or NULL */
	const char *source;          /* the file as found in the submission */
	const char *copy_error;      /* the file could not be taken (a link, not a regular file, too big) */
	bool interrupted;            /* Ctrl-C while compiling */
	bool timed_out;              /* the compiler's wall-clock limit */
	int status;                  /* the compiler's wait status */
	const char *output;          /* what the compiler printed */
	unsigned cpu_limit_s, wall_limit_ms;
	bool inspected;              /* the ELF inspection ran (the fields below are valid) */
	const char *forbidden;       /* why the linked runner is refused (an ifunc), or "" */
	const char *clashes;         /* its symbols named like libc functions the runtime calls, or "" */
	unsigned long long static_bytes, memory_limit_bytes;
	const char *signatures;      /* the required declarations, one a line, for compile errors */
};

/* The status of a build and the message for the student (a new string, NULL when BUILD_OK). */
enum build_status verdict_of_build(const struct build_facts *f, char **message);

/* The verdict every test of a problem whose build ended so gets. */
enum verdict verdict_of_build_status(enum build_status s);

#endif
