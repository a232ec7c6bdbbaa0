/* gradebook.c - see gradebook.h */
#define _GNU_SOURCE
#include "gradebook.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "jsontext.h"
#include "text.h"
#include "version.h"

#define HISTOGRAM_BINS 10
#define TESTS_LISTED 40          /* rows in "tests most students fail" */
#define COMPILE_LINES 6          /* compiler output lines shown per student */

/* ---- small helpers ---- */

/* Every text cell of grades.csv: quoted and guarded against formula injection (csv.h). */
static void add_csv_field(struct strbuf *sb, const char *s)
{
	csv_add_cell(sb, s);
}

static void add_html(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			strbuf_addstr(sb, "&lt;");
			break;
		case '>':
			strbuf_addstr(sb, "&gt;");
			break;
		case '&':
			strbuf_addstr(sb, "&amp;");
			break;
		case '"':
			strbuf_addstr(sb, "&quot;");
			break;
		case '\'':
			strbuf_addstr(sb, "&#39;");
			break;
		default:
			if ((unsigned char)*s < 32 && *s != '\n' && *s != '\t')
				strbuf_addch(sb, '?');
			else
				strbuf_addch(sb, *s);
		}
	}
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
	memset(m, 0, sizeof(*m));
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

/* ---- the class views ---- */

struct test_stat {
	char *name, *group;
	bool hidden;
	int passed;
};

struct group_stat {
	char *name;
	long long passed, total;
	bool all_or_nothing;
	bool broken;               /* this student failed an earlier test of the group */
};

struct problem_stat {
	struct test_stat *tests;
	int ntests;
	bool have_tests;
	struct group_stat *groups;
	int ngroups;
	int graded, full, built, compile_errors, missing, other_build;
	double score_sum;
};

struct compile_error {
	const char *id;
	const char *problem;
	char *text;
};

struct class_stats {
	struct problem_stat *probs;
	int nprobs;
	int bins[HISTOGRAM_BINS];
	double *totals;            /* graded students' scores */
	int ngraded;
	struct compile_error *errors;
	int nerrors;
	size_t errors_alloc;
};

static struct group_stat *group_of(struct problem_stat *ps, const struct batch_problem *bp, const char *name)
{
	struct group_stat *g;
	for (int i = 0; i < ps->ngroups; i++)
		if (!strcmp(ps->groups[i].name, name))
			return &ps->groups[i];
	ps->groups = xrealloc(ps->groups, (size_t)(ps->ngroups + 1) * sizeof(*ps->groups));
	g = &ps->groups[ps->ngroups++];
	memset(g, 0, sizeof(*g));
	g->name = xstrdup(name);
	for (int i = 0; i < bp->nall_or_nothing; i++)
		if (!strcmp(bp->all_or_nothing[i], name))
			g->all_or_nothing = true;
	return g;
}

