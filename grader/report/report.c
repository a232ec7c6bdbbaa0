/* report.c - the table of report formats and what every writer shares */
#include "report/report.h"
#include "base/text.h"
#include "base/l10n.h"

#include <stdlib.h>
#include <string.h>

const struct report_format report_formats[] = {
	{ "text", "a report for students (default)", report_text, true },
	{ "json", "the machine-readable contract", report_json, false },
	{ "gradescope", "Gradescope's results.json", report_gradescope, false },
	{ "junit", "JUnit XML (GitLab, GitHub test reporters)", report_junit, false },
	{ "tap", "TAP version 13 (prove)", report_tap, false },
	{ "github", "GitHub Actions annotations (+ $GITHUB_STEP_SUMMARY)", report_github, false },
	{ "markdown", "a Markdown summary (step summaries, MR comments)", report_markdown, true },
	{ "classroom", "GitHub Classroom's autograding result (base64 JSON)", report_classroom, false },
	{ "prairielearn", "PrairieLearn's external grading results.json", report_prairielearn, false },
	{ NULL, NULL, NULL, false },
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
		struct strbuf a = STRBUF_INIT, e = STRBUF_INIT;
		problem_format_answer(&a, p, t->tc->func, t->actual);
		problem_format_answer(&e, p, t->tc->func, t->expected);
		/* TRANSLATORS: after a call: "AcanWin(3) returned false, expected true" */
		strbuf_addf(sb, _(" returned %s, expected %s"), a.buf, e.buf);
		strbuf_release(&a);
		strbuf_release(&e);
	} else {
		strbuf_addstr(sb, ": ");
		text_clean(sb, view_message(vt), 0);
	}
}

void report_passed(struct strbuf *sb, const struct view_group *g)
{
	if (!g->listed && g->group->scoring == SCORE_ALL_OR_NOTHING && g->tally.passed < g->tally.tests)
		strbuf_addf(sb, _("not all of %d passed"), g->tally.tests);
	else
		strbuf_addf(sb, _("%d of %d passed"), g->tally.passed, g->tally.tests);
}

void report_not_run(struct strbuf *sb, const struct view_group *g)
{
	int n = g->tally.skipped;
	if (!n)
		return;
	if (g->group->scoring == SCORE_ALL_OR_NOTHING)
		strbuf_addf(sb, P_("%d test not run: an earlier test of this all-or-nothing group failed",
				   "%d tests not run: an earlier test of this all-or-nothing group failed", n), n);
	else if (g->stopped_elsewhere)
		strbuf_addf(sb, P_("%d test not run: the test before it failed the same way as %d tests in a row of an "
				   "earlier group (--all-tests runs it)",
				   "%d tests not run: the test before them failed the same way as %d tests in a row of an "
				   "earlier group (--all-tests runs them)", n), n, REPEATED_FAILURES);
	else
		strbuf_addf(sb, P_("%d test not run: the %d tests before it failed the same way (--all-tests runs it)",
				   "%d tests not run: the %d tests before them failed the same way (--all-tests runs them)",
				   n), n, REPEATED_FAILURES);
}

void report_up_to(struct strbuf *sb, const struct view_tally *t, double score)
{
	struct strbuf most = STRBUF_INIT;
	if (t->unrun_points <= 0)
		return;
	text_score(&most, score + t->unrun_points);
	strbuf_addstr(sb, " (");
	strbuf_addf(sb, P_("up to %s if the %d test not run passes", "up to %s if the %d tests not run pass", t->unrun),
		    most.buf, t->unrun);
	strbuf_addch(sb, ')');
	strbuf_release(&most);
}

