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
	{ NULL, NULL, NULL },
};

const struct report_format *report_find(const char *name)
{
	for (int i = 0; report_formats[i].name; i++)
		if (!strcmp(report_formats[i].name, name))
			return &report_formats[i];
	return NULL;
}

bool report_group_visible(const struct problem *p, int group, const struct report_options *o)
{
	return o->show_hidden || p->groups[group].visibility == VIS_PUBLIC;
}

bool report_visible(const struct test_result *t, const struct problem *p, const struct report_options *o)
{
	return report_group_visible(p, t->tc->group, o);
}

const char *report_message(const struct test_result *t, const struct problem *p, const struct report_options *o)
{
	if (t->verdict == V_CORRECT)
		return NULL;
	if (report_visible(t, p, o) && t->message)
		return t->message;
	return verdict_words(t->verdict);
}

const char *report_output(const struct test_result *t, const struct problem *p, const struct report_options *o)
{
	if (!t->output || !*t->output || !report_visible(t, p, o))
		return NULL;
	return t->output;
}

void report_describe(struct strbuf *sb, const struct problem *p, const struct test_result *t,
		     const struct report_options *o)
{
	struct strbuf call = STRBUF_INIT;

	if (t->verdict == V_CORRECT)
		return;
	if (!report_visible(t, p, o)) {
		strbuf_addstr(sb, verdict_words(t->verdict));
		return;
	}
	test_case_format_call(&call, p, t->tc);
	strbuf_addstr(sb, call.buf);
	if (t->verdict == V_WRONG_ANSWER && t->has_actual && t->has_expected) {
		strbuf_addstr(sb, " returned ");
		problem_format_answer(sb, p, t->tc->func, t->actual);
		strbuf_addstr(sb, ", expected ");
		problem_format_answer(sb, p, t->tc->func, t->expected);
	} else {
		strbuf_addstr(sb, ": ");
		text_clean(sb, report_message(t, p, o), 0);
	}
	strbuf_release(&call);
}

void report_tally(const struct problem_result *pr, int group, struct report_tally *out)
{
	memset(out, 0, sizeof(*out));
	for (int k = 0; k < pr->ntests; k++) {
		const struct test_result *t = &pr->tests[k];
		if (group >= 0 && t->tc->group != group)
			continue;
		out->tests++;
		out->passed += t->verdict == V_CORRECT;
		out->skipped += t->verdict == V_SKIPPED;
		out->failed += t->verdict != V_CORRECT && t->verdict != V_SKIPPED;
		out->score += t->score;
		out->max_score += t->max_score;
		out->cpu_ms += t->time_ms;
		if (t->peak_kb > out->peak_kb)
			out->peak_kb = t->peak_kb;
		if (t->limit_ms > out->limit_ms)
			out->limit_ms = t->limit_ms;
	}
}

int report_total_tests(const struct grade_result *r)
{
	int n = 0;
	for (int i = 0; i < r->nproblems; i++)
		n += r->problems[i].ntests;
	return n;
}

void report_title(struct strbuf *sb, const struct problem *p)
{
	strbuf_addstr(sb, p->title);
	if (p->nlanguages > 1)
		strbuf_addf(sb, " (%s)", p->lang->display);
}

char *report_source_path(const struct grade_result *r, const struct problem_result *pr)
{
	const char *dir = r->submission ? r->submission : ".";
	const char *file = pr->source ? pr->source : pr->problem->source;
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
