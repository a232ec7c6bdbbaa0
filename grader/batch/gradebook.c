/* gradebook.c - see gradebook.h */
#define _GNU_SOURCE
#include "batch/gradebook.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/csv.h"
#include "report/jsontext.h"
#include "batch/feedback_late.h"
#include "batch/summary.h"
#include "base/text.h"
#include "base/version.h"

/* ---- small helpers ---- */

/* Every text cell of grades.csv: quoted and guarded against formula injection (csv.h). */
static void add_csv_field(struct strbuf *sb, const char *s)
{
	csv_add_cell(sb, s);
}

static char *json_dup_string(json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));
	return s ? xstrdup(s) : NULL;
}

static int write_json(const char *path, json_t *root, struct strbuf *err)
{
	char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	struct strbuf sb = STRBUF_INIT;
	int ret = -1;
	if (!text) {
		strbuf_addf(err, "cannot encode '%s'", path);
		return -1;
	}
	strbuf_addstr(&sb, text);
	strbuf_addch(&sb, '\n');
	free(text);
	if (write_file_atomic(path, sb.buf, sb.len) < 0)
		strbuf_addf(err, "cannot write '%s': %s", path, strerror(errno));
	else
		ret = 0;
	strbuf_release(&sb);
	return ret;
}

/* ---- the manifest ---- */

double manifest_max_score(const struct batch_manifest *m)
{
	double s = 0;
	for (int i = 0; i < m->nproblems; i++)
		s += m->problems[i].max_score;
	return round(s * 1e6) / 1e6;
}

int manifest_write(const char *outdir, const struct batch_manifest *m, struct strbuf *err)
{
	json_t *root = json_object(), *probs = json_array(), *ids = json_array(), *lms;
	char *path = xasprintf("%s/" GRADEBOOK_MANIFEST, outdir);
	int ret;

	json_object_set_new(root, "format", json_string("combgrader-batch-1"));
	json_object_set_new(root, "grader_version", json_string(m->grader_version));
	json_object_set_new(root, "problem_key", json_string(m->problem_key));
	for (int i = 0; i < m->nproblems; i++) {
		json_t *p = json_object(), *aon = json_array();
		json_object_set_new(p, "id", json_text(m->problems[i].id));
		json_object_set_new(p, "title", json_text(m->problems[i].title));
		json_object_set_new(p, "max_score", json_real(m->problems[i].max_score));
		json_object_set_new(p, "all_or_nothing_groups", aon);
		for (int g = 0; g < m->problems[i].nall_or_nothing; g++)
			json_array_append_new(aon, json_text(m->problems[i].all_or_nothing[g]));
		json_array_append_new(probs, p);
	}
	json_object_set_new(root, "problems", probs);
	json_object_set_new(root, "shard_index", json_integer(m->shard_index));
	json_object_set_new(root, "shard_count", json_integer(m->shard_count));
	json_object_set_new(root, "class_size", json_integer(m->class_size));
	json_object_set_new(root, "class_key", json_string(m->class_key));
	for (int i = 0; i < m->nids; i++)
		json_array_append_new(ids, json_text(m->ids[i]));
	json_object_set_new(root, "students", ids);
	lms = lms_roster_to_json(&m->lms);
	if (lms)
		json_object_set_new(root, "lms", lms);
	if (m->policy) {
		json_t *late = json_object();
		json_object_set_new(root, "policy", late_policy_to_json(m->policy));
		for (int i = 0; i < m->nlate; i++)
			json_object_set_new(late, m->late[i].id, late_time_to_json(&m->late[i].t));
		json_object_set_new(root, "submitted", late);
	}
	ret = write_json(path, root, err);
	json_decref(root);
	free(path);
	return ret;
}

