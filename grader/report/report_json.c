/*
 * report_json.c - the machine-readable contract (jansson does the escaping).
 *
 * Stable keys (never renamed or removed):
 *   {"score", "max_score", "problems": [{"id", "title", "score", "max_score",
 *    "tests": [{"name", "group", "verdict", "score", "max_score", "time_ms",
 *               "message"}]}]}
 * Added alongside: the grader's version, the format's version, per-problem
 * build outcome, limits and groups (with their effective limits and
 * counts), per-test limits, peak memory, the call, the values and the
 * captured output (as the view cut it); per test "runs" (more than 1: it
 * ended near its CPU limit and was measured again, judged on its run with
 * the least CPU, remeasure.h) and in "summary" "remeasured", how many of
 * the listed tests were (the instructor's view also has
 * "remeasured_cpu_ms", the CPU their extra runs took, hidden tests' too);
 * "calibration": a student pack's note on this machine's speed
 * (calibrate.h), or null.
 *
 * "tests" lists the tests of the view (view.h): in the student's view
 * only the public groups' tests; a hidden group is its entry in "groups"
 * (counts and points, "listed": false) and nothing else.  Format version 3
 * (this one): hidden tests are no longer listed for students, groups say
 * "listed", problems say what the output budget left out.
 *
 * Compact (report_options.compact: the record `grader batch` keeps of
 * every student, students/<id>.json) is the same document with every test
 * still listed, in case order, but without what the problem file and the
 * reference already say, so that a class of a thousand does not need
 * gigabytes: "compact": true at the top, no indentation, and
 *   - a quiet test (correct, no message, printed nothing) is
 *     {"name", "group", "verdict", "time_ms", "wall_ms", "peak_kb"}: its
 *     score and max_score are the points the problem file gives it, its
 *     call is in the problem file (the case at this position; a generated
 *     input comes from the problem's generator and the case's index), and
 *     its expected and returned values are the reference's;
 *   - a test that did not run (skipped after a failure in an all-or-nothing
 *     group, or every test of a problem that did not build) is
 *     {"name", "group", "verdict"}: its score is 0, its message the build's
 *     (build_message) or the verdict's;
 *   - a correct test that printed something is a quiet test with
 *     "output" (what is shown of it, when the output budget left it in),
 *     "output_bytes" unless that is the length of "output", and
 *     "output_truncated" and "output_left_out" when true (a debugging
 *     print left in a correct submission made every test's full entry:
 *     2.5 MB for the bundled problems);
 *   - "visibility" is left out when it is "public" (a hidden test says
 *     "hidden"), "limit_ms" when it is its group's limits.cpu_ms;
 *   - every other test (failed) is written in full, less what is the
 *     default: "runs" 1, "message" null, "message_cut" false, the output
 *     fields as for a correct test (none when it printed nothing).
 */
#include "report/report.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/growth.h"
#include "report/jsontext.h"
#include "base/version.h"

#define JSON_FORMAT_VERSION 3

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

static json_t *group_json(const struct view_group *vg)
{
	const struct group *grp = vg->group;
	json_t *j = json_object();

	json_object_set_new(j, "name", json_string(grp->name));
	json_object_set_new(j, "visibility", json_string(visibility_name(grp->visibility)));
	json_object_set_new(j, "scoring", json_string(scoring_name(grp->scoring)));
	json_object_set_new(j, "points", json_real(grp->points));
	json_object_set_new(j, "listed", json_boolean(vg->listed));
	json_object_set_new(j, "score", json_real(vg->tally.score));
	json_object_set_new(j, "max_score", json_real(vg->tally.max_score));
	json_object_set_new(j, "tests", json_integer(vg->tally.tests));
	json_object_set_new(j, "passed", json_integer(vg->tally.passed));
	json_object_set_new(j, "failed", json_integer(vg->tally.failed));
	json_object_set_new(j, "skipped", json_integer(vg->tally.skipped));
	json_object_set_new(j, "hint", grp->hint ? json_string(grp->hint) : json_null());
	json_object_set_new(j, "limits", limits_json(&grp->limits, vg->tally.limit_ms));
	/* a counts-only group's figures could carry its inputs out (a program can touch n KiB) */
	json_object_set_new(j, "peak_kb", vg->listed ? json_integer((json_int_t)vg->tally.peak_kb) : json_null());
	return j;
}

/* How much of a test the compact record writes (above). */
enum test_detail { TEST_FULL, TEST_QUIET, TEST_PRINTED, TEST_NOT_RUN };

