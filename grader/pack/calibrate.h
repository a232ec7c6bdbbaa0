/*
 * calibrate.h - how fast this machine runs code, against the machine a
 * student pack was made on (issue 30, part 5).
 *
 * A pack's limits are absolute: cpu_ms is what the instructor's machine
 * allowed (x 2, pack.c).  A laptop three times slower would get false
 * timeouts and a faster one would be let off.  So the pack carries, beside
 * each limit, the CPU time a small deterministic workload took on the
 * instructor's machine (limits `calibration_ms`, per language: a Python
 * limit comes from Python's reference times, so Python is calibrated with
 * a Python workload).  Before grading, the same workload is timed here,
 * and each calibrated limit is scaled by here / there.
 *
 * The workload runs through the very machinery a submission goes through
 * (a sandboxed build with the language's own flags, a warm runner, the
 * per-test CPU time the reference's times were measured with): a small
 * problem of its own, graded by engine_measure() in an engine of its own.
 * It runs CALIBRATE_RUNS times and the least CPU time counts: noise (a
 * shared core, cold caches) only adds time.  Waiting for a CPU is not CPU
 * time, so a busy machine is not mistaken for a slow one; the wall-clock
 * backstop handles waiting (runner.c's run-delay credit).
 *
 * The factor is bounded to [CALIBRATE_MIN, CALIBRATE_MAX]: past them the
 * measurement is more likely wrong (a laptop on battery saving, a machine
 * swapping) than the machine that much slower or faster, and the bound is
 * applied and said (calibration.clamped) rather than the raw factor.
 *
 * The hook GRADER_TEST_CALIBRATION_WORK=K (1..10) makes the workload do K
 * times its work, a real K-fold increase of the CPU time measured; only
 * tests/pack sets it, to stand for a slower machine (a cgroup CPU quota
 * slows the wall clock, not CPU time, so it cannot).  Reports show the
 * factor it gives like any other.
 *
 * Ownership: struct calibration owns nothing; calibrate_note() returns a
 * new string.
 */
#ifndef GRADER_CALIBRATE_H
#define GRADER_CALIBRATE_H

#include <stdbool.h>

#include "problem/language.h"
#include "problem/problem.h"

#define CALIBRATE_RUNS 5       /* runs before grading: the least counts */
#define CALIBRATE_PACK_RUNS 15 /* runs when the pack is made: once, so more of them (the least is steadier) */
#define CALIBRATE_MIN (1.0 / 3)
#define CALIBRATE_MAX 5.0
#define CALIBRATE_SAME 1.25 /* within x1.25 either way the note says "about as fast" (the factor still applies) */

/* Where the calibration's own engine works: like the caller's. */
struct calibrate_options {
	const char *cache_dir;      /* the runtime set-up cache (engine_options.cache_dir) */
	const char *scratch_parent; /* engine_options.scratch_parent */
	unsigned id_block;          /* engine_options.id_block */
};

/* One language's calibration: the workload's least CPU time there and here, and the factor applied. */
struct calibration {
	const struct language *lang;
	unsigned there_ms;          /* when the pack was made (the limits' calibration_ms) */
	unsigned here_ms;           /* measured now; 0 when it could not be */
	double factor;              /* here / there, before bounding */
	double applied;             /* what the limits were multiplied by (factor bounded; 1 when not measured) */
	bool clamped;               /* factor was past the bounds */
};

/*
 * Time the workload of language lang on this machine: the least CPU time
 * (ms) of `runs` runs (1..100) in *ms.  0, or -1 with a message in err
 * (it did not build, a run failed, its answer was not the expected one).
 */
int calibrate_measure(const struct calibrate_options *o, const struct language *lang, int runs, unsigned *ms,
		      struct strbuf *err);

/*
 * Scale the calibrated limits of the set (every variant of every problem)
 * by this machine's speed: each language found in a calibrated limit of a
 * problem whose file the submission directory holds (every language when
 * submission is NULL) is measured once (calibrate_measure), and the cpu_ms
 * and wall_ms of its calibrated groups are multiplied by the bounded
 * factor; other languages' limits stay as written (nothing runs in them).  A language whose workload cannot be
 * measured keeps its limits as written (applied 1, here_ms 0).  Fills
 * out[0..*n) (at most max entries, one per language).  Returns how many
 * languages were measured; a failure is said on log (may be NULL).
 */
int calibrate_apply(struct problem_set *set, const char *submission, const struct calibrate_options *o,
		    struct calibration *out, int max, int *n, FILE *log);

/* A sentence for the report: "this machine looked 2.4x slower than ..."; NULL when nothing was calibrated. */
char *calibrate_note(const struct calibration *c, int n);

#endif
