/*
 * batch_regrade.h - what a regrade moved, as DOMjudge's rejudging shows it:
 * `grader batch --resume` (after a test, a problem file or the reference
 * changed: every student whose fingerprint no longer matches is graded
 * again) and `--regrade ID` (that student again, whatever the fingerprint)
 * write
 *
 *   OUTDIR/regrade.md    per student and problem that moved: the old and new
 *                        score and every test whose verdict changed
 *   OUTDIR/regrade.csv   the same, one row per student and problem that moved:
 *                        id,problem,old_score,new_score,changed_tests
 *
 * from the results before (regrade_snapshot, taken before any worker starts)
 * and after (read back when the batch is done).  Both are the instructor's:
 * hidden tests are named.  A student without an earlier result is counted,
 * not compared.
 *
 * Ownership: regrade_snapshot() hands a struct freed with regrade_free().
 */
#ifndef GRADER_BATCH_REGRADE_H
#define GRADER_BATCH_REGRADE_H

#include "base/util.h"

#define REGRADE_MD "regrade.md"
#define REGRADE_CSV "regrade.csv"

struct regrade;

/* The results of ids (the students about to be graded again) as OUTDIR holds them now. */
struct regrade *regrade_snapshot(const char *outdir, char *const *ids, int n);
/*
 * Compare with what OUTDIR holds now and write regrade.md and .csv; problem (--regrade-problem) or NULL: its
 * rows come first in regrade.md, the other problems' that moved too under a heading of their own.  0, or -1
 * with a message in err.
 */
int regrade_write(const struct regrade *r, const char *outdir, const char *problem, struct strbuf *err);
void regrade_free(struct regrade *r);
/* Remove regrade.md and .csv (a run that is no regrade must not leave an earlier one's).  0, or -1. */
int regrade_remove(const char *outdir, struct strbuf *err);

#endif
