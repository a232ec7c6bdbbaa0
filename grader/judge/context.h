/*
 * context.h - what the searches that run a submission besides its graded
 * tests (the smallest failing input, shrink.h; growth, growth.h) need of
 * the engine that graded it, and the one way to make a run task and a
 * runner pool from it.  The engine fills a context (engine.c) and hands it
 * down; shrink and growth take it instead of the engine, so they never
 * reach into struct engine and the engine, which calls them, is the only
 * module above them.
 *
 * judge_task_init() is where a run task gets what every task of a build
 * has (its runner, seccomp programs, function, the problem's start-up and
 * zygote limits): a new field of struct run_task is set there, once.  Each
 * caller sets the limits of its own policy (CPU, wall clock, memory,
 * output) and the arguments.
 *
 * Ownership: a context borrows everything it points to from the engine;
 * it is valid while the engine is and is not released.
 */
#ifndef GRADER_CONTEXT_H
#define GRADER_CONTEXT_H

#include <stdio.h>

#include "base/util.h"
#include "build/build.h"
#include "problem/problem.h"
#include "run/runner.h"

/* When to measure how a problem's time grows (growth.h; engine_options.growth). */
enum growth_when {
	GROWTH_AFTER_TIMELIMIT = 0, /* when a test of the declared call fails by time (grade's default) */
	GROWTH_ALWAYS,         /* --growth */
	GROWTH_NEVER,          /* --no-growth; batch's and mutate's default */
};

struct judge_context {
	const struct strbuf *filters;  /* the seccomp programs of each kind of runner ([FILTER_FLAVOURS]) */
	int jobs;                      /* parallel slots */
	const char *workdir;           /* the runners' empty working directory */
	const char *const *hidden;     /* NULL-terminated directories hidden from runners */
	unsigned id_block;             /* the block of sandbox uids */
	FILE *log;                     /* progress and warnings ("grader: ..."); NULL: silent */
	struct problem *const *problems; /* every variant of the selected problems */
	int nproblems;
	const char *reference_dir;     /* where the reference solutions are (reference.h) */
	const struct build_env *env;   /* the engine's build environment (copied to build elsewhere) */
	const char *scratch;           /* the engine's scratch directory */
	int *submissions;              /* counter for build directory names in scratch */
	enum growth_when growth;
};

/*
 * A run task of build b (of problem p) calling function func: zeroed, then
 * the runner, its argv, directory and seccomp programs, the function, empty
 * arguments, the zygote's memory limit and the start-up CPU limit.
 */
void judge_task_init(const struct judge_context *c, struct run_task *t, const struct build_result *b,
		     const struct problem *p, int func);

/* A runner pool of at most `most` slots (<= 0: c->jobs), no more than c->jobs. */
struct pool *judge_pool(const struct judge_context *c, int most);

#endif
