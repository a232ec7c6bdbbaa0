/*
 * report_prairielearn.c - PrairieLearn's external grading results.json
 * (docs/externalGrading.md, "Grading results"; rendered by the
 * <pl-external-grader-results> element):
 *
 *   {"gradable": true, "score": 0.77,             score in [0, 1]: points / max points
 *    "message": "Total: 17 / 22 ...",             the per-problem summary
 *    "format_errors": ["'p2.c' does not compile:\n..."],   only when a file does not compile
 *    "tests": [{"name": "p1 Partizan stone game (C): course", "description": "...",
 *               "points": 3.5, "max_points": 4, "message": "28 of 32 tests passed",
 *               "output": "x course/AcanWin(7): wrong answer ..."}, ...]}
 *
 * One PrairieLearn test per group of a problem, as for Gradescope (a
 * problem has hundreds of cases): the output is report_group_text(), so a
 * hidden group is its counts and points only (the student's view, view.h).
 *
 * gradable: PrairieLearn's "invalid, not gradable" is for an answer that
 * could not be graded at all, "for example if it has a syntax error that
 * prevented compilation": no points given or taken, no attempt used.  So
 * gradable is false when no test could run and at least one file did not
 * compile (every problem a compiler-error or missing); a submission where
 * some file compiled is graded (the broken problem scores 0), and every
 * compiler message is in format_errors either way.  A test the grader
 * could not judge (exit 3) leaves the submission gradable; the message
 * says so.
 *
 * Size: PrairieLearn takes at most 1 MB of results.json.  Should the file
 * come out bigger, the tests' output is cut (last test first), then their
 * messages, then the compiler messages, each replaced by a note, and the
 * top-level message says how many were cut (jsoncap.h).
 */
#include "report/report.h"
#include "base/text.h"

#include <jansson.h>
#include <string.h>

#include "report/jsoncap.h"
#include "report/jsontext.h"

#define PL_MAX_BYTES 1000000                /* "limited to 1 MB": stay under 10^6 bytes */
#define PL_NOTE_ROOM 1024                   /* room kept for the message saying what was cut */
#define PL_FLAGS (JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12))
#define PL_CUT_NOTE "(cut: PrairieLearn reads at most 1 MB of results)"

/* Nothing could run, and because of the student's files: no problem built, one at least did not compile. */
static bool gradable(const struct view *v)
{
	bool compile_error = false;

	for (int i = 0; i < v->nproblems; i++) {
		if (v->problems[i].build_verdict == V_CORRECT)
			return true;
		compile_error = compile_error || v->problems[i].build_verdict == V_COMPILER_ERROR;
	}
	return !compile_error;
}

static json_t *format_errors(const struct view *v)
{
	json_t *errors = json_array();
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < v->nproblems; i++) {
		const struct view_problem *vp = &v->problems[i];
		if (vp->build_verdict != V_COMPILER_ERROR)
			continue;
		strbuf_reset(&sb);
		if (vp->build_message) /* "'p2.c' does not compile:\n" and the compiler's lines */
			text_clean(&sb, vp->build_message, 0);
		else
			strbuf_addf(&sb, "'%s' does not compile", vp->source ? vp->source : vp->problem->source);
		json_array_append_new(errors, json_text(sb.buf));
	}
	strbuf_release(&sb);
	return errors;
}

static void group_message(struct strbuf *sb, const struct view_problem *vp, const struct view_group *vg)
{
	if (vp->build_verdict != V_CORRECT) {
		strbuf_addf(sb, "%s: %s", vp->source ? vp->source : vp->problem->source,
			    verdict_words(vp->build_verdict));
		return;
	}
	if (!vg->listed)
		strbuf_addstr(sb, "hidden tests: ");
	report_passed(sb, vg);
}

