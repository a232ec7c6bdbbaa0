/*
 * report_tap.c - TAP version 13, one test point per test case, as `prove`
 * and other TAP harnesses read it.
 *
 *   TAP version 13
 *   1..N
 *   # p1 Partizan stone game: 2.3 / 18
 *   ok 1 - p1 small/AcanWin(1)
 *   not ok 2 - p1 small/AcanWin(3)
 *     ---
 *     message: "AcanWin(3) returned false, expected true"
 *     severity: fail
 *     data: {...}
 *     ...
 *   ok 3 - p1 medium/AcanWin(26) # SKIP not run: an earlier test ... failed
 *
 * Descriptions have '#' and '\' escaped (TAP directives), diagnostics are
 * YAML double-quoted scalars (TAP::Parser::YAMLish reads \", \\, \n, \t,
 * \xNN).  A skipped test is "ok # SKIP": TAP has no "failed because not run";
 * the run still fails through the test that caused the skip.
 *
 * One test point per listed test of the view (view.h), and one per
 * counts-only (hidden) group, in the group's place:
 *
 *   not ok 843 - p1 large (hidden, 10 tests): 7 of 10 passed, 2.8 / 4
 *
 * never a point per hidden test.  What the output budget left out is a
 * "# p1: output of ... not shown" comment after the problem's points.
 */
#include "report/report.h"
#include "base/text.h"

#include <string.h>

#define TAP_OUTPUT_MAX 1024

/* A TAP description: one line, '#' and '\' escaped. */
static void description(struct strbuf *sb, const char *s)
{
	struct strbuf clean = STRBUF_INIT;
	text_clean(&clean, s, 0);
	for (const char *p = clean.buf; *p; p++) {
		if (*p == '#' || *p == '\\')
			strbuf_addch(sb, '\\');
		if (*p == '\n' || *p == '\t')
			strbuf_addch(sb, ' ');
		else
			strbuf_addch(sb, *p);
	}
	strbuf_release(&clean);
}

/* A YAML double-quoted scalar of untrusted text. */
static void yaml_quoted(struct strbuf *sb, const char *s, size_t max)
{
	struct strbuf clean = STRBUF_INIT;
	text_clean(&clean, s, max);
	strbuf_addch(sb, '"');
	for (const char *p = clean.buf; *p; p++) {
		switch (*p) {
		case '"':
			strbuf_addstr(sb, "\\\"");
			break;
		case '\\':
			strbuf_addstr(sb, "\\\\");
			break;
		case '\n':
			strbuf_addstr(sb, "\\n");
			break;
		case '\t':
			strbuf_addstr(sb, "\\t");
			break;
		default:
			strbuf_addch(sb, *p);
		}
	}
	strbuf_addch(sb, '"');
	strbuf_release(&clean);
}

/* with_build: carry the compiler's message (once per problem, on its first listed test) */
static void diagnostics(struct strbuf *sb, const struct view_problem *vp, const struct view_test *vt, bool with_build)
{
	const struct problem *p = vp->problem;
	const struct test_result *t = vt->t;
	struct strbuf line = STRBUF_INIT;

	report_describe(&line, p, vt);
	strbuf_addstr(sb, "  ---\n  message: ");
	yaml_quoted(sb, line.buf, 0);
	strbuf_addf(sb, "\n  severity: %s\n  data:\n    verdict: %s\n", t->verdict == V_JUDGE_ERROR ? "error" : "fail",
		    verdict_name(t->verdict));
	strbuf_addf(sb, "    group: ");
	yaml_quoted(sb, p->groups[t->tc->group].name, 0);
	strbuf_addch(sb, '\n');
	strbuf_reset(&line);
	test_case_format_call(&line, p, t->tc);
	strbuf_addstr(sb, "    call: ");
	yaml_quoted(sb, line.buf, 0);
	strbuf_addch(sb, '\n');
	if (t->has_expected) {
		strbuf_reset(&line);
		problem_format_answer(&line, p, t->tc->func, t->expected);
		strbuf_addf(sb, "    expected: \"%s\"\n", line.buf);
	}
	if (t->has_actual) {
		strbuf_reset(&line);
		problem_format_answer(&line, p, t->tc->func, t->actual);
		strbuf_addf(sb, "    got: \"%s\"\n", line.buf);
	}
	if (vp->build_verdict == V_CORRECT)
		strbuf_addf(sb, "    time_ms: %u\n    limit_ms: %u\n    peak_kb: %llu\n", t->time_ms, t->limit_ms,
			    t->peak_kb);
	if (with_build && vp->build_message) {
		strbuf_addstr(sb, "    compiler: ");
		yaml_quoted(sb, vp->build_message, 0);
		strbuf_addch(sb, '\n');
	}
	if (vt->output) {
		strbuf_addstr(sb, "    output: ");
		yaml_quoted(sb, vt->output, TAP_OUTPUT_MAX);
		strbuf_addch(sb, '\n');
	}
	if (vt->output || vt->output_left_out) /* left out: the problem's "# ... not shown" line says why */
		strbuf_addf(sb, "    output_bytes: %llu\n", t->output_total);
	strbuf_addstr(sb, "  ...\n");
	strbuf_release(&line);
}

