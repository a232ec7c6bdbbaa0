/*
 * report_junit.c - JUnit XML, as GitLab (artifacts:reports:junit) and the
 * GitHub JUnit reporters read it:
 *
 *   testsuites @name @tests @failures @errors @skipped @time
 *     testsuite (one per problem) @name=id @tests @failures @errors @skipped @time
 *       properties: title, score, max_score, source, grader_version
 *       testcase @classname="<problem>.<group>" @name @file @time (seconds)
 *         <failure type message>   a wrong answer
 *         <error type message>     crashes, limits, compile errors, missing, ...
 *         <skipped message/>       not run (all-or-nothing group)
 *         <system-out>             captured output (visible tests only)
 *
 * libxml2's xmlTextWriter does the structure and the escaping; everything
 * that goes into it first passes text_clean(), so whatever bytes a student
 * prints (control characters, invalid UTF-8, "]]>") the file stays
 * well-formed XML 1.0.  Hidden tests carry the verdict in words only.
 */
#include "report.h"
#include "text.h"

#include <libxml/xmlwriter.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct xw {
	xmlTextWriterPtr w;
	int failed;
};

static void check(struct xw *x, int rc)
{
	if (rc < 0)
		x->failed = 1;
}

static void start(struct xw *x, const char *element)
{
	check(x, xmlTextWriterStartElement(x->w, BAD_CAST element));
}

static void end(struct xw *x)
{
	check(x, xmlTextWriterEndElement(x->w));
}

/* An attribute; the value is cleaned (any bytes are fine). */
static void attr(struct xw *x, const char *name, const char *value)
{
	struct strbuf sb = STRBUF_INIT;
	text_clean(&sb, value ? value : "", 0);
	check(x, xmlTextWriterWriteAttribute(x->w, BAD_CAST name, BAD_CAST sb.buf));
	strbuf_release(&sb);
}

__attribute__((format(printf, 3, 4)))
static void attrf(struct xw *x, const char *name, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	attr(x, name, sb.buf);
	strbuf_release(&sb);
}

static void attr_score(struct xw *x, const char *name, double score)
{
	struct strbuf sb = STRBUF_INIT;
	text_score(&sb, score);
	attr(x, name, sb.buf);
	strbuf_release(&sb);
}

/* Text content (already clean, or cleaned here). */
static void text(struct xw *x, const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	text_clean(&sb, s, 0);
	check(x, xmlTextWriterWriteString(x->w, BAD_CAST sb.buf));
	strbuf_release(&sb);
}

static void property(struct xw *x, const char *name, const char *value)
{
	start(x, "property");
	attr(x, "name", name);
	attr(x, "value", value);
	end(x);
}

struct counts {
	int tests, failures, errors, skipped;
};

static void count(struct counts *c, const struct test_result *t)
{
	c->tests++;
	if (t->verdict == V_WRONG_ANSWER)
		c->failures++;
	else if (t->verdict == V_SKIPPED)
		c->skipped++;
	else if (t->verdict != V_CORRECT)
		c->errors++;
}

static void counts_attrs(struct xw *x, const struct counts *c)
{
	attrf(x, "tests", "%d", c->tests);
	attrf(x, "failures", "%d", c->failures);
	attrf(x, "errors", "%d", c->errors);
	attrf(x, "skipped", "%d", c->skipped);
}

