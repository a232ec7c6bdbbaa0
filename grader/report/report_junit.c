/*
 * report_junit.c - JUnit XML, as GitLab (artifacts:reports:junit) and the
 * GitHub JUnit reporters read it:
 *
 *   testsuites @name @tests @failures @errors @time
 *     testsuite (one per problem) @name=id @tests @failures @errors @skipped @time @file
 *       properties: title, language, score, max_score, source, build,
 *                   grader_version, left_out; on the first testsuite also
 *                   total_score, total_max_score
 *       testcase @classname="<problem>.<group>" @name @time (seconds)
 *         <failure type message>   a wrong answer
 *         <error type message>     crashes, limits, compile errors, missing, ...
 *         <skipped message/>       not run (all-or-nothing group)
 *         <system-out>             captured output
 *       system-out                 what the output budget left out, if anything
 *
 * One testcase per listed test of the view (view.h); a counts-only (hidden)
 * group is one testcase of its own, named "<group> (hidden, N tests)",
 * with a <failure type="hidden-tests"> giving the counts when not all
 * passed - never a testcase per hidden test, so the counts of failures,
 * errors and skipped tests carry nothing about them either.  A testsuite's
 * time is the CPU time of its listed tests.
 *
 * Strict: the file is valid against junit-10.xsd, the schema Jenkins'
 * xunit plugin validates with (tests/reports/junit-10.xsd), where an
 * attribute the schema does not name is an error.  So <testsuites> carries
 * no skipped count and no score (the first testsuite's properties hold the
 * total), and the student's file is the testsuite's @file, not the
 * testcase's (GitLab and the GitHub reporters ignore what they do not know;
 * Jenkins does not).
 *
 * libxml2's xmlTextWriter does the structure and the escaping; everything
 * that goes into it first passes text_clean(), so whatever bytes a student
 * prints (control characters, invalid UTF-8, "]]>") the file stays
 * well-formed XML 1.0.
 */
#include "report/report.h"
#include "base/text.h"

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

static void count(struct counts *c, const struct view_problem *vp)
{
	for (int k = 0; k < vp->ntests; k++) {
		enum verdict v = vp->tests[k].t->verdict;
		c->tests++;
		if (v == V_WRONG_ANSWER)
			c->failures++;
		else if (v == V_SKIPPED)
			c->skipped++;
		else if (v != V_CORRECT)
			c->errors++;
	}
	for (int g = 0; g < vp->ngroups; g++)
		if (!vp->groups[g].listed) {
			c->tests++;
			c->failures += vp->groups[g].tally.passed < vp->groups[g].tally.tests;
		}
}

/* with_skipped: junit-10.xsd has @skipped on <testsuite>, not on <testsuites> */
static void counts_attrs(struct xw *x, const struct counts *c, bool with_skipped)
{
	attrf(x, "tests", "%d", c->tests);
	attrf(x, "failures", "%d", c->failures);
	attrf(x, "errors", "%d", c->errors);
	if (with_skipped)
		attrf(x, "skipped", "%d", c->skipped);
}

/* with_build: carry the compiler's message (once per problem, on its first listed test) */
static void testcase(struct xw *x, const struct view_problem *vp, const struct view_test *vt, bool with_build)
{
	const struct problem *p = vp->problem;
	const struct test_result *t = vt->t;
	struct strbuf sb = STRBUF_INIT;

	start(x, "testcase");
	attrf(x, "classname", "%s.%s", p->id, p->groups[t->tc->group].name);
	attr(x, "name", t->tc->name);
	attrf(x, "time", "%.3f", t->time_ms / 1000.0);
	if (t->verdict == V_SKIPPED) {
		start(x, "skipped");
		attr(x, "message", vt->message);
		end(x);
	} else if (t->verdict != V_CORRECT) {
		report_describe(&sb, p, vt);
		start(x, t->verdict == V_WRONG_ANSWER ? "failure" : "error");
		attr(x, "type", verdict_name(t->verdict));
		attr(x, "message", sb.buf);
		strbuf_addf(&sb, "\nverdict: %s\n", verdict_words(t->verdict));
		if (vp->build_verdict == V_CORRECT)
			strbuf_addf(&sb, "CPU time: %u ms (limit %u ms), memory: %llu KiB\n", t->time_ms, t->limit_ms,
				    t->peak_kb);
		if (with_build && vp->build_message)
			strbuf_addf(&sb, "\n%s\n", vp->build_message);
		text(x, sb.buf);
		end(x);
	}
	if (vt->output) {
		strbuf_reset(&sb);
		strbuf_addstr(&sb, vt->output);
		if (vt->output_cut)
			strbuf_addf(&sb, "\n[... cut: %llu bytes printed in all]", t->output_total);
		start(x, "system-out");
		text(x, sb.buf);
		end(x);
	}
	end(x);
	strbuf_release(&sb);
}

