/*
 * remeasure.h - verdicts at the edge are measured again.
 *
 * CPU time moves by tens of percent on a busy machine (a shared core, its
 * caches), and noise only ever adds time.  So a test whose run lands near
 * its CPU limit - correct with at least REMEASURE_EDGE percent of it used,
 * or a time limit or a run error (the stack's end against the CPU limit,
 * verdict.c) at the CPU limit - is run once more, and one that the machine
 * failed up to twice more (REMEASURE_RUNS runs in all): one it starved
 * (runner.h: run_facts.starved, a judge-error), or one whose zygote could
 * not fork the test where every runner's processes share the user's one
 * count (run_facts.procs_short: another runner's flood, which the grader
 * ends within moments).  It is judged on its run with the least CPU time
 * (a run the machine failed counts only when no other run finished).  Every run
 * is a complete run under the same limits, so a program gains nothing from
 * being run again but the chance a quiet machine gives it; tests far from
 * their limits run once.
 *
 * The engine calls remeasure_finished() for every task the pool finishes,
 * once it is judged; true means the task is to run again: its facts and
 * judgement are kept aside (the task is reset, done false), it is queued,
 * and the engine hands it out again (remeasure_next), before any new test - on a fresh runner (run_task.fresh_runner), so that no
 * state a runner kept from the tests it ran since (hidden ones) reaches the
 * run that may be reported.  When it returns false, the task holds the run
 * that counts.
 *
 * Ownership: a struct remeasure owns the runs it keeps aside;
 * remeasure_free() releases them (and is safe on NULL).
 */
#ifndef GRADER_REMEASURE_H
#define GRADER_REMEASURE_H

#include <stdbool.h>

#include "run/runner.h"
#include "judge/verdict.h"

#define REMEASURE_RUNS 3      /* runs of one test at most (a starved one): the first and two more */
#define REMEASURE_EDGE_RUNS 2 /* runs of a test that ended near its CPU limit */
#define REMEASURE_EDGE 75     /* percent of its CPU limit from which a correct run is near the edge */

struct remeasure;

/*
 * The CPU a graded test may run to before it is stopped (run_task.cpu_cap_ms):
 * 100 / REMEASURE_EDGE times its limit.  The edge says how much noise can add
 * to an honest run (a correct run at 75 % of its limit may be one that needs
 * less); by the same measure a run that reaches the cap needed more than the
 * limit however much noise there was, so it is a time limit at once, with no
 * second run.  A run that ends between the limit and the cap is a time limit
 * too (verdict.c past_limit), and is run again like any other near its limit.
 * So a hopeless test costs 1.33 times its limit instead of 2 (two runs).
 */
unsigned remeasure_cap_ms(unsigned cpu_ms);

struct remeasure *remeasure_new(int ntasks);

/*
 * Task i (t) finished and was judged (j).  true: it is to run again (t and
 * j are reset); false: t and j now hold the run that counts.
 */
bool remeasure_finished(struct remeasure *rm, int i, struct run_task *t, struct judgement *j);

/* A task to run again (in the order they were asked for), or -1 when there is none now. */
int remeasure_next(struct remeasure *rm);

/* How many tests ran more than once (so far). */
int remeasure_count(const struct remeasure *rm);

/* The CPU time (ms) of the runs that did not count: what measuring again cost (so far). */
unsigned long long remeasure_extra_ms(const struct remeasure *rm);

/* How many times task i ran (0: not yet). */
int remeasure_runs(const struct remeasure *rm, int i);

void remeasure_free(struct remeasure *rm);

#endif