/* with_build: carry the compiler's message (once per problem, on its first visible test) */
static void testcase(struct xw *x, const struct problem_result *pr, int k, const char *file, bool with_build,
		     const struct report_options *o)
{
	const struct problem *p = pr->problem;
	const struct test_result *t = &pr->tests[k];
	const char *output = report_output(t, p, o);
	bool visible = report_visible(t, p, o);
	struct strbuf sb = STRBUF_INIT;

	start(x, "testcase");
	attrf(x, "classname", "%s.%s", p->id, p->groups[t->tc->group].name);
	attr(x, "name", t->tc->name);
	attr(x, "file", file);
	/* a hidden test's time could carry its inputs out: 0 for students */
	attrf(x, "time", "%.3f", report_visible(t, p, o) ? t->time_ms / 1000.0 : 0.0);
	if (t->verdict == V_SKIPPED) {
		start(x, "skipped");
		attr(x, "message", report_message(t, p, o));
		end(x);
	} else if (t->verdict != V_CORRECT) {
		report_describe(&sb, p, t, o);
		start(x, t->verdict == V_WRONG_ANSWER ? "failure" : "error");
		attr(x, "type", verdict_name(t->verdict));
		attr(x, "message", sb.buf);
		if (visible) {
			strbuf_reset(&sb);
			report_describe(&sb, p, t, o);
			strbuf_addf(&sb, "\nverdict: %s\n", verdict_words(t->verdict));
			if (pr->build_verdict == V_CORRECT)
				strbuf_addf(&sb, "CPU time: %u ms (limit %u ms), memory: %llu KiB\n", t->time_ms,
					    t->limit_ms, t->peak_kb);
			if (with_build && pr->build_message)
				strbuf_addf(&sb, "\n%s\n", pr->build_message);
			text(x, sb.buf);
		}
		end(x);
	}
	if (output) {
		strbuf_reset(&sb);
		if (text_clean(&sb, output, REPORT_OUTPUT_MAX) || t->output_total > strlen(output))
			strbuf_addf(&sb, "\n[... cut: %llu bytes printed in all]", t->output_total);
		start(x, "system-out");
		check(x, xmlTextWriterWriteString(x->w, BAD_CAST sb.buf));
		end(x);
	}
	end(x);
	strbuf_release(&sb);
}

static void testsuite(struct xw *x, const struct grade_result *r, const struct problem_result *pr,
		      const struct report_options *o)
{
	const struct problem *p = pr->problem;
	struct counts c = { 0, 0, 0, 0 };
	struct report_tally tl;
	char *file = report_source_path(r, pr);
	bool shown_build = false;

	for (int k = 0; k < pr->ntests; k++)
		count(&c, &pr->tests[k]);
	report_tally(pr, -1, &tl);
	start(x, "testsuite");
	attr(x, "name", p->id);
	counts_attrs(x, &c);
	attrf(x, "time", "%.3f", tl.cpu_ms / 1000.0);
	start(x, "properties");
	property(x, "title", p->title);
	property(x, "language", p->lang->display);
	{
		struct strbuf sb = STRBUF_INIT;
		text_score(&sb, pr->score);
		property(x, "score", sb.buf);
		strbuf_reset(&sb);
		text_score(&sb, pr->max_score);
		property(x, "max_score", sb.buf);
		strbuf_release(&sb);
	}
	property(x, "source", file);
	property(x, "build", verdict_name(pr->build_verdict));
	property(x, "grader_version", o->version ? o->version : "");
	end(x);
	for (int k = 0; k < pr->ntests; k++) {
		bool first_visible = pr->build_verdict != V_CORRECT && report_visible(&pr->tests[k], p, o) && !shown_build;
		testcase(x, pr, k, file, first_visible, o);
		shown_build = shown_build || first_visible;
	}
	end(x);
	free(file);
}

int report_junit(FILE *out, const struct grade_result *r, const struct report_options *o)
{
	xmlOutputBufferPtr buf = xmlOutputBufferCreateFile(out, NULL);
	struct xw x = { NULL, 0 };
	struct counts c = { 0, 0, 0, 0 };

	if (!buf)
		return -1;
	x.w = xmlNewTextWriter(buf); /* owns buf from here on */
	if (!x.w) {
		xmlOutputBufferClose(buf);
		return -1;
	}
	check(&x, xmlTextWriterSetIndent(x.w, 1));
	check(&x, xmlTextWriterSetIndentString(x.w, BAD_CAST "  "));
	check(&x, xmlTextWriterStartDocument(x.w, "1.0", "UTF-8", NULL));
	for (int i = 0; i < r->nproblems; i++)
		for (int k = 0; k < r->problems[i].ntests; k++)
			count(&c, &r->problems[i].tests[k]);
	start(&x, "testsuites");
	attr(&x, "name", "grader");
	counts_attrs(&x, &c);
	attrf(&x, "time", "%.3f", r->elapsed_s);
	attr_score(&x, "score", r->score);
	attr_score(&x, "max_score", r->max_score);
	for (int i = 0; i < r->nproblems; i++)
		testsuite(&x, r, &r->problems[i], o);
	end(&x);
	check(&x, xmlTextWriterEndDocument(x.w));
	xmlFreeTextWriter(x.w); /* flushes into out, does not close it */
	return x.failed || ferror(out) ? -1 : 0;
}
