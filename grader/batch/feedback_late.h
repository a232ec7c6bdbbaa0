/*
 * feedback_late.h - how late a student handed in, said where the student
 * looks: at the top of OUTDIR/feedback/<id>.txt and .md (batch_student.h
 * writes the rest), in the students' language (l10n.h):
 *
 *   == Deadline and late work ==
 *   Handed in 1 day 6 hours after the deadline (2026-11-20T23:59:00+01:00).
 *   Late penalty: 20% (2 started days x 10%).
 *   Score before the penalty: 13 / 13; final score: 10.4 / 13.
 *
 * The price is the gradebook's (batch_policy.h: computed when the gradebook
 * is written, so a --resume under another policy prices again without
 * grading), so the gradebook writes this block too, each time: an earlier
 * block is replaced, and removed when there is no policy any more.  The
 * block holds only the grader's words, times and numbers, and ends before
 * anything of the student's: in the text, at its first empty line (the
 * block starts with "== ", which a report never does); in Markdown, at an
 * end marker (<!-- /late -->).
 *
 * Ownership: everything is borrowed.
 */
#ifndef GRADER_FEEDBACK_LATE_H
#define GRADER_FEEDBACK_LATE_H

#include <stdbool.h>

#include "batch/batch_policy.h"
#include "base/util.h"

#define BATCH_FEEDBACK_DIR "feedback" /* OUTDIR/feedback/<id>.txt and .md */

/*
 * Put pr's block at the top of id's feedback files (pr NULL: no policy, only
 * remove an earlier block).  graded: raw is a score (of max) and final the
 * score after the penalty; a student not graded gets the block only when
 * too late (final 0).  Files that do not exist are left so.  0, or -1 with
 * a message in err.
 */
int feedback_late_update(const char *outdir, const char *id, const struct late_price *pr, bool graded, double raw,
			 double final, double max, struct strbuf *err);

#endif