static json_t *group_test(const struct view_problem *vp, int g)
{
	const struct view_group *vg = &vp->groups[g];
	const struct group *grp = vg->group;
	struct strbuf sb = STRBUF_INIT;
	json_t *j = json_object();

	strbuf_addf(&sb, "%s ", vp->problem->id);
	report_title(&sb, vp->problem);
	strbuf_addf(&sb, ": %s", grp->name);
	json_object_set_new(j, "name", json_text(sb.buf));
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%d tests, %s%s", vg->tally.tests,
		    grp->scoring == SCORE_ALL_OR_NOTHING ? "all or nothing" : "points per test",
		    vg->listed ? "" : "; hidden: only how many passed is shown");
	json_object_set_new(j, "description", json_text(sb.buf));
	json_object_set_new(j, "points", json_real(vg->tally.score));
	json_object_set_new(j, "max_points", json_real(vg->tally.max_score));
	strbuf_reset(&sb);
	group_message(&sb, vp, vg);
	json_object_set_new(j, "message", json_text(sb.buf));
	strbuf_reset(&sb);
	report_group_text(&sb, vp, g);
	json_object_set_new(j, "output", json_text(sb.buf));
	strbuf_release(&sb);
	return j;
}

static void summary(struct strbuf *sb, const struct view *v, bool is_gradable)
{
	if (!is_gradable)
		strbuf_addstr(sb, "Nothing could be tested: your code does not compile (see the errors above). "
				  "This submission is not graded and does not count as an attempt.\n");
	strbuf_addstr(sb, "Total: ");
	text_score(sb, v->score);
	strbuf_addstr(sb, " / ");
	text_score(sb, v->max_score);
	strbuf_addf(sb, " (%d of %d tests passed)\n", v->tally.passed, v->tally.tests);
	report_problem_lines(sb, v);
}

/* Under PL_MAX_BYTES: outputs, then messages, then compiler messages give way; say so in the message. */
static void fit(json_t *root, struct strbuf *message)
{
	static const char *const order[][2] = { { "tests", "output" }, { "tests", "message" }, { "format_errors", NULL } };
	const size_t room = PL_MAX_BYTES - PL_NOTE_ROOM;
	int cut[3] = { 0, 0, 0 };

	for (size_t k = 0; k < 3 && jsoncap_size(root, PL_FLAGS) > room; k++)
		cut[k] = jsoncap_cut(root, order[k][0], order[k][1], PL_CUT_NOTE, room, PL_FLAGS);
	if (!cut[0] && !cut[1] && !cut[2])
		return;
	strbuf_addf(message, "Cut to keep these results under 1 MB (what PrairieLearn reads): the output of %d "
			     "test%s, %d test message%s, %d compiler message%s.\n",
		    cut[0], cut[0] == 1 ? "" : "s", cut[1], cut[1] == 1 ? "" : "s", cut[2], cut[2] == 1 ? "" : "s");
	json_object_set_new(root, "message", json_text(message->buf));
}

int report_prairielearn(FILE *out, const struct view *v, const struct report_options *o)
{
	json_t *root = json_object(), *tests = json_array(), *errors = format_errors(v);
	struct strbuf message = STRBUF_INIT;
	bool is_gradable = gradable(v);
	double score = v->max_score > 0 ? v->score / v->max_score : 0;
	int ret;

	summary(&message, v, is_gradable);
	json_object_set_new(root, "gradable", json_boolean(is_gradable));
	json_object_set_new(root, "score", json_real(score < 0 ? 0 : score > 1 ? 1 : score));
	json_object_set_new(root, "message", json_text(message.buf));
	if (json_array_size(errors))
		json_object_set_new(root, "format_errors", errors);
	else
		json_decref(errors);
	for (int i = 0; i < v->nproblems; i++)
		for (int g = 0; g < v->problems[i].ngroups; g++)
			json_array_append_new(tests, group_test(&v->problems[i], g));
	json_object_set_new(root, "tests", tests);
	json_object_set_new(root, "grader_version", json_string(o->version ? o->version : ""));
	fit(root, &message);
	ret = json_dumpf(root, out, PL_FLAGS);
	fputc('\n', out);
	json_decref(root);
	strbuf_release(&message);
	return ret < 0 || ferror(out) ? -1 : 0;
}
