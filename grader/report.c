/* report.c - the table of report formats and what every writer shares */
#include "report.h"

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

/* Length of the valid UTF-8 sequence at s (1-4) and its code point, or 0 when invalid. */
static size_t utf8_decode(const unsigned char *s, unsigned *cp)
{
	unsigned lo = 0x80, hi = 0xbf;
	size_t n;
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		*cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		*cp = s[0] & 0x0f;
		if (s[0] == 0xe0)
			lo = 0xa0; /* overlong */
		else if (s[0] == 0xed)
			hi = 0x9f; /* surrogates */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		*cp = s[0] & 0x07;
		if (s[0] == 0xf0)
			lo = 0x90; /* overlong */
		else if (s[0] == 0xf4)
			hi = 0x8f; /* above U+10FFFF */
	} else {
		return 0;
	}
	for (size_t k = 1; k < n; k++) {
		if (s[k] < (k == 1 ? lo : 0x80) || s[k] > (k == 1 ? hi : 0xbf))
			return 0; /* also stops at the terminating NUL */
		*cp = (*cp << 6) | (s[k] & 0x3f);
	}
	return n;
}

/* Characters that must not reach a terminal or an XML file as they are. */
static bool unsafe_code_point(unsigned cp)
{
	return (cp < 0x20 && cp != '\n' && cp != '\t') || (cp >= 0x7f && cp < 0xa0) ||
	       (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200e ||
	       cp == 0x200f || cp == 0x061c || cp == 0xfeff || cp == 0xfffe || cp == 0xffff;
}

bool report_clean(struct strbuf *sb, const char *s, size_t max_bytes)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t used = 0;

	if (!s)
		return false;
	while (*p) {
		unsigned cp;
		size_t n = utf8_decode(p, &cp);
		if (max_bytes && used + (n ? n : 1) > max_bytes)
			return true;
		if (!n) {
			strbuf_addf(sb, "\\x%02x", *p);
			n = 1;
		} else if (cp == '\r') {
			strbuf_addstr(sb, "\\r");
		} else if (unsafe_code_point(cp)) {
			strbuf_addf(sb, cp < 0x80 ? "\\x%02x" : "\\u%04x", cp);
		} else {
			strbuf_add(sb, p, n);
		}
		p += n;
		used += n;
	}
	return false;
}

void report_describe(struct strbuf *sb, const struct problem *p, const struct test_result *t,
		     const struct report_options *o)
{
	struct strbuf call = STRBUF_INIT;
	const struct signature *sig = &p->funcs[t->tc->func];

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
		answer_format(sb, sig->ret, t->actual);
		strbuf_addstr(sb, ", expected ");
		answer_format(sb, sig->ret, t->expected);
	} else {
		strbuf_addstr(sb, ": ");
		report_clean(sb, report_message(t, p, o), 0);
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

void report_score(struct strbuf *sb, double score)
{
	/* scores are sums of a few decimal points: 10 significant digits drop the float noise */
	strbuf_addf(sb, "%.10g", score);
}
