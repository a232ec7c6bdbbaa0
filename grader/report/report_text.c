/*
 * report_text.c - the student's report: what failed, on which input, and why.
 *
 *   p1  Partizan stone game  2.3 / 18
 *     small (0.25 points per test): 6 of 40 passed, 1.5 / 10
 *     x small/AcanWin(1): wrong answer          one compact block per failing
 *         call:     AcanWin(1)                  public test: name, verdict in
 *         expected: true                        words, the call, the values,
 *         returned: false                       why, resources, output
 *     ... and 31 more failing tests in this group (--format json lists them all)
 *     medium (all or nothing, 4 points): 0 of 760 passed, 0 / 4
 *     ...
 *     758 tests not run: an earlier test of this all-or-nothing group failed
 *     large (hidden, 0.4 points per test): 2 of 10 passed, 0.8 / 4
 *     passed 6 of 810 tests (hidden tests: 2 of 10 passed)
 *     note: output of 812 tests not shown (...)  when the view's budget ran out
 *     hint (small): ...                         per group with a failure
 *
 * then a summary table and the total.  At most FAILURES_PER_GROUP blocks per
 * group and FAILURES_PER_PROBLEM per problem.  Hidden groups show counts and
 * hints only (in the student's view they list no test).  Captured output
 * and compiler messages are cleaned (text_clean) and cut to a few lines.  Colours only when o->color (the
 * CLI decides: a terminal, and no NO_COLOR).
 */
#include "report/report.h"
#include "judge/growth.h"
#include "base/text.h"
#include "base/l10n.h"

#include <stdlib.h>
#include <string.h>

#define FAILURES_PER_GROUP 3
#define FAILURES_PER_PROBLEM 8
#define OUTPUT_LINES_SHOWN 6
#define OUTPUT_LINE_WIDTH 160
#define BUILD_LINES_SHOWN 25
#define WRAP_WIDTH 78

struct palette {
	const char *ok, *bad, *dim, *bold, *off;
};

static void print_score(FILE *out, const struct palette *c, double score, double max)
{
	struct strbuf sb = STRBUF_INIT;
	text_score(&sb, score);
	strbuf_addstr(&sb, " / ");
	text_score(&sb, max);
	fprintf(out, "%s%s%s", score >= max ? c->ok : c->bad, sb.buf, c->off);
	strbuf_release(&sb);
}

/* Back up from len to the start of a UTF-8 character of s. */
static size_t char_boundary(const char *s, size_t len)
{
	while (len && ((unsigned char)s[len] & 0xc0) == 0x80)
		len--;
	return len;
}

/*
 * Untrusted text (output, compiler messages), cleaned, as "prefix| line"
 * lines: at most max_lines lines of at most OUTPUT_LINE_WIDTH bytes.
 * Returns true when something was left out.
 */
static bool print_quoted(FILE *out, const char *indent, const char *text, size_t max_bytes, int max_lines)
{
	struct strbuf clean = STRBUF_INIT;
	bool cut = text_clean(&clean, text, max_bytes);
	const char *s = clean.buf;
	int lines = 0;

	while (*s && lines < max_lines) {
		size_t l = strcspn(s, "\n"), shown = l;
		if (shown > OUTPUT_LINE_WIDTH) {
			shown = char_boundary(s, OUTPUT_LINE_WIDTH);
			cut = true;
		}
		fprintf(out, "%s| %.*s%s\n", indent, (int)shown, s, shown < l ? " [...]" : "");
		s += l + (s[l] == '\n');
		lines++;
	}
	if (*s)
		cut = true;
	strbuf_release(&clean);
	return cut;
}

/*
 * Trusted prose (hints) after a label, wrapped at WRAP_WIDTH display columns (Hangul takes two: text_width);
 * invisible: bytes of the label that take no column.
 */