int manifest_read(const char *outdir, struct batch_manifest *m, struct strbuf *err)
{
	char *path = xasprintf("%s/" GRADEBOOK_MANIFEST, outdir);
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr), *probs, *ids;
	struct strbuf lerr = STRBUF_INIT;
	int ret = -1;

	memset(m, 0, sizeof(*m));
	if (!root) {
		strbuf_addf(err, "'%s' is not a batch output directory (%s: %s)", outdir, path, jerr.text);
		goto cleanup;
	}
	if (!json_is_string(json_object_get(root, "format")) ||
	    strcmp(json_string_value(json_object_get(root, "format")), "combgrader-batch-1")) {
		strbuf_addf(err, "%s: not a manifest this grader understands", path);
		goto cleanup;
	}
	m->grader_version = json_dup_string(root, "grader_version");
	m->problem_key = json_dup_string(root, "problem_key");
	m->class_key = json_dup_string(root, "class_key");
	m->shard_index = (int)json_integer_value(json_object_get(root, "shard_index"));
	m->shard_count = (int)json_integer_value(json_object_get(root, "shard_count"));
	m->class_size = (int)json_integer_value(json_object_get(root, "class_size"));
	probs = json_object_get(root, "problems");
	ids = json_object_get(root, "students");
	if (!m->grader_version || !m->problem_key || !m->class_key || !json_is_array(probs) ||
	    !json_is_array(ids) || m->shard_count < 1 || m->shard_index < 1 || m->shard_index > m->shard_count) {
		strbuf_addf(err, "%s: incomplete manifest", path);
		goto cleanup;
	}
	m->nproblems = (int)json_array_size(probs);
	m->problems = xcalloc((size_t)m->nproblems + 1, sizeof(*m->problems));
	for (int i = 0; i < m->nproblems; i++) {
		json_t *p = json_array_get(probs, (size_t)i);
		json_t *aon = json_object_get(p, "all_or_nothing_groups");
		m->problems[i].id = json_dup_string(p, "id");
		m->problems[i].title = json_dup_string(p, "title");
		m->problems[i].max_score = json_number_value(json_object_get(p, "max_score"));
		if (!m->problems[i].id || !m->problems[i].title || !json_is_array(aon)) {
			strbuf_addf(err, "%s: incomplete problem entry", path);
			goto cleanup;
		}
		m->problems[i].all_or_nothing = xcalloc(json_array_size(aon) + 1, sizeof(char *));
		for (size_t g = 0; g < json_array_size(aon); g++) {
			const char *name = json_string_value(json_array_get(aon, g));
			if (name)
				m->problems[i].all_or_nothing[m->problems[i].nall_or_nothing++] = xstrdup(name);
		}
	}
	m->nids = (int)json_array_size(ids);
	m->ids = xcalloc((size_t)m->nids + 1, sizeof(char *));
	for (int i = 0; i < m->nids; i++) {
		const char *s = json_string_value(json_array_get(ids, (size_t)i));
		if (!s || !*s || strchr(s, '/') || *s == '.') {
			strbuf_addf(err, "%s: bad student id", path);
			goto cleanup;
		}
		m->ids[i] = xstrdup(s);
	}
	if (lms_roster_from_json(json_object_get(root, "lms"), &m->lms, &lerr) < 0) {
		strbuf_addf(err, "%s: %s", path, lerr.buf);
		goto cleanup;
	}
	if (json_object_get(root, "policy")) {
		json_t *late = json_object_get(root, "submitted"), *v;
		const char *key;
		m->policy = xcalloc(1, sizeof(*m->policy));
		if (late_policy_from_json(json_object_get(root, "policy"), m->policy, &lerr) < 0) {
			strbuf_addf(err, "%s: %s", path, lerr.buf);
			goto cleanup;
		}
		json_object_foreach(late, key, v) {
			struct late_time t;
			late_time_from_json(v, &t);
			manifest_add_late(m, key, &t);
			late_time_release(&t);
		}
		manifest_sort_late(m);
	}
	ret = 0;
cleanup:
	if (root)
		json_decref(root);
	free(path);
	strbuf_release(&lerr);
	if (ret)
		manifest_release(m);
	return ret;
}