/* Fold one graded student's report (students/<id>.json) into the statistics. */
static void add_report(struct class_stats *cs, const struct batch_manifest *m, const char *outdir, const char *id)
{
	char *path = xasprintf("%s/students/%s.json", outdir, id);
	json_t *root = json_load_file(path, 0, NULL), *probs;

	free(path);
	if (!root)
		return;
	probs = json_object_get(root, "problems");
	for (size_t i = 0; i < json_array_size(probs); i++) {
		json_t *pj = json_array_get(probs, i), *tests = json_object_get(pj, "tests");
		const char *pid = json_string_value(json_object_get(pj, "id"));
		const char *build = json_string_value(json_object_get(pj, "build"));
		struct problem_stat *ps = NULL;
		int pi;
		for (pi = 0; pid && pi < m->nproblems; pi++)
			if (!strcmp(m->problems[pi].id, pid)) {
				ps = &cs->probs[pi];
				break;
			}
		if (!ps || !build)
			continue;
		if (!ps->have_tests) {
			ps->ntests = (int)json_array_size(tests);
			ps->tests = xcalloc((size_t)ps->ntests + 1, sizeof(*ps->tests));
			for (int k = 0; k < ps->ntests; k++) {
				json_t *t = json_array_get(tests, (size_t)k);
				const char *name = json_string_value(json_object_get(t, "name"));
				const char *group = json_string_value(json_object_get(t, "group"));
				const char *vis = json_string_value(json_object_get(t, "visibility"));
				ps->tests[k].name = xstrdup(name ? name : "?");
				ps->tests[k].group = xstrdup(group ? group : "?");
				ps->tests[k].hidden = vis && !strcmp(vis, "hidden");
				group_of(ps, &m->problems[pi], ps->tests[k].group);
			}
			ps->have_tests = true;
		}
		if (!strcmp(build, "correct")) {
			ps->built++;
		} else if (!strcmp(build, "compiler-error")) {
			const char *msg = json_string_value(json_object_get(pj, "build_message"));
			struct compile_error *ce;
			ps->compile_errors++;
			ALLOC_GROW(cs->errors, cs->nerrors + 1, cs->errors_alloc);
			ce = &cs->errors[cs->nerrors++];
			ce->id = id;
			ce->problem = m->problems[pi].id;
			{
				struct strbuf lines = STRBUF_INIT;
				text_first_lines(&lines, msg, COMPILE_LINES, "...");
				ce->text = strbuf_detach(&lines);
			}
		} else if (!strcmp(build, "missing")) {
			ps->missing++;
		} else {
			ps->other_build++;
		}
		for (int g = 0; g < ps->ngroups; g++)
			ps->groups[g].broken = false;
		for (int k = 0; k < ps->ntests && k < (int)json_array_size(tests); k++) {
			json_t *t = json_array_get(tests, (size_t)k);
			const char *name = json_string_value(json_object_get(t, "name"));
			const char *verdict = json_string_value(json_object_get(t, "verdict"));
			bool ok = verdict && !strcmp(verdict, "correct");
			struct group_stat *g;
			if (!name || strcmp(name, ps->tests[k].name))
				continue; /* a different problem file: should not happen within one batch */
			g = group_of(ps, &m->problems[pi], ps->tests[k].group);
			/*
			 * After the first failure in an all-or-nothing group, whether a later
			 * test ran or was skipped depends on timing (-j): count none of them
			 * as passed, so the page is the same however the class was graded.
			 */
			if (g->all_or_nothing) {
				ok = ok && !g->broken;
				g->broken |= !ok;
			}
			ps->tests[k].passed += ok;
			g->passed += ok;
			g->total++;
		}
	}
	json_decref(root);
}

static void class_stats_release(struct class_stats *cs)
{
	for (int i = 0; i < cs->nprobs; i++) {
		struct problem_stat *ps = &cs->probs[i];
		for (int k = 0; k < ps->ntests; k++) {
			free(ps->tests[k].name);
			free(ps->tests[k].group);
		}
		free(ps->tests);
		for (int g = 0; g < ps->ngroups; g++)
			free(ps->groups[g].name);
		free(ps->groups);
	}
	free(cs->probs);
	free(cs->totals);
	for (int i = 0; i < cs->nerrors; i++)
		free(cs->errors[i].text);
	free(cs->errors);
}

/*
 * summary.html: collect, then render.  summary_collect() turns the class
 * statistics into every figure the page shows; each html_* section below
 * reads only that struct, so a figure is computed in one place and the page
 * is the same for a resumed run, merged shards and one uninterrupted run.
 */

struct summary_problem {       /* a row of "Problems" */
	const char *id, *title;    /* the manifest's */
	double max;
	double mean;               /* over graded students, unrounded */
	double share;              /* mean / max, for the bar */
	int full, built, compile_errors, missing;
};

struct summary_group {         /* a row of "Pass rates by group" */
	const char *problem, *name;
	bool hidden;               /* the group holds a hidden test */
	int tests;
	long long passed, total;   /* test runs (all-or-nothing rule applied) */
	double rate;
};

struct summary_test {          /* a row of "Tests most students fail" */
	const char *problem, *name;
	bool hidden;
	int passed;                /* of the graded students */
	double rate;
};

struct summary_not_graded {    /* a row of "Not graded" */
	const char *id;
	char *why;                 /* owned: the student's status line */
};

/*
 * Strings are borrowed from the manifest and the class statistics, which
 * must outlive the summary; summary_release() frees the arrays and the
 * not-graded reasons.
 */