static void print_wrapped(FILE *out, const char *indent, const char *label, const char *text, size_t invisible)
{
	size_t start = text_width(indent), col = start + text_width(label) - invisible;
	bool first = true;

	fprintf(out, "%s%s", indent, label);
	for (;;) {
		size_t w;
		while (*text == ' ' || *text == '\n')
			text++;
		w = strcspn(text, " \n");
		if (!w)
			break;
		if (!first && col + 1 + text_width_n(text, w) > WRAP_WIDTH) {
			fprintf(out, "\n%s    ", indent);
			col = start + 4;
		} else {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", (int)w, text);
		col += text_width_n(text, w);
		text += w;
		first = false;
	}
	fputc('\n', out);
}

/*
 * A why: message: its first line is the grader's prose, wrapped at
 * WRAP_WIDTH under its label (the hint lines are; a 330-column line was
 * not); the lines after it (a traceback, code) as they are, under it.
 */
static void print_why(FILE *out, const char *label, const char *indent, const char *text)
{
	size_t l = strcspn(text, "\n"), col = text_width(label);
	bool first = true;

	fputs(label, out);
	for (size_t i = 0; i < l;) {
		size_t w;
		while (i < l && text[i] == ' ')
			i++;
		w = strcspn(text + i, " \n");
		if (!w)
			break;
		if (!first && col + 1 + text_width_n(text + i, w) > WRAP_WIDTH) {
			fprintf(out, "\n%s", indent);
			col = text_width(indent);
		} else if (!first) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", (int)w, text + i);
		col += text_width_n(text + i, w);
		i += w;
		first = false;
	}
	fputc('\n', out);
	for (const char *p = text + l; *p;) {
		size_t n;
		p++;
		n = strcspn(p, "\n");
		fprintf(out, "%s%.*s\n", indent, (int)n, p);
		p += n;
	}
}

/* Up to this long, a call is shown on its own line even when the test's name holds it. */
#define CALL_SHOWN_TWICE_MAX 40

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);
	return n >= m && !strcmp(s + n - m, tail);
}

/* The labels of a failure's block, translated, and the column their values start at (display width). */
struct labels {
	const char *call, *expected, *returned, *why, *used, *printed;
	size_t width;
};

static void get_labels(struct labels *l)
{
	/* TRANSLATORS: the labels of a failing test's block: "call: AcanWin(1)", "expected: true", ...; the
	 * values line up after the widest label */
	l->call = _("call:");
	l->expected = _("expected:");
	l->returned = _("returned:");
	l->why = _("why:");
	l->used = _("used:");
	l->printed = _("printed:");
	l->width = 0;
	for (const char *const *s = &l->call; s <= &l->printed; s++)
		if (text_width(*s) > l->width)
			l->width = text_width(*s);
}

/* "      expected: " with the label padded to the labels' width (and one space). */
static char *label(const struct labels *l, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "      ");
	text_pad(&sb, name, l->width + 1);
	return strbuf_detach(&sb);
}

/*
 * The message of vp's failure before its tests (a Python module's top level
 * raising, a constructor crashing), or NULL: the shortest such message among
 * its listed failures, the one without "(not started again: ...)" after it.
 * Every test the runner ran fails with it, so it is shown once, above the
 * groups, and those tests point to it (is_startup_failure).
 */
static const char *startup_failure(const struct view_problem *vp)
{
	const char *best = NULL;
	for (int k = 0; k < vp->ntests; k++) {
		const struct view_test *vt = &vp->tests[k];
		const char *m = vt->t->verdict != V_CORRECT && vt->t->at_startup && vt->message ? view_message(vt) : NULL;
		if (m && (!best || strlen(m) < strlen(best)))
			best = m;
	}
	return best;
}

/* Whether msg is the start-up failure shown above, alone or with a note on a line after it. */
static bool is_startup_failure(const char *startup, const char *msg)
{
	size_t n = startup ? strlen(startup) : 0;
	return startup && !strncmp(msg, startup, n) && (!msg[n] || msg[n] == '\n');
}

