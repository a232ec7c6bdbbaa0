/*
 * summary.c - see summary.h.  Collect, then render: the class statistics
 * are read from OUTDIR (students/<id>.json, similarity/<id>.json) and the
 * caller's rows, folded into a struct summary (summary_model.h), and
 * summary_html.c renders that.
 */
#define _GNU_SOURCE
#include "batch/summary.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "batch/summary_model.h"
#include "base/text.h"

/* ---- the class statistics, read from OUTDIR ---- */

struct test_stat {
	char *name, *group;
	bool hidden;
	int passed;
	int verdicts[V_COUNT];
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
	int full, built, compile_errors, missing;
	double score_sum;
	struct verdict_counts verdicts;
	const struct sim_file **files; /* the students' files for this problem ... */
	int *owner;                    /* ... and whose (row index) */
	int nfiles;
};

struct class_stats {
	struct problem_stat *probs;
	int nprobs;
	int bins[HISTOGRAM_BINS];
	double *totals;            /* graded students' scores */
	int ngraded;
	struct summary_compile_error *errors;  /* texts owned */
	int nerrors;
	size_t errors_alloc;
	struct sim_file **sims;    /* per row: its similarity record */
	int *nsims;
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

/* The problem's tests, from the first report that lists them. */
static void load_tests(struct problem_stat *ps, const struct batch_problem *bp, json_t *tests)
{
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
		group_of(ps, bp, ps->tests[k].group);
	}
	ps->have_tests = true;
}

static void count_build(struct class_stats *cs, struct problem_stat *ps, const char *id, const char *problem,
			const char *build, json_t *pj)
{
	if (!strcmp(build, "correct")) {
		ps->built++;
	} else if (!strcmp(build, "compiler-error")) {
		const char *msg = json_string_value(json_object_get(pj, "build_message"));
		struct strbuf lines = STRBUF_INIT;
		struct summary_compile_error *ce;
		ps->compile_errors++;
		ALLOC_GROW(cs->errors, cs->nerrors + 1, cs->errors_alloc);
		ce = &cs->errors[cs->nerrors++];
		ce->id = id;
		ce->problem = problem;
		text_first_lines(&lines, msg, COMPILE_LINES, "...");
		ce->text = strbuf_detach(&lines);
	} else if (!strcmp(build, "missing")) {
		ps->missing++;
	}
}

/*
 * One student's test verdicts.  After the first failure in an
 * all-or-nothing group, whether a later test ran or was skipped depends on
 * timing (-j): count none of them as passed, and each as skipped, so the
 * page is the same however the class was graded.
 */
static void count_tests(struct problem_stat *ps, const struct batch_problem *bp, json_t *tests)
{
	bool seen[V_COUNT] = { false };

	for (int g = 0; g < ps->ngroups; g++)
		ps->groups[g].broken = false;
	for (int k = 0; k < ps->ntests && k < (int)json_array_size(tests); k++) {
		json_t *t = json_array_get(tests, (size_t)k);
		const char *name = json_string_value(json_object_get(t, "name"));
		int v = verdict_from_name(json_string_value(json_object_get(t, "verdict")));
		struct group_stat *g;
		if (!name || strcmp(name, ps->tests[k].name))
			continue; /* a different problem file: should not happen within one batch */
		g = group_of(ps, bp, ps->tests[k].group);
		if (v < 0)
			v = V_JUDGE_ERROR;
		if (g->all_or_nothing) {
			if (g->broken)
				v = V_SKIPPED;
			g->broken |= v != V_CORRECT;
		}
		ps->tests[k].passed += v == V_CORRECT;
		ps->tests[k].verdicts[v]++;
		ps->verdicts.runs[v]++;
		seen[v] = true;
		g->passed += v == V_CORRECT;
		g->total++;
	}
	for (int v = 0; v < V_COUNT; v++)
		ps->verdicts.students[v] += seen[v];
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
		int pi;
		for (pi = 0; pid && pi < m->nproblems; pi++)
			if (!strcmp(m->problems[pi].id, pid))
				break;
		if (!pid || pi == m->nproblems || !build)
			continue;
		if (!cs->probs[pi].have_tests)
			load_tests(&cs->probs[pi], &m->problems[pi], tests);
		count_build(cs, &cs->probs[pi], id, m->problems[pi].id, build, pj);
		count_tests(&cs->probs[pi], &m->problems[pi], tests);
	}
	json_decref(root);
}

/* Row r's similarity record: each file goes to its problem's list. */
static void add_fingerprints(struct class_stats *cs, const struct batch_manifest *m, const char *outdir, int r)
{
	if (similarity_read(outdir, m->ids[r], &cs->sims[r], &cs->nsims[r]) < 0)
		return;
	for (int f = 0; f < cs->nsims[r]; f++)
		for (int p = 0; p < m->nproblems; p++) {
			struct problem_stat *ps = &cs->probs[p];
			if (strcmp(cs->sims[r][f].problem, m->problems[p].id))
				continue;
			ps->files[ps->nfiles] = &cs->sims[r][f];
			ps->owner[ps->nfiles++] = r;
			break;
		}
}

