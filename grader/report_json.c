/*
 * report_json.c - the machine-readable contract (jansson does the escaping).
 *
 * Stable keys (never renamed or removed):
 *   {"score", "max_score", "problems": [{"id", "title", "score", "max_score",
 *    "tests": [{"name", "group", "verdict", "score", "max_score", "time_ms",
 *               "message"}]}]}
 * Added alongside: the grader's version, per-problem build outcome, limits
 * and groups (with their effective limits and tallies), per-test limits,
 * peak memory and - for visible tests only - the call, the values and the
 * captured output (at most REPORT_OUTPUT_MAX bytes, valid UTF-8).  Hidden
 * tests carry no call, expected, actual or output key, and their message
 * is the verdict in words.
 */
#include "report.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "jsontext.h"
#include "version.h"

#define JSON_FORMAT_VERSION 2

/* cpu_ms: the limit that applied (measured: from the tests), else the file's absolute one, else null */
static json_t *limits_json(const struct limits *lim, unsigned measured_cpu_ms)
{
	json_t *j = json_object();
	if (measured_cpu_ms)
		json_object_set_new(j, "cpu_ms", json_integer(measured_cpu_ms));
	else
		json_object_set_new(j, "cpu_ms", lim->cpu_factor ? json_null() : json_integer(lim->cpu_ms));
	if (lim->cpu_factor) {
		json_object_set_new(j, "cpu_factor", json_real(lim->cpu_factor));
		json_object_set_new(j, "cpu_floor_ms", json_integer(lim->cpu_floor_ms));
	}
	if (lim->wall_ms)
		json_object_set_new(j, "wall_ms", json_integer(lim->wall_ms));
	json_object_set_new(j, "memory_mb", json_integer(lim->memory_mb));
	json_object_set_new(j, "output_kb", json_integer(lim->output_kb));
	return j;
}

static json_t *group_json(const struct problem_result *pr, int g, const struct report_options *o)
{
	const struct group *grp = &pr->problem->groups[g];
	struct report_tally tl;
	json_t *j = json_object();

	report_tally(pr, g, &tl);
	json_object_set_new(j, "name", json_string(grp->name));
	json_object_set_new(j, "visibility", json_string(visibility_name(grp->visibility)));
	json_object_set_new(j, "scoring", json_string(scoring_name(grp->scoring)));
	json_object_set_new(j, "points", json_real(grp->points));
	json_object_set_new(j, "score", json_real(tl.score));
	json_object_set_new(j, "max_score", json_real(tl.max_score));
	json_object_set_new(j, "tests", json_integer(tl.tests));
	json_object_set_new(j, "passed", json_integer(tl.passed));
	json_object_set_new(j, "failed", json_integer(tl.failed));
	json_object_set_new(j, "skipped", json_integer(tl.skipped));
	json_object_set_new(j, "hint", grp->hint ? json_string(grp->hint) : json_null());
	json_object_set_new(j, "limits", limits_json(&grp->limits, tl.limit_ms));
	/* a hidden group's figures could carry its inputs out (a program can touch n KiB): instructors only */
	json_object_set_new(j, "peak_kb", grp->visibility == VIS_PUBLIC || o->show_hidden
					  ? json_integer((json_int_t)tl.peak_kb) : json_null());
	return j;
}

static json_t *test_json(const struct problem *p, const struct test_result *t, const struct report_options *o)
{
	const struct group *g = &p->groups[t->tc->group];
	bool visible = report_visible(t, p, o);
	const char *msg = report_message(t, p, o);
	json_t *j = json_object();

	json_object_set_new(j, "name", json_string(t->tc->name));
	json_object_set_new(j, "group", json_string(g->name));
	json_object_set_new(j, "visibility", json_string(visibility_name(g->visibility)));
	json_object_set_new(j, "verdict", json_string(verdict_name(t->verdict)));
	json_object_set_new(j, "score", json_real(t->score));
	json_object_set_new(j, "max_score", json_real(t->max_score));
	/* time and memory of a hidden test are a channel for its inputs (a program
	 * can spin or allocate in proportion to them): shown to instructors only */
	json_object_set_new(j, "time_ms", visible ? json_integer(t->time_ms) : json_null());
	json_object_set_new(j, "wall_ms", visible ? json_integer(t->wall_ms) : json_null());
	json_object_set_new(j, "limit_ms", json_integer(t->limit_ms));
	json_object_set_new(j, "peak_kb", visible ? json_integer((json_int_t)t->peak_kb) : json_null());
	json_object_set_new(j, "message", msg ? json_text(msg) : json_null());
	if (visible) {
		struct strbuf sb = STRBUF_INIT;
		int cut = 0;
		test_case_format_call(&sb, p, t->tc);
		json_object_set_new(j, "call", json_string(sb.buf));
		strbuf_release(&sb);
		if (t->has_expected)
			json_object_set_new(j, "expected", json_integer(t->expected));
		if (t->has_actual)
			json_object_set_new(j, "actual", json_integer(t->actual));
		json_object_set_new(j, "output", json_text_cut(t->output, REPORT_OUTPUT_MAX, &cut));
		json_object_set_new(j, "output_bytes", json_integer((json_int_t)t->output_total));
		json_object_set_new(j, "output_truncated",
				    json_boolean(cut || (t->output && t->output_total > strlen(t->output))));
	}
	return j;
}