void report_shrunk(struct strbuf *what, struct strbuf *how, const struct problem *p, const struct shrunk_input *s)
{
	test_case_format_call(what, p, &s->tc);
	strbuf_addstr(what, ": ");
	if (s->verdict == V_WRONG_ANSWER && s->has_actual && s->has_expected) {
		struct strbuf a = STRBUF_INIT, e = STRBUF_INIT;
		problem_format_answer(&a, p, s->tc.func, s->actual);
		problem_format_answer(&e, p, s->tc.func, s->expected);
		strbuf_addf(what, _("expected %s, returned %s"), e.buf, a.buf);
		strbuf_release(&a);
		strbuf_release(&e);
	} else {
		/* a run error's message may quote the program (a Python exception): cleaned, its first line */
		struct strbuf why = STRBUF_INIT;
		if (s->message)
			text_clean(&why, l10n_message(s->message), 0);
		why.buf[strcspn(why.buf, "\n")] = '\0';
		strbuf_addf(what, "%s%s%s", verdict_words(s->verdict), *why.buf ? ": " : "", why.buf);
		strbuf_release(&why);
	}
	if (s->example) {
		strbuf_addf(how, _("%s, a public example: no failing generated input is smaller"), l10n_message(s->from));
		return;
	}
	if (s->as_is) {
		strbuf_addstr(how, _("the failing test as it is: only generated inputs that gave a wrong answer or a run "
				     "error are shrunk"));
		return;
	}
	if (!s->runs) {
		strbuf_addf(how, _("%s: its generator draws no smaller input"), l10n_message(s->from));
		return;
	}
	if (s->steps)
		strbuf_addf(how, _("shrunk from %s; "), l10n_message(s->from));
	else
		strbuf_addf(how, _("%s itself: no smaller input failed; "), l10n_message(s->from));
	strbuf_addf(how, P_("%d input tried in %.1f s", "%d inputs tried in %.1f s", s->runs), s->runs, s->seconds);
	strbuf_addf(how, _(", budget %d inputs or %.0f s"), s->budget_runs, s->budget_seconds);
	if (s->budget_spent)
		strbuf_addstr(how, _(", spent: a smaller one may exist"));
}

void report_size(struct strbuf *sb, unsigned long long bytes)
{
	if (bytes < 1024)
		strbuf_addf(sb, P_("%llu byte", "%llu bytes", bytes), bytes);
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
		strbuf_addf(sb, P_("output of %d test not shown (", "output of %d tests not shown (", vp->output_left_out),
			    vp->output_left_out);
		report_size(sb, vp->output_left_out_bytes);
		strbuf_addstr(sb, ")");
	}
	if (vp->messages_cut)
	{
		strbuf_addstr(sb, vp->output_left_out ? "; " : "");
		strbuf_addf(sb, P_("%d long message cut to a line", "%d long messages cut to a line", vp->messages_cut),
			    vp->messages_cut);
	}
	strbuf_addf(sb, _(": reports show at most %d KiB of captured output and messages per problem"),
		    VIEW_OUTPUT_BUDGET / 1024);
	return true;
}