/* The class's maximum score (as manifest_max_score, without calling back into gradebook.c). */
static double max_score(const struct batch_manifest *m)
{
	double sum = 0;
	for (int i = 0; i < m->nproblems; i++)
		sum += m->problems[i].max_score;
	return round(sum * 1e6) / 1e6;
}

static void add_scores(struct class_stats *cs, const struct batch_manifest *m, const struct student_state *st)
{
	double max = max_score(m), share = max > 0 ? st->score / max : 0;
	int bin = (int)floor(share * HISTOGRAM_BINS + 1e-9);

	for (int p = 0; p < m->nproblems; p++) {
		cs->probs[p].score_sum += st->scores[p];
		cs->probs[p].full += st->scores[p] >= m->problems[p].max_score - 1e-9;
	}
	cs->totals[cs->ngraded++] = st->score;
	cs->bins[bin < 0 ? 0 : bin >= HISTOGRAM_BINS ? HISTOGRAM_BINS - 1 : bin]++;
}

static void class_stats_read(struct class_stats *cs, const struct batch_manifest *m, const char *outdir,
			     const struct summary_row *rows)
{
	memset(cs, 0, sizeof(*cs));
	cs->nprobs = m->nproblems;
	cs->probs = xcalloc((size_t)m->nproblems + 1, sizeof(*cs->probs));
	for (int p = 0; p < m->nproblems; p++) {
		cs->probs[p].files = xcalloc((size_t)m->nids + 1, sizeof(*cs->probs[p].files));
		cs->probs[p].owner = xcalloc((size_t)m->nids + 1, sizeof(int));
	}
	cs->totals = xcalloc((size_t)m->nids + 1, sizeof(double));
	cs->sims = xcalloc((size_t)m->nids + 1, sizeof(*cs->sims));
	cs->nsims = xcalloc((size_t)m->nids + 1, sizeof(int));
	for (int i = 0; i < m->nids; i++) {
		if (!rows[i].state || !rows[i].state->graded)
			continue;
		add_scores(cs, m, rows[i].state);
		add_report(cs, m, outdir, m->ids[i]);
		add_fingerprints(cs, m, outdir, i);
	}
}

static void class_stats_release(struct class_stats *cs, int nrows)
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
		free(ps->files);
		free(ps->owner);
	}
	free(cs->probs);
	free(cs->totals);
	for (int i = 0; i < cs->nerrors; i++)
		free((char *)cs->errors[i].text);
	free(cs->errors);
	for (int i = 0; i < nrows; i++)
		sim_files_free(cs->sims[i], cs->nsims[i]);
	free(cs->sims);
	free(cs->nsims);
}

/* ---- collect: the figures of the page ---- */

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

static void collect_students(struct summary *s, const struct batch_manifest *m, const struct summary_row *rows)
{
	s->policy = m->policy != NULL;
	s->rows = xcalloc((size_t)m->nids + 1, sizeof(*s->rows));
	s->not_graded = xcalloc((size_t)m->nids + 1, sizeof(*s->not_graded));
	for (int i = 0; i < m->nids; i++) {
		struct summary_student *row = &s->rows[i];
		row->id = m->ids[i];
		row->status = rows[i].status;
		row->graded = rows[i].state && rows[i].state->graded;
		row->priced = rows[i].priced;
		row->late_hours = rows[i].late_hours;
		row->penalty = rows[i].penalty;
		row->final = rows[i].final;
		if (row->graded) {
			row->scores = rows[i].state->scores;
			row->total = rows[i].state->score;
		} else {
			s->not_graded[s->nnot_graded].id = m->ids[i];
			s->not_graded[s->nnot_graded++].why = rows[i].status;
		}
	}
}

static void collect_problems(struct summary *s, const struct batch_manifest *m, const struct class_stats *cs)
{
	s->nproblems = m->nproblems;
	s->problems = xcalloc((size_t)m->nproblems + 1, sizeof(*s->problems));
	s->verdict_seen[V_CORRECT] = true;
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
		p->verdicts = ps->verdicts;
		for (int v = 0; v < V_COUNT; v++)
			s->verdict_seen[v] |= ps->verdicts.runs[v] > 0;
	}
}

struct ranked_test {
	int test;
	double rate;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked_test *x = a, *y = b;
	if (x->rate != y->rate)
		return x->rate < y->rate ? -1 : 1;
	return x->test - y->test;
}