static enum test_detail test_detail(const struct view_problem *vp, const struct view_test *vt)
{
	const struct test_result *t = vt->t;
	if (t->verdict == V_SKIPPED || (vp->build_verdict != V_CORRECT && t->verdict == vp->build_verdict))
		return TEST_NOT_RUN;
	if (t->verdict == V_CORRECT && !vt->message)
		return vt->output || t->output_total ? TEST_PRINTED : TEST_QUIET;
	return TEST_FULL;
}

/* The compact record's output fields (above): only what is not the default. */
static void compact_output(json_t *j, const struct view_test *vt)
{
	const struct test_result *t = vt->t;
	if (vt->output)
		json_object_set_new(j, "output", json_text(vt->output));
	if (t->output_total && (!vt->output || strlen(vt->output) != t->output_total))
		json_object_set_new(j, "output_bytes", json_integer((json_int_t)t->output_total));
	if (vt->output_cut)
		json_object_set_new(j, "output_truncated", json_true());
	if (vt->output_left_out)
		json_object_set_new(j, "output_left_out", json_true());
}

static json_t *test_json(const struct view_problem *vp, const struct view_test *vt, bool compact)
{
	const struct problem *p = vp->problem;
	const struct test_result *t = vt->t;
	const struct group *grp = &p->groups[t->tc->group];
	enum test_detail detail = compact ? test_detail(vp, vt) : TEST_FULL;
	struct strbuf sb = STRBUF_INIT;
	json_t *j = json_object();

	json_object_set_new(j, "name", json_string(t->tc->name));
	json_object_set_new(j, "group", json_string(grp->name));
	if (!compact || grp->visibility != VIS_PUBLIC)
		json_object_set_new(j, "visibility", json_string(visibility_name(grp->visibility)));
	json_object_set_new(j, "verdict", json_string(verdict_name(t->verdict)));
	if (detail == TEST_NOT_RUN)
		return j;
	if (detail == TEST_QUIET || detail == TEST_PRINTED) {
		json_object_set_new(j, "time_ms", json_integer(t->time_ms));
		json_object_set_new(j, "wall_ms", json_integer(t->wall_ms));
		if (t->limit_ms != vp->groups[t->tc->group].tally.limit_ms)
			json_object_set_new(j, "limit_ms", json_integer(t->limit_ms));
		json_object_set_new(j, "peak_kb", json_integer((json_int_t)t->peak_kb));
		if (detail == TEST_PRINTED)
			compact_output(j, vt);
		return j;
	}
	json_object_set_new(j, "score", json_real(t->score));
	json_object_set_new(j, "max_score", json_real(t->max_score));
	json_object_set_new(j, "time_ms", json_integer(t->time_ms));
	json_object_set_new(j, "wall_ms", json_integer(t->wall_ms));
	if (!compact || t->limit_ms != vp->groups[t->tc->group].tally.limit_ms)
		json_object_set_new(j, "limit_ms", json_integer(t->limit_ms));
	if (!compact || t->runs > 1)
		json_object_set_new(j, "runs", json_integer(t->runs > 1 ? t->runs : 1));
	json_object_set_new(j, "peak_kb", json_integer((json_int_t)t->peak_kb));
	if (!compact || vt->message)
		json_object_set_new(j, "message", vt->message ? json_text(vt->message) : json_null());
	if (!compact || vt->message_cut)
		json_object_set_new(j, "message_cut", json_boolean(vt->message_cut));
	test_case_format_call(&sb, p, t->tc);
	json_object_set_new(j, "call", json_string(sb.buf));
	strbuf_release(&sb);
	if (t->has_expected)
		json_object_set_new(j, "expected", json_integer(t->expected));
	if (t->has_actual)
		json_object_set_new(j, "actual", json_integer(t->actual));
	if (compact) {
		compact_output(j, vt);
		return j;
	}
	json_object_set_new(j, "output", json_text(vt->output));
	json_object_set_new(j, "output_bytes", json_integer((json_int_t)t->output_total));
	json_object_set_new(j, "output_truncated", json_boolean(vt->output_cut));
	json_object_set_new(j, "output_left_out", json_boolean(vt->output_left_out));
	return j;
}

