/*
 * engine.h - the grading engine: build a submission, run every test in the
 * sandbox, compare with the reference's answers, score.  The command line
 * (main.c), selftest and batch grading are thin fronts over it; tests call
 * it directly.
 *
 * Typical use:
 *     struct engine e;
 *     engine_init(&e, &opts, &err);          // scratch space, runtime, filters
 *     engine_load_reference(&e, &err);       // answers: cache or a reference run
 *     engine_grade(&e, "submission/", &result, &err);
 *     ... report result ...
 *     grade_result_release(&result);
 *     engine_release(&e);                    // kills runners, removes scratch
 *
 * Ownership: the engine borrows opts->set (which must outlive it) and owns
 * its scratch directory, which engine_release() removes.
 */
#ifndef GRADER_ENGINE_H
#define GRADER_ENGINE_H

#include <stdio.h>

#include "build.h"
#include "problem.h"
#include "result.h"

struct engine_options {
	struct problem_set *set;
	const char *only;          /* comma-separated problem ids, or NULL for all */
	int jobs;                  /* parallel slots; <= 0: number of cores */
	const char *reference_dir; /* default "reference" */
	const char *cache_dir;     /* NULL: $XDG_CACHE_HOME/combgrader or ~/.cache/...; "" disables */
	const char *const *extra_hidden; /* more directories the compiler must not see */
	const char *scratch_parent;/* where the scratch directory goes; NULL: $TMPDIR, else /tmp */
	FILE *log;                 /* progress and warnings ("grader: ..."); NULL: silent */
};

/* The reference's answers for one problem. */
struct reference_answers {
	bool *have;                /* ncases */
	long long *answer;
	unsigned *time_us;         /* CPU time the reference used per case */
	char *failure;             /* why the reference could not answer, or NULL */
};

struct engine {
	struct engine_options opts;
	struct problem **problems; /* the selected problems */
	int nproblems;
	struct reference_answers *ref; /* nproblems, after engine_load_reference */
	bool ref_loaded;
	char *scratch;
	char *workdir;             /* scratch/cwd: the runners' empty working directory */
	char *cache_dir;           /* the reference cache in use ("" when disabled) */
	struct build_env env;
	struct strbuf filters;
	char **hidden;             /* NULL-terminated */
	int submissions;           /* counter for build directory names */
	double reference_seconds;  /* time spent getting reference answers */
	bool reference_cached;
};

/* 0, or -1 with a message in err (exit code 2 for a bad --only, 3 otherwise: see *usage). */
int engine_init(struct engine *e, const struct engine_options *opts, struct strbuf *err, bool *usage);

/*
 * Get the reference's answers and CPU times: from the cache when its key
 * (reference source, problem file, grader version) matches, else by grading
 * the reference directory with the same machinery as a student.  Problems
 * that do not need the reference (problem_needs_reference) are skipped, so
 * a student pack without reference/ grades fine.
 */
int engine_load_reference(struct engine *e, struct strbuf *err);

/*
 * Hand src's reference answers to dst (same problem selection), e.g. to a
 * batch worker's engine after fork: src no longer owns them.
 */
void engine_adopt_reference(struct engine *dst, struct engine *src);

/* Does grading p need the reference (an answer not in the file, or a relative time limit)? */
bool problem_needs_reference(const struct problem *p);

/* Grade one submission directory.  0, or -1 when the grader itself failed or was interrupted. */
int engine_grade(struct engine *e, const char *submission, struct grade_result *out, struct strbuf *err);

/* The CPU limit (ms) of a group after applying cpu_factor to the reference's times. */
unsigned engine_cpu_limit(const struct engine *e, int problem_index, int group);

void engine_release(struct engine *e);

#endif
