/*
 * lms_roster.h - the learning management systems a class can come from,
 * and who each student is in them.
 *
 * A class read from an LMS download (batch_lms.h) knows more about each
 * student than the row's id: the LMS's own id for them (Canvas user id,
 * Moodle participant id, Gradescope submission id) and their name as the
 * download gives it.  That is the roster: the batch manifest (gradebook.h)
 * keeps it, in the JSON form below, so a resumed run and `grader merge` of
 * shard outputs write the same import files (gradebook_lms.h) as one run.
 *
 * Ownership: a roster owns its people and their strings (lms_roster_add
 * copies); lms_roster_release() frees them.
 */
#ifndef GRADER_LMS_ROSTER_H
#define GRADER_LMS_ROSTER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"

enum lms_layout {
	LMS_FOLDERS,       /* one folder or archive per student (no LMS) */
	LMS_CANVAS,        /* Canvas "Download Submissions": flat files */
	LMS_MOODLE,        /* Moodle "Download all submissions" */
	LMS_GRADESCOPE,    /* Gradescope "Export Submissions" */
};
#define LMS_LAYOUTS 4

/* "folders", "canvas", "moodle", "gradescope" */
const char *lms_layout_name(enum lms_layout l);
/* How the messages call it: "one folder or archive per student", "a Canvas download", ... */
const char *lms_layout_words(enum lms_layout l);
/* 0 with *out set, or -1 when name is none of lms_layout_name's. */
int lms_layout_parse(const char *name, enum lms_layout *out);

struct lms_person {
	char *id;          /* the row's student id (the manifest's) */
	char *name;        /* as the download gives it ("smithjohn", "Ada Lovelace"); may be "" */
	char *lms_id;      /* Canvas user id, Moodle participant id, Gradescope submission id */
	char *sid, *email; /* Gradescope: the first submitter's student id and e-mail, or NULL */
	bool late;         /* Canvas marked the submission LATE */
};

struct lms_roster {
	enum lms_layout layout;
	char *assignment;  /* the Canvas assignment column's header, or NULL for the default */
	struct lms_person *people;
	int n;
	size_t alloc;
};

/* The Canvas column's header when none is given. */
#define LMS_DEFAULT_ASSIGNMENT "combgrader"

/* Append a copy of p. */
void lms_roster_add(struct lms_roster *r, const struct lms_person *p);
/* Sort by id (strcmp): the order every file is written in. */
void lms_roster_sort(struct lms_roster *r);
/* The person of row id, or NULL (the roster must be sorted). */
const struct lms_person *lms_roster_find(const struct lms_roster *r, const char *id);
void lms_roster_release(struct lms_roster *r);

/* The manifest's "lms" object, or NULL for the folders layout (no such key). */
json_t *lms_roster_to_json(const struct lms_roster *r);
/* Read it back (j NULL: the folders layout, empty).  0, or -1 with a message in err. */
int lms_roster_from_json(json_t *j, struct lms_roster *r, struct strbuf *err);

#endif
