/*
 * mutation.h - mutation analysis of the reference solutions (`grader
 * mutate`): how strong is a problem's test set?  Every mutant of every
 * selected reference file (mutate.h) is graded like a submission on the
 * problem's full test set, and it is killed by its first failing test.
 *
 * Processes
 * ---------
 *   mutation_run() (the caller's process, trusted)
 *     one engine: problems, reference answers (cache or measured), and
 *     the mutants, generated from reference/ and reference/python/
 *     └─ worker k (workers.h): its own engine (one test slot, stopping at
 *        the first failing test, uids of block k + 1) in its own scratch
 *        space; per mutant it writes the mutant's file into a fresh
 *        directory, grades it (engine_grade: the sandbox, the limits, the
 *        all-or-nothing skipping of any submission), and puts the fate in
 *        a shared page the parent reads: killed (the verdict and the test),
 *        survived, or not compiling
 *
 * Accounting per reference file: generated = not compiling + killed +
 * survived + equivalent + errors.  A survivor whose id the problem file
 * lists under equivalent_mutants is "equivalent" and leaves the score;
 * the score is killed / (killed + survived).  A listed id that no operator
 * generates any more is "stale"; a listed mutant that is killed anyway is
 * "mislisted" (it is not equivalent); both are reported.
 *
 * Ownership: options are borrowed (opts.engine.set must outlive the
 * result, whose problems point into it); a mutation_result owns everything
 * else, freed by mutation_result_release().
 */
#ifndef GRADER_MUTATION_H
#define GRADER_MUTATION_H

#include <stdbool.h>
#include <stdio.h>

#include "judge/engine.h"
#include "mutate/mutate.h"

struct mutation_options {
	struct engine_options engine; /* set, only, reference_dir, cache_dir, log; jobs is per worker (ignored) */
	int jobs;                     /* mutants graded at a time; <= 0: number of cores */
	FILE *progress;               /* progress lines; NULL: none */
};

enum mutant_fate {
	FATE_KILLED,
	FATE_SURVIVED,
	FATE_EQUIVALENT,    /* survived, and listed as equivalent */
	FATE_NOT_COMPILING, /* discarded */
	FATE_ERROR,         /* could not be judged (judge-error, a worker lost): the grader's failure */
	FATE_COUNT
};

const char *mutant_fate_name(enum mutant_fate f); /* "killed", "not-compiling"... */

struct mutant_outcome {
	enum mutant_fate fate;
	enum verdict verdict;  /* killed: the verdict of the test (or the build) that killed it */
	int test;              /* killed: that test's index in the problem's cases, or -1 (the build) */
	const char *reason;    /* listed as equivalent: the file's reason (borrowed from the problem) */
	bool mislisted;        /* listed as equivalent, yet killed or not compiling */
	char *error;           /* FATE_ERROR: why */
	char *diff;            /* the unified diff against the reference */
};

struct problem_mutation {
	const struct problem *problem;  /* the variant (its language) whose reference was mutated */
	char *path;                     /* the reference file */
	struct strbuf source;           /* its bytes */
	struct mutant_list mutants;
	struct mutant_outcome *outcomes;/* per mutant */
	int count[FATE_COUNT];
	int killed_by[V_COUNT];
	char **stale;                   /* listed equivalent ids no operator generated */
	int nstale;
};

struct mutation_result {
	struct problem_mutation *problems;
	int nproblems;
	int jobs;
	double seconds;
};

/*
 * Mutate and grade.  0 with *out filled (release it with
 * mutation_result_release), or -1 with a message in err (*usage: the
 * user's mistake, such as a bad --only; grader_interrupted: Ctrl-C), or
 * MUTATION_REFERENCE_FAILS when a reference fails its own tests (the
 * analysis would mean nothing; err says which).
 */
#define MUTATION_REFERENCE_FAILS (-2)
int mutation_run(const struct mutation_options *o, struct mutation_result *out, struct strbuf *err, bool *usage);
void mutation_result_release(struct mutation_result *r);

/* The score of one reference file: killed / (killed + survived) in percent, rounded down; 100 with none. */
int problem_mutation_percent(const struct problem_mutation *pm);

/* Survivors not listed as equivalent, stale and mislisted entries: what makes `grader mutate` exit 1. */
int mutation_problems_found(const struct mutation_result *r);

/* The reports: text (verbose: every mutant, not only the survivors) and JSON.  0, or -1 on a write error. */
int mutation_write_text(FILE *out, const struct mutation_result *r, bool verbose);
int mutation_write_json(FILE *out, const struct mutation_result *r);

#endif