/* A group's row: its figures, and its tests not passed by everyone, lowest pass rate first. */
static void collect_group(struct summary_group *row, const char *problem, const struct problem_stat *ps,
			  const struct group_stat *g, int graded)
{
	struct ranked_test *ranked = xcalloc((size_t)ps->ntests + 1, sizeof(*ranked));

	row->problem = problem;
	row->name = g->name;
	for (int k = 0; k < ps->ntests; k++) {
		if (strcmp(ps->tests[k].group, g->name))
			continue;
		row->tests++;
		row->hidden |= ps->tests[k].hidden;
		if (ps->tests[k].passed < graded) {
			ranked[row->failing].test = k;
			ranked[row->failing++].rate = graded ? (double)ps->tests[k].passed / graded : 0;
		}
	}
	row->passed = g->passed;
	row->total = g->total;
	row->rate = g->total ? (double)g->passed / (double)g->total : 0;
	qsort(ranked, (size_t)row->failing, sizeof(*ranked), cmp_ranked);
	row->nhardest = row->failing < TESTS_PER_GROUP ? row->failing : TESTS_PER_GROUP;
	row->hardest = xcalloc((size_t)row->nhardest + 1, sizeof(*row->hardest));
	for (int r = 0; r < row->nhardest; r++) {
		const struct test_stat *t = &ps->tests[ranked[r].test];
		row->hardest[r].name = t->name;
		row->hardest[r].passed = t->passed;
		row->hardest[r].rate = ranked[r].rate;
		row->hardest[r].verdicts = t->verdicts;
	}
	free(ranked);
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
				      &cs->probs[i].groups[g], cs->ngraded);
}

static void collect_similar(struct summary *s, const struct batch_manifest *m, const struct class_stats *cs)
{
	s->similar = xcalloc((size_t)m->nproblems + 1, sizeof(*s->similar));
	for (int i = 0; i < m->nproblems; i++) {
		const struct problem_stat *ps = &cs->probs[i];
		struct summary_similar *sim = &s->similar[i];
		struct sim_pair *pairs;
		sim->problem = m->problems[i].id;
		sim->files = ps->nfiles;
		sim->nflagged = similarity_pairs(ps->files, ps->nfiles, &pairs, &sim->compared);
		sim->npairs = sim->nflagged < PAIRS_LISTED ? sim->nflagged : PAIRS_LISTED;
		sim->pairs = xcalloc((size_t)sim->npairs + 1, sizeof(*sim->pairs));
		for (int k = 0; k < sim->npairs; k++) {
			struct summary_pair *p = &sim->pairs[k];
			p->a = m->ids[ps->owner[pairs[k].a]];
			p->b = m->ids[ps->owner[pairs[k].b]];
			p->file_a = ps->files[pairs[k].a]->file;
			p->file_b = ps->files[pairs[k].b]->file;
			p->kind = pairs[k].kind;
			p->shared = pairs[k].shared;
			p->share_a = pairs[k].share_a;
			p->share_b = pairs[k].share_b;
		}
		s->nflagged += sim->nflagged;
		free(pairs);
	}
}

static void summary_collect(struct summary *s, const struct batch_manifest *m, const struct class_stats *cs,
			    const struct summary_row *rows)
{
	memset(s, 0, sizeof(*s));
	s->students = m->nids;
	s->graded = cs->ngraded;
	s->shard_index = m->shard_index;
	s->shard_count = m->shard_count;
	s->class_size = m->class_size;
	s->max = max_score(m);
	collect_distribution(s, cs);
	collect_students(s, m, rows);
	collect_problems(s, m, cs);
	collect_groups(s, m, cs);
	collect_similar(s, m, cs);
	s->errors = cs->errors;
	s->nerrors = cs->nerrors;
}

void summary_release(struct summary *s)
{
	free(s->rows);
	free(s->problems);
	for (int i = 0; i < s->ngroups; i++)
		free(s->groups[i].hardest);
	free(s->groups);
	for (int i = 0; i < s->nproblems; i++)
		free(s->similar[i].pairs);
	free(s->similar);
	free(s->not_graded);
}

int summary_write(const char *outdir, const struct batch_manifest *m, const struct summary_row *rows,
		  struct strbuf *err)
{
	struct class_stats cs;
	struct summary summary;
	struct strbuf html = STRBUF_INIT;
	char *path = xasprintf("%s/summary.html", outdir);
	int ret = 0;

	class_stats_read(&cs, m, outdir, rows);
	summary_collect(&summary, m, &cs, rows);
	summary_html(&html, &summary);
	if (write_file_atomic(path, html.buf, html.len) < 0) {
		strbuf_addf(err, "cannot write '%s': %s", path, strerror(errno));
		ret = -1;
	}
	summary_release(&summary);
	class_stats_release(&cs, m->nids);
	strbuf_release(&html);
	free(path);
	return ret;
}
