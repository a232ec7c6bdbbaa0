/*
 * gradebook.h - what a batch leaves in its output directory, and the
 * class-level views built from it.
 *
 *   OUTDIR/batch.json           the manifest: grader version, problem key,
 *                               problems (id, title, points), shard I/N,
 *                               class size and key, this output's students
 *   OUTDIR/state/<id>.json      per student, written last (the commit
 *                               point): fingerprint, status, scores, timing
 *   OUTDIR/students/<id>.json   report_json, compact: the instructor's record
 *   OUTDIR/students/<id>.txt    report_text, no colour (the instructor's view)
 *   OUTDIR/feedback/<id>.txt    the student's view, to hand back
 *   OUTDIR/feedback/<id>.md     (batch_student.h)
 *   OUTDIR/grades.csv           one row per student, sorted by id
 *   OUTDIR/canvas-import.csv    for a class from Canvas or Moodle: the LMS's
 *   OUTDIR/moodle-import.csv    grade import (gradebook_lms.h)
 *   OUTDIR/summary.html         one self-contained page for the instructor
 *                               (summary.h, which also reads similarity/)
 *
 * grades.csv and summary.html are built from the manifest, state/ and
 * students/ alone (gradebook_write), never from timings, so `grader merge`
 * of shard outputs and a single run produce the same bytes.
 *
 * Ownership: manifests and states own their strings and arrays; release
 * them with manifest_release() and student_state_release().
 */
#ifndef GRADER_GRADEBOOK_H
#define GRADER_GRADEBOOK_H

#include <stdbool.h>

#include "batch/batch_policy.h"
#include "batch/lms_roster.h"
#include "batch/manifest.h"
#include "judge/result.h"
#include "base/util.h"

#define GRADEBOOK_MANIFEST "batch.json"

/* struct batch_problem, struct batch_manifest, struct student_state: manifest.h */

struct late_entry {
	char *id;
	struct late_time t;
};

/* Add a copy of t for id (keep m->late sorted with manifest_sort_late); the entry of id, or NULL. */
void manifest_add_late(struct batch_manifest *m, const char *id, const struct late_time *t);
void manifest_sort_late(struct batch_manifest *m);
const struct late_time *manifest_late(const struct batch_manifest *m, const char *id);
/*
 * With a policy: the price of a student's lateness and the final score
 * (raw when there is no policy: *pr is then zeroed).  late_price_release(pr) after.
 */
double manifest_final(const struct batch_manifest *m, const char *id, double raw, struct late_price *pr);

int manifest_write(const char *outdir, const struct batch_manifest *m, struct strbuf *err);
/* 0, or -1 with a message (no manifest, or not one this grader can read). */
int manifest_read(const char *outdir, struct batch_manifest *m, struct strbuf *err);
void manifest_release(struct batch_manifest *m);
double manifest_max_score(const struct batch_manifest *m);

/* Write state/<id>.json atomically (the student is then done). */
int state_write(const char *outdir, const struct batch_manifest *m, const struct student_state *s,
		struct strbuf *err);
/* Read state/<id>.json.  0, or -1 when missing or unreadable. */
int state_read(const char *outdir, const char *id, const struct batch_manifest *m, struct student_state *s);
void student_state_release(struct student_state *s);

/* The status words for a graded result: "ok", "compile-error: p1; missing: p4.c", ...; *retry for judge errors. */
void gradebook_status(struct strbuf *out, const struct grade_result *r, bool *retry);

struct gradebook_totals {
	int students, graded, not_graded;
	int errors;                /* rows whose status is "error: ..." (not graded, or judge errors) */
	const char *lms_file;      /* the LMS import file written beside grades.csv (gradebook_lms.h), or NULL */
};

/*
 * Write OUTDIR/grades.csv and OUTDIR/summary.html for the manifest's
 * students (atomically).  A student without a state record gets a row
 * "error: <missing_reason>".  0, or -1 with a message in err.
 */
int gradebook_write(const char *outdir, const struct batch_manifest *m, const char *missing_reason,
		    struct gradebook_totals *totals, struct strbuf *err);

#endif
