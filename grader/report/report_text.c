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

/* Trusted prose (hints) after a label, wrapped at WRAP_WIDTH; invisible: bytes of the label that take no column. */
static void print_wrapped(FILE *out, const char *indent, const char *label, const char *text, size_t invisible)
{
	size_t start = strlen(indent), col = start + strlen(label) - invisible;
	bool first = true;

	fprintf(out, "%s%s", indent, label);
	for (;;) {
		size_t w;
		while (*text == ' ' || *text == '\n')
			text++;
		w = strcspn(text, " \n");
		if (!w)
			break;
		if (!first && col + 1 + w > WRAP_WIDTH) {
			fprintf(out, "\n%s    ", indent);
			col = start + 4;
		} else {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", (int)w, text);
		col += w;
		text += w;
		first = false;
	}
	fputc('\n', out);
}

/* A message of several lines: the first after label, the others under it. */
static void print_indented(FILE *out, const char *label, const char *indent, const char *text)
{
	const char *p = text;
	fputs(label, out);
	for (;;) {
		size_t l = strcspn(p, "\n");
		fprintf(out, "%.*s\n", (int)l, p);
		if (!p[l])
			break;
		p += l + 1;
		fputs(indent, out);
	}
}

static void print_failure(FILE *out, const struct palette *c, const struct problem *p, const struct view_test *vt)
{
	const struct test_result *t = vt->t;
	struct strbuf sb = STRBUF_INIT;

	fprintf(out, "  %sx%s %s: %s%s%s\n", c->bad, c->off, t->tc->name, c->bold, verdict_words(t->verdict), c->off);
	test_case_format_call(&sb, p, t->tc);
	fprintf(out, "      call:     %s\n", sb.buf);
	if (t->has_expected) {
		strbuf_reset(&sb);
		problem_format_answer(&sb, p, t->tc->func, t->expected);
		fprintf(out, "      expected: %s\n", sb.buf);
	}
	if (t->has_actual) {
		strbuf_reset(&sb);
		problem_format_answer(&sb, p, t->tc->func, t->actual);
		fprintf(out, "      returned: %s\n", sb.buf);
	}
	/* a wrong answer's message starts with the two values shown above; what follows is advice (diagnose.h) */
	if (t->message && (t->verdict != V_WRONG_ANSWER || !t->has_actual))
		print_indented(out, "      why:      ", "                ", vt->message);
	else if (t->message && strchr(vt->message, '\n'))
		print_indented(out, "      why:      ", "                ", strchr(vt->message, '\n') + 1);
	if (t->verdict == V_TIMELIMIT || t->verdict == V_MEMORY_LIMIT)
		fprintf(out, "      used:     %u ms CPU (limit %u ms), %.1f MiB at most (limit %u MiB)\n", t->time_ms,
			t->limit_ms, t->peak_kb / 1024.0, p->groups[t->tc->group].limits.memory_mb);
	if (vt->output) {
		fprintf(out, "      printed:  %llu byte%s%s\n", t->output_total, t->output_total == 1 ? "" : "s",
			t->output_total ? ":" : "");
		if (print_quoted(out, "        ", vt->output, VIEW_OUTPUT_MAX, OUTPUT_LINES_SHOWN) || vt->output_cut)
			fprintf(out, "        %s[... not all shown]%s\n", c->dim, c->off);
	} else if (vt->output_left_out) {
		fprintf(out, "      printed:  %llu byte%s %s(not shown: the report's output budget for this problem is spent)%s\n",
			t->output_total, t->output_total == 1 ? "" : "s", c->dim, c->off);
	}
	strbuf_release(&sb);
}

/* "smallest failing input found: f([-1]): expected -1, returned 0", first in a problem's section (shrink.h). */
static void print_shrunk(FILE *out, const struct palette *c, const struct view_problem *vp)
{
	struct strbuf what = STRBUF_INIT, how = STRBUF_INIT;

	report_shrunk(&what, &how, vp);
	fprintf(out, "  %ssmallest failing input found:%s %s\n    (%s)\n", c->bold, c->off, what.buf, how.buf);
	strbuf_release(&what);
	strbuf_release(&how);
}

static void print_build_failure(FILE *out, const struct palette *c, const struct view_problem *vp)
{
	const char *msg = vp->build_message, *words = verdict_words(vp->build_verdict);
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
			fprintf(out, "    %s[... more compiler output not shown]%s\n", c->dim, c->off);
		strbuf_release(&first);
		free(head);
	} else {
		fprintf(out, "  %s%s%s\n", c->bad, words, c->off);
	}
	fprintf(out, "  none of its %d test%s could run\n", vp->tally.tests, vp->tally.tests == 1 ? "" : "s");
}

