/*
 * batch.h - grading a whole class: what batch.c (the commands, the class
 * list, the output directory) and batch_run.c (the workers) share.
 *
 * Processes
 * ---------
 *   grader batch (parent, trusted)
 *     one engine: problems, reference answers (engine_load_reference once)
 *     └─ worker k (k < -j), forked from the parent: its own engine and
 *        scratch space (below tmp/w<k>; the other workers' spaces hidden
 *        from its compiler), the parent's reference answers handed over
 *        through fork; grades one student at a time, as told on a pipe,
 *        writes that student's files itself and answers "done".
 *           └─ compiler and runners: the usual sandbox (sandbox.h)
 *
 * The parent never grades: it hands out students, enforces a per-student
 * deadline (SIGKILL to the worker, which takes its sandboxed children
 * with it through PR_SET_PDEATHSIG), writes the row of a student whose
 * worker crashed or hung, starts a fresh worker, shows progress and at
 * the end writes the gradebook (gradebook.h) from what is on disk.
 *
 * Ownership: struct batch owns everything it points to; batch.c
 * releases it.
 */
#ifndef GRADER_BATCH_H
#define GRADER_BATCH_H

#include <stdbool.h>
#include <sys/types.h>

#include "cli.h"
#include "engine.h"
#include "gradebook.h"
#include "report.h"

struct student {
	char *id;            /* the name without extension: the row's key */
	char *name;          /* the entry in SUBMISSIONS: "alice", "bob.zip" */
	char *path;          /* SUBMISSIONS/name */
	bool archive;
	char *unusable;      /* why it cannot be graded at all (e.g. two entries for one id), or NULL */
	char fingerprint[33];
};

struct batch {
	struct cli *cli;
	const char *outdir;
	const char *submissions;
	struct problem_set set;
	struct engine engine;        /* the parent's: reference answers, deadline */
	bool have_engine;
	struct batch_manifest manifest;
	struct report_options report;
	struct student *students;    /* this shard's, sorted by id; manifest.ids in the same order */
	int nstudents;
	int *todo;                   /* indexes into students still to grade */
	int ntodo;
	char *tmp;                   /* the workers' scratch: tmp/w<k> */
	int nworkers;                /* students in flight */
	int worker_jobs;             /* test slots per worker */
	double deadline_s;           /* per student */
	pid_t parent;
	const char *crash_id;        /* GRADER_TEST_BATCH_CRASH: a worker dies on this student (tests) */
};

/* batch_run.c: grade b->todo with b->nworkers workers.  0, or -1 when interrupted or failed (message printed). */
int batch_run(struct batch *b);

/* batch.c: record that a student could not be graded (state/<id>.json; stale reports removed). */
int batch_write_failure(struct batch *b, int student, const char *reason, bool retry);

/* batch.c: grade one student in a worker with engine e and write the files.  0, or -1 when interrupted. */
int batch_grade_student(struct batch *b, struct engine *e, int student);

#endif
