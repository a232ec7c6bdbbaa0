/* batch_regrade.c - see batch_regrade.h */
#define _GNU_SOURCE
#include "batch/batch_regrade.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/csv.h"
#include "base/text.h"

struct regrade {
	int n;
	char **ids;
	json_t **before;   /* per id: the result (load_result) or NULL when there was none */
};

/*
 * A student's result as OUTDIR holds it, reduced to what a comparison needs:
 *   { "status": s, "graded": b, "score": x, "problems": { id: { "score": x, "tests": { name: verdict } } } }
 * from state/<id>.json (scores, status) and students/<id>.json (verdicts).  NULL when there is no state record.
 */
static json_t *load_result(const char *outdir, const char *id)
{
	char *spath = xasprintf("%s/state/%s.json", outdir, id), *rpath = xasprintf("%s/students/%s.json", outdir, id);
	json_t *state = json_load_file(spath, 0, NULL), *report = NULL, *out = NULL, *probs, *p, *scores, *v;
	const char *key;
	size_t i;

	if (!state || !json_is_string(json_object_get(state, "status")))
		goto cleanup;
	out = json_object();
	probs = json_object();
	json_object_set(out, "status", json_object_get(state, "status"));
	json_object_set_new(out, "graded", json_boolean(json_is_true(json_object_get(state, "graded"))));
	json_object_set_new(out, "score", json_real(json_number_value(json_object_get(state, "score"))));
	json_object_set_new(out, "problems", probs);
	scores = json_object_get(state, "scores");
	json_object_foreach(scores, key, v) {
		json_t *e = json_object();
		json_object_set_new(e, "score", json_real(json_number_value(v)));
		json_object_set_new(e, "tests", json_object());
		json_object_set_new(probs, key, e);
	}
	if (!json_is_true(json_object_get(out, "graded")) || !(report = json_load_file(rpath, 0, NULL)))
		goto cleanup;
	json_array_foreach(json_object_get(report, "problems"), i, p) {
		const char *pid = json_string_value(json_object_get(p, "id"));
		json_t *e = pid ? json_object_get(probs, pid) : NULL, *t;
		size_t k;
		if (!e)
			continue;
		json_array_foreach(json_object_get(p, "tests"), k, t) {
			const char *name = json_string_value(json_object_get(t, "name"));
			json_t *verdict = json_object_get(t, "verdict");
			if (name && json_is_string(verdict))
				json_object_set(json_object_get(e, "tests"), name, verdict);
		}
	}
cleanup:
	if (state)
		json_decref(state);
	if (report)
		json_decref(report);
	free(spath);
	free(rpath);
	return out;
}

struct regrade *regrade_snapshot(const char *outdir, char *const *ids, int n)
{
	struct regrade *r = xcalloc(1, sizeof(*r));
	r->n = n;
	r->ids = xcalloc((size_t)n + 1, sizeof(char *));
	r->before = xcalloc((size_t)n + 1, sizeof(json_t *));
	for (int i = 0; i < n; i++) {
		r->ids[i] = xstrdup(ids[i]);
		r->before[i] = load_result(outdir, ids[i]);
	}
	return r;
}

void regrade_free(struct regrade *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->n; i++) {
		free(r->ids[i]);
		if (r->before[i])
			json_decref(r->before[i]);
	}
	free(r->ids);
	free(r->before);
	free(r);
}

/* Text inline in Markdown: HTML and Markdown punctuation as entities, cleaned (ids and test names are untrusted). */
static void md_text(struct strbuf *sb, const char *s)
{
	struct strbuf clean = STRBUF_INIT;
	text_clean(&clean, s, 0);
	for (const char *p = clean.buf; *p; p++) {
		if (*p == '\n')
			strbuf_addch(sb, ' ');
		else if (strchr("&<>|`*_[]\\~$#", *p))
			strbuf_addf(sb, "&#%d;", *p);
		else
			strbuf_addch(sb, *p);
	}
	strbuf_release(&clean);
}

static double score_of(json_t *result, const char *pid, bool *have)
{
	json_t *e = json_object_get(json_object_get(result, "problems"), pid);
	*have = e && json_is_true(json_object_get(result, "graded"));
	return *have ? json_number_value(json_object_get(e, "score")) : 0;
}

