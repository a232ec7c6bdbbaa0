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
 * instructor publishes the grades - never its inputs, values or output,
 * because this writer (like every writer) leaves them out.  The autograder's
 * own stdout is "hidden" (stdout_visibility).  The top-level score is
 * Gradescope's total; see dist/gradescope/README.md.
 */
#include "report.h"
#include "text.h"

#include <jansson.h>
#include <string.h>

#define FAILURES_SHOWN 10
#define OUTPUT_SHOWN 600

/* Everything written here is UTF-8 (cleaned or from the problem files); never drop a field if not. */
static json_t *text(const char *s)
{
	json_t *j = json_string(s);
	return j ? j : json_string("(not UTF-8)");
}

static void add_failure(struct strbuf *sb, const struct problem *p, const struct test_result *t,
			const struct report_options *o)
{
	const char *output = report_output(t, p, o);
	strbuf_addf(sb, "x %s: %s\n    ", t->tc->name, verdict_words(t->verdict));
	report_describe(sb, p, t, o);
	strbuf_addch(sb, '\n');
	if (output) {
		struct strbuf clean = STRBUF_INIT;
		bool cut = text_clean(&clean, output, OUTPUT_SHOWN) || t->output_total > strlen(output);
		strbuf_addf(sb, "    your program printed %llu bytes%s:\n", t->output_total, cut ? " (cut short)" : "");
		for (const char *s = clean.buf; *s;) {
			size_t l = strcspn(s, "\n");
			strbuf_addf(sb, "    | %.*s\n", (int)l, s);
			s += l + (s[l] == '\n');
		}
		strbuf_release(&clean);
	}
}

static void group_output(struct strbuf *sb, const struct problem_result *pr, int g, bool first_group,
			 const struct report_options *o)
{
	const struct problem *p = pr->problem;
	const struct group *grp = &p->groups[g];
	bool visible = report_group_visible(p, g, o);
	struct report_tally tl;
	int shown = 0;

	report_tally(pr, g, &tl);
	if (pr->build_verdict != V_CORRECT) {
		if (first_group && pr->build_message) {
			text_clean(sb, pr->build_message, 0);
			strbuf_addch(sb, '\n');
		} else {
			strbuf_addf(sb, "%s: %s.\n", pr->source ? pr->source : p->source, verdict_words(pr->build_verdict));
		}
		strbuf_addf(sb, "None of the %d tests of this group could run.\n", tl.tests);
		return;
	}
	strbuf_addf(sb, "%d of %d %stests passed (%s).\n", tl.passed, tl.tests, visible ? "" : "hidden ",
		    grp->scoring == SCORE_ALL_OR_NOTHING ? "all or nothing" : "points per test");
	if (visible && tl.failed)
		strbuf_addch(sb, '\n');
	for (int k = grp->first_case; visible && k < grp->first_case + grp->ncases; k++) {
		const struct test_result *t = &pr->tests[k];
		if (t->verdict == V_CORRECT || t->verdict == V_SKIPPED)
			continue;
		if (shown++ < FAILURES_SHOWN)
			add_failure(sb, p, t, o);
	}
	if (shown > FAILURES_SHOWN)
		strbuf_addf(sb, "... and %d more failing tests.\n", shown - FAILURES_SHOWN);
	if (tl.skipped)
		strbuf_addf(sb, "%d test%s not run: an earlier test of this all-or-nothing group failed.\n", tl.skipped,
			    tl.skipped == 1 ? "" : "s");
	if (!visible && tl.passed < tl.tests)
		strbuf_addstr(sb, "Hidden tests do not show their inputs or values.\n");
	if (tl.passed < tl.tests && grp->hint)
		strbuf_addf(sb, "\nHint: %s\n", grp->hint);
}

static json_t *group_test(const struct problem_result *pr, int pi, int g, bool first_group,
			  const struct report_options *o)
{
	const struct problem *p = pr->problem;
	const struct group *grp = &p->groups[g];
	struct report_tally tl;
	struct strbuf sb = STRBUF_INIT;
	json_t *j = json_object(), *tags = json_array();

	report_tally(pr, g, &tl);
	strbuf_addf(&sb, "%s ", p->id);
	report_title(&sb, p);
	strbuf_addf(&sb, ": %s", grp->name);
	json_object_set_new(j, "name", text(sb.buf));
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%d.%d", pi + 1, g + 1);
	json_object_set_new(j, "number", json_string(sb.buf));
	strbuf_reset(&sb);
	json_object_set_new(j, "score", json_real(tl.score));
	json_object_set_new(j, "max_score", json_real(tl.max_score));
	json_object_set_new(j, "status", json_string(tl.passed == tl.tests ? "passed" : "failed"));
	group_output(&sb, pr, g, first_group, o);
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

static void overall_output(struct strbuf *sb, const struct grade_result *r)
{
	strbuf_addstr(sb, "Total: ");
	text_score(sb, r->score);
	strbuf_addstr(sb, " / ");
	text_score(sb, r->max_score);
	strbuf_addch(sb, '\n');
	for (int i = 0; i < r->nproblems; i++) {
		const struct problem_result *pr = &r->problems[i];
		struct report_tally tl;
		report_tally(pr, -1, &tl);
		strbuf_addf(sb, "%s ", pr->problem->id);
		report_title(sb, pr->problem);
		strbuf_addstr(sb, ": ");
		text_score(sb, pr->score);
		strbuf_addstr(sb, " / ");
		text_score(sb, pr->max_score);
		if (pr->build_verdict != V_CORRECT)
			strbuf_addf(sb, " (%s)\n", verdict_words(pr->build_verdict));
		else
			strbuf_addf(sb, " (%d of %d tests passed)\n", tl.passed, tl.tests);
	}
	if (r->internal_error)
		strbuf_addstr(sb, "Some tests could not be judged because of a problem in the grader, not in your "
				  "code: please tell your instructor.\n");
}

int report_gradescope(FILE *out, const struct grade_result *r, const struct report_options *o)
{
	json_t *root = json_object(), *tests = json_array();
	struct strbuf sb = STRBUF_INIT;
	int ret;

	json_object_set_new(root, "score", json_real(r->score));
	json_object_set_new(root, "execution_time", json_integer((json_int_t)(r->elapsed_s + 0.999)));
	overall_output(&sb, r);
	json_object_set_new(root, "output", text(sb.buf));
	json_object_set_new(root, "output_format", json_string("text"));
	json_object_set_new(root, "visibility", json_string("visible"));
	json_object_set_new(root, "stdout_visibility", json_string("hidden"));
	for (int i = 0; i < r->nproblems; i++) {
		const struct problem_result *pr = &r->problems[i];
		for (int g = 0; g < pr->problem->ngroups; g++)
			json_array_append_new(tests, group_test(pr, i, g, g == 0, o));
	}
	json_object_set_new(root, "tests", tests);
	json_object_set_new(root, "extra_data", json_pack("{s:s, s:b}", "grader_version",
							   o->version ? o->version : "", "internal_error",
							   r->internal_error));
	ret = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	fputc('\n', out);
	json_decref(root);
	strbuf_release(&sb);
	return ret < 0 || ferror(out) ? -1 : 0;
}