/* "small (0.25 points per test): 6 of 40 passed, 1.5 / 10", its failures, its skipped tests. */
static void print_group(FILE *out, const struct palette *c, const struct view_problem *vp, int g,
			int *shown_in_problem, const struct report_options *o)
{
	const struct view_group *vg = &vp->groups[g];
	const struct group *grp = vg->group;
	struct strbuf points = STRBUF_INIT, passed = STRBUF_INIT;
	int shown = 0, not_shown = 0;

	text_score(&points, grp->points);
	report_passed(&passed, vg);
	fprintf(out, "  %s%s%s (%s%s%s%s): %s%s%s, ", c->bold, grp->name, c->off,
		grp->visibility == VIS_HIDDEN ? "hidden, " : "",
		grp->scoring == SCORE_ALL_OR_NOTHING ? "all or nothing, " : "", points.buf,
		grp->scoring == SCORE_ALL_OR_NOTHING ? " points" : " points per test",
		vg->tally.passed == vg->tally.tests ? c->ok : c->bad, passed.buf, c->off);
	print_score(out, c, vg->tally.score, vg->tally.max_score);
	fputc('\n', out);
	strbuf_release(&points);
	strbuf_release(&passed);
	for (int k = 0; k < vg->ntests; k++) {
		const struct view_test *vt = &vg->tests[k];
		if (vt->t->verdict == V_CORRECT) {
			if (o->verbose)
				fprintf(out, "  %sok%s %s (%u ms)\n", c->ok, c->off, vt->t->tc->name, vt->t->time_ms);
			continue;
		}
		if (vt->t->verdict == V_SKIPPED)
			continue;
		if (shown < FAILURES_PER_GROUP && *shown_in_problem < FAILURES_PER_PROBLEM) {
			print_failure(out, c, vp->problem, vt);
			shown++;
			(*shown_in_problem)++;
		} else {
			not_shown++;
		}
	}
	if (not_shown)
		fprintf(out, "  %s... and %d more failing test%s in this group (--format json lists them all)%s\n",
			c->dim, not_shown, not_shown == 1 ? "" : "s", c->off);
	if (vg->tally.skipped)
		fprintf(out, "  %d test%s not run: an earlier test of this all-or-nothing group failed\n",
			vg->tally.skipped, vg->tally.skipped == 1 ? "" : "s");
}