static void print_failure(FILE *out, const struct palette *c, const struct problem *p, const struct view_test *vt,
			  const char *startup)
{
	const struct test_result *t = vt->t;
	const char *msg = view_message(vt);
	bool pointer = t->at_startup && t->message && is_startup_failure(startup, msg);
	struct strbuf sb = STRBUF_INIT;
	struct labels l;
	char *lab, *under;

	get_labels(&l);
	under = xasprintf("%*s", (int)(l.width + 7), "");
	test_case_format_call(&sb, p, t->tc);
	/* an explicit test's name lacks its group: the group named as a generated test's name has it */
	fprintf(out, "  %sx%s %s%s%s: %s%s%s\n", c->bad, c->off, strchr(t->tc->name, '/') ? "" : p->groups[t->tc->group].name,
		strchr(t->tc->name, '/') ? "" : "/", t->tc->name, c->bold, verdict_words(t->verdict), c->off);
	/* a long call (a row of thousands) is in the name already: printed once per test */
	if (sb.len <= CALL_SHOWN_TWICE_MAX || !ends_with(t->tc->name, sb.buf)) {
		lab = label(&l, l.call);
		fprintf(out, "%s%s\n", lab, sb.buf);
		free(lab);
	}
	if (t->has_expected) {
		strbuf_reset(&sb);
		problem_format_answer(&sb, p, t->tc->func, t->expected);
		lab = label(&l, l.expected);
		fprintf(out, "%s%s\n", lab, sb.buf);
		free(lab);
	}
	if (t->has_actual) {
		strbuf_reset(&sb);
		problem_format_answer(&sb, p, t->tc->func, t->actual);
		lab = label(&l, l.returned);
		fprintf(out, "%s%s\n", lab, sb.buf);
		free(lab);
	}
	/* a wrong answer's message starts with the two values shown above; what follows is advice (diagnose.h) */
	lab = label(&l, l.why);
	if (pointer) {
		/* the traceback once per problem, above: here only that this test never began (which says
		 * what the note "(not started again: ...)" after it would) */
		fprintf(out, "%s%s\n", lab, _("the program failed before this test began (shown above)"));
	} else if (t->message && (t->verdict != V_WRONG_ANSWER || !t->has_actual))
		print_why(out, lab, under, msg);
	else if (t->message && strchr(msg, '\n'))
		print_why(out, lab, under, strchr(msg, '\n') + 1);
	free(lab);
	if (t->verdict == V_TIMELIMIT || t->verdict == V_MEMORY_LIMIT) {
		lab = label(&l, l.used);
		fprintf(out, "%s", lab);
		fprintf(out, _("%u ms CPU (limit %u ms), %.1f MiB at most (limit %u MiB)"), t->time_ms,
			t->limit_ms, t->peak_kb / 1024.0, p->groups[t->tc->group].limits.memory_mb);
		fputc('\n', out);
		free(lab);
	}
	lab = label(&l, l.printed);
	if (vt->output) {
		fprintf(out, "%s", lab);
		fprintf(out, P_("%llu byte", "%llu bytes", t->output_total), t->output_total);
		fprintf(out, "%s\n", t->output_total ? ":" : "");
		if (print_quoted(out, "        ", vt->output, VIEW_OUTPUT_MAX, OUTPUT_LINES_SHOWN) || vt->output_cut)
			fprintf(out, "        %s%s%s\n", c->dim, _("[... not all shown]"), c->off);
	} else if (vt->output_left_out) {
		fprintf(out, "%s", lab);
		fprintf(out, P_("%llu byte", "%llu bytes", t->output_total), t->output_total);
		fprintf(out, " %s%s%s\n", c->dim, _("(not shown: the report's output budget for this problem is spent)"), c->off);
	}
	free(lab);
	free(under);
	strbuf_release(&sb);
}