void manifest_release(struct batch_manifest *m)
{
	free(m->grader_version);
	free(m->problem_key);
	free(m->class_key);
	for (int i = 0; i < m->nproblems && m->problems; i++) {
		free(m->problems[i].id);
		free(m->problems[i].title);
		for (int g = 0; g < m->problems[i].nall_or_nothing; g++)
			free(m->problems[i].all_or_nothing[g]);
		free(m->problems[i].all_or_nothing);
	}
	free(m->problems);
	for (int i = 0; i < m->nids && m->ids; i++)
		free(m->ids[i]);
	free(m->ids);
	lms_roster_release(&m->lms);
	if (m->policy)
		late_policy_release(m->policy);
	free(m->policy);
	for (int i = 0; i < m->nlate; i++) {
		free(m->late[i].id);
		late_time_release(&m->late[i].t);
	}
	free(m->late);
	memset(m, 0, sizeof(*m));
}

/* ---- late work (batch_policy.h) ---- */

void manifest_add_late(struct batch_manifest *m, const char *id, const struct late_time *t)
{
	struct late_entry *e;
	m->late = xrealloc(m->late, ((size_t)m->nlate + 1) * sizeof(*m->late));
	e = &m->late[m->nlate++];
	e->id = xstrdup(id);
	e->t = *t;
	e->t.source = xstrdup(t->source ? t->source : "");
	e->t.commit = t->commit ? xstrdup(t->commit) : NULL;
}

static int cmp_late(const void *a, const void *b)
{
	return strcmp(((const struct late_entry *)a)->id, ((const struct late_entry *)b)->id);
}

void manifest_sort_late(struct batch_manifest *m)
{
	if (m->nlate)
		qsort(m->late, (size_t)m->nlate, sizeof(*m->late), cmp_late);
}

const struct late_time *manifest_late(const struct batch_manifest *m, const char *id)
{
	struct late_entry key = { .id = (char *)id }, *e;
	e = m->nlate ? bsearch(&key, m->late, (size_t)m->nlate, sizeof(key), cmp_late) : NULL;
	return e ? &e->t : NULL;
}

double manifest_final(const struct batch_manifest *m, const char *id, double raw, struct late_price *pr)
{
	static const struct late_time none = { .source = (char *)"no time recorded" };
	const struct late_time *t;
	memset(pr, 0, sizeof(*pr));
	if (!m->policy)
		return raw;
	t = manifest_late(m, id);
	late_price(m->policy, id, t ? t : &none, pr);
	return late_final(pr, raw);
}

/* ---- per-student state ---- */

int state_write(const char *outdir, const struct batch_manifest *m, const struct student_state *s,
		struct strbuf *err)
{
	json_t *root = json_object(), *scores = json_object();
	char *path = xasprintf("%s/state/%s.json", outdir, s->id);
	int ret;

	json_object_set_new(root, "id", json_text(s->id));
	json_object_set_new(root, "input", json_text(s->input ? s->input : s->id));
	json_object_set_new(root, "fingerprint", json_string(s->fingerprint ? s->fingerprint : ""));
	json_object_set_new(root, "status", json_text(s->status));
	json_object_set_new(root, "graded", json_boolean(s->graded));
	json_object_set_new(root, "retry", json_boolean(s->retry));
	if (s->graded) {
		json_object_set_new(root, "score", json_real(s->score));
		for (int i = 0; i < m->nproblems; i++)
			json_object_set_new(scores, m->problems[i].id, json_real(s->scores[i]));
	}
	json_object_set_new(root, "scores", scores);
	json_object_set_new(root, "seconds", json_real(s->seconds));
	json_object_set_new(root, "compile_ms", json_integer(s->compile_ms));
	json_object_set_new(root, "cpu_ms", json_integer(s->cpu_ms));
	ret = write_json(path, root, err);
	json_decref(root);
	free(path);
	return ret;
}