const char *report_hint(const struct view_group *vg)
{
	const struct group *g = vg->group;
	switch (vg->returned) {
	case RETURNED_NONE:
		return _("Your function returned None: a missing return? A path through it that ends without a "
			 "return statement (or a bare return) gives None.");
	case RETURNED_OTHER_TYPE:
		return _("Your function returned a value that is no whole number (a float or a string, say): return "
			 "an int, or True/False where a bool is expected. Note that / always gives a float; // divides "
			 "integers exactly.");
	case RETURNED_NUMBER:
		break;
	}
	/* Korean is the one translation (po/): a report in the students' language is a Korean one */
	return l10n_speaking() && g->hint_ko ? g->hint_ko : g->hint;
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

/* report_group_text(): failing tests listed per group, bytes of output shown per test */
#define FAILURES_SHOWN 10
#define OUTPUT_SHOWN 600

static void add_failure(struct strbuf *sb, const struct problem *p, const struct view_test *vt)
{
	const struct test_result *t = vt->t;
	strbuf_addf(sb, "x %s: %s\n    ", t->tc->name, verdict_words(t->verdict));
	report_describe(sb, p, vt);
	strbuf_addch(sb, '\n');
	if (vt->output) {
		struct strbuf clean = STRBUF_INIT;
		bool cut = text_clean(&clean, vt->output, OUTPUT_SHOWN) || vt->output_cut;
		strbuf_addf(sb, _("    your program printed %llu bytes%s:\n"), t->output_total, cut ? _(" (cut short)") : "");
		for (const char *s = clean.buf; *s;) {
			size_t l = strcspn(s, "\n");
			strbuf_addf(sb, "    | %.*s\n", (int)l, s);
			s += l + (s[l] == '\n');
		}
		strbuf_release(&clean);
	} else if (vt->output_left_out) {
		strbuf_addf(sb, _("    your program printed %llu bytes (not shown: the output budget is spent)\n"),
			    t->output_total);
	}
}

void report_group_text(struct strbuf *sb, const struct view_problem *vp, int g)
{
	bool first_group = g == 0;
	const struct problem *p = vp->problem;
	const struct view_group *vg = &vp->groups[g];
	const struct group *grp = vg->group;
	int shown = 0;

	if (vp->build_verdict != V_CORRECT) {
		if (first_group && vp->build_message) {
			text_clean(sb, l10n_message(vp->build_message), 0);
			strbuf_addch(sb, '\n');
		} else {
			strbuf_addf(sb, "%s: %s.\n", vp->source ? vp->source : p->source, verdict_words(vp->build_verdict));
		}
		strbuf_addf(sb, _("None of the %d tests of this group could run.\n"), vg->tally.tests);
		return;
	}
	if (vg->listed) {
		strbuf_addf(sb, _("%d of %d tests passed"), vg->tally.passed,
			    vg->tally.tests);
	} else {
		strbuf_addstr(sb, _("Hidden tests: "));
		report_passed(sb, vg);
	}
	strbuf_addf(sb, " (%s).\n", grp->scoring == SCORE_ALL_OR_NOTHING ? _("all or nothing") : _("points per test"));
	if (vg->tally.failed && vg->listed)
		strbuf_addch(sb, '\n');
	for (int k = 0; k < vg->ntests; k++) {
		const struct view_test *vt = &vg->tests[k];
		if (vt->t->verdict == V_CORRECT || vt->t->verdict == V_SKIPPED)
			continue;
		if (shown++ < FAILURES_SHOWN)
			add_failure(sb, p, vt);
	}
	if (shown > FAILURES_SHOWN)
		strbuf_addf(sb, _("... and %d more failing tests.\n"), shown - FAILURES_SHOWN);
	if (vg->tally.skipped) {
		report_not_run(sb, vg);
		strbuf_addstr(sb, ".\n");
	}
	if (!vg->listed && vg->tally.passed < vg->tally.tests)
		strbuf_addstr(sb, _("Hidden tests show only how many passed.\n"));
	if (vg->tally.passed < vg->tally.tests && report_hint(vg))
		strbuf_addf(sb, _("\nHint: %s\n"), report_hint(vg));
}

void report_problem_lines(struct strbuf *sb, const struct view *v)
{
	for (int i = 0; i < v->nproblems; i++) {
		const struct view_problem *vp = &v->problems[i];
		strbuf_addf(sb, "%s ", vp->problem->id);
		report_title(sb, vp->problem);
		strbuf_addstr(sb, ": ");
		text_score(sb, vp->score);
		strbuf_addstr(sb, " / ");
		text_score(sb, vp->max_score);
		if (vp->build_verdict != V_CORRECT)
			strbuf_addf(sb, " (%s)\n", verdict_words(vp->build_verdict));
		else
		{
			strbuf_addstr(sb, " (");
			strbuf_addf(sb, _("%d of %d tests passed"), vp->tally.passed,
				    vp->tally.tests);
			strbuf_addstr(sb, ")\n");
		}
		if (report_left_out(sb, vp))
			strbuf_addch(sb, '\n');
	}
	if (v->internal_error)
		strbuf_addstr(sb, _("Some tests could not be judged because of a problem in the grader, not in your "
				    "code: please tell your instructor.\n"));
}
