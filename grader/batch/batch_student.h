/*
 * batch_student.h - grade one student of a batch and write that student's
 * files:
 *
 *   OUTDIR/students/<id>.json   report_json, compact (report.h)
 *   OUTDIR/students/<id>.txt    report_text, no colour
 *
 * both the instructor's view (view.h, as with --show-hidden): every hidden
 * test listed with its input, values and output.  They are for the
 * instructor (summary.html counts hidden tests from the JSON), not for
 * handing back to students.  For that:
 *   OUTDIR/feedback/<id>.txt    report_text, no colour   } the student's view: hidden groups
 *   OUTDIR/feedback/<id>.md     report_markdown          } as counts, as `grader` shows it
 * naming the submission as it was handed in ("alice.zip"), not where it
 * lies on the instructor's disk.  A student who is not graded gets
 * feedback saying why (a grader-side failure: only that it was one).
 *   OUTDIR/similarity/<id>.json the fingerprints of the problem files found
 *                               (similarity.h), for the summary's check
 *   OUTDIR/state/<id>.json      written last: the student is then done
 *
 * An archive is unpacked into the engine's scratch space first (unsafe
 * archives are refused, batch_archive.h), and the files of a flat LMS
 * download (Canvas) gathered there under their original names
 * (batch_lms.h); the folder graded is the first one, going down single
 * subfolders, that holds a problem file.  A student
 * who cannot be graded at all (an unusable entry, a refused archive, a
 * grader failure) gets a state record and feedback saying why, and no
 * reports.
 *
 * Ownership: everything is borrowed from the caller; nothing is kept.
 */
#ifndef GRADER_BATCH_STUDENT_H
#define GRADER_BATCH_STUDENT_H

#include <stdbool.h>

#include "batch/batch_class.h"
#include "batch/feedback_late.h"
#include "judge/engine.h"
#include "batch/gradebook.h"
#include "report/report.h"


/* Where one student's files go, and how the reports look (colour and verbosity; the view is the instructor's). */
struct batch_output {
	const char *outdir;
	const struct batch_manifest *manifest;
	const struct report_options *report;
};

/*
 * Grade s with e (its scratch space is used for unpacking) and write its
 * files.  Returns 0 when the student is done (graded, or recorded as not
 * gradable), or -1 when interrupted (nothing recorded).
 */
int batch_student_grade(const struct batch_output *out, const struct student *s, struct engine *e);

/*
 * Record that s could not be graded: feedback/<id>.txt and .md saying so,
 * then state/<id>.json with status "error: <reason>" (retry: --resume
 * tries again), stale reports removed.
 * 0, or -1 with a message in err.
 */
int batch_student_fail(const struct batch_output *out, const struct student *s, const char *reason, bool retry,
		       struct strbuf *err);

#endif
