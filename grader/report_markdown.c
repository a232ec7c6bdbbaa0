/*
 * report_markdown.c - a GitHub-flavoured Markdown summary: a score table,
 * then per problem the failing public tests (call, verdict, values), the
 * hidden groups as counts, and the hints.  It is what `--format github`
 * appends to $GITHUB_STEP_SUMMARY, and reads well as a GitLab merge-request
 * comment.
 *
 * Everything that is not our own markup is HTML-escaped (and Markdown's
 * punctuation written as entities), so neither a student's output nor a
 * compiler message can break out of a table cell or a <pre> block.
 */
#include "report.h"
#include "text.h"

#include <string.h>

#define FAILURES_PER_PROBLEM 10
#define OUTPUT_SHOWN 400
#define BUILD_SHOWN 3000

/* Cleaned text as inline HTML: entities for HTML and Markdown punctuation, <br> for newlines. */
static void inline_text(struct strbuf *sb, const char *s, size_t max)
{
	struct strbuf clean = STRBUF_INIT;
	bool cut = text_clean(&clean, s, max);
	for (const char *p = clean.buf; *p; p++) {
		if (*p == '\n')
			strbuf_addstr(sb, "<br>");
		else if (strchr("&<>|`*_[]\\~$", *p))
			strbuf_addf(sb, "&#%d;", *p);
		else
			strbuf_addch(sb, *p);
	}
	if (cut)
		strbuf_addstr(sb, " [...]");
	strbuf_release(&clean);
}

/* Cleaned text for a <pre> block: only &, < and > matter there. */
static void pre_text(struct strbuf *sb, const char *s, size_t max)
{
	struct strbuf clean = STRBUF_INIT;
	bool cut = text_clean(&clean, s, max);
	strbuf_addstr(sb, "<pre>");
	for (const char *p = clean.buf; *p; p++) {
		if (*p == '&')
			strbuf_addstr(sb, "&amp;");
		else if (*p == '<')
			strbuf_addstr(sb, "&lt;");
		else if (*p == '>')
			strbuf_addstr(sb, "&gt;");
		else
			strbuf_addch(sb, *p);
	}
	if (cut)
		strbuf_addstr(sb, "\n[...]");
	strbuf_addstr(sb, "</pre>\n\n");
	strbuf_release(&clean);
}

static void inline_title(struct strbuf *sb, const struct problem *p)
{
	struct strbuf t = STRBUF_INIT;
	report_title(&t, p);
	inline_text(sb, t.buf, 0);
	strbuf_release(&t);
}

static void score(struct strbuf *sb, double s, double max)
{
	text_score(sb, s);
	strbuf_addstr(sb, " / ");
	text_score(sb, max);
}