/* The problem's "# id title: score / max" line. */
static void problem_line(struct strbuf *sb, const struct view_problem *vp)
{
	const struct problem *p = vp->problem;
	struct strbuf t = STRBUF_INIT;

	strbuf_addstr(sb, "# ");
	description(sb, p->id);
	strbuf_addch(sb, ' ');
	report_title(&t, p);
	description(sb, t.buf);
	strbuf_release(&t);
	strbuf_addstr(sb, ": ");
	text_score(sb, vp->score);
	strbuf_addstr(sb, " / ");
	text_score(sb, vp->max_score);
	if (vp->build_verdict != V_CORRECT)
		strbuf_addf(sb, " (%s)", verdict_words(vp->build_verdict));
	strbuf_addch(sb, '\n');
}

/* A counts-only group as one test point. */
static void group_point(struct strbuf *sb, const struct view_problem *vp, const struct view_group *vg, int n)
{
	bool ok = vg->tally.passed == vg->tally.tests;
	struct strbuf what = STRBUF_INIT;

	strbuf_addf(&what, "%s %s (hidden, %d tests): ", vp->problem->id, vg->group->name, vg->tally.tests);
	report_passed(&what, vg);
	strbuf_addstr(&what, ", ");
	text_score(&what, vg->tally.score);
	strbuf_addstr(&what, " / ");
	text_score(&what, vg->tally.max_score);
	strbuf_addf(sb, "%s %d - ", ok ? "ok" : "not ok", n);
	description(sb, what.buf);
	strbuf_addch(sb, '\n');
	if (!ok) {
		strbuf_addstr(sb, "  ---\n  message: ");
		yaml_quoted(sb, what.buf, 0);
		strbuf_addf(sb, "\n  severity: fail\n  data:\n    group: ");
		yaml_quoted(sb, vg->group->name, 0);
		strbuf_addf(sb, "\n    hidden: true\n    tests: %d\n  ...\n", vg->tally.tests);
	}
	strbuf_release(&what);
}

/* A listed test as one test point. */
static void test_point(struct strbuf *sb, const struct view_problem *vp, const struct view_test *vt, int n,
		       bool *shown_build)
{
	const struct test_result *t = vt->t;

	strbuf_addf(sb, "%s %d - ", t->verdict == V_CORRECT || t->verdict == V_SKIPPED ? "ok" : "not ok", n);
	description(sb, vp->problem->id);
	strbuf_addch(sb, ' ');
	description(sb, t->tc->name);
	if (t->verdict == V_SKIPPED) {
		strbuf_addstr(sb, " # SKIP ");
		description(sb, vt->message);
	}
	strbuf_addch(sb, '\n');
	if (t->verdict != V_CORRECT && t->verdict != V_SKIPPED) {
		bool with_build = vp->build_verdict != V_CORRECT && !*shown_build;
		diagnostics(sb, vp, vt, with_build);
		*shown_build = *shown_build || with_build;
	}
}

/* Test points in the view: listed tests, and one per counts-only group. */
static int points(const struct view *v)
{
	int n = 0;
	for (int i = 0; i < v->nproblems; i++) {
		n += v->problems[i].ntests;
		for (int g = 0; g < v->problems[i].ngroups; g++)
			n += !v->problems[i].groups[g].listed;
	}
	return n;
}

int report_tap(FILE *out, const struct view *v, const struct report_options *o)
{
	struct strbuf sb = STRBUF_INIT;
	int n = 0;

	(void)o;
	fprintf(out, "TAP version 13\n1..%d\n", points(v));
	for (int i = 0; i < v->nproblems; i++) {
		const struct view_problem *vp = &v->problems[i];
		bool shown_build = false;
		strbuf_reset(&sb);
		problem_line(&sb, vp);
		fputs(sb.buf, out);
		for (int g = 0; g < vp->ngroups; g++) {
			const struct view_group *vg = &vp->groups[g];
			strbuf_reset(&sb);
			if (!vg->listed)
				group_point(&sb, vp, vg, ++n);
			fputs(sb.buf, out);
			for (int k = 0; k < vg->ntests; k++) {
				strbuf_reset(&sb);
				test_point(&sb, vp, &vg->tests[k], ++n, &shown_build);
				fputs(sb.buf, out);
			}
		}
		strbuf_reset(&sb);
		if (report_left_out(&sb, vp)) {
			struct strbuf line = STRBUF_INIT;
			strbuf_addstr(&line, "# ");
			description(&line, vp->problem->id);
			strbuf_addstr(&line, ": ");
			description(&line, sb.buf);
			fprintf(out, "%s\n", line.buf);
			strbuf_release(&line);
		}
	}
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "# total: ");
	text_score(&sb, v->score);
	strbuf_addstr(&sb, " / ");
	text_score(&sb, v->max_score);
	fprintf(out, "%s\n", sb.buf);
	strbuf_release(&sb);
	return ferror(out) ? -1 : 0;
}
