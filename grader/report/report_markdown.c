/*
 * report_markdown.c - a GitHub-flavoured Markdown summary: a score table,
 * then per problem the smallest failing input found (shrink.h), the
 * failing listed tests (call, verdict, values), the
 * hidden groups as counts (the view, view.h, lists no hidden test for
 * students), what the output budget left out, the growth found
 * (growth.h), and the hints.  It is what `--format github`
 * appends to $GITHUB_STEP_SUMMARY, and reads well as a GitLab merge-request
 * comment.
 *
 * Everything that is not our own markup is HTML-escaped (and Markdown's
 * punctuation written as entities), so neither a student's output nor a
 * compiler message can break out of a table cell or a <pre> block.
 */
#include "report/report.h"
#include "judge/growth.h"
#include "base/text.h"
#include "base/l10n.h"

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

/* The failing listed tests as a table (at most FAILURES_PER_PROBLEM rows). */
static void failure_table(struct strbuf *sb, const struct view_problem *vp)
{
	int shown = 0, more = 0;

	for (int k = 0; k < vp->ntests; k++) {
		const struct view_test *vt = &vp->tests[k];
		struct strbuf d = STRBUF_INIT;
		if (vt->t->verdict == V_CORRECT || vt->t->verdict == V_SKIPPED)
			continue;
		if (shown == FAILURES_PER_PROBLEM) {
			more++;
			continue;
		}
		if (!shown)
		{
			/* TRANSLATORS: the header of the Markdown table of failing tests */
			strbuf_addf(sb, "| %s | %s | %s |\n|---|---|---|\n", _("test"), _("verdict"), _("details"));
		}
		strbuf_addstr(sb, "| ");
		inline_text(sb, vt->t->tc->name, 0);
		strbuf_addf(sb, " | %s | ", verdict_words(vt->t->verdict));
		report_describe(&d, vp->problem, vt);
		inline_text(sb, d.buf, 0);
		if (vt->output) {
			strbuf_addf(sb, "<br>%s <code>", _("printed:"));
			inline_text(sb, vt->output, OUTPUT_SHOWN);
			strbuf_addstr(sb, "</code>");
		} else if (vt->output_left_out) {
			strbuf_addstr(sb, "<br>");
			strbuf_addf(sb, _("printed %llu bytes (not shown: output budget spent)"), vt->t->output_total);
		}
		strbuf_addstr(sb, " |\n");
		strbuf_release(&d);
		shown++;
	}
	if (shown)
		strbuf_addch(sb, '\n');
	if (more)
		strbuf_addf(sb, _("... and %d more failing tests (the text or JSON report lists them).\n\n"), more);
}

/* "**label** f([-1]): expected -1, returned 0<br><sub>how it was found</sub>" (report_shrunk). */
static void shrunk_text(struct strbuf *sb, const char *label, const struct problem *p, const struct shrunk_input *s)
{
	struct strbuf what = STRBUF_INIT, how = STRBUF_INIT;
	report_shrunk(&what, &how, p, s);
	strbuf_addf(sb, "**%s** ", label);
	inline_text(sb, what.buf, 0);
	strbuf_addstr(sb, "<br><sub>");
	inline_text(sb, how.buf, 0);
	strbuf_addstr(sb, "</sub>");
	strbuf_release(&what);
	strbuf_release(&how);
}

