/* batch_student.c - see batch_student.h */
#define _GNU_SOURCE
#include "batch_student.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch_archive.h"
#include "batch_lms.h"
#include "interrupt.h"
#include "language.h"
#include "similarity.h"
#include "text.h"

#define DESCEND_LEVELS 3 /* alice.zip -> alice/ -> hw3/ -> files */

static char *student_file(const struct batch_output *out, const char *id, const char *ext)
{
	return xasprintf("%s/students/%s.%s", out->outdir, id, ext);
}

int batch_student_fail(const struct batch_output *out, const struct student *s, const char *reason, bool retry,
		       struct strbuf *err)
{
	struct student_state st;
	int ret;

	memset(&st, 0, sizeof(st));
	for (int k = 0; k < 2; k++) {
		char *path = student_file(out, s->id, k ? "txt" : "json");
		unlink(path);
		free(path);
	}
	similarity_remove(out->outdir, s->id);
	st.id = s->id;
	st.input = s->name;
	st.fingerprint = (char *)s->fingerprint;
	st.status = xasprintf("error: %s", reason);
	text_one_line(st.status);
	st.retry = retry;
	ret = state_write(out->outdir, out->manifest, &st, err);
	free(st.status);
	return ret;
}

/* Does dir hold the file of some problem of e? */
static bool holds_a_problem_file(const struct engine *e, const char *dir)
{
	for (int i = 0; i < e->nproblems; i++) {
		char *f = build_find_source(dir, e->problems[i]->source);
		if (f) {
			free(f);
			return true;
		}
	}
	return false;
}

/* The only subfolder of dir (hidden ones and __MACOSX aside), or NULL when there are none or several. */
static char *only_subfolder(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char *only = NULL;
	int subdirs = 0;

	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		struct stat st;
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "__MACOSX"))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
			subdirs++;
			free(only);
			only = xstrdup(de->d_name);
		}
	}
	closedir(d);
	if (subdirs != 1) {
		free(only);
		return NULL;
	}
	return only;
}

/* The folder to grade: descend while there is no problem file but exactly one subfolder. */
static char *submission_root(const struct engine *e, const char *dir)
{
	char *cur = xstrdup(dir);
	for (int level = 0; level < DESCEND_LEVELS && !holds_a_problem_file(e, cur); level++) {
		char *only = only_subfolder(cur), *next;
		if (!only)
			break;
		next = xasprintf("%s/%s", cur, only);
		free(only);
		free(cur);
		cur = next;
	}
	return cur;
}

static int render(report_writer write, const struct view *v, const struct report_options *o, struct strbuf *out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;
	if (!f)
		return -1;
	ret = write(f, v, o);
	if (fclose(f) != 0)
		ret = -1;
	if (!ret)
		strbuf_add(out, buf, len);
	free(buf);
	return ret;
}

static int write_reports(const struct batch_output *out, const struct student *s, const struct grade_result *r,
			 struct strbuf *err)
{
	struct strbuf json = STRBUF_INIT, text = STRBUF_INIT;
	char *jpath = student_file(out, s->id, "json"), *tpath = student_file(out, s->id, "txt");
	struct view v;
	int ret = -1;

	view_build(&v, r, true); /* the instructor's files (batch_student.h) */
	if (render(report_json, &v, out->report, &json) < 0 || render(report_text, &v, out->report, &text) < 0) {
		strbuf_addstr(err, "cannot render the reports");
		goto cleanup;
	}
	if (write_file_atomic(jpath, json.buf, json.len) < 0 || write_file_atomic(tpath, text.buf, text.len) < 0) {
		strbuf_addf(err, "cannot write the reports in '%s/students': %s", out->outdir, strerror(errno));
		goto cleanup;
	}
	ret = 0;
cleanup:
	view_release(&v);
	strbuf_release(&json);
	strbuf_release(&text);
	free(jpath);
	free(tpath);
	return ret;
}

/* similarity/<id>.json: the fingerprints of every problem file found in root (similarity.h). */
static int write_fingerprints(const struct batch_output *out, const struct student *s, const struct grade_result *r,
			      const char *root, struct strbuf *err)
{
	struct sim_file *files = xcalloc((size_t)r->nproblems + 1, sizeof(*files));
	int n = 0, ret = -1;

	for (int p = 0; p < r->nproblems; p++) {
		const struct problem_result *pr = &r->problems[p];
		const struct language *l = pr->source ? language_of_file(pr->source) : NULL;
		char *path;
		if (!l)
			continue;
		path = xasprintf("%s/%s", root, pr->source);
		if (sim_file_make(&files[n], pr->problem->id, path, l->tokens, err) < 0) {
			free(path);
			goto cleanup;
		}
		free(path);
		n++;
	}
	ret = similarity_write(out->outdir, s->id, files, n, err);
cleanup:
	sim_files_free(files, n);
	return ret;
}

