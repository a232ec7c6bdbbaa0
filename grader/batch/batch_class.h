/*
 * batch_class.h - a class as `grader batch` finds it: one student per
 * folder or archive of the submissions directory, or the students of an LMS
 * download (batch_lms.h), with a fingerprint of what was handed in, and the
 * keys that tell whether an earlier result still holds (--resume) and
 * whether shard outputs belong together (merge).
 *
 * Ownership: a struct student owns its strings and its lms part;
 * student_release() frees them.  class_collect() hands the caller an array
 * it frees with class_release().
 */
#ifndef GRADER_BATCH_CLASS_H
#define GRADER_BATCH_CLASS_H

#include <stdbool.h>

#include "batch/batch_lms.h"
#include "base/digest.h"
#include "judge/engine.h"

struct student {
	char *id;            /* the name without extension: the row's key */
	char *name;          /* the entry in SUBMISSIONS: "alice", "bob.zip" (an LMS download: batch_lms.h's entry) */
	char *path;          /* SUBMISSIONS/name; NULL for a flat LMS download's student (lms->files are graded) */
	bool archive;
	bool escaped;        /* the name is not UTF-8 or has control characters: id is it escaped ("\xe9l\xe8ve") */
	char *unusable;      /* why it cannot be graded at all (e.g. two entries for one id), or NULL */
	char *commit;        /* --policy and a git repository: the commit to grade, not the work tree (batch_time.h) */
	struct lms_student *lms; /* the LMS layouts: files, other entries, who they are; NULL for folders */
	char fingerprint[DIGEST_HEX_SIZE];
};

void student_release(struct student *s);

/*
 * The students of dir, sorted by id, in the layout o->layout names or
 * detects (LMS_AUTO; *layout says which).  The folders layout: every folder
 * and archive of dir is a student, and so is an archive of a kind the
 * grader does not unpack (.rar, .7z, .tar.xz, ...) or an entry that cannot
 * be read, as an unusable row saying why; hidden entries, __MACOSX and
 * o->outdir are skipped; other files are skipped with a line in *notes
 * (warnings for the user).  The LMS layouts: batch_lms.h; an entry named
 * like none of the LMS's that looks handed in (a folder, an archive, a
 * source file) is an unusable row of its own, with no LMS id.  An id that is
 * not UTF-8 or holds control characters is escaped ("\xe9l\xe8ve", with a
 * note giving its Latin-1 reading) and graded.  Two entries for one id
 * (alice/ and alice.zip, also after escaping) make one unusable row naming
 * both.  So every entry that is a student has a row.  0, or -1 with a
 * message in err when dir cannot be read or holds no student at all (the
 * message says what it holds).
 */
int class_collect(const char *dir, const struct lms_options *o, enum lms_layout *layout, struct student **out,
		  int *count, struct strbuf *notes, struct strbuf *err);
void class_release(struct student *students, int count);

/*
 * What a result depends on besides the submission: the grader's version,
 * the selected problems' files, the reference sources and the report
 * options that change the reports (show_hidden, verbose).
 */
void class_problem_key(const struct engine *e, bool show_hidden, bool verbose, char out[DIGEST_HEX_SIZE]);

/* Every id of the class, in order: shard outputs of one class share it. */
void class_key(const struct student *all, int n, char out[DIGEST_HEX_SIZE]);

/*
 * The problem key + names, sizes and contents of everything handed in
 * (never through a link): for an LMS student, every file and folder
 * grouped to them.
 */
void student_fingerprint(struct student *s, const char *problem_key);

#endif