/* A counts-only group: one testcase with its counts. */
static void group_testcase(struct xw *x, const struct view_problem *vp, const struct view_group *vg)
{
	struct strbuf sb = STRBUF_INIT;

	start(x, "testcase");
	attrf(x, "classname", "%s.%s", vp->problem->id, vg->group->name);
	attrf(x, "name", "%s (hidden, %d tests)", vg->group->name, vg->tally.tests);
	attr(x, "time", "0.000");
	if (vg->tally.passed < vg->tally.tests) {
		strbuf_addstr(&sb, "hidden tests: ");
		report_passed(&sb, vg);
		strbuf_addstr(&sb, ", ");
		text_score(&sb, vg->tally.score);
		strbuf_addstr(&sb, " / ");
		text_score(&sb, vg->tally.max_score);
		strbuf_addstr(&sb, " points");
		start(x, "failure");
		attr(x, "type", "hidden-tests");
		attr(x, "message", sb.buf);
		end(x);
	}
	end(x);
	strbuf_release(&sb);
}

static void property_score(struct xw *x, const char *name, double score)
{
	struct strbuf sb = STRBUF_INIT;
	text_score(&sb, score);
	property(x, name, sb.buf);
	strbuf_release(&sb);
}

/* The problem's facts; the first testsuite also carries the run's total (no place for it on <testsuites>). */
static void properties(struct xw *x, const struct view *v, const struct view_problem *vp, const char *file,
		       const struct report_options *o)
{
	const struct problem *p = vp->problem;
	struct strbuf sb = STRBUF_INIT;

	start(x, "properties");
	property(x, "title", p->title);
	property(x, "language", p->lang->display);
	property_score(x, "score", vp->score);
	property_score(x, "max_score", vp->max_score);
	property(x, "source", file);
	property(x, "build", verdict_name(vp->build_verdict));
	property(x, "grader_version", o->version ? o->version : "");
	if (vp == &v->problems[0]) {
		property_score(x, "total_score", v->score);
		property_score(x, "total_max_score", v->max_score);
	}
	if (report_left_out(&sb, vp))
		property(x, "left_out", sb.buf);
	end(x);
	strbuf_release(&sb);
}

static void testsuite(struct xw *x, const struct view *v, const struct view_problem *vp,
		      const struct report_options *o)
{
	struct counts c = { 0, 0, 0, 0 };
	struct strbuf sb = STRBUF_INIT;
	char *file = report_source_path(v, vp);
	bool shown_build = false;

	count(&c, vp);
	start(x, "testsuite");
	attr(x, "name", vp->problem->id);
	counts_attrs(x, &c, true);
	attrf(x, "time", "%.3f", vp->tally.cpu_ms / 1000.0);
	attr(x, "file", file);
	properties(x, v, vp, file, o);
	for (int g = 0; g < vp->ngroups; g++) {
		const struct view_group *vg = &vp->groups[g];
		if (!vg->listed)
			group_testcase(x, vp, vg);
		for (int k = 0; k < vg->ntests; k++) {
			bool with_build = vp->build_verdict != V_CORRECT && !shown_build;
			testcase(x, vp, &vg->tests[k], with_build);
			shown_build = shown_build || with_build;
		}
	}
	if (report_left_out(&sb, vp)) {
		start(x, "system-out");
		text(x, sb.buf);
		end(x);
	}
	end(x);
	strbuf_release(&sb);
	free(file);
}

int report_junit(FILE *out, const struct view *v, const struct report_options *o)
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
	for (int i = 0; i < v->nproblems; i++)
		count(&c, &v->problems[i]);
	start(&x, "testsuites");
	attr(&x, "name", "grader");
	counts_attrs(&x, &c, false);
	if (v->elapsed_s >= 0)
		attrf(&x, "time", "%.3f", v->elapsed_s);
	for (int i = 0; i < v->nproblems; i++)
		testsuite(&x, v, &v->problems[i], o);
	end(&x);
	check(&x, xmlTextWriterEndDocument(x.w));
	xmlFreeTextWriter(x.w); /* flushes into out, does not close it */
	return x.failed || ferror(out) ? -1 : 0;
}
