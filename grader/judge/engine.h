/*
 * engine.h - the grading engine: build a submission, run every test in the
 * sandbox, judge, score.  The command line, selftest and batch grading are
 * thin fronts over it; tests call it directly.
 *
 * One way through, for grading and for measuring the reference alike:
 *   build    build_all(): every selected problem's file, sandboxed compilers
 *   plan     one run task per test case, with the limits of a policy
 *   run      the runner pool (runner.h) hands out tasks through the engine's
 *            callbacks, which keep the scoring policy: once a test of an
 *            all-or-nothing group fails, the rest of that group is skipped
 *            (settled afterwards so -j never matters)
 *   collect  every test's facts judged by verdict.h, answers compared with
 *            the expected values (the file's, else the reference's), scored
 *
 * The order: every public test of the run - of every selected problem,
 * each problem's in file order - runs and finishes before any hidden test
 * starts; then, still before them, what a student sees besides the public
 * tests (the smallest failing input, shrink.h; growth, growth.h); then the
 * hidden tests.  So nothing a student sees - a public test's output, time
 * or verdict, a start-up output, the feedback - was made after a hidden
 * test ran, in the same runner or anywhere: a program can take as long as
 * its hidden input says, and a later clock reading would tell (issue 29).
 *
 * Typical use:
 *     struct engine e;
 *     if (engine_init(&e, &opts, &err, &usage) < 0) ...   // then engine_release(&e) all the same
 *     reference_load(&e, &err);              // answers: cache or a reference run (reference.h)
 *     engine_grade(&e, "submission/", &result, &err);
 *     ... report result ...
 *     grade_result_release(&result);
 *     engine_release(&e);                    // kills runners, removes scratch
 *
 * Ownership: the engine borrows opts->set (which must outlive it) and the
 * strings opts points to; it owns its scratch directory (removed by
 * engine_release) and its reference answers, unless they are borrowed
 * (ref_borrowed, see reference.h).
 */
#ifndef GRADER_ENGINE_H
#define GRADER_ENGINE_H

#include <stdio.h>

#include "build/build.h"
#include "problem/problem.h"
#include "judge/context.h"
#include "judge/result.h"

/*
 * How far a run has got, for a progress display (engine_options.progress):
 * handed to the callback when the phase changes and as tests finish.  The
 * strings are the engine's, valid during the call only.
 */
struct engine_progress {
	const char *phase;       /* what the engine does now: "building", "testing", "feedback", "hidden tests",
				  * "reference" (measuring the reference's answers) */
	const char *problem;     /* the id of the problem whose test was last handed out, or NULL */
	const char *language;    /* its language's display name, or NULL */
	int done, total;         /* tests finished or skipped, of all the run's tests */
	int failed;              /* tests finished with a verdict other than correct (not the skipped) */
};

/* Measuring the reference: CPU limits are generous (10 x an absolute limit, this at most). */
#define MEASURE_CPU_MS 20000u

struct engine_options {
	struct problem_set *set;
	const char *only;          /* comma-separated problem ids, or NULL for all */
	int jobs;                  /* parallel slots; <= 0: number of cores */
	const char *reference_dir; /* default "reference" */
	const char *cache_dir;     /* NULL: $XDG_CACHE_HOME/combgrader or ~/.cache/...; "" disables */
	const char *const *extra_hidden; /* more directories the compiler must not see */
	const char *scratch_parent;/* where the scratch directory goes; NULL: $TMPDIR, else /tmp */
	const struct language *language; /* only this language's variants (selftest), NULL: all */
	unsigned id_block;         /* which block of sandbox uids this engine's processes use (sandbox_ids; batch worker k: k + 1) */
	bool stop_at_first_failure;/* grading: once any test is not correct, the tests not yet started are
				    * skipped (mutation analysis: one failure kills a mutant) */
	bool skip_repeated_failures; /* a student's own run: once REPEATED_FAILURES tests in a row of a group
				    * (file order) failed the same costly way (time or memory limit, a crash, too
				    * much output), the rest of the group is not run: skipped, saying why.  What
				    * it leaves out would most likely fail the same way and costs the most time.
				    * Such a row explains that kind for the problem: a later group stops after
				    * one such failure (engine.c repeat_walk).
				    * Off for every grade that counts (batch, --show-hidden, --all-tests) */
	enum growth_when growth;   /* when to measure how a problem's time grows (context.h, growth.h) */
	FILE *log;                 /* progress and warnings ("grader: ..."); NULL: silent */
	bool shrink;               /* grading: search the smallest failing input of public failures (shrink.h) */
	bool reveal_hidden;        /* grading: and of each hidden group that failed, once the hidden tests ran
				    * (after the deadline: `grader batch --reveal-hidden`, shrink.h) */
	const char *template_dir;  /* grading a student's own run: the template handed out (student_template/);
				    * a file still identical to its file there is noted as not the student's work,
				    * with the student's own file for that problem in a subdirectory, if any.  No
				    * verdict or score changes.  NULL: no such notes (batch) */
	/* called in the engine's own process and thread, never from a signal handler; NULL: none.
	 * It changes nothing the engine does (a display only: the CLI's on a terminal). */
	void (*progress)(void *ctx, const struct engine_progress *now);
	void *progress_ctx;
};

