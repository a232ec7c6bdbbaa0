/*
 * batch.h - grading a whole class (`grader batch`) and merging shard
 * outputs (`grader merge`): the library half; cmd/batch.c is the command.
 *
 * Processes
 * ---------
 *   batch_grade() (the caller's process, trusted)
 *     one engine: problems, reference answers (loaded once)
 *     └─ worker k (workers.h): its own engine and scratch space (below
 *        tmp/w<k>; the other workers' spaces hidden from its compiler), the
 *        parent's reference answers handed over through fork; grades one
 *        student at a time and writes that student's files itself
 *        (batch_student.h)
 *           └─ compiler and runners: the usual sandbox (sandbox.h)
 *
 * The parent never grades: it lists the class (batch_class.h), hands out
 * students, gives a student whose worker crashed or hung a row saying so,
 * shows progress, and at the end writes the gradebook (gradebook.h) from
 * what is on disk, so an interrupted batch resumes (--resume) and shards
 * merge into the same bytes as one run.
 *
 * Ownership: options are borrowed; nothing is kept after a call returns.
 */
#ifndef GRADER_BATCH_H
#define GRADER_BATCH_H

#include <stdbool.h>
#include <stdio.h>

#include "judge/engine.h"
#include "batch/gradebook.h"

struct batch_options {
	const char *submissions;     /* one folder or archive per student, or an LMS download (batch_lms.h) */
	int layout;                  /* LMS_AUTO (detect) or an enum lms_layout (--layout) */
	const char *assignment;      /* the Canvas import's assignment column (--assignment), or NULL */
	const char *outdir;          /* new, empty, or an earlier batch's output */
	struct engine_options engine;/* problems (set), --only, reference, cache; jobs is per worker */
	int jobs;                    /* students at a time; <= 0: number of cores */
	bool resume;                 /* skip students whose result is complete and current; write regrade.md */
	char *const *regrade;        /* --regrade: these ids are graded again even when current (implies resume) */
	int nregrade;
	const char *regrade_problem; /* --regrade-problem: every student graded again (implies resume), regrade.md
				      * about that problem first; NULL: none */
	int shard_index, shard_count;/* grade the shard_index-th of shard_count parts; 0/0: all */
	bool verbose;                /* report option of the students' files (always the instructor's view) */
	double deadline_s;           /* per student; <= 0: derived from the limits */
	const struct late_policy *policy; /* --policy: deadlines and late work (batch_policy.h), or NULL */
	FILE *progress;              /* progress lines (stderr); NULL: none */
};

struct batch_summary {
	int students;                /* in this shard */
	int class_size;              /* in the whole class */
	int resumed, graded_now;
	int warnings;                /* lines about the class's entries printed before grading */
	bool regrade_written;        /* --resume: OUTDIR/regrade.md and .csv (batch_regrade.h) */
	struct gradebook_totals totals;
	double seconds;
};

/*
 * Grade the class.  Returns 0 with the totals in *out, or -1 with a message
 * in err; *usage says whether that was the user's mistake (a bad outdir or
 * submissions folder: exit 2), and grader_interrupted whether it was Ctrl-C
 * (the students graded so far are kept).  Lines for the user that are not
 * errors (entries ignored, names escaped: batch_class.h) are printed to
 * o->progress once the class is listed, before any student is graded, as
 * "grader: warning: ..." (cleaned, text.h); those not printed (no progress
 * stream, or the run failed before) are left in notes for the caller.
 */
int batch_grade(const struct batch_options *o, struct batch_summary *out, struct strbuf *notes,
		struct strbuf *err, bool *usage);

/*
 * Merge the outputs of every shard of one batch into out (new or empty).
 * Returns 0 with the totals, or -1 with a message in err (*usage: the
 * shards do not belong together, or one is missing).
 */
int batch_merge(char *const *dirs, int ndirs, const char *out, struct gradebook_totals *totals,
		struct strbuf *err, bool *usage);

#endif
