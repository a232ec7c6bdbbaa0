/*
 * report_gradescope.c - Gradescope's results.json (the autograder
 * specification: score, execution_time, output, visibility,
 * stdout_visibility, tests[]).
 *
 * One Gradescope test per group of a problem (not per case: a problem set
 * has thousands of cases, which Gradescope's page cannot show usefully).
 * Its score is the group's score, its status passed when every case is
 * correct, its output the failing cases (public groups), the counts and the
 * hint.  Tags: the problem id and the group name.
 *
 * Visibility: public groups are "visible".  Hidden groups are
 * "after_published": students see the group's name, score and hint once the
 * instructor publishes the grades - only its counts and points, because
 * the student's view (view.h) lists no hidden test.  The autograder's
 * own stdout is "hidden" (stdout_visibility).  The top-level score is
 * Gradescope's total; see dist/gradescope/README.md.
 */
#include "report/report.h"
#include "base/text.h"

#include <jansson.h>
#include <string.h>

/* Everything written here is UTF-8 (cleaned or from the problem files); never drop a field if not. */
static json_t *text(const char *s)
{
	json_t *j = json_string(s);
	return j ? j : json_string("(not UTF-8)");
}

static json_t *group_test(const struct view_problem *vp, int pi, int g)
{
	const struct problem *p = vp->problem;
	const struct view_group *vg = &vp->groups[g];
	const struct group *grp = vg->group;
	struct strbuf sb = STRBUF_INIT;
	json_t *j = json_object(), *tags = json_array();

	strbuf_addf(&sb, "%s ", p->id);
	report_title(&sb, p);
	strbuf_addf(&sb, ": %s", grp->name);
	json_object_set_new(j, "name", text(sb.buf));
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%d.%d", pi + 1, g + 1);
	json_object_set_new(j, "number", json_string(sb.buf));
	strbuf_reset(&sb);
	json_object_set_new(j, "score", json_real(vg->tally.score));
	json_object_set_new(j, "max_score", json_real(vg->tally.max_score));
	json_object_set_new(j, "status", json_string(vg->tally.passed == vg->tally.tests ? "passed" : "failed"));
	report_group_text(&sb, vp, g);
	json_object_set_new(j, "output", text(sb.buf));
	json_object_set_new(j, "output_format", json_string("text"));
	json_object_set_new(j, "visibility", json_string(grp->visibility == VIS_HIDDEN ? "after_published" : "visible"));
	json_array_append_new(tags, json_string(p->id));
	json_array_append_new(tags, json_string(grp->name));
	if (grp->visibility == VIS_HIDDEN)
		json_array_append_new(tags, json_string("hidden"));
	json_object_set_new(j, "tags", tags);
	strbuf_release(&sb);
	return j;
}

static void overall_output(struct strbuf *sb, const struct view *v)
{
	strbuf_addstr(sb, "Total: ");
	text_score(sb, v->score);
	strbuf_addstr(sb, " / ");
	text_score(sb, v->max_score);
	strbuf_addch(sb, '\n');
	report_problem_lines(sb, v);
}

int report_gradescope(FILE *out, const struct view *v, const struct report_options *o)
{
	json_t *root = json_object(), *tests = json_array();
	struct strbuf sb = STRBUF_INIT;
	int ret;

	json_object_set_new(root, "score", json_real(v->score));
	if (v->elapsed_s >= 0) /* optional in Gradescope's format */
		json_object_set_new(root, "execution_time", json_integer((json_int_t)(v->elapsed_s + 0.999)));
	overall_output(&sb, v);
	json_object_set_new(root, "output", text(sb.buf));
	json_object_set_new(root, "output_format", json_string("text"));
	json_object_set_new(root, "visibility", json_string("visible"));
	json_object_set_new(root, "stdout_visibility", json_string("hidden"));
	for (int i = 0; i < v->nproblems; i++)
		for (int g = 0; g < v->problems[i].ngroups; g++)
			json_array_append_new(tests, group_test(&v->problems[i], i, g));
	json_object_set_new(root, "tests", tests);
	json_object_set_new(root, "extra_data", json_pack("{s:s, s:b}", "grader_version",
							   o->version ? o->version : "", "internal_error",
							   v->internal_error));
	ret = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	fputc('\n', out);
	json_decref(root);
	strbuf_release(&sb);
	return ret < 0 || ferror(out) ? -1 : 0;
}
