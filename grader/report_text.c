/* report_text.c - the student's report: what failed, on which input, and why */
#include "report.h"

#include <stdlib.h>
#include <string.h>

#define MAX_FAILURES_SHOWN 8
#define OUTPUT_LINES_SHOWN 6

struct palette {
	const char *ok, *bad, *dim, *bold, *off;
};

static void print_score(FILE *out, const struct palette *c, double score, double max)
{
	const char *col = score >= max ? c->ok : c->bad;
	fprintf(out, "%s%g / %g%s", col, score, max, c->off);
}

/* A few lines of captured output, indented; control characters made visible. */
static void print_output(FILE *out, const struct palette *c, const struct test_result *t)
{
	int lines = 0;
	const char *p = t->output;
	fprintf(out, "      %syour program printed (%llu bytes):%s\n", c->dim, t->output_total, c->off);
	while (*p && lines < OUTPUT_LINES_SHOWN) {
		fputs("        | ", out);
		for (; *p && *p != '\n'; p++) {
			unsigned char ch = (unsigned char)*p;
			if (ch < 32 && ch != '\t')
				fprintf(out, "\\x%02x", ch);
			else
				fputc(ch, out);
		}
		fputc('\n', out);
		if (*p == '\n')
			p++;
		lines++;
	}
	if (*p || t->output_total > strlen(t->output))
		fprintf(out, "        %s[... cut ...]%s\n", c->dim, c->off);
}

static void print_failure(FILE *out, const struct palette *c, const struct problem *p,
			  const struct test_result *t, const struct report_options *o)
{
	struct strbuf call = STRBUF_INIT;
	const struct signature *sig = &p->funcs[t->tc->func];
	fprintf(out, "  %sx%s %s: %s%s%s\n", c->bad, c->off, t->tc->name, c->bold, verdict_words(t->verdict), c->off);
	test_case_format_call(&call, p, t->tc);
	fprintf(out, "      call:     %s\n", call.buf);
	if (t->has_expected) {
		strbuf_reset(&call);
		answer_format(&call, sig->ret, t->expected);
		fprintf(out, "      expected: %s\n", call.buf);
	}
	if (t->has_actual) {
		strbuf_reset(&call);
		answer_format(&call, sig->ret, t->actual);
		fprintf(out, "      returned: %s\n", call.buf);
	}
	if (t->message && t->verdict != V_WRONG_ANSWER)
		fprintf(out, "      why:      %s\n", t->message);
	if (t->verdict == V_TIMELIMIT || t->verdict == V_MEMORY_LIMIT)
		fprintf(out, "      used:     %u ms CPU (limit %u ms), %llu MiB peak\n", t->time_ms, t->limit_ms,
			t->peak_kb >> 10);
	(void)o;
	if (t->output && *t->output)
		print_output(out, c, t);
	strbuf_release(&call);
}

static void print_problem(FILE *out, const struct palette *c, const struct problem_result *pr,
			  const struct report_options *o)
{
	const struct problem *p = pr->problem;
	int passed = 0, hidden = 0, hidden_passed = 0, shown = 0, not_shown = 0;
	bool *hint_due = xcalloc((size_t)p->ngroups + 1, sizeof(bool));

	fprintf(out, "%s%s%s  %s  ", c->bold, p->id, c->off, p->title);
	print_score(out, c, pr->score, pr->max_score);
	fputc('\n', out);
	if (pr->build_verdict != V_CORRECT) {
		fprintf(out, "  %s%s%s: %s\n", c->bad, verdict_words(pr->build_verdict), c->off,
			pr->build_message ? "" : "");
		if (pr->build_message) {
			const char *s = pr->build_message;
			while (*s) {
				size_t l = strcspn(s, "\n");
				fprintf(out, "    %.*s\n", (int)l, s);
				s += l + (s[l] == '\n');
			}
		}
		fprintf(out, "  %d test%s not run\n\n", pr->ntests, pr->ntests == 1 ? "" : "s");
		free(hint_due);
		return;
	}
	for (int k = 0; k < pr->ntests; k++) {
		const struct test_result *t = &pr->tests[k];
		bool visible = report_visible(t, p, o);
		bool ok = t->verdict == V_CORRECT;
		passed += ok;
		if (!visible) {
			hidden++;
			hidden_passed += ok;
			if (!ok)
				hint_due[t->tc->group] = true;
			continue;
		}
		if (ok) {
			if (o->verbose)
				fprintf(out, "  %sok%s %s (%u ms)\n", c->ok, c->off, t->tc->name, t->time_ms);
			continue;
		}
		hint_due[t->tc->group] = true;
		if (shown < MAX_FAILURES_SHOWN && t->verdict != V_SKIPPED) {
			print_failure(out, c, p, t, o);
			shown++;
		} else {
			not_shown++;
		}
	}
	if (not_shown)
		fprintf(out, "  %s... and %d more failing public test%s (--format json lists all)%s\n", c->dim,
			not_shown, not_shown == 1 ? "" : "s", c->off);
	fprintf(out, "  passed %d of %d tests", passed, pr->ntests);
	if (hidden)
		fprintf(out, " (hidden tests: %d of %d passed)", hidden_passed, hidden);
	fputc('\n', out);
	for (int g = 0; g < p->ngroups; g++)
		if (hint_due[g] && p->groups[g].hint)
			fprintf(out, "  %shint (%s):%s %s\n", c->bold, p->groups[g].name, c->off, p->groups[g].hint);
	fputc('\n', out);
	free(hint_due);
}

int report_text(FILE *out, const struct grade_result *r, const struct report_options *o)
{
	static const struct palette colour = { "\033[32m", "\033[31m", "\033[2m", "\033[1m", "\033[0m" };
	static const struct palette plain = { "", "", "", "", "" };
	const struct palette *c = o->color ? &colour : &plain;
	int tests = 0, passed = 0;

	fprintf(out, "Grading %s\n\n", r->submission);
	for (int i = 0; i < r->nproblems; i++) {
		print_problem(out, c, &r->problems[i], o);
		for (int k = 0; k < r->problems[i].ntests; k++) {
			tests++;
			passed += r->problems[i].tests[k].verdict == V_CORRECT;
		}
	}
	fprintf(out, "%sTotal:%s ", c->bold, c->off);
	print_score(out, c, r->score, r->max_score);
	fprintf(out, "  (%d of %d tests passed, %.1f s)\n", passed, tests, r->elapsed_s);
	if (r->internal_error)
		fprintf(out, "%sSome tests could not be judged because of a problem in the grader, not in your "
			"code: their verdict is judge-error.%s\n", c->bad, c->off);
	return ferror(out) ? -1 : 0;
}
