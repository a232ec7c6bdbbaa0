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
 * the run still fails through the test that caused the skip.  Hidden tests
 * get the verdict in words and nothing else.
 */
#include "report.h"
#include "text.h"

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

/* with_build: carry the compiler's message (once per problem, on its first visible test) */
static void diagnostics(struct strbuf *sb, const struct problem_result *pr, const struct test_result *t,
			bool with_build, const struct report_options *o)
{
	const struct problem *p = pr->problem;
	const char *output = report_output(t, p, o);
	struct strbuf line = STRBUF_INIT;

	report_describe(&line, p, t, o);
	strbuf_addstr(sb, "  ---\n  message: ");
	yaml_quoted(sb, line.buf, 0);
	strbuf_addf(sb, "\n  severity: %s\n  data:\n    verdict: %s\n", t->verdict == V_JUDGE_ERROR ? "error" : "fail",
		    verdict_name(t->verdict));
	strbuf_addf(sb, "    group: ");
	yaml_quoted(sb, p->groups[t->tc->group].name, 0);
	strbuf_addch(sb, '\n');
	if (report_visible(t, p, o)) {
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
		if (pr->build_verdict == V_CORRECT)
			strbuf_addf(sb, "    time_ms: %u\n    limit_ms: %u\n    peak_kb: %llu\n", t->time_ms,
				    t->limit_ms, t->peak_kb);
		if (with_build && pr->build_message) {
			strbuf_addstr(sb, "    compiler: ");
			yaml_quoted(sb, pr->build_message, 0);
			strbuf_addch(sb, '\n');
		}
		if (output) {
			strbuf_addstr(sb, "    output: ");
			yaml_quoted(sb, output, TAP_OUTPUT_MAX);
			strbuf_addf(sb, "\n    output_bytes: %llu\n", t->output_total);
		}
	}
	strbuf_addstr(sb, "  ...\n");
	strbuf_release(&line);
}

int report_tap(FILE *out, const struct grade_result *r, const struct report_options *o)
{
	struct strbuf sb = STRBUF_INIT;
	int n = 0;

	fprintf(out, "TAP version 13\n1..%d\n", report_total_tests(r));
	for (int i = 0; i < r->nproblems; i++) {
		const struct problem_result *pr = &r->problems[i];
		const struct problem *p = pr->problem;
		bool shown_build = false;
		strbuf_reset(&sb);
		strbuf_addstr(&sb, "# ");
		description(&sb, p->id);
		strbuf_addch(&sb, ' ');
		{
			struct strbuf t = STRBUF_INIT;
			report_title(&t, p);
			description(&sb, t.buf);
			strbuf_release(&t);
		}
		strbuf_addstr(&sb, ": ");
		text_score(&sb, pr->score);
		strbuf_addstr(&sb, " / ");
		text_score(&sb, pr->max_score);
		if (pr->build_verdict != V_CORRECT)
			strbuf_addf(&sb, " (%s)", verdict_words(pr->build_verdict));
		fprintf(out, "%s\n", sb.buf);
		for (int k = 0; k < pr->ntests; k++) {
			const struct test_result *t = &pr->tests[k];
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%s %d - ", t->verdict == V_CORRECT || t->verdict == V_SKIPPED ? "ok" : "not ok",
				    ++n);
			description(&sb, p->id);
			strbuf_addch(&sb, ' ');
			description(&sb, t->tc->name);
			if (t->verdict == V_SKIPPED) {
				strbuf_addstr(&sb, " # SKIP ");
				description(&sb, report_message(t, p, o));
			}
			strbuf_addch(&sb, '\n');
			if (t->verdict != V_CORRECT && t->verdict != V_SKIPPED) {
				bool with_build = pr->build_verdict != V_CORRECT && !shown_build && report_visible(t, p, o);
				diagnostics(&sb, pr, t, with_build, o);
				shown_build = shown_build || with_build;
			}
			fputs(sb.buf, out);
		}
	}
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "# total: ");
	text_score(&sb, r->score);
	strbuf_addstr(&sb, " / ");
	text_score(&sb, r->max_score);
	fprintf(out, "%s\n", sb.buf);
	strbuf_release(&sb);
	return ferror(out) ? -1 : 0;
}
