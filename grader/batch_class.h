/*
 * batch_class.h - a class as `grader batch` finds it: one student per
 * folder or archive of the submissions directory, with a fingerprint of
 * what was handed in, and the keys that tell whether an earlier result still
 * holds (--resume) and whether shard outputs belong together (merge).
 *
 * Ownership: a struct student owns its strings; student_release() frees
 * them.  class_collect() hands the caller an array it frees with
 * class_release().
 */
#ifndef GRADER_BATCH_CLASS_H
#define GRADER_BATCH_CLASS_H

#include <stdbool.h>

#include "digest.h"
#include "engine.h"

struct student {
	char *id;            /* the name without extension: the row's key */
	char *name;          /* the entry in SUBMISSIONS: "alice", "bob.zip" */
	char *path;          /* SUBMISSIONS/name */
	bool archive;
	char *unusable;      /* why it cannot be graded at all (e.g. two entries for one id), or NULL */
	char fingerprint[DIGEST_HEX_SIZE];
};

void student_release(struct student *s);

/*
 * Every folder and archive of dir is a student, sorted by id.  Hidden
 * entries, __MACOSX and outdir itself are skipped; two entries for one id
 * (alice/ and alice.zip) make one unusable row.  Entries that are neither
 * are skipped with a line in *notes (warnings for the user).  0, or -1 with
 * a message in err when dir cannot be read.
 */
int class_collect(const char *dir, const char *outdir, struct student **out, int *count, struct strbuf *notes,
		  struct strbuf *err);
void class_release(struct student *students, int count);

/*
 * What a result depends on besides the submission: the grader's version,
 * the selected problems' files, the reference sources and the report
 * options that change the reports (show_hidden, verbose).
 */
void class_problem_key(const struct engine *e, bool show_hidden, bool verbose, char out[DIGEST_HEX_SIZE]);

/* Every id of the class, in order: shard outputs of one class share it. */
void class_key(const struct student *all, int n, char out[DIGEST_HEX_SIZE]);

/* The problem key + names, sizes and contents of everything handed in (never through a link). */
void student_fingerprint(struct student *s, const char *problem_key);

#endif