static void add_score(struct strbuf *sb, bool have, double s)
{
	if (have)
		text_score(sb, s);
	else
		strbuf_addstr(sb, "-");
}

/* The tests of pid whose verdict differs between a and b, "name: old -> new; ..." (none: empty). */
static void changed_tests(json_t *a, json_t *b, const char *pid, struct strbuf *out, int *count)
{
	json_t *ta = json_object_get(json_object_get(json_object_get(a, "problems"), pid), "tests");
	json_t *tb = json_object_get(json_object_get(json_object_get(b, "problems"), pid), "tests"), *v;
	const char *name;
	for (int pass = 0; pass < 2; pass++) {
		json_t *from = pass ? tb : ta, *other = pass ? ta : tb;
		json_object_foreach(from, name, v) {
			json_t *w = json_object_get(other, name);
			const char *old = pass ? (w ? json_string_value(w) : NULL) : json_string_value(v);
			const char *new = pass ? json_string_value(v) : (w ? json_string_value(w) : NULL);
			/* the first pass sees every test a had; the second only those a did not have */
			if (pass && w)
				continue;
			if (old && new && !strcmp(old, new))
				continue;
			strbuf_addf(out, "%s%s: %s \u2192 %s", out->len ? "; " : "", name, old ? old : "(none)",
				    new ? new : "(none)");
			(*count)++;
		}
	}
}

/* The problem ids of a and b, a's first (json objects keep insertion order: the manifest's). */
static void problem_ids(json_t *a, json_t *b, struct strvec *out)
{
	for (int pass = 0; pass < 2; pass++) {
		json_t *from = json_object_get(pass ? b : a, "problems"), *other = json_object_get(pass ? a : b, "problems"), *v;
		const char *key;
		json_object_foreach(from, key, v)
			if (!pass || !json_object_get(other, key))
				strvec_push(out, key);
	}
}

/* One row of regrade.md (into rows) and of regrade.csv: a student's problem that moved; old, now NULL: no score. */
static void add_row(struct strbuf *rows, struct strbuf *csv, const char *id, const char *problem, const double *old,
		    const double *now, const char *sta, const char *stb, const char *tests)
{
	strbuf_addstr(rows, "| ");
	md_text(rows, id);
	strbuf_addstr(rows, " | ");
	md_text(rows, problem);
	strbuf_addstr(rows, " | ");
	add_score(rows, old != NULL, old ? *old : 0);
	strbuf_addstr(rows, " | ");
	add_score(rows, now != NULL, now ? *now : 0);
	strbuf_addstr(rows, " | ");
	if (strcmp(sta, stb)) {
		strbuf_addstr(rows, "status: ");
		md_text(rows, sta);
		strbuf_addstr(rows, " \u2192 ");
		md_text(rows, stb);
		if (*tests)
			strbuf_addstr(rows, "; ");
	}
	md_text(rows, tests);
	strbuf_addstr(rows, " |\n");
	csv_add_cell(csv, id);
	strbuf_addch(csv, ',');
	csv_add_cell(csv, problem);
	strbuf_addch(csv, ',');
	if (old)
		text_score(csv, *old);
	strbuf_addch(csv, ',');
	if (now)
		text_score(csv, *now);
	strbuf_addch(csv, ',');
	csv_add_cell(csv, sta);
	strbuf_addch(csv, ',');
	csv_add_cell(csv, stb);
	strbuf_addch(csv, ',');
	csv_add_cell(csv, tests);
	strbuf_addstr(csv, "\r\n");
}