int state_read(const char *outdir, const char *id, const struct batch_manifest *m, struct student_state *s)
{
	char *path = xasprintf("%s/state/%s.json", outdir, id);
	json_t *root = json_load_file(path, 0, NULL), *scores;
	int ret = -1;

	memset(s, 0, sizeof(*s));
	free(path);
	if (!root)
		return -1;
	s->id = json_dup_string(root, "id");
	s->input = json_dup_string(root, "input");
	s->fingerprint = json_dup_string(root, "fingerprint");
	s->status = json_dup_string(root, "status");
	s->graded = json_is_true(json_object_get(root, "graded"));
	s->retry = json_is_true(json_object_get(root, "retry"));
	s->score = json_number_value(json_object_get(root, "score"));
	s->seconds = json_number_value(json_object_get(root, "seconds"));
	s->compile_ms = (unsigned)json_integer_value(json_object_get(root, "compile_ms"));
	s->cpu_ms = (unsigned)json_integer_value(json_object_get(root, "cpu_ms"));
	scores = json_object_get(root, "scores");
	if (!s->id || strcmp(s->id, id) || !s->status || !s->fingerprint)
		goto cleanup;
	s->scores = xcalloc((size_t)m->nproblems + 1, sizeof(double));
	for (int i = 0; s->graded && i < m->nproblems; i++) {
		json_t *v = json_object_get(scores, m->problems[i].id);
		if (!json_is_number(v))
			goto cleanup;
		s->scores[i] = json_number_value(v);
	}
	ret = 0;
cleanup:
	json_decref(root);
	if (ret)
		student_state_release(s);
	return ret;
}

void student_state_release(struct student_state *s)
{
	free(s->id);
	free(s->input);
	free(s->fingerprint);
	free(s->status);
	free(s->scores);
	memset(s, 0, sizeof(*s));
}

void gradebook_status(struct strbuf *out, const struct grade_result *r, bool *retry)
{
	static const struct {
		enum verdict v;
		const char *word;
		bool file;
	} kinds[] = {
		{ V_COMPILER_ERROR, "compile-error", false },
		{ V_MISSING, "missing", true },
		{ V_FORBIDDEN, "forbidden", false },
	};
	*retry = false;
	if (r->internal_error) {
		int n = 0;
		for (int i = 0; i < r->nproblems; i++)
			for (int k = 0; k < r->problems[i].ntests; k++)
				n += r->problems[i].tests[k].verdict == V_JUDGE_ERROR;
		strbuf_addf(out, "error: the grader could not judge %d test%s", n, n == 1 ? "" : "s");
		*retry = true;
		return;
	}
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		bool first = true;
		for (int i = 0; i < r->nproblems; i++) {
			const struct problem_result *pr = &r->problems[i];
			if (pr->build_verdict != kinds[k].v)
				continue;
			if (first)
				strbuf_addf(out, "%s%s: ", out->len ? "; " : "", kinds[k].word);
			else
				strbuf_addstr(out, ", ");
			strbuf_addstr(out, kinds[k].file ? pr->problem->source : pr->problem->id);
			first = false;
		}
	}
	if (!out->len)
		strbuf_addstr(out, "ok");
}

/* ---- grades.csv; summary.html is summary.h's ---- */

/* A student's status as grades.csv and the page show it (owned). */
static char *row_status(const struct student_state *s, bool have, const char *missing_reason)
{
	return have ? xstrdup(s->status) : xasprintf("error: %s", missing_reason);
}

/*
 * With a policy: "late,penalty,final,submitted,time_source,late_note,": how late (hours), the percent taken off,
 * the final score (empty when not graded, 0 when it was too late), and what time was used and why.
 */
static void add_late_cells(struct strbuf *csv, const struct batch_manifest *m, const char *id, bool graded, double raw)
{
	const struct late_time *t = manifest_late(m, id);
	struct late_price pr;
	double final = manifest_final(m, id, raw, &pr);
	struct strbuf when = STRBUF_INIT, source = STRBUF_INIT;

	/* a row that was not graded is priced only when it came too late (the final score is then 0) */
	if (graded || pr.too_late) {
		text_score(csv, pr.late_hours);
		strbuf_addch(csv, ',');
		text_score(csv, pr.penalty);
		strbuf_addch(csv, ',');
		text_score(csv, final);
	} else {
		strbuf_addstr(csv, ",,");
	}
	strbuf_addch(csv, ',');
	if (t && t->known)
		late_format_time(&when, t->when, m->policy->offset_s);
	add_csv_field(csv, when.buf);
	strbuf_addch(csv, ',');
	if (t && t->flagged)
		strbuf_addstr(&source, "UNVERIFIED: ");
	strbuf_addstr(&source, t ? t->source : "no time recorded");
	add_csv_field(csv, source.buf);
	strbuf_addch(csv, ',');
	add_csv_field(csv, graded || pr.too_late ? pr.note : "");
	strbuf_addch(csv, ',');
	strbuf_release(&when);
	strbuf_release(&source);
	late_price_release(&pr);
}