/* "smallest failing input found: f([-1]): expected -1, returned 0", first in a problem's section (shrink.h). */
static void print_shrunk(FILE *out, const struct palette *c, const struct view_problem *vp)
{
	struct strbuf what = STRBUF_INIT, how = STRBUF_INIT;

	report_shrunk(&what, &how, vp->problem, vp->shrunk);
	fprintf(out, "  %s%s%s %s\n    (%s)\n", c->bold, _("smallest failing input found:"), c->off, what.buf, how.buf);
	strbuf_release(&what);
	strbuf_release(&how);
}

static void print_build_failure(FILE *out, const struct palette *c, const struct view_problem *vp)
{
	const char *msg = l10n_message(vp->build_message), *words = verdict_words(vp->build_verdict);
	if (msg) {
		/* the message's first line says what happened; the rest is the compiler's */
		size_t l = strcspn(msg, "\n");
		struct strbuf first = STRBUF_INIT;
		char *head = xstrndup(msg, l);
		text_clean(&first, head, 0);
		if (strstr(first.buf, words))
			fprintf(out, "  %s%s%s\n", c->bad, first.buf, c->off);
		else
			fprintf(out, "  %s%s:%s %s\n", c->bad, words, c->off, first.buf);
		if (msg[l] && print_quoted(out, "    ", msg + l + 1, 0, BUILD_LINES_SHOWN))
			fprintf(out, "    %s%s%s\n", c->dim, _("[... more compiler output not shown]"), c->off);
		strbuf_release(&first);
		free(head);
	} else {
		fprintf(out, "  %s%s%s\n", c->bad, words, c->off);
	}
	fputs("  ", out);
	fprintf(out, P_("none of its %d test could run", "none of its %d tests could run", vp->tally.tests), vp->tally.tests);
	fputc('\n', out);
}

/* "small (0.25 points per test): 6 of 40 passed, 1.5 / 10", its failures, its skipped tests. */
static void print_group(FILE *out, const struct palette *c, const struct view_problem *vp, int g,
			int *shown_in_problem, const struct report_options *o, const char *startup)
{
	const struct view_group *vg = &vp->groups[g];
	const struct group *grp = vg->group;
	struct strbuf points = STRBUF_INIT, passed = STRBUF_INIT;
	int shown = 0, not_shown = 0;

	text_score(&points, grp->points);
	report_passed(&passed, vg);
	fprintf(out, "  %s%s%s (%s%s", c->bold, grp->name, c->off,
		grp->visibility == VIS_HIDDEN ? _("hidden, ") : "",
		grp->scoring == SCORE_ALL_OR_NOTHING ? _("all or nothing, ") : "");
	/* TRANSLATORS: a group's points: "4 points" (all or nothing) or "0.25 points per test"; %s is the number */
	if (grp->scoring == SCORE_ALL_OR_NOTHING)
		fprintf(out, grp->points == 1 ? _("%s point") : _("%s points"), points.buf);
	else
		fprintf(out, grp->points == 1 ? _("%s point per test") : _("%s points per test"), points.buf);
	fprintf(out, "): %s%s%s, ", vg->tally.passed == vg->tally.tests ? c->ok : c->bad, passed.buf, c->off);
	print_score(out, c, vg->tally.score, vg->tally.max_score);
	fputc('\n', out);
	strbuf_release(&points);
	strbuf_release(&passed);
	if (vg->revealed) {
		struct strbuf what = STRBUF_INIT, how = STRBUF_INIT;
		report_shrunk(&what, &how, vp->problem, vg->revealed);
		fprintf(out, "    %s%s%s %s\n      (%s)\n", c->bold, _("smallest failing input (shown after the deadline):"),
			c->off, what.buf, how.buf);
		strbuf_release(&what);
		strbuf_release(&how);
	}
	for (int k = 0; k < vg->ntests; k++) {
		const struct view_test *vt = &vg->tests[k];
		if (vt->t->verdict == V_CORRECT) {
			if (o->verbose)
				fprintf(out, "  %s%s%s %s (%u ms)\n", c->ok, _("ok"), c->off, vt->t->tc->name, vt->t->time_ms);
			continue;
		}
		if (vt->t->verdict == V_SKIPPED)
			continue;
		/* -v: every failure (students were sent to --format json for the rest) */
		if (o->verbose || (shown < FAILURES_PER_GROUP && *shown_in_problem < FAILURES_PER_PROBLEM)) {
			print_failure(out, c, vp->problem, vt, startup);
			shown++;
			(*shown_in_problem)++;
		} else {
			not_shown++;
		}
	}
	if (not_shown) {
		fprintf(out, "  %s", c->dim);
		fprintf(out, P_("... and %d more failing test in this group (-v lists them all)",
				"... and %d more failing tests in this group (-v lists them all)", not_shown),
			not_shown);
		fprintf(out, "%s\n", c->off);
	}
	if (vg->tally.skipped) {
		struct strbuf why = STRBUF_INIT;
		report_not_run(&why, vg);
		fprintf(out, "  %s\n", why.buf);
		strbuf_release(&why);
	}
}