/* The reference's answers for one problem (filled by reference.c). */
struct reference_answers {
	bool *have;                /* ncases */
	long long *answer;
	unsigned *time_us;         /* CPU time the reference used per case */
	char *failure;             /* why the reference could not answer, or NULL */
};

struct engine {
	struct engine_options opts;
	struct problem **problems; /* every variant (language) of the selected problems, problem by problem */
	int nproblems;
	int *first_variant;        /* per selected problem: its first variant in problems[]; [nids] = nproblems */
	int nids;                  /* selected problems */
	struct reference_answers *ref; /* per variant (nproblems), after reference_load */
	bool ref_loaded;
	bool ref_borrowed;         /* ref belongs to another engine: not freed here */
	char *scratch;             /* owned; removed by engine_release */
	char *workdir;             /* scratch/cwd: the runners' empty working directory */
	char *cache_dir;           /* the reference cache in use ("" when disabled) */
	struct build_env env;
	struct strbuf filters[FILTER_FLAVOURS]; /* the seccomp programs of each kind of runner */
	char **hidden;             /* NULL-terminated */
	int submissions;           /* counter for build directory names */
	double reference_seconds;  /* time spent getting reference answers */
	bool reference_cached;
	bool uid_leased;           /* opts.id_block is this engine's alone while uid_lease, an fd, is open */
	int uid_lease;             /* (sandbox_lease_block; a zeroed engine holds none) */
};

/*
 * Prepare the engine: select the problems, create the scratch space,
 * compile the runner runtime, build the seccomp filters.  0, or -1 with a
 * message in err (*usage: a bad --only, exit 2; else the grader's failure).
 * After a failure the engine is partly set up: engine_release() it all the
 * same (it is safe on any engine that went through engine_init, and on a
 * zeroed one).
 */
int engine_init(struct engine *e, const struct engine_options *opts, struct strbuf *err, bool *usage);

/*
 * Grade one submission directory: for each selected problem, the variant
 * whose file the directory holds (a missing file or files in two languages
 * are that problem's verdict).  0 with *out filled, one problem result per
 * selected problem (the caller releases it with grade_result_release), or
 * -1 with a message in err when the grader itself failed or was
 * interrupted; *out is then released already.
 */
int engine_grade(struct engine *e, const char *submission, struct grade_result *out, struct strbuf *err);

/*
 * Run a directory's code in language lang on every test of that language's
 * variants, with generous limits and nothing compared or skipped: how the
 * reference's answers and times are measured (reference.c).  One problem
 * result per variant of lang, in e->problems order; an answered test has
 * verdict correct and has_actual.  Same contract as engine_grade.
 */
int engine_measure(struct engine *e, const char *dir, const struct language *lang, struct grade_result *out,
		   struct strbuf *err);

/* The CPU limit (ms) of a group after applying cpu_factor to the reference's times. */
unsigned engine_cpu_limit(const struct engine *e, int problem_index, int group);

void engine_release(struct engine *e);

/* "grader: <message>" on the engine's log (opts.log), when it has one. */
void engine_log(const struct engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