static void problem_details(struct strbuf *sb, const struct view_problem *vp)
{
	const struct problem *p = vp->problem;
	struct strbuf note = STRBUF_INIT;

	strbuf_addstr(sb, "<details><summary><b>");
	inline_text(sb, p->id, 0);
	strbuf_addch(sb, ' ');
	inline_title(sb, p);
	strbuf_addstr(sb, "</b>: ");
	score(sb, vp->score, vp->max_score);
	strbuf_addstr(sb, "</summary>\n\n");
	if (vp->build_verdict != V_CORRECT) {
		strbuf_addf(sb, "**%s**\n\n", verdict_words(vp->build_verdict));
		if (vp->build_message)
			pre_text(sb, l10n_message(vp->build_message), BUILD_SHOWN);
		strbuf_addstr(sb, "</details>\n\n");
		return;
	}
	if (vp->shrunk) {
		shrunk_text(sb, _("smallest failing input found:"), vp->problem, vp->shrunk);
		strbuf_addstr(sb, "\n\n");
	}
	failure_table(sb, vp);
	for (int g = 0; g < vp->ngroups; g++) {
		const struct view_group *vg = &vp->groups[g];
		struct strbuf passed = STRBUF_INIT;
		report_passed(&passed, vg);
		/* TRANSLATORS: "- ✅ group <b>small</b>: 40 of 40 passed": the word before a group's name */
		strbuf_addf(sb, "- %s %s <b>", vg->tally.passed == vg->tally.tests ? "✅" : "❌", _("group"));
		inline_text(sb, vg->group->name, 0);
		strbuf_addf(sb, "</b>%s: %s, ", vg->group->visibility == VIS_HIDDEN ? _(" (hidden)") : "", passed.buf);
		strbuf_release(&passed);
		score(sb, vg->tally.score, vg->tally.max_score);
		if (vg->tally.skipped) {
			strbuf_addstr(sb, "; ");
			report_not_run(sb, vg);
		}
		if (vg->tally.passed < vg->tally.tests && report_hint(vg)) {
			strbuf_addf(sb, "<br>%s ", _("hint:"));
			inline_text(sb, report_hint(vg), 0);
		}
		if (vg->revealed) {
			strbuf_addstr(sb, "<br>");
			shrunk_text(sb, _("smallest failing input (shown after the deadline):"), vp->problem, vg->revealed);
		}
		strbuf_addch(sb, '\n');
	}
	if (report_left_out(&note, vp)) {
		strbuf_addstr(sb, "\n");
		inline_text(sb, note.buf, 0);
		strbuf_addstr(sb, "\n");
	}
	if (vp->growth) {
		strbuf_addf(sb, "\n**%s** ", _("growth:"));
		inline_text(sb, l10n_message(vp->growth->sentence), 0);
		strbuf_addstr(sb, "\n");
	}
	strbuf_release(&note);
	strbuf_addstr(sb, "\n</details>\n\n");
}

int report_markdown(FILE *out, const struct view *v, const struct report_options *o)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "## %s ", _("Grading results:"));
	score(&sb, v->score, v->max_score);
	strbuf_addstr(&sb, "\n\n");
	strbuf_addf(&sb, _("%d of %d tests passed."), v->tally.passed, v->tally.tests);
	strbuf_addstr(&sb, "\n\n");
	/* TRANSLATORS: the header of the Markdown score table */
	strbuf_addf(&sb, "| | %s | %s | %s |\n|---|---|---:|---:|\n", _("problem"), _("score"), _("tests passed"));
	for (int i = 0; i < v->nproblems; i++) {
		const struct view_problem *vp = &v->problems[i];
		strbuf_addf(&sb, "| %s | ", vp->tally.passed == vp->tally.tests ? "✅" : "❌");
		inline_text(&sb, vp->problem->id, 0);
		strbuf_addch(&sb, ' ');
		inline_title(&sb, vp->problem);
		strbuf_addstr(&sb, " | ");
		score(&sb, vp->score, vp->max_score);
		if (vp->build_verdict != V_CORRECT)
			strbuf_addf(&sb, " | %s |\n", verdict_words(vp->build_verdict));
		else
		{
			strbuf_addstr(&sb, " | ");
			strbuf_addf(&sb, _("%d of %d"), vp->tally.passed, vp->tally.tests);
			strbuf_addstr(&sb, " |\n");
		}
	}
	strbuf_addch(&sb, '\n');
	for (int i = 0; i < v->nproblems; i++) {
		const struct view_problem *vp = &v->problems[i];
		if (vp->score < vp->max_score || vp->build_verdict != V_CORRECT)
			problem_details(&sb, vp);
	}
	if (v->internal_error)
		strbuf_addf(&sb, "> **%s** %s\n\n", _("Note:"),
			    _("some tests could not be judged because of a problem in the grader, not in your code "
			      "(verdict judge-error)."));
	strbuf_addf(&sb, "<sub>grader %s</sub>\n", o->version ? o->version : "");
	fputs(sb.buf, out);
	strbuf_release(&sb);
	return ferror(out) ? -1 : 0;
}