/*
 * The price where the student and the instructor look: the block at the top of the student's feedback
 * (feedback_late.h; without a policy an earlier block is removed) and the page's late columns.
 */
static int price_row(const char *outdir, const struct batch_manifest *m, const struct student_state *s, double max,
		     struct summary_row *row, struct strbuf *err)
{
	struct late_price pr;
	double final = manifest_final(m, s->id, s->graded ? s->score : 0, &pr);
	int ret;

	row->priced = m->policy && (s->graded || pr.too_late);
	row->late_hours = pr.late_hours;
	row->penalty = pr.penalty;
	row->final = final;
	ret = feedback_late_update(outdir, s->id, m->policy ? &pr : NULL, s->graded, s->score, final, max, err);
	late_price_release(&pr);
	return ret;
}

int gradebook_write(const char *outdir, const struct batch_manifest *m, const char *missing_reason,
		    struct gradebook_totals *totals, struct strbuf *err)
{
	struct student_state *rows = xcalloc((size_t)m->nids + 1, sizeof(*rows));
	bool *have = xcalloc((size_t)m->nids + 1, sizeof(bool));
	struct summary_row *view = xcalloc((size_t)m->nids + 1, sizeof(*view));
	struct strbuf csv = STRBUF_INIT;
	double max = manifest_max_score(m);
	char *path = NULL;
	int ret = -1;

	memset(totals, 0, sizeof(*totals));
	strbuf_addstr(&csv, "id");
	for (int i = 0; i < m->nproblems; i++) {
		strbuf_addch(&csv, ',');
		add_csv_field(&csv, m->problems[i].id);
	}
	strbuf_addstr(&csv, m->policy ? ",total,max,late,penalty,final,submitted,time_source,late_note,status\r\n"
				    : ",total,max,status\r\n");
	for (int i = 0; i < m->nids; i++) {
		struct student_state *s = &rows[i];
		char *status;
		have[i] = state_read(outdir, m->ids[i], m, s) == 0;
		totals->students++;
		add_csv_field(&csv, m->ids[i]);
		if (have[i] && s->graded) {
			totals->graded++;
			for (int p = 0; p < m->nproblems; p++) {
				strbuf_addch(&csv, ',');
				text_score(&csv, s->scores[p]);
			}
			strbuf_addch(&csv, ',');
			text_score(&csv, s->score);
		} else {
			totals->not_graded++;
			for (int p = 0; p < m->nproblems; p++)
				strbuf_addch(&csv, ',');
			strbuf_addch(&csv, ',');
		}
		strbuf_addch(&csv, ',');
		text_score(&csv, max);
		strbuf_addch(&csv, ',');
		if (m->policy)
			add_late_cells(&csv, m, m->ids[i], have[i] && s->graded, have[i] ? s->score : 0);
		if (have[i] && price_row(outdir, m, s, max, &view[i], err) < 0)
			goto cleanup;
		if (!have[i] || !strncmp(s->status, "error:", 6))
			totals->errors++;
		status = row_status(s, have[i], missing_reason);
		add_csv_field(&csv, status);
		view[i].state = have[i] ? s : NULL;
		view[i].status = status;   /* freed below */
		strbuf_addstr(&csv, "\r\n");
	}

	path = xasprintf("%s/grades.csv", outdir);
	if (write_file_atomic(path, csv.buf, csv.len) < 0) {
		strbuf_addf(err, "cannot write '%s': %s", path, strerror(errno));
		goto cleanup;
	}
	if (summary_write(outdir, m, view, err) < 0)
		goto cleanup;
	ret = 0;
cleanup:
	free(path);
	for (int i = 0; i < m->nids; i++) {
		student_state_release(&rows[i]);
		free((char *)view[i].status);
	}
	free(rows);
	free(have);
	free(view);
	strbuf_release(&csv);
	return ret;
}
