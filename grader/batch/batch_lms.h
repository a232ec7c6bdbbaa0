/*
 * batch_lms.h - reading a class from what a learning management system
 * hands the instructor, grouping its files into one student each.
 *
 *   Canvas ("Download Submissions"): flat files
 *       <name>_<userid>_<fileid>_<original name>
 *       <name>_LATE_<userid>_<fileid>_<original name>    (late work)
 *       <name>_<userid>_text.html, <name>_<userid>_link.html
 *     <name> is the student's sortable name squeezed to letters ("smithjohn");
 *     the files of one <userid> are one student, id "<name>_<userid>", graded
 *     under their original names.  Canvas renames a file uploaded again
 *     under a name it already holds ("p1.c" -> "p1-1.c", "p1-2.c"): a
 *     "-<n>" before the extension is dropped when that gives the name of a
 *     problem file, and of several uploads of one file the highest <n>
 *     (the latest) is graded.
 *   Moodle ("Download all submissions"): a folder per student and plugin
 *       <Full Name>_<participant id>_assignsubmission_file_/p1.c
 *       <Full Name>_<participant id>_assignsubmission_onlinetext_/onlinetext.html
 *     or, without "Download submissions in folders", flat files
 *       <Full Name>_<participant id>_assignsubmission_file_p1.c
 *     id "<Full Name>_<participant id>"; the file folder is graded (as a
 *     folder of the folders layout), the other plugins' folders are only
 *     fingerprinted.
 *   Gradescope ("Export Submissions"): submission_metadata.yml beside one
 *     folder per submission, submission_<n>/; the metadata maps each folder
 *     to its submitters (:submitters: - :name:, :sid:, :email:); id
 *     "<first submitter's name>_<n>".
 *
 * In every layout a student whose only file is a .zip/.tar.gz is graded as
 * that archive (the usual unpacking rules, batch_archive.h).  Names become
 * ids with '/' and control characters replaced by '_' and a leading '.'
 * by '_'.  An entry named like none of the layout's that looks handed in
 * (a folder, an archive of any kind, a source file of a language the
 * grader grades: a stray "alice/" or "bob.c") is a stray entry: a student
 * of its own, with no LMS id, id its name (with "_stray", "_stray2", ...
 * added when another student has that id), path set and `unusable` saying
 * why it is not graded and what to do; but when no entry at all is the
 * LMS's, there are no strays either (the layout is wrong: no student
 * found).  Other entries that fit no student (notes.txt) are skipped with
 * a note.
 *
 * Detection (lms_detect): submission_metadata.yml (in the directory or in
 * its only subfolder) means Gradescope; any entry named like Moodle's means
 * Moodle; files named like Canvas' and no folder at all mean Canvas; else
 * the folders layout (batch_class.h).
 *
 * Ownership: lms_collect() hands over an array freed with
 * lms_found_release(); a struct lms_student is freed with
 * lms_student_free() (struct student keeps it, batch_class.h).
 */
#ifndef GRADER_BATCH_LMS_H
#define GRADER_BATCH_LMS_H

#include <stdbool.h>

#include "batch/lms_roster.h"
#include "base/util.h"

#define LMS_AUTO (-1) /* a struct lms_options layout: detect it */

struct lms_options {
	int layout;                 /* LMS_AUTO or an enum lms_layout */
	const char *outdir;         /* the output directory: skipped when it is inside the class */
	const char *const *wanted;  /* the problem files' names, NULL-terminated (may be NULL) */
};

/* One file of a flat download: where it is, and the name it is graded under. */
struct student_file {
	char *path;
	char *name;
	int upload;                 /* Canvas' re-upload number ("p1-2.c": 2), 0 for none */
};

/* What a student read from an LMS download has beyond struct student's fields. */
struct lms_student {
	struct student_file *files; /* flat downloads: gathered into one folder to grade (when the student has no path) */
	int nfiles;
	char **also;                /* grouped to the student but not graded (Moodle's online text folder) */
	int nalso;
	char *where;                /* a student without a folder: how reports name the submission ("DIR/smithjohn_1234_*") */
	struct lms_person person;
};

/* One student as lms_collect finds them. */
struct lms_found {
	char *id;                   /* the row's key */
	char *entry;                /* what was found, in words: the folder's name, "smithjohn_1234: 3 files" */
	char *path;                 /* the folder or archive to grade, or NULL: lms->files are */
	bool archive;
	struct lms_student *lms;    /* NULL for a stray entry */
	char *unusable;             /* a stray entry: why it is not graded (then lms is NULL: no LMS id), else NULL */
};

/* Which layout dir is (the rules above); entries "." and outdir aside. */
enum lms_layout lms_detect(const char *dir, const char *outdir);

/*
 * The students of dir read as layout (not LMS_FOLDERS), in no particular
 * order, stray entries last; files that fit none and are not stray
 * entries are skipped with a line in notes.  0, or -1
 * with a message in err (dir or Gradescope's metadata unreadable).
 */
int lms_collect(const char *dir, enum lms_layout layout, const struct lms_options *o, struct lms_found **out,
		int *count, struct strbuf *notes, struct strbuf *err);
void lms_found_release(struct lms_found *found, int count);
void lms_student_free(struct lms_student *s);

/* What dir holds, for "no student found" (a few names, then counts). */
void lms_describe(const char *dir, const char *outdir, struct strbuf *out);

/*
 * In the grading worker: copy the student's files into dest (created with
 * mode 0700), never through a link, at most max_bytes together.  0, or -1
 * with the reason in err (words for the gradebook); dest does not exist
 * after a failure.
 */
int lms_stage(const struct lms_student *s, const char *dest, unsigned long long max_bytes, struct strbuf *err);

#endif
