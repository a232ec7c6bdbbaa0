/*
 * gradebook_lms.h - the grade files to import back into the learning
 * management system a class came from (lms_roster.h).
 *
 * Beside grades.csv, gradebook_lms_write() writes
 *
 *   OUTDIR/canvas-import.csv   for a Canvas class: Canvas' gradebook import
 *                              (Student, ID, SIS User ID, SIS Login ID,
 *                              Section, then one assignment column; a
 *                              "Points Possible" row; Canvas matches the
 *                              rows on ID, the user id from the download)
 *   OUTDIR/moodle-import.csv   for a Moodle class: the columns Moodle's
 *                              "Upload grading worksheet" reads (Identifier
 *                              "Participant <id>", Grade, Last modified
 *                              (grade)), plus Full name and Maximum Grade
 *
 * and nothing for the other layouts.  Only graded students get a row: a
 * student whose grading failed (status "error: ...") is left out rather
 * than given an empty cell that an import could take for "no grade".
 * Every text cell goes through csv_add_cell (the formula guard).
 *
 * Ownership: everything is borrowed; nothing is kept.
 */
#ifndef GRADER_GRADEBOOK_LMS_H
#define GRADER_GRADEBOOK_LMS_H

#include "batch/lms_roster.h"
#include "base/util.h"

struct batch_manifest;

/*
 * Write the import file of the manifest's layout (see above) from the
 * students' state records, atomically; *written is its name
 * ("canvas-import.csv"), or NULL when the layout has none.  0, or -1 with
 * a message in err.
 */
int gradebook_lms_write(const char *outdir, const struct batch_manifest *m, const char **written,
			struct strbuf *err);

/* Remove every import file this module writes (an earlier run's).  0, or -1 with a message in err. */
int gradebook_lms_remove(const char *outdir, struct strbuf *err);

#endif