int regrade_write(const struct regrade *r, const char *outdir, const char *problem, struct strbuf *err)
{
	struct strbuf md = STRBUF_INIT, focus = STRBUF_INIT, others = STRBUF_INIT, csv = STRBUF_INIT;
	struct strbuf *to;
	int nfocus = 0, nothers = 0;
	char *mpath = xasprintf("%s/" REGRADE_MD, outdir), *cpath = xasprintf("%s/" REGRADE_CSV, outdir);
	int compared = 0, fresh = 0, moved = 0, unchanged = 0, verdicts = 0, ret = -1;

	strbuf_addstr(&csv, "id,problem,old_score,new_score,old_status,new_status,changed_tests\r\n");
	for (int i = 0; i < r->n; i++) {
		json_t *after = load_result(outdir, r->ids[i]), *before = r->before[i];
		struct strvec pids = STRVEC_INIT;
		bool student_moved = false;
		if (!before || !after) {
			fresh++;
			if (after)
				json_decref(after);
			continue;
		}
		compared++;
		problem_ids(before, after, &pids);
		for (size_t k = 0; k < pids.n; k++) {
			struct strbuf tests = STRBUF_INIT;
			bool ha, hb;
			double sa = score_of(before, pids.v[k], &ha), sb = score_of(after, pids.v[k], &hb);
			const char *sta = json_string_value(json_object_get(before, "status"));
			const char *stb = json_string_value(json_object_get(after, "status"));
			int n = 0;
			changed_tests(before, after, pids.v[k], &tests, &n);
			if (ha == hb && fabs(sa - sb) < 1e-9 && !n && !strcmp(sta, stb)) {
				strbuf_release(&tests);
				continue;
			}
			student_moved = true;
			verdicts += n;
			/* --regrade-problem: that problem's rows first, the others' apart */
			to = problem && strcmp(pids.v[k], problem) ? &others : &focus;
			*(to == &focus ? &nfocus : &nothers) += 1;
			add_row(to, &csv, r->ids[i], pids.v[k], ha ? &sa : NULL, hb ? &sb : NULL, sta, stb, tests.buf);
			strbuf_release(&tests);
		}
		if (student_moved)
			moved++;
		else
			unchanged++;
		strvec_clear(&pids);
		json_decref(after);
	}
	if (problem) {
		strbuf_addstr(&md, "# Regrade of problem ");
		md_text(&md, problem);
		strbuf_addstr(&md, ": what moved\n\n");
	} else {
		strbuf_addstr(&md, "# Regrade: what moved\n\n");
	}
	strbuf_addf(&md, "%d student%s graded again: %d compared with their earlier result, %d had none.  ", r->n,
		    r->n == 1 ? "" : "s", compared, fresh);
	strbuf_addf(&md, "%d moved (a score, a status or a test's verdict), %d did not; %d test verdict%s changed.\n\n",
		    moved, unchanged, verdicts, verdicts == 1 ? "" : "s");
	if (problem) {
		strbuf_addstr(&md, "## Problem ");
		md_text(&md, problem);
		strbuf_addf(&md, ": %d row%s moved\n\n", nfocus, nfocus == 1 ? "" : "s");
	}
	if (focus.len) {
		strbuf_addstr(&md, "| student | problem | old score | new score | what changed |\n|---|---|---|---|---|\n");
		strbuf_add(&md, focus.buf, focus.len);
	} else {
		strbuf_addstr(&md, "Nothing moved.\n");
	}
	if (problem && others.len) {
		/* graded again with it (a student's reports are whole): a time limit that wobbled, a fix elsewhere */
		strbuf_addf(&md, "\n## Other problems, graded again with it: %d row%s moved\n\n"
			    "| student | problem | old score | new score | what changed |\n|---|---|---|---|---|\n",
			    nothers, nothers == 1 ? "" : "s");
		strbuf_add(&md, others.buf, others.len);
	}
	if (write_file_atomic(mpath, md.buf, md.len) < 0 || write_file_atomic(cpath, csv.buf, csv.len) < 0) {
		strbuf_addf(err, "cannot write '%s': %s", mpath, strerror(errno));
		goto cleanup;
	}
	ret = 0;
cleanup:
	free(mpath);
	free(cpath);
	strbuf_release(&md);
	strbuf_release(&focus);
	strbuf_release(&others);
	strbuf_release(&csv);
	return ret;
}

int regrade_remove(const char *outdir, struct strbuf *err)
{
	static const char *const names[] = { REGRADE_MD, REGRADE_CSV };
	for (size_t i = 0; i < 2; i++) {
		char *path = xasprintf("%s/%s", outdir, names[i]);
		if (unlink(path) < 0 && errno != ENOENT) {
			strbuf_addf(err, "cannot remove '%s': %s", path, strerror(errno));
			free(path);
			return -1;
		}
		free(path);
	}
	return 0;
}