static void problem_details(struct strbuf *sb, const struct problem_result *pr, const struct report_options *o)
{
	const struct problem *p = pr->problem;
	int shown = 0, more = 0;
	bool table = false;

	strbuf_addstr(sb, "<details><summary><b>");
	inline_text(sb, p->id, 0);
	strbuf_addch(sb, ' ');
	inline_title(sb, p);
	strbuf_addstr(sb, "</b>: ");
	score(sb, pr->score, pr->max_score);
	strbuf_addstr(sb, "</summary>\n\n");
	if (pr->build_verdict != V_CORRECT) {
		strbuf_addf(sb, "**%s**\n\n", verdict_words(pr->build_verdict));
		if (pr->build_message)
			pre_text(sb, pr->build_message, BUILD_SHOWN);
		strbuf_addstr(sb, "</details>\n\n");
		return;
	}
	for (int k = 0; k < pr->ntests; k++) {
		const struct test_result *t = &pr->tests[k];
		if (t->verdict == V_CORRECT || t->verdict == V_SKIPPED || !report_visible(t, p, o))
			continue;
		if (shown == FAILURES_PER_PROBLEM) {
			more++;
			continue;
		}
		if (!table) {
			strbuf_addstr(sb, "| test | verdict | details |\n|---|---|---|\n");
			table = true;
		}
		strbuf_addstr(sb, "| ");
		inline_text(sb, t->tc->name, 0);
		strbuf_addf(sb, " | %s | ", verdict_words(t->verdict));
		{
			struct strbuf d = STRBUF_INIT;
			const char *output = report_output(t, p, o);
			report_describe(&d, p, t, o);
			inline_text(sb, d.buf, 0);
			if (output) {
				strbuf_addstr(sb, "<br>printed: <code>");
				inline_text(sb, output, OUTPUT_SHOWN);
				strbuf_addstr(sb, "</code>");
			}
			strbuf_release(&d);
		}
		strbuf_addstr(sb, " |\n");
		shown++;
	}
	if (table)
		strbuf_addch(sb, '\n');
	if (more)
		strbuf_addf(sb, "... and %d more failing tests (the text or JSON report lists them).\n\n", more);
	for (int g = 0; g < p->ngroups; g++) {
		const struct group *grp = &p->groups[g];
		struct report_tally tl;
		report_tally(pr, g, &tl);
		strbuf_addf(sb, "- %s group <b>", tl.passed == tl.tests ? "✅" : "❌");
		inline_text(sb, grp->name, 0);
		strbuf_addf(sb, "</b>%s: %d of %d passed, ", grp->visibility == VIS_HIDDEN ? " (hidden)" : "",
			    tl.passed, tl.tests);
		score(sb, tl.score, tl.max_score);
		if (tl.skipped)
			strbuf_addf(sb, "; %d not run after an earlier failure (all or nothing)", tl.skipped);
		if (tl.passed < tl.tests && grp->hint) {
			strbuf_addstr(sb, "<br>hint: ");
			inline_text(sb, grp->hint, 0);
		}
		strbuf_addch(sb, '\n');
	}
	strbuf_addstr(sb, "\n</details>\n\n");
}

int report_markdown(FILE *out, const struct grade_result *r, const struct report_options *o)
{
	struct strbuf sb = STRBUF_INIT;
	int tests = report_total_tests(r), passed = 0;

	for (int i = 0; i < r->nproblems; i++) {
		struct report_tally tl;
		report_tally(&r->problems[i], -1, &tl);
		passed += tl.passed;
	}
	strbuf_addstr(&sb, "## Grading results: ");
	score(&sb, r->score, r->max_score);
	strbuf_addf(&sb, "\n\n%d of %d tests passed.\n\n", passed, tests);
	strbuf_addstr(&sb, "| | problem | score | tests passed |\n|---|---|---:|---:|\n");
	for (int i = 0; i < r->nproblems; i++) {
		const struct problem_result *pr = &r->problems[i];
		struct report_tally tl;
		report_tally(pr, -1, &tl);
		strbuf_addf(&sb, "| %s | ", tl.passed == tl.tests ? "✅" : "❌");
		inline_text(&sb, pr->problem->id, 0);
		strbuf_addch(&sb, ' ');
		inline_title(&sb, pr->problem);
		strbuf_addstr(&sb, " | ");
		score(&sb, pr->score, pr->max_score);
		if (pr->build_verdict != V_CORRECT)
			strbuf_addf(&sb, " | %s |\n", verdict_words(pr->build_verdict));
		else
			strbuf_addf(&sb, " | %d of %d |\n", tl.passed, tl.tests);
	}
	strbuf_addch(&sb, '\n');
	for (int i = 0; i < r->nproblems; i++) {
		const struct problem_result *pr = &r->problems[i];
		if (pr->score < pr->max_score || pr->build_verdict != V_CORRECT)
			problem_details(&sb, pr, o);
	}
	if (r->internal_error)
		strbuf_addstr(&sb, "> **Note:** some tests could not be judged because of a problem in the grader, "
				   "not in your code (verdict judge-error).\n\n");
	strbuf_addf(&sb, "<sub>grader %s</sub>\n", o->version ? o->version : "");
	fputs(sb.buf, out);
	strbuf_release(&sb);
	return ferror(out) ? -1 : 0;
}