/* How the time grows: "growth": {"exponent": 3.02, "class": "N^3", "expected": "N^2", "points": [[N, ms]...]...} */
static json_t *growth_json(const struct growth_result *g)
{
	json_t *j = json_object(), *points = json_array();
	struct strbuf cls = STRBUF_INIT, expected = STRBUF_INIT, lo = STRBUF_INIT, hi = STRBUF_INIT;
	growth_class_name(&cls, g->order, g->exponential);
	growth_expected_name(&expected, g->expected);
	growth_class_name(&lo, g->lo, false);
	growth_class_name(&hi, g->hi, false);
	json_object_set_new(j, "call", json_string(g->call));
	/* a class only when the measurement named one; else the two it lies between, when it says that much */
	json_object_set_new(j, "class", g->known && g->decided ? json_string(cls.buf) : json_null());
	json_object_set_new(j, "between", g->known && !g->decided ? json_pack("[s, s]", lo.buf, hi.buf) : json_null());
	json_object_set_new(j, "exponent", g->known ? json_real(round(g->exponent * 100) / 100) : json_null());
	json_object_set_new(j, "base", g->known && g->exponential ? json_real(round(g->base * 1000) / 1000) : json_null());
	json_object_set_new(j, "expected", json_string(expected.buf));
	for (int i = 0; i < g->npoints; i++)
		json_array_append_new(points, json_pack("[I, f]", (json_int_t)g->points[i].size,
							round(g->points[i].ms * 1000) / 1000));
	json_object_set_new(j, "points", points);
	json_object_set_new(j, "points_used", json_integer(g->nused));
	json_object_set_new(j, "set_aside", g->set_aside ? json_integer(g->set_aside) : json_null());
	json_object_set_new(j, "capped_ms", json_integer(GROWTH_RUN_CAP_MS));
	json_object_set_new(j, "size", g->target ? json_integer(g->target) : json_null());
	json_object_set_new(j, "group", g->target_group ? json_string(g->target_group) : json_null());
	json_object_set_new(j, "extrapolated_s", g->extrapolated_s >= 0 ? json_real(round(g->extrapolated_s * 1000) / 1000)
									 : json_null());
	json_object_set_new(j, "stopped", g->stopped ? json_string(g->stopped) : json_null());
	json_object_set_new(j, "budget_s", json_real(GROWTH_BUDGET_MS / 1000.0));
	json_object_set_new(j, "used_s", json_real(round(g->used_s * 1000) / 1000));
	json_object_set_new(j, "message", json_string(g->sentence));
	strbuf_release(&cls);
	strbuf_release(&expected);
	strbuf_release(&lo);
	strbuf_release(&hi);
	return j;
}

static json_t *value_json(const struct value *v)
{
	json_t *a;
	if (v->type == VT_BOOL)
		return json_boolean(v->i);
	if (!value_type_is_array(v->type))
		return json_integer(v->i);
	a = json_array();
	for (size_t e = 0; e < v->len; e++)
		json_array_append_new(a, json_integer(v->arr[e]));
	return a;
}

/* The smallest failing input (shrink.h): the call, its arguments in full, the values, what it cost. */
static json_t *shrunk_json(const struct view_problem *vp)
{
	const struct shrunk_input *s = vp->shrunk;
	const struct problem *p = vp->problem;
	struct strbuf sb = STRBUF_INIT;
	json_t *j = json_object(), *args = json_array();

	test_case_format_call(&sb, p, &s->tc);
	json_object_set_new(j, "call", json_string(sb.buf));
	json_object_set_new(j, "function", json_string(problem_call_name(p, s->tc.func)));
	for (int a = 0; a < p->funcs[s->tc.func].ninputs; a++)
		json_array_append_new(args, value_json(&s->tc.args[a]));
	json_object_set_new(j, "args", args);
	json_object_set_new(j, "verdict", json_string(verdict_name(s->verdict)));
	json_object_set_new(j, "expected", s->has_expected ? json_integer(s->expected) : json_null());
	json_object_set_new(j, "returned", s->has_actual ? json_integer(s->actual) : json_null());
	json_object_set_new(j, "message", json_text(s->message));
	json_object_set_new(j, "from", json_string(s->from));
	json_object_set_new(j, "from_test", json_string(p->cases[s->from_case].name));
	json_object_set_new(j, "steps", json_integer(s->steps));
	json_object_set_new(j, "runs", json_integer(s->runs));
	json_object_set_new(j, "seconds", json_real(s->seconds));
	json_object_set_new(j, "budget", json_pack("{s:i, s:f}", "runs", s->budget_runs, "seconds", s->budget_seconds));
	json_object_set_new(j, "budget_spent", json_boolean(s->budget_spent));
	strbuf_release(&sb);
	return j;
}

