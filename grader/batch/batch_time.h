/*
 * batch_time.h - when each student of a class handed in, from where the
 * class came from (--policy, batch_policy.h):
 *
 *   a git repository (a folder holding .git: GitHub Classroom's clone):
 *       the last commit of HEAD's first-parent history whose committer
 *       date is at or before the student's late_until; that commit is
 *       graded (struct student's commit), not the work tree, so a later
 *       fix does not count.  A committer date is whatever the student's
 *       machine said: it is trusted only as far as the clone's own time
 *       (the reflog's "clone:" entry, written by the instructor's git)
 *       bounds it; otherwise the row says it is unverified (flagged), and
 *       dates that go backwards along the history are flagged as such;
 *   Canvas: the _LATE_ marker says late; the files' times (the download's
 *       zip entry times, kept by unzip) say how late when they are after
 *       the deadline, else the least unit is charged;
 *   Moodle: the files' times (Moodle's zip entry times: when it stored each
 *       file, kept by unzip);
 *   anything else: the newest file's modification time, flagged (anyone
 *       who copies the files changes it).
 *
 * Runs in the parent, before grading.  Ownership: *out is the caller's
 * (late_time_release); a commit chosen is also copied into s->commit.
 */
#ifndef GRADER_BATCH_TIME_H
#define GRADER_BATCH_TIME_H

#include "batch/batch_class.h"
#include "batch/batch_policy.h"

/*
 * Find s's submission time.  A git student with no commit at or before
 * late_until becomes unusable (its row says why, final score 0).
 */
void batch_time_find(struct student *s, enum lms_layout layout, const struct late_policy *p, struct late_time *out);

#endif
