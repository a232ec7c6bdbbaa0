/* batch_student.c - see batch_student.h */
#define _GNU_SOURCE
#include "batch/batch_student.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch/batch_archive.h"
#include "batch/batch_git.h"
#include "batch/batch_lms.h"
#include "base/interrupt.h"
#include "base/l10n.h"
#include "problem/language.h"
#include "batch/similarity.h"
#include "base/text.h"

#define DESCEND_LEVELS 3 /* alice.zip -> alice/ -> hw3/ -> files */

static char *student_file(const struct batch_output *out, const char *id, const char *ext)
{
	return xasprintf("%s/students/%s.%s", out->outdir, id, ext);
}

static char *feedback_file(const struct batch_output *out, const char *id, const char *ext)
{
	return xasprintf("%s/" BATCH_FEEDBACK_DIR "/%s.%s", out->outdir, id, ext);
}

/* Cleaned text inline in Markdown: HTML and Markdown punctuation as entities (as report_markdown.c writes it). */
static void md_inline(struct strbuf *sb, const char *s)
{
	struct strbuf clean = STRBUF_INIT;
	text_clean(&clean, s, 0);
	for (const char *p = clean.buf; *p; p++) {
		if (*p == '\n')
			strbuf_addstr(sb, "<br>");
		else if (strchr("&<>|`*_[]\\~$#", *p))
			strbuf_addf(sb, "&#%d;", *p);
		else
			strbuf_addch(sb, *p);
	}
	strbuf_release(&clean);
}

/*
 * The feedback of a student who was not graded: why, when it is about what
 * they handed in; when the grader failed (retry), only that it did - the
 * details are the instructor's, and the student is graded again.
 */
static int write_fail_feedback(const struct batch_output *out, const struct student *s, const char *reason,
			       bool retry, struct strbuf *err)
{
	static const char *const grader_side = N_("the grader could not finish grading it; this is not a fault of "
						  "your submission, and it will be graded again");
	static const char *const resubmit = N_("Correct this and hand it in again, or ask your instructor.");
	struct strbuf txt = STRBUF_INIT, md = STRBUF_INIT, name = STRBUF_INIT, why = STRBUF_INIT;
	char *tpath = feedback_file(out, s->id, "txt"), *mpath = feedback_file(out, s->id, "md");
	int ret = 0;

	/* the student's language, as their graded feedback (the reason itself is the grader's English) */
	l10n_begin();
	text_clean(&name, s->name, 0);
	text_clean(&why, retry ? _(grader_side) : reason, 0);
	strbuf_addf(&txt, _("Your submission '%s' was not graded."), name.buf);
	strbuf_addstr(&txt, "\n\n");
	strbuf_addf(&txt, _("Why: %s"), why.buf);
	strbuf_addch(&txt, '\n');
	if (!retry)
		strbuf_addf(&txt, "\n%s\n", _(resubmit));
	strbuf_reset(&name);
	strbuf_addstr(&name, "<code>");
	md_inline(&name, s->name);
	strbuf_addstr(&name, "</code>");
	strbuf_reset(&why);
	md_inline(&why, retry ? _(grader_side) : reason);
	strbuf_addf(&md, "## %s\n\n", _("Not graded"));
	strbuf_addf(&md, _("Your submission %s was not graded."), name.buf);
	strbuf_addf(&md, "\n\n**%s** %s\n", _("Why:"), why.buf);
	if (!retry)
		strbuf_addf(&md, "\n%s\n", _(resubmit));
	l10n_end();
	strbuf_release(&name);
	strbuf_release(&why);
	if (write_file_atomic(tpath, txt.buf, txt.len) < 0 || write_file_atomic(mpath, md.buf, md.len) < 0) {
		strbuf_addf(err, "cannot write the feedback in '%s/" BATCH_FEEDBACK_DIR "': %s", out->outdir,
			    strerror(errno));
		ret = -1;
	}
	strbuf_release(&txt);
	strbuf_release(&md);
	free(tpath);
	free(mpath);
	return ret;
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
	/* the feedback before the state record: a student is done only with both */
	ret = write_fail_feedback(out, s, reason, retry, err);
	if (!ret)
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

/* Render v with each writer and write the files: paths[k] gets writers[k]'s output. */
static int write_views(const struct view *v, const struct report_options *o, const report_writer *writers,
		       char *const *paths, int n, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = -1;

	for (int k = 0; k < n; k++) {
		strbuf_reset(&sb);
		if (render(writers[k], v, o, &sb) < 0) {
			strbuf_addstr(err, "cannot render the reports");
			goto cleanup;
		}
		if (write_file_atomic(paths[k], sb.buf, sb.len) < 0) {
			strbuf_addf(err, "cannot write '%s': %s", paths[k], strerror(errno));
			goto cleanup;
		}
	}
	ret = 0;
cleanup:
	strbuf_release(&sb);
	return ret;
}

/*
 * students/<id>.json and .txt, the instructor's view (the JSON compact,
 * report_json.c), and feedback/<id>.txt and .md, the student's view: hidden
 * groups as counts, naming the submission as the student handed it in.
 */
static int write_reports(const struct batch_output *out, const struct student *s, const struct grade_result *r,
			 struct strbuf *err)
{
	static const report_writer instructor_writers[] = { report_json, report_text };
	static const report_writer student_writers[] = { report_text, report_markdown };
	char *instructor[] = { student_file(out, s->id, "json"), student_file(out, s->id, "txt") };
	char *student[] = { feedback_file(out, s->id, "txt"), feedback_file(out, s->id, "md") };
	struct report_options compact = *out->report;
	struct view v;
	int ret;

	compact.compact = true;
	view_build(&v, r, true);
	ret = write_views(&v, &compact, instructor_writers, instructor, 2, err);
	view_release(&v);
	if (!ret) {
		view_build(&v, r, false);
		v.submission = s->name;
		l10n_begin(); /* the student's language (--lang, the locale), as `grader` speaks to them */
		ret = write_views(&v, out->report, student_writers, student, 2, err);
		l10n_end();
		view_release(&v);
	}
	for (int k = 0; k < 2; k++) {
		free(instructor[k]);
		free(student[k]);
	}
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

	if (s->archive || !s->path || s->commit) {
		*unpacked = xasprintf("%s/in-%s", e->scratch, s->fingerprint);
		remove_tree(*unpacked);
	}
	/* a git repository under --policy: the commit batch_time.h chose, copied out; the repository is only read */
	if (s->commit && git_export(s->path, s->commit, *unpacked, (int)lim.max_entries, lim.max_bytes, &err) < 0) {
		strbuf_addf(why, "cannot copy commit %.7s out of the repository: %s", s->commit, err.buf);
		goto cleanup;
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