/* After a score: what it could still gain from tests a student's run did not run (report_up_to). */
static void print_up_to(FILE *out, const struct view_tally *t, double score)
{
	struct strbuf sb = STRBUF_INIT;
	report_up_to(&sb, t, score);
	fputs(sb.buf, out);
	strbuf_release(&sb);
}

static void print_problem(FILE *out, const struct palette *c, const struct view_problem *vp,
			  const struct report_options *o)
{
	const struct problem *p = vp->problem;
	struct strbuf note = STRBUF_INIT;
	const char *startup = startup_failure(vp);
	int shown = 0;

	fprintf(out, "%s%s%s  %s  ", c->bold, p->id, c->off, p->title);
	if (p->nlanguages > 1)
		fprintf(out, "(%s)  ", p->lang->display);
	print_score(out, c, vp->score, vp->max_score);
	print_up_to(out, &vp->tally, vp->score);
	fputc('\n', out);
	if (vp->source_note) { /* it names files of the submission: untrusted bytes */
		struct strbuf clean = STRBUF_INIT;
		text_clean(&clean, l10n_message(vp->source_note), 0);
		print_wrapped(out, "  ", _("note:"), clean.buf, 0);
		strbuf_release(&clean);
	}
	if (vp->startup_output) {
		fputs("  ", out);
		fprintf(out, P_("printed while starting (%s's top-level code): %llu byte",
				"printed while starting (%s's top-level code): %llu bytes", vp->startup_total),
			vp->source ? vp->source : p->source, vp->startup_total);
		fputc('\n', out);
		if (print_quoted(out, "    ", vp->startup_output, VIEW_OUTPUT_MAX, OUTPUT_LINES_SHOWN) ||
		    vp->startup_total > strlen(vp->startup_output))
			fprintf(out, "    %s%s%s\n", c->dim, _("[... not all shown]"), c->off);
	}
	if (vp->build_verdict != V_CORRECT) {
		print_build_failure(out, c, vp);
		fputc('\n', out);
		return;
	}
	if (startup) {
		char *lab = xasprintf("  %s ", _("before its tests:"));
		print_why(out, lab, "    ", startup);
		free(lab);
	}
	if (vp->shrunk)
		print_shrunk(out, c, vp);
	for (int g = 0; g < vp->ngroups; g++)
		print_group(out, c, vp, g, &shown, o, startup);
	fputs("  ", out);
	fprintf(out, _("passed %d of %d tests"), vp->tally.passed, vp->tally.tests);
	if (vp->unlisted.tests)
		fprintf(out, _(" (hidden tests: %d of %d passed)"), vp->unlisted.passed, vp->unlisted.tests);
	fputc('\n', out);
	if (report_left_out(&note, vp))
		print_wrapped(out, "  ", _("note:"), note.buf, 0);
	if (vp->growth) {
		char *label = xasprintf("%s%s%s", c->bold, _("growth:"), c->off);
		print_wrapped(out, "  ", label, l10n_message(vp->growth->sentence), strlen(c->bold) + strlen(c->off));
		free(label);
	}
	strbuf_release(&note);
	for (int g = 0; g < vp->ngroups; g++) {
		const struct view_group *vg = &vp->groups[g];
		if (vg->tally.passed < vg->tally.tests && report_hint(vg)) {
			char *label = xasprintf("%s", c->bold), *name = xasprintf(_("hint (%s):"), vg->group->name);
			char *full = xasprintf("%s%s%s", label, name, c->off);
			print_wrapped(out, "  ", full, report_hint(vg), strlen(c->bold) + strlen(c->off));
			free(name);
			free(full);
			free(label);
		}
	}
	fputc('\n', out);
}

