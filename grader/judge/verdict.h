/*
 * verdict.h - facts in, verdict out, in one place.
 *
 * Everything upstream only measures: the runner pool records what became of
 * a test (runner.h's struct run_facts), the build records what the compiler
 * and the ELF inspection found (build/build_status.h, which words a build's
 * status).  This module alone decides what a run means for the student -
 * the verdict and a message in words a student understands - and what
 * verdict a build's status gives, and keeps the rule that a submission can
 * never make the grader blame itself: everything a runner reports about
 * itself is the submission's doing, so a forged or broken report costs a
 * run-error, never a judge-error.  judge-error comes only from facts the
 * submission cannot produce (the grader could not start a process; the
 * sandbox's own preinit record; the reference has no answer).
 *
 * Ownership: a struct judgement owns its message; judgement_release()
 */
#ifndef GRADER_VERDICT_H
#define GRADER_VERDICT_H

#include <stdbool.h>

#include "build/build_status.h"
#include "judge/result.h"
#include "run/runner.h"
#include "problem/problem.h"
#include "problem/signature.h"

struct judgement {
	enum verdict verdict;
	char *message;           /* why, in words (NULL when correct) */
	bool answered;           /* an answer came back (verdict correct until compared) */
	long long answer;
	enum returned_kind returned; /* no number came back: None or another type */
	bool recursion_limit;    /* Python's RecursionError */
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

/* ---- builds (their status and message: build/build_status.h) ---- */

/* The verdict every test of a problem whose build ended so gets. */
enum verdict verdict_of_build_status(enum build_status s);

#endif