static void print_problem(FILE *out, const struct palette *c, const struct view_problem *vp,
			  const struct report_options *o)
{
	const struct problem *p = vp->problem;
	struct strbuf note = STRBUF_INIT;
	int shown = 0;

	fprintf(out, "%s%s%s  %s  ", c->bold, p->id, c->off, p->title);
	if (p->nlanguages > 1)
		fprintf(out, "(%s)  ", p->lang->display);
	print_score(out, c, vp->score, vp->max_score);
	fputc('\n', out);
	if (vp->startup_output) {
		fprintf(out, "  printed while starting (%s's top-level code): %llu byte%s\n", vp->source ? vp->source : p->source,
			vp->startup_total, vp->startup_total == 1 ? "" : "s");
		if (print_quoted(out, "    ", vp->startup_output, VIEW_OUTPUT_MAX, OUTPUT_LINES_SHOWN) ||
		    vp->startup_total > strlen(vp->startup_output))
			fprintf(out, "    %s[... not all shown]%s\n", c->dim, c->off);
	}
	if (vp->build_verdict != V_CORRECT) {
		print_build_failure(out, c, vp);
		fputc('\n', out);
		return;
	}
	if (vp->shrunk)
		print_shrunk(out, c, vp);
	for (int g = 0; g < vp->ngroups; g++)
		print_group(out, c, vp, g, &shown, o);
	fprintf(out, "  passed %d of %d tests", vp->tally.passed, vp->tally.tests);
	if (vp->unlisted.tests)
		fprintf(out, " (hidden tests: %d of %d passed)", vp->unlisted.passed, vp->unlisted.tests);
	fputc('\n', out);
	if (report_left_out(&note, vp))
		print_wrapped(out, "  ", "note:", note.buf, 0);
	if (vp->growth) {
		char *label = xasprintf("%sgrowth:%s", c->bold, c->off);
		print_wrapped(out, "  ", label, vp->growth->sentence, strlen(c->bold) + strlen(c->off));
		free(label);
	}
	strbuf_release(&note);
	for (int g = 0; g < vp->ngroups; g++) {
		const struct view_group *vg = &vp->groups[g];
		if (vg->tally.passed < vg->tally.tests && vg->group->hint) {
			char *label = xasprintf("%shint (%s):%s", c->bold, vg->group->name, c->off);
			print_wrapped(out, "  ", label, vg->group->hint, strlen(c->bold) + strlen(c->off));
			free(label);
		}
	}
	fputc('\n', out);
}

static void print_summary(FILE *out, const struct palette *c, const struct view *v)
{
	int idw = 0, titlew = 0;

	for (int i = 0; i < v->nproblems; i++) {
		const struct problem *p = v->problems[i].problem;
		if ((int)strlen(p->id) > idw)
			idw = (int)strlen(p->id);
		if ((int)strlen(p->title) > titlew)
			titlew = (int)strlen(p->title);
	}
	fprintf(out, "%sSummary%s\n", c->bold, c->off);
	for (int i = 0; i < v->nproblems; i++) {
		const struct view_problem *vp = &v->problems[i];
		struct strbuf sc = STRBUF_INIT;
		text_score(&sc, vp->score);
		strbuf_addstr(&sc, " / ");
		text_score(&sc, vp->max_score);
		fprintf(out, "  %-*s  %-*s  %s%-12s%s  ", idw, vp->problem->id, titlew, vp->problem->title,
			vp->score >= vp->max_score ? c->ok : c->bad, sc.buf, c->off);
		if (vp->build_verdict != V_CORRECT)
			fprintf(out, "%s\n", verdict_words(vp->build_verdict));
		else
			fprintf(out, "%d of %d tests passed\n", vp->tally.passed, vp->tally.tests);
		strbuf_release(&sc);
	}
	fprintf(out, "%sTotal:%s ", c->bold, c->off);
	print_score(out, c, v->score, v->max_score);
	fprintf(out, "  (%d of %d tests passed", v->tally.passed, v->tally.tests);
	if (v->tally.remeasured)
		fprintf(out, ", %d measured again near the time limit", v->tally.remeasured);
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
	fprintf(out, "Grading %s\n\n", sub.buf);
	strbuf_release(&sub);
	for (int i = 0; i < v->nproblems; i++)
		print_problem(out, c, &v->problems[i], o);
	print_summary(out, c, v);
	if (v->internal_error)
		fprintf(out, "%sSome tests could not be judged because of a problem in the grader, not in your "
			"code: their verdict is judge-error.%s\n", c->bad, c->off);
	return ferror(out) ? -1 : 0;
}