/* The summary table: columns padded by display width (text_width), so Hangul titles line up. */
static void print_summary(FILE *out, const struct palette *c, const struct view *v)
{
	size_t idw = 0, titlew = 0;

	for (int i = 0; i < v->nproblems; i++) {
		const struct problem *p = v->problems[i].problem;
		if (text_width(p->id) > idw)
			idw = text_width(p->id);
		if (text_width(p->title) > titlew)
			titlew = text_width(p->title);
	}
	fprintf(out, "%s%s%s\n", c->bold, _("Summary"), c->off);
	for (int i = 0; i < v->nproblems; i++) {
		const struct view_problem *vp = &v->problems[i];
		struct strbuf sc = STRBUF_INIT, row = STRBUF_INIT;
		text_score(&sc, vp->score);
		strbuf_addstr(&sc, " / ");
		text_score(&sc, vp->max_score);
		strbuf_addstr(&row, "  ");
		text_pad(&row, vp->problem->id, idw);
		strbuf_addstr(&row, "  ");
		text_pad(&row, vp->problem->title, titlew);
		fprintf(out, "%s  %s%-12s%s  ", row.buf, vp->score >= vp->max_score ? c->ok : c->bad, sc.buf, c->off);
		if (vp->build_verdict != V_CORRECT)
			fprintf(out, "%s\n", verdict_words(vp->build_verdict));
		else {
			fprintf(out, _("%d of %d tests passed"), vp->tally.passed,
				vp->tally.tests);
			fputc('\n', out);
		}
		strbuf_release(&sc);
		strbuf_release(&row);
	}
	fprintf(out, "%s%s%s ", c->bold, _("Total:"), c->off);
	print_score(out, c, v->score, v->max_score);
	print_up_to(out, &v->tally, v->score);
	fputs("  (", out);
	fprintf(out, _("%d of %d tests passed"), v->tally.passed, v->tally.tests);
	if (v->tally.remeasured)
		fprintf(out, _(", %d measured again near the time limit"), v->tally.remeasured);
	if (v->elapsed_s >= 0)
		fprintf(out, ", %.1f s", v->elapsed_s);
	fputs(")\n", out);
}

int report_text(FILE *out, const struct view *v, const struct report_options *o)
{
	static const struct palette colour = { "\033[32m", "\033[31m", "\033[2m", "\033[1m", "\033[0m" };
	static const struct palette plain = { "", "", "", "", "" };
	const struct palette *c = o->color ? &colour : &plain;
	struct strbuf sub = STRBUF_INIT;

	text_clean(&sub, v->submission, 0);
	fprintf(out, _("Grading %s"), sub.buf);
	fputs("\n\n", out);
	strbuf_release(&sub);
	for (int i = 0; i < v->nproblems; i++)
		print_problem(out, c, &v->problems[i], o);
	print_summary(out, c, v);
	if (v->calibration)
		fprintf(out, "%s\n", v->calibration);
	if (v->internal_error)
		fprintf(out, "%s%s%s\n", c->bad, _("Some tests could not be judged because of a problem in the grader, "
						    "not in your code: their verdict is judge-error."), c->off);
	return ferror(out) ? -1 : 0;
}
