/* gradebook_lms.c - see gradebook_lms.h */
#define _GNU_SOURCE
#include "batch/gradebook_lms.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/csv.h"
#include "batch/gradebook.h"
#include "base/text.h"

/* The import file of each layout (NULL: none). */
static const char *const import_file[LMS_LAYOUTS] = {
	[LMS_CANVAS] = "canvas-import.csv",
	[LMS_MOODLE] = "moodle-import.csv",
};

/* ---- the import files ---- */

/* Canvas' gradebook import: five student columns, then the assignment; a Points Possible row. */
static void canvas_head(struct strbuf *csv, const struct batch_manifest *m)
{
	static const char *const cols[] = { "Student", "ID", "SIS User ID", "SIS Login ID", "Section" };
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		csv_add_cell(csv, cols[i]);
		strbuf_addch(csv, ',');
	}
	csv_add_cell(csv, m->lms.assignment ? m->lms.assignment : LMS_DEFAULT_ASSIGNMENT);
	strbuf_addstr(csv, "\r\n");
	/* Canvas reads a row whose first cell says "Points Possible" as the assignment's points */
	csv_add_cell(csv, "Points Possible");
	strbuf_addstr(csv, ",,,,,");
	text_score(csv, manifest_max_score(m));
	strbuf_addstr(csv, "\r\n");
}

static void canvas_row(struct strbuf *csv, const struct lms_person *p, double score)
{
	csv_add_cell(csv, p->name);
	strbuf_addch(csv, ',');
	csv_add_cell(csv, p->lms_id);
	strbuf_addstr(csv, ",,,,"); /* SIS ids and section: a download does not have them */
	text_score(csv, score);
	strbuf_addstr(csv, "\r\n");
}

/*
 * Moodle's "Upload grading worksheet" (assignfeedback_offline) finds its
 * columns by these exact headers, and needs all three of Identifier, Grade
 * and "Last modified (grade)"; it takes the number after "Participant " as
 * the id the download used.  An empty "Last modified (grade)" reads as
 * never modified: Moodle then keeps a grade changed on its side unless the
 * upload allows overwriting those (docs/batch.md).
 */
static void moodle_head(struct strbuf *csv)
{
	static const char *const cols[] = { "Identifier", "Full name", "Grade", "Maximum Grade",
					     "Last modified (grade)" };
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		if (i)
			strbuf_addch(csv, ',');
		csv_add_cell(csv, cols[i]);
	}
	strbuf_addstr(csv, "\r\n");
}

static void moodle_row(struct strbuf *csv, const struct lms_person *p, double score, double max)
{
	char *ident = xasprintf("Participant %s", p->lms_id);
	csv_add_cell(csv, ident);
	strbuf_addch(csv, ',');
	csv_add_cell(csv, p->name);
	strbuf_addch(csv, ',');
	text_score(csv, score);
	strbuf_addch(csv, ',');
	text_score(csv, max);
	strbuf_addstr(csv, ",\r\n");
	free(ident);
}

int gradebook_lms_write(const char *outdir, const struct batch_manifest *m, const char **written,
			struct strbuf *err)
{
	enum lms_layout l = m->lms.layout;
	struct strbuf csv = STRBUF_INIT;
	char *path = NULL;
	int ret = -1;

	*written = NULL;
	if (!import_file[l])
		return 0;
	if (l == LMS_CANVAS)
		canvas_head(&csv, m);
	else
		moodle_head(&csv);
	for (int i = 0; i < m->nids; i++) {
		const struct lms_person *p = lms_roster_find(&m->lms, m->ids[i]);
		struct student_state st;
		if (!p || state_read(outdir, m->ids[i], m, &st) < 0)
			continue;
		if (st.graded && l == LMS_CANVAS)
			canvas_row(&csv, p, st.score);
		else if (st.graded)
			moodle_row(&csv, p, st.score, manifest_max_score(m));
		student_state_release(&st);
	}
	path = xasprintf("%s/%s", outdir, import_file[l]);
	if (write_file_atomic(path, csv.buf, csv.len) < 0) {
		strbuf_addf(err, "cannot write '%s': %s", path, strerror(errno));
		goto cleanup;
	}
	*written = import_file[l];
	ret = 0;
cleanup:
	free(path);
	strbuf_release(&csv);
	return ret;
}

int gradebook_lms_remove(const char *outdir, struct strbuf *err)
{
	for (int i = 0; i < LMS_LAYOUTS; i++) {
		char *path;
		if (!import_file[i])
			continue;
		path = xasprintf("%s/%s", outdir, import_file[i]);
		if (unlink(path) < 0 && errno != ENOENT) {
			strbuf_addf(err, "cannot remove '%s': %s", path, strerror(errno));
			free(path);
			return -1;
		}
		free(path);
	}
	return 0;
}