struct summary {
	int students, graded;
	int shard_index, shard_count, class_size;
	double max;                /* the manifest's maximum score */
	/* score distribution: the figures are set when graded > 0 */
	int bins[HISTOGRAM_BINS];
	double mean, median, lowest, highest;
	struct summary_problem *problems;
	int nproblems;
	struct summary_group *groups;
	int ngroups;
	struct summary_test *failed;   /* the TESTS_LISTED lowest pass rates, lowest first */
	int nfailed, ntests;           /* rows listed; tests of every problem */
	const struct compile_error *errors;
	int nerrors;
	struct summary_not_graded *not_graded;
	int nnot_graded;
};

/* A student's status as grades.csv and the page show it (owned). */
static char *row_status(const struct student_state *s, bool have, const char *missing_reason)
{
	return have ? xstrdup(s->status) : xasprintf("error: %s", missing_reason);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void collect_distribution(struct summary *s, const struct class_stats *cs)
{
	double *sorted, sum = 0;
	int n = cs->ngraded;

	memcpy(s->bins, cs->bins, sizeof(s->bins));
	if (!n)
		return;
	sorted = xcalloc((size_t)n, sizeof(double));
	memcpy(sorted, cs->totals, (size_t)n * sizeof(double));
	qsort(sorted, (size_t)n, sizeof(double), cmp_double);
	/* summed in sorted order: the same bits however the rows were read */
	for (int i = 0; i < n; i++)
		sum += sorted[i];
	s->mean = sum / n;
	s->median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	s->lowest = sorted[0];
	s->highest = sorted[n - 1];
	free(sorted);
}

static void collect_problems(struct summary *s, const struct batch_manifest *m, const struct class_stats *cs)
{
	s->nproblems = m->nproblems;
	s->problems = xcalloc((size_t)m->nproblems + 1, sizeof(*s->problems));
	for (int i = 0; i < m->nproblems; i++) {
		const struct problem_stat *ps = &cs->probs[i];
		struct summary_problem *p = &s->problems[i];
		p->id = m->problems[i].id;
		p->title = m->problems[i].title;
		p->max = m->problems[i].max_score;
		p->mean = cs->ngraded ? ps->score_sum / cs->ngraded : 0;
		p->share = p->max > 0 ? p->mean / p->max : 0;
		p->full = ps->full;
		p->built = ps->built;
		p->compile_errors = ps->compile_errors;
		p->missing = ps->missing;
	}
}

static void collect_group(struct summary_group *row, const char *problem, const struct problem_stat *ps,
			  const struct group_stat *g)
{
	row->problem = problem;
	row->name = g->name;
	for (int k = 0; k < ps->ntests; k++)
		if (!strcmp(ps->tests[k].group, g->name)) {
			row->tests++;
			row->hidden |= ps->tests[k].hidden;
		}
	row->passed = g->passed;
	row->total = g->total;
	row->rate = g->total ? (double)g->passed / (double)g->total : 0;
}

static void collect_groups(struct summary *s, const struct batch_manifest *m, const struct class_stats *cs)
{
	int n = 0;

	for (int i = 0; i < m->nproblems; i++)
		n += cs->probs[i].ngroups;
	s->groups = xcalloc((size_t)n + 1, sizeof(*s->groups));
	for (int i = 0; i < m->nproblems; i++)
		for (int g = 0; g < cs->probs[i].ngroups; g++)
			collect_group(&s->groups[s->ngroups++], m->problems[i].id, &cs->probs[i],
				      &cs->probs[i].groups[g]);
}

struct ranked_test {
	int problem, test;
	double rate;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked_test *x = a, *y = b;
	if (x->rate != y->rate)
		return x->rate < y->rate ? -1 : 1;
	if (x->problem != y->problem)
		return x->problem - y->problem;
	return x->test - y->test;
}

/* Every test of every problem ranked by pass rate; the lowest TESTS_LISTED kept. */
static void collect_failed_tests(struct summary *s, const struct batch_manifest *m, const struct class_stats *cs)
{
	struct ranked_test *ranked;
	int n = 0;

	for (int i = 0; i < m->nproblems; i++)
		s->ntests += cs->probs[i].ntests;
	ranked = xcalloc((size_t)s->ntests + 1, sizeof(*ranked));
	for (int i = 0; i < m->nproblems; i++)
		for (int k = 0; k < cs->probs[i].ntests; k++) {
			ranked[n].problem = i;
			ranked[n].test = k;
			ranked[n].rate = cs->ngraded ? (double)cs->probs[i].tests[k].passed / cs->ngraded : 0;
			n++;
		}
	qsort(ranked, (size_t)n, sizeof(*ranked), cmp_ranked);
	s->nfailed = n < TESTS_LISTED ? n : TESTS_LISTED;
	s->failed = xcalloc((size_t)s->nfailed + 1, sizeof(*s->failed));
	for (int r = 0; r < s->nfailed; r++) {
		const struct test_stat *t = &cs->probs[ranked[r].problem].tests[ranked[r].test];
		s->failed[r].problem = m->problems[ranked[r].problem].id;
		s->failed[r].name = t->name;
		s->failed[r].hidden = t->hidden;
		s->failed[r].passed = t->passed;
		s->failed[r].rate = ranked[r].rate;
	}
	free(ranked);
}

static void collect_not_graded(struct summary *s, const struct batch_manifest *m, const struct student_state *rows,
			       const bool *have, const char *missing_reason)
{
	s->not_graded = xcalloc((size_t)m->nids + 1, sizeof(*s->not_graded));
	for (int i = 0; i < m->nids; i++) {
		struct summary_not_graded *row;
		if (have[i] && rows[i].graded)
			continue;
		row = &s->not_graded[s->nnot_graded++];
		row->id = m->ids[i];
		row->why = row_status(&rows[i], have[i], missing_reason);
	}
}

/* rows[i] is the state of m->ids[i] when have[i]; a student without one is "error: <missing_reason>". */
static void summary_collect(struct summary *s, const struct batch_manifest *m, const struct class_stats *cs,
			    const struct student_state *rows, const bool *have, const char *missing_reason)
{
	memset(s, 0, sizeof(*s));
	s->students = m->nids;
	s->graded = cs->ngraded;
	s->shard_index = m->shard_index;
	s->shard_count = m->shard_count;
	s->class_size = m->class_size;
	s->max = manifest_max_score(m);
	collect_distribution(s, cs);
	collect_problems(s, m, cs);
	collect_groups(s, m, cs);
	collect_failed_tests(s, m, cs);
	s->errors = cs->errors;
	s->nerrors = cs->nerrors;
	collect_not_graded(s, m, rows, have, missing_reason);
}

static void summary_release(struct summary *s)
{
	free(s->problems);
	free(s->groups);
	free(s->failed);
	for (int i = 0; i < s->nnot_graded; i++)
		free(s->not_graded[i].why);
	free(s->not_graded);
}

static const char html_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	"<title>Grading summary</title>\n<style>\n"
	"body{font:15px/1.45 system-ui,-apple-system,\"Segoe UI\",Roboto,sans-serif;margin:2em auto;max-width:64em;"
	"padding:0 1em;color:#1d2330;background:#fff}\n"
	"h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #dde}\n"
	".meta{color:#556}\n"
	"table{border-collapse:collapse;width:100%;font-size:.93em}\n"
	"th,td{text-align:left;padding:.25em .6em;border-bottom:1px solid #eef;vertical-align:top}\n"
	"th{background:#f4f6fb}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	".bar{background:#e9edf5;height:.8em;width:10em;border-radius:.2em;overflow:hidden}\n"
	".bar span{display:block;height:100%;background:#3f7f4f}\n"
	".bar span.low{background:#c0463c}.bar span.mid{background:#d9a13b}\n"
	"pre{background:#f6f7f9;border:1px solid #e3e6ee;padding:.5em;overflow-x:auto;font-size:.85em;margin:.3em 0 1em}\n"
	".tag{font-size:.8em;color:#667;border:1px solid #ccd;border-radius:.3em;padding:0 .3em}\n"
	"svg text{font:12px system-ui,sans-serif;fill:#334}\n"
	"</style>\n</head>\n<body>\n";

static void add_rate_bar(struct strbuf *sb, double rate)
{
	const char *cls = rate < 0.5 ? " class=\"low\"" : rate < 0.8 ? " class=\"mid\"" : "";
	strbuf_addf(sb, "<div class=\"bar\"><span%s style=\"width:%.1f%%\"></span></div>", cls, rate * 100);
}

static void add_percent(struct strbuf *sb, double num, double den)
{
	strbuf_addf(sb, "%.1f%%", den > 0 ? 100.0 * num / den : 0.0);
}

/* A mean is shown to the hundredth. */
static void add_mean(struct strbuf *sb, double mean)
{
	text_score(sb, round(mean * 100) / 100);
}

/* The first cells of a pass-rate row (groups, tests): the problem, then the name, tagged when hidden. */
static void add_rate_row_head(struct strbuf *sb, const char *problem, const char *name, bool hidden)
{
	strbuf_addstr(sb, "<tr><td>");
	add_html(sb, problem);
	strbuf_addstr(sb, "</td><td>");
	add_html(sb, name);
	if (hidden)
		strbuf_addstr(sb, " <span class=\"tag\">hidden</span>");
}

static void html_header(struct strbuf *sb, const struct summary *s)
{
	strbuf_addstr(sb, html_head);
	strbuf_addstr(sb, "<h1>Grading summary</h1>\n<p class=\"meta\">");
	strbuf_addf(sb, "%d student%s", s->students, s->students == 1 ? "" : "s");
	if (s->shard_count > 1)
		strbuf_addf(sb, " (shard %d of %d; %d in the class)", s->shard_index, s->shard_count, s->class_size);
	strbuf_addf(sb, ": %d graded, %d not graded. Problems:", s->graded, s->nnot_graded);
	for (int i = 0; i < s->nproblems; i++) {
		strbuf_addstr(sb, i ? ", " : " ");
		add_html(sb, s->problems[i].id);
	}
	strbuf_addstr(sb, " (maximum ");
	text_score(sb, s->max);
	strbuf_addf(sb, " points). Grader %s.</p>\n", GRADER_VERSION);
}

static void html_histogram(struct strbuf *sb, const struct summary *s)
{
	const int w = 640, h = 240, left = 40, bottom = 40, top = 20;
	int most = 1;
	double bw = (double)(w - left - 10) / HISTOGRAM_BINS;

	for (int b = 0; b < HISTOGRAM_BINS; b++)
		if (s->bins[b] > most)
			most = s->bins[b];
	strbuf_addf(sb, "<svg role=\"img\" aria-label=\"score distribution\" width=\"%d\" height=\"%d\" "
		    "viewBox=\"0 0 %d %d\" xmlns=\"http://www.w3.org/2000/svg\">\n", w, h, w, h);
	strbuf_addf(sb, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#889\"/>\n", left, h - bottom,
		    w - 10, h - bottom);
	for (int b = 0; b < HISTOGRAM_BINS; b++) {
		double bh = (double)(h - bottom - top) * s->bins[b] / most;
		double x = left + b * bw;
		strbuf_addf(sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#4a6fa5\">"
			    "<title>%d%%-%d%%: %d student%s</title></rect>\n", x + 2, h - bottom - bh, bw - 4, bh,
			    b * 10, b * 10 + 10, s->bins[b], s->bins[b] == 1 ? "" : "s");
		if (s->bins[b])
			strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d</text>\n", x + bw / 2,
				    h - bottom - bh - 4, s->bins[b]);
		strbuf_addf(sb, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d-%d%%</text>\n", x + bw / 2,
			    h - bottom + 16, b * 10, b * 10 + 10);
	}
	strbuf_addf(sb, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">share of the maximum score</text>\n",
		    left + (w - left) / 2, h - 6);
	strbuf_addstr(sb, "</svg>\n");
}

static void html_distribution(struct strbuf *sb, const struct summary *s)
{
	strbuf_addstr(sb, "<h2>Score distribution</h2>\n");
	if (!s->graded) {
		strbuf_addstr(sb, "<p>No student could be graded.</p>\n");
		return;
	}
	html_histogram(sb, s);
	strbuf_addstr(sb, "<p>Mean ");
	add_mean(sb, s->mean);
	strbuf_addstr(sb, ", median ");
	text_score(sb, s->median);
	strbuf_addstr(sb, ", lowest ");
	text_score(sb, s->lowest);
	strbuf_addstr(sb, ", highest ");
	text_score(sb, s->highest);
	strbuf_addstr(sb, " of ");
	text_score(sb, s->max);
	strbuf_addstr(sb, ".</p>\n");
}

static void html_problems(struct strbuf *sb, const struct summary *s)
{
	strbuf_addstr(sb, "<h2>Problems</h2>\n<table>\n<tr><th>Problem</th><th class=\"n\">Mean</th>"
		      "<th class=\"n\">Full marks</th><th class=\"n\">Built</th><th class=\"n\">Compile errors</th>"
		      "<th class=\"n\">Missing</th><th>Mean share</th></tr>\n");
	for (int i = 0; i < s->nproblems; i++) {
		const struct summary_problem *p = &s->problems[i];
		strbuf_addstr(sb, "<tr><td>");
		add_html(sb, p->id);
		strbuf_addstr(sb, " <span class=\"meta\">");
		add_html(sb, p->title);
		strbuf_addstr(sb, "</span></td><td class=\"n\">");
		add_mean(sb, p->mean);
		strbuf_addstr(sb, " / ");
		text_score(sb, p->max);
		strbuf_addstr(sb, "</td><td class=\"n\">");
		add_percent(sb, p->full, s->graded);
		strbuf_addf(sb, "</td><td class=\"n\">%d</td><td class=\"n\">%d</td><td class=\"n\">%d</td><td>",
			    p->built, p->compile_errors, p->missing);
		add_rate_bar(sb, p->share);
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "</table>\n");
}

static void html_groups(struct strbuf *sb, const struct summary *s)
{
	strbuf_addstr(sb, "<h2>Pass rates by group</h2>\n<table>\n<tr><th>Problem</th><th>Group</th>"
		      "<th class=\"n\">Tests</th><th class=\"n\">Passed</th><th>Rate</th></tr>\n");
	for (int i = 0; i < s->ngroups; i++) {
		const struct summary_group *g = &s->groups[i];
		add_rate_row_head(sb, g->problem, g->name, g->hidden);
		strbuf_addf(sb, "</td><td class=\"n\">%d</td><td class=\"n\">", g->tests);
		add_percent(sb, (double)g->passed, (double)g->total);
		strbuf_addstr(sb, "</td><td>");
		add_rate_bar(sb, g->rate);
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "</table>\n");
}

static void html_failed_tests(struct strbuf *sb, const struct summary *s)
{
	strbuf_addstr(sb, "<h2>Tests most students fail</h2>\n");
	if (s->ntests > TESTS_LISTED)
		strbuf_addf(sb, "<p class=\"meta\">The %d tests with the lowest pass rate of %d.</p>\n", TESTS_LISTED,
			    s->ntests);
	strbuf_addstr(sb, "<table>\n<tr><th>Problem</th><th>Test</th><th class=\"n\">Passed</th><th>Rate</th></tr>\n");
	for (int r = 0; r < s->nfailed; r++) {
		const struct summary_test *t = &s->failed[r];
		add_rate_row_head(sb, t->problem, t->name, t->hidden);
		strbuf_addf(sb, "</td><td class=\"n\">%d / %d</td><td>", t->passed, s->graded);
		add_rate_bar(sb, t->rate);
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "</table>\n");
}

static void html_compile_errors(struct strbuf *sb, const struct summary *s)
{
	strbuf_addf(sb, "<h2>Compile errors (%d)</h2>\n", s->nerrors);
	if (!s->nerrors)
		strbuf_addstr(sb, "<p>None.</p>\n");
	for (int i = 0; i < s->nerrors; i++) {
		strbuf_addstr(sb, "<h3>");
		add_html(sb, s->errors[i].id);
		strbuf_addstr(sb, " &mdash; ");
		add_html(sb, s->errors[i].problem);
		strbuf_addstr(sb, "</h3>\n<pre>");
		add_html(sb, s->errors[i].text);
		strbuf_addstr(sb, "</pre>\n");
	}
}

static void html_not_graded(struct strbuf *sb, const struct summary *s)
{
	strbuf_addf(sb, "<h2>Not graded (%d)</h2>\n", s->nnot_graded);
	if (!s->nnot_graded) {
		strbuf_addstr(sb, "<p>None.</p>\n");
		return;
	}
	strbuf_addstr(sb, "<table>\n<tr><th>Student</th><th>Why</th></tr>\n");
	for (int i = 0; i < s->nnot_graded; i++) {
		strbuf_addstr(sb, "<tr><td>");
		add_html(sb, s->not_graded[i].id);
		strbuf_addstr(sb, "</td><td>");
		add_html(sb, s->not_graded[i].why);
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "</table>\n");
}

static void html_summary(struct strbuf *sb, const struct summary *s)
{
	html_header(sb, s);
	html_distribution(sb, s);
	html_problems(sb, s);
	html_groups(sb, s);
	html_failed_tests(sb, s);
	html_compile_errors(sb, s);
	html_not_graded(sb, s);
	strbuf_addstr(sb, "</body>\n</html>\n");
}

int gradebook_write(const char *outdir, const struct batch_manifest *m, const char *missing_reason,
		    struct gradebook_totals *totals, struct strbuf *err)
{
	struct student_state *rows = xcalloc((size_t)m->nids + 1, sizeof(*rows));
	bool *have = xcalloc((size_t)m->nids + 1, sizeof(bool));
	struct class_stats cs;
	struct summary summary;
	struct strbuf csv = STRBUF_INIT, html = STRBUF_INIT;
	double max = manifest_max_score(m);
	char *path = NULL;
	int ret = -1;

	memset(&cs, 0, sizeof(cs));
	memset(totals, 0, sizeof(*totals));
	cs.nprobs = m->nproblems;
	cs.probs = xcalloc((size_t)m->nproblems + 1, sizeof(*cs.probs));
	cs.totals = xcalloc((size_t)m->nids + 1, sizeof(double));

	strbuf_addstr(&csv, "id");
	for (int i = 0; i < m->nproblems; i++) {
		strbuf_addch(&csv, ',');
		add_csv_field(&csv, m->problems[i].id);
	}
	strbuf_addstr(&csv, ",total,max,status\r\n");
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
				cs.probs[p].score_sum += s->scores[p];
				cs.probs[p].graded++;
				cs.probs[p].full += s->scores[p] >= m->problems[p].max_score - 1e-9;
			}
			strbuf_addch(&csv, ',');
			text_score(&csv, s->score);
			cs.totals[cs.ngraded++] = s->score;
			{
				double share = max > 0 ? s->score / max : 0;
				int bin = (int)floor(share * HISTOGRAM_BINS + 1e-9);
				cs.bins[bin < 0 ? 0 : bin >= HISTOGRAM_BINS ? HISTOGRAM_BINS - 1 : bin]++;
			}
			add_report(&cs, m, outdir, m->ids[i]);
		} else {
			totals->not_graded++;
			for (int p = 0; p < m->nproblems; p++)
				strbuf_addch(&csv, ',');
			strbuf_addch(&csv, ',');
		}
		strbuf_addch(&csv, ',');
		text_score(&csv, max);
		strbuf_addch(&csv, ',');
		if (!have[i] || !strncmp(s->status, "error:", 6))
			totals->errors++;
		status = row_status(s, have[i], missing_reason);
		add_csv_field(&csv, status);
		free(status);
		strbuf_addstr(&csv, "\r\n");
	}
	summary_collect(&summary, m, &cs, rows, have, missing_reason);
	html_summary(&html, &summary);
	summary_release(&summary);

	path = xasprintf("%s/grades.csv", outdir);
	if (write_file_atomic(path, csv.buf, csv.len) < 0) {
		strbuf_addf(err, "cannot write '%s': %s", path, strerror(errno));
		goto cleanup;
	}
	free(path);
	path = xasprintf("%s/summary.html", outdir);
	if (write_file_atomic(path, html.buf, html.len) < 0) {
		strbuf_addf(err, "cannot write '%s': %s", path, strerror(errno));
		goto cleanup;
	}
	ret = 0;
cleanup:
	free(path);
	for (int i = 0; i < m->nids; i++)
		student_state_release(&rows[i]);
	free(rows);
	free(have);
	class_stats_release(&cs);
	strbuf_release(&csv);
	strbuf_release(&html);
	return ret;
}