/* The state record of a graded student: the commit point, written after the reports. */
static int write_state(const struct batch_output *out, const struct student *s, const struct grade_result *r,
		       double seconds, struct strbuf *err)
{
	struct strbuf status = STRBUF_INIT;
	struct student_state st;
	int ret;

	memset(&st, 0, sizeof(st));
	st.id = s->id;
	st.input = s->name;
	st.fingerprint = (char *)s->fingerprint;
	gradebook_status(&status, r, &st.retry);
	text_one_line(status.buf);
	st.status = status.buf;
	st.graded = true;
	st.score = r->score;
	st.scores = xcalloc((size_t)r->nproblems + 1, sizeof(double));
	for (int p = 0; p < r->nproblems; p++) {
		st.scores[p] = r->problems[p].score;
		st.compile_ms += r->problems[p].compile_ms;
		for (int k = 0; k < r->problems[p].ntests; k++)
			st.cpu_ms += r->problems[p].tests[k].time_ms;
	}
	st.seconds = seconds;
	ret = state_write(out->outdir, out->manifest, &st, err);
	free(st.scores);
	strbuf_release(&status);
	return ret;
}

/*
 * Unpack an archive, or gather a flat LMS download's files, into the
 * engine's scratch space.  The folder to grade, or NULL with *why.
 */
static char *prepare(const struct student *s, struct engine *e, char **unpacked, struct strbuf *why)
{
	struct unpack_limits lim = UNPACK_LIMITS_INIT;
	struct strbuf err = STRBUF_INIT;
	char *root = NULL;

	if (s->archive || !s->path) {
		*unpacked = xasprintf("%s/in-%s", e->scratch, s->fingerprint);
		remove_tree(*unpacked);
	}
	if (s->archive && unpack_archive(s->path, *unpacked, &lim, &err) < 0) {
		strbuf_addf(why, "archive rejected: %s", err.buf);
		goto cleanup;
	}
	/* a flat LMS download (batch_lms.h): the student's files gathered in one folder */
	if (!s->path && lms_stage(s->lms, *unpacked, lim.max_bytes, &err) < 0) {
		strbuf_addf(why, "cannot gather the student's files: %s", err.buf);
		goto cleanup;
	}
	root = submission_root(e, *unpacked ? *unpacked : s->path);
cleanup:
	strbuf_release(&err);
	return root;
}

int batch_student_grade(const struct batch_output *out, const struct student *s, struct engine *e)
{
	const char *crash_id = getenv("GRADER_TEST_BATCH_CRASH"); /* the test suite's dying worker */
	struct strbuf err = STRBUF_INIT;
	struct grade_result r;
	bool have_result = false;
	char *unpacked = NULL, *root = NULL;
	uint64_t started = now_us();
	int ret = 0;

	if (crash_id && *crash_id && !strcmp(crash_id, s->id))
		kill(getpid(), SIGKILL);
	if (s->unusable) {
		batch_student_fail(out, s, s->unusable, false, &err);
		goto cleanup;
	}
	root = prepare(s, e, &unpacked, &err);
	if (!root) {
		char *why = strbuf_detach(&err);
		batch_student_fail(out, s, why, false, &err);
		free(why);
		goto cleanup;
	}
	if (engine_grade(e, root, &r, &err) < 0) {
		if (grader_interrupted)
			ret = -1;
		else
			batch_student_fail(out, s, err.buf, true, &err);
		goto cleanup;
	}
	have_result = true;
	/* the report names the submission as handed in, not the unpacked copy */
	free(r.submission);
	r.submission = xstrdup(s->path ? s->path : s->lms->where);
	if (write_reports(out, s, &r, &err) < 0 || write_fingerprints(out, s, &r, root, &err) < 0) {
		char *why = strbuf_detach(&err);
		batch_student_fail(out, s, why, true, &err);
		free(why);
		goto cleanup;
	}
	/* a state record that cannot be written is seen by the parent, which writes the row itself */
	write_state(out, s, &r, (double)(now_us() - started) / 1e6, &err);
cleanup:
	if (have_result)
		grade_result_release(&r);
	if (unpacked) {
		remove_tree(unpacked);
		free(unpacked);
	}
	free(root);
	strbuf_release(&err);
	return ret;
}
