/* report.c - the table of report formats and what every writer shares */
#include "report.h"
#include "text.h"

#include <stdlib.h>
#include <string.h>

const struct report_format report_formats[] = {
	{ "text", "a report for students (default)", report_text },
	{ "json", "the machine-readable contract", report_json },
	{ "gradescope", "Gradescope's results.json", report_gradescope },
	{ "junit", "JUnit XML (GitLab, GitHub test reporters)", report_junit },
	{ "tap", "TAP version 13 (prove)", report_tap },
	{ "github", "GitHub Actions annotations (+ $GITHUB_STEP_SUMMARY)", report_github },
	{ "markdown", "a Markdown summary (step summaries, MR comments)", report_markdown },
	{ "classroom", "GitHub Classroom's autograding result (base64 JSON)", report_classroom },
	{ NULL, NULL, NULL },
};

const struct report_format *report_find(const char *name)
{
	for (int i = 0; report_formats[i].name; i++)
		if (!strcmp(report_formats[i].name, name))
			return &report_formats[i];
	return NULL;
}

void report_describe(struct strbuf *sb, const struct problem *p, const struct view_test *vt)
{
	const struct test_result *t = vt->t;

	if (t->verdict == V_CORRECT)
		return;
	test_case_format_call(sb, p, t->tc);
	if (t->verdict == V_WRONG_ANSWER && t->has_actual && t->has_expected) {
		strbuf_addstr(sb, " returned ");
		problem_format_answer(sb, p, t->tc->func, t->actual);
		strbuf_addstr(sb, ", expected ");
		problem_format_answer(sb, p, t->tc->func, t->expected);
	} else {
		strbuf_addstr(sb, ": ");
		text_clean(sb, vt->message, 0);
	}
}

void report_passed(struct strbuf *sb, const struct view_group *g)
{
	if (!g->listed && g->group->scoring == SCORE_ALL_OR_NOTHING && g->tally.passed < g->tally.tests)
		strbuf_addf(sb, "not all of %d passed", g->tally.tests);
	else
		strbuf_addf(sb, "%d of %d passed", g->tally.passed, g->tally.tests);
}

void report_size(struct strbuf *sb, unsigned long long bytes)
{
	if (bytes < 1024)
		strbuf_addf(sb, "%llu byte%s", bytes, bytes == 1 ? "" : "s");
	else if (bytes < 1024 * 1024)
		strbuf_addf(sb, "%.1f KiB", bytes / 1024.0);
	else
		strbuf_addf(sb, "%.1f MiB", bytes / (1024.0 * 1024.0));
}

bool report_left_out(struct strbuf *sb, const struct view_problem *vp)
{
	if (!vp->output_left_out && !vp->messages_cut)
		return false;
	if (vp->output_left_out) {
		strbuf_addf(sb, "output of %d test%s not shown (", vp->output_left_out,
			    vp->output_left_out == 1 ? "" : "s");
		report_size(sb, vp->output_left_out_bytes);
		strbuf_addstr(sb, ")");
	}
	if (vp->messages_cut)
		strbuf_addf(sb, "%s%d long message%s cut to a line", vp->output_left_out ? "; " : "", vp->messages_cut,
			    vp->messages_cut == 1 ? "" : "s");
	strbuf_addf(sb, ": reports show at most %d KiB of captured output and messages per problem",
		    VIEW_OUTPUT_BUDGET / 1024);
	return true;
}

void report_title(struct strbuf *sb, const struct problem *p)
{
	strbuf_addstr(sb, p->title);
	if (p->nlanguages > 1)
		strbuf_addf(sb, " (%s)", p->lang->display);
}

char *report_source_path(const struct view *v, const struct view_problem *vp)
{
	const char *dir = v->submission ? v->submission : ".";
	const char *file = vp->source ? vp->source : vp->problem->source;
	size_t l;

	while (dir[0] == '.' && dir[1] == '/')
		for (dir += 2; *dir == '/'; dir++)
			;
	l = strlen(dir);
	while (l > 1 && dir[l - 1] == '/')
		l--;
	if (!l || (l == 1 && dir[0] == '.'))
		return xstrdup(file);
	return xasprintf("%.*s/%s", (int)l, dir, file);
}
