/*
 * manifest.h - a batch's output folder as data: the manifest (batch.json:
 * the problems, the shard, the class's students) and a student's state
 * (state/<id>.json).  gradebook.c reads and writes them (manifest_*,
 * state_*, gradebook.h); the summary page (summary.c), which gradebook.c
 * calls, reads them: the types have a header of their own so that the
 * summary needs nothing of gradebook.c.
 *
 * Ownership: see gradebook.h (manifest_release, student_state_release).
 */
#ifndef GRADER_MANIFEST_H
#define GRADER_MANIFEST_H

#include <stdbool.h>

#include "batch/lms_roster.h"

struct late_policy;            /* batch_policy.h */
struct late_entry;             /* gradebook.h */

struct batch_problem {
	char *id, *title;
	double max_score;
	char **all_or_nothing;     /* names of its all-or-nothing groups */
	int nall_or_nothing;
};

struct batch_manifest {
	char *grader_version;
	char *problem_key;         /* problem files, reference sources, report options */
	struct batch_problem *problems;
	int nproblems;
	int shard_index, shard_count;  /* 1/1 for a whole class */
	int class_size;            /* students in the whole class, every shard */
	char *class_key;           /* hash of every student id of the class */
	char **ids;                /* this output's students, sorted with strcmp */
	int nids;
	struct lms_roster lms;     /* who they are in the LMS the class came from (lms_roster.h) */
	struct late_policy *policy;/* --policy (batch_policy.h), or NULL */
	struct late_entry *late;   /* with a policy: when each student handed in, sorted by id */
	int nlate;
};

struct student_state {
	char *id;
	char *input;               /* the submission's name in SUBMISSIONS ("alice", "bob.zip") */
	char *fingerprint;         /* problem key + the submission's bytes */
	char *status;              /* "ok", "compile-error: p1", "error: why", ... one line */
	bool graded;               /* students/<id>.json and .txt exist */
	bool retry;                /* a grader-side failure: --resume grades it again */
	double score;
	double *scores;            /* per manifest problem (graded only) */
	/* timing, for progress and benchmarks: never in grades.csv or summary.html */
	double seconds;
	unsigned compile_ms, cpu_ms;
};

#endif
