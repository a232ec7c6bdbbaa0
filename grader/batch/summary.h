/*
 * summary.h - OUTDIR/summary.html, the class summary for the instructor:
 * one self-contained page (inline CSS, an inline SVG histogram and one small
 * inline script that sorts the student table; nothing loaded from
 * anywhere) with
 *
 *   - the score distribution;
 *   - every student: score per problem, total, status, a link to
 *     students/<id>.txt (sortable by any column);
 *   - per problem: mean, full marks, compile errors, missing files, and the
 *     verdicts of every test run (how many time limits, crashes, ...);
 *   - per group: its pass rate and the tests most students fail, with
 *     the verdicts they got instead;
 *   - pairs of students whose files for a problem are identical or nearly
 *     so after normalising layout, comments and names (similarity.h);
 *   - the compile errors and the students that could not be graded.
 *
 * Built from the manifest, state records (given by the caller), students/
 * and similarity/ alone, never from timings: a resumed run, merged shards
 * and one uninterrupted run give the same bytes.  Everything that comes
 * from a student (ids, file names, compiler output, messages) is
 * HTML-escaped.
 *
 * Ownership: everything is borrowed; nothing is kept.
 */
#ifndef GRADER_SUMMARY_H
#define GRADER_SUMMARY_H

#include "batch/manifest.h"

struct summary_row {
	const struct student_state *state; /* NULL when the student has no state record */
	const char *status;                /* as grades.csv shows it */
	bool priced;                       /* --policy, and graded or too late: the three below hold */
	double late_hours, penalty, final;
};

/* Write OUTDIR/summary.html atomically; rows[i] is m->ids[i].  0, or -1 with a message in err. */
int summary_write(const char *outdir, const struct batch_manifest *m, const struct summary_row *rows,
		  struct strbuf *err);

#endif