static json_t *problem_json(const struct problem_result *pr, const struct report_options *o)
{
	const struct problem *p = pr->problem;
	struct report_tally tl;
	json_t *pj = json_object(), *tests = json_array(), *groups = json_array();

	report_tally(pr, -1, &tl);
	json_object_set_new(pj, "id", json_string(p->id));
	json_object_set_new(pj, "title", json_string(p->title));
	json_object_set_new(pj, "source", pr->source ? json_text(pr->source) : json_null());
	json_object_set_new(pj, "score", json_real(pr->score));
	json_object_set_new(pj, "max_score", json_real(pr->max_score));
	json_object_set_new(pj, "build", json_string(verdict_name(pr->build_verdict)));
	json_object_set_new(pj, "build_message", json_text(pr->build_message));
	json_object_set_new(pj, "language", json_string(p->lang->name));
	json_object_set_new(pj, "language_version", json_string(p->lang->display));
	json_object_set_new(pj, "startup_output", json_text_cut(pr->startup_output, REPORT_OUTPUT_MAX, NULL));
	json_object_set_new(pj, "startup_bytes", json_integer((json_int_t)pr->startup_total));
	json_object_set_new(pj, "compile_ms", json_integer(pr->compile_ms));
	json_object_set_new(pj, "limits", limits_json(&p->limits, 0));
	{
		/* over the tests this reader may see (see test_json) */
		unsigned long long peak = 0, cpu = 0;
		for (int k = 0; k < pr->ntests; k++)
			if (report_visible(&pr->tests[k], p, o)) {
				if (pr->tests[k].peak_kb > peak)
					peak = pr->tests[k].peak_kb;
				cpu += pr->tests[k].time_ms;
			}
		json_object_set_new(pj, "peak_kb", json_integer((json_int_t)peak));
		json_object_set_new(pj, "cpu_ms", json_integer((json_int_t)cpu));
	}
	json_object_set_new(pj, "passed", json_integer(tl.passed));
	json_object_set_new(pj, "failed", json_integer(tl.failed));
	json_object_set_new(pj, "skipped", json_integer(tl.skipped));
	for (int g = 0; g < p->ngroups; g++)
		json_array_append_new(groups, group_json(pr, g, o));
	json_object_set_new(pj, "groups", groups);
	for (int k = 0; k < pr->ntests; k++)
		json_array_append_new(tests, test_json(p, &pr->tests[k], o));
	json_object_set_new(pj, "tests", tests);
	return pj;
}

int report_json(FILE *out, const struct grade_result *r, const struct report_options *o)
{
	json_t *root = json_object(), *problems = json_array();
	int ret, passed = 0, skipped = 0;

	for (int i = 0; i < r->nproblems; i++) {
		struct report_tally tl;
		report_tally(&r->problems[i], -1, &tl);
		passed += tl.passed;
		skipped += tl.skipped;
	}
	json_object_set_new(root, "grader_version", json_string(o->version ? o->version : GRADER_VERSION));
	json_object_set_new(root, "format_version", json_integer(JSON_FORMAT_VERSION));
	json_object_set_new(root, "submission", json_text(r->submission));
	json_object_set_new(root, "score", json_real(r->score));
	json_object_set_new(root, "max_score", json_real(r->max_score));
	json_object_set_new(root, "summary", json_pack("{s:i, s:i, s:i, s:i}", "tests", report_total_tests(r), "passed",
							passed, "failed", report_total_tests(r) - passed - skipped,
							"skipped", skipped));
	json_object_set_new(root, "execution_time", json_real(r->elapsed_s));
	json_object_set_new(root, "isolation", json_string(r->isolation ? r->isolation : ""));
	json_object_set_new(root, "internal_error", json_boolean(r->internal_error));
	json_object_set_new(root, "show_hidden", json_boolean(o->show_hidden));
	for (int i = 0; i < r->nproblems; i++)
		json_array_append_new(problems, problem_json(&r->problems[i], o));
	json_object_set_new(root, "problems", problems);
	/* 12 significant digits: 14.2, not 14.200000000000003 */
	ret = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	fputc('\n', out);
	json_decref(root);
	return ret < 0 || ferror(out) ? -1 : 0;
}