static json_t *problem_json(const struct view_problem *vp, bool compact)
{
	const struct problem *p = vp->problem;
	json_t *pj = json_object(), *tests = json_array(), *groups = json_array();

	json_object_set_new(pj, "id", json_string(p->id));
	json_object_set_new(pj, "title", json_string(p->title));
	json_object_set_new(pj, "source", vp->source ? json_text(vp->source) : json_null());
	if (vp->source_note)
		json_object_set_new(pj, "source_note", json_text(vp->source_note));
	json_object_set_new(pj, "score", json_real(vp->score));
	json_object_set_new(pj, "max_score", json_real(vp->max_score));
	json_object_set_new(pj, "build", json_string(verdict_name(vp->build_verdict)));
	json_object_set_new(pj, "build_message", json_text(vp->build_message));
	json_object_set_new(pj, "shrunk", vp->shrunk ? shrunk_json(vp) : json_null());
	json_object_set_new(pj, "language", json_string(p->lang->name));
	json_object_set_new(pj, "language_version", json_string(p->lang->display));
	json_object_set_new(pj, "startup_output", json_text_cut(vp->startup_output, VIEW_OUTPUT_MAX, NULL));
	json_object_set_new(pj, "startup_bytes", json_integer((json_int_t)vp->startup_total));
	json_object_set_new(pj, "compile_ms", json_integer(vp->compile_ms));
	json_object_set_new(pj, "limits", limits_json(&p->limits, 0));
	/* over the listed tests only (a counts-only group's figures are withheld) */
	json_object_set_new(pj, "peak_kb", json_integer((json_int_t)vp->tally.peak_kb));
	json_object_set_new(pj, "cpu_ms", json_integer((json_int_t)vp->tally.cpu_ms));
	json_object_set_new(pj, "tests_total", json_integer(vp->tally.tests));
	json_object_set_new(pj, "passed", json_integer(vp->tally.passed));
	json_object_set_new(pj, "failed", json_integer(vp->tally.failed));
	json_object_set_new(pj, "skipped", json_integer(vp->tally.skipped));
	json_object_set_new(pj, "output_left_out", json_pack("{s:i, s:I}", "tests", vp->output_left_out, "bytes",
							      (json_int_t)vp->output_left_out_bytes));
	json_object_set_new(pj, "messages_cut", json_integer(vp->messages_cut));
	for (int g = 0; g < vp->ngroups; g++)
		json_array_append_new(groups, group_json(&vp->groups[g]));
	json_object_set_new(pj, "groups", groups);
	for (int k = 0; k < vp->ntests; k++)
		json_array_append_new(tests, test_json(vp, &vp->tests[k], compact));
	json_object_set_new(pj, "tests", tests);
	json_object_set_new(pj, "growth", vp->growth ? growth_json(vp->growth) : json_null());
	return pj;
}

int report_json(FILE *out, const struct view *v, const struct report_options *o)
{
	json_t *root = json_object(), *problems = json_array();
	int ret;

	json_object_set_new(root, "grader_version", json_string(o->version ? o->version : GRADER_VERSION));
	json_object_set_new(root, "format_version", json_integer(JSON_FORMAT_VERSION));
	json_object_set_new(root, "submission", json_text(v->submission));
	json_object_set_new(root, "score", json_real(v->score));
	json_object_set_new(root, "max_score", json_real(v->max_score));
	json_object_set_new(root, "summary", json_pack("{s:i, s:i, s:i, s:i, s:i}", "tests", v->tally.tests, "passed",
							v->tally.passed, "failed", v->tally.failed, "skipped",
							v->tally.skipped, "remeasured", v->tally.remeasured));
	if (v->instructor) /* what measuring again cost, hidden tests' runs included: not for students */
		json_object_set_new(json_object_get(root, "summary"), "remeasured_cpu_ms",
				    json_integer((json_int_t)v->remeasured_cpu_ms));
	json_object_set_new(root, "execution_time", v->elapsed_s >= 0 ? json_real(v->elapsed_s) : json_null());
	json_object_set_new(root, "isolation", json_string(v->isolation ? v->isolation : ""));
	json_object_set_new(root, "calibration", v->calibration ? json_string(v->calibration) : json_null());
	json_object_set_new(root, "internal_error", json_boolean(v->internal_error));
	json_object_set_new(root, "show_hidden", json_boolean(v->instructor));
	if (o->compact)
		json_object_set_new(root, "compact", json_true());
	for (int i = 0; i < v->nproblems; i++)
		json_array_append_new(problems, problem_json(&v->problems[i], o->compact));
	json_object_set_new(root, "problems", problems);
	/* 12 significant digits: 14.2, not 14.200000000000003 */
	ret = json_dumpf(root, out, (o->compact ? JSON_COMPACT : JSON_INDENT(2)) | JSON_PRESERVE_ORDER |
				    JSON_REAL_PRECISION(12));
	fputc('\n', out);
	json_decref(root);
	return ret < 0 || ferror(out) ? -1 : 0;
}
