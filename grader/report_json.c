/* report_json.c - the machine-readable contract (jansson does the escaping) */
#include "report.h"

#include <jansson.h>
#include <string.h>

#include "version.h"

/* jansson wants UTF-8: anything else a program printed is replaced byte by byte */
static json_t *json_bytes(const char *s)
{
	json_t *j;
	struct strbuf sb = STRBUF_INIT;
	if (!s)
		return json_null();
	j = json_string(s);
	if (j)
		return j;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x80)
			strbuf_addch(&sb, *p);
		else
			strbuf_addstr(&sb, "\xef\xbf\xbd"); /* U+FFFD */
	}
	j = json_string(sb.buf);
	strbuf_release(&sb);
	return j ? j : json_string("");
}

static json_t *test_json(const struct problem *p, const struct test_result *t, const struct report_options *o)
{
	const struct group *g = &p->groups[t->tc->group];
	bool visible = report_visible(t, p, o);
	const char *msg = report_message(t, p, o);
	json_t *j = json_object();

	json_object_set_new(j, "name", json_string(t->tc->name));
	json_object_set_new(j, "group", json_string(g->name));
	json_object_set_new(j, "visibility", json_string(visibility_name(g->visibility)));
	json_object_set_new(j, "verdict", json_string(verdict_name(t->verdict)));
	json_object_set_new(j, "score", json_real(t->score));
	json_object_set_new(j, "max_score", json_real(t->max_score));
	json_object_set_new(j, "time_ms", json_integer(t->time_ms));
	json_object_set_new(j, "limit_ms", json_integer(t->limit_ms));
	json_object_set_new(j, "peak_kb", json_integer((json_int_t)t->peak_kb));
	json_object_set_new(j, "message", msg ? json_bytes(msg) : json_null());
	if (visible) {
		struct strbuf sb = STRBUF_INIT;
		test_case_format_call(&sb, p, t->tc);
		json_object_set_new(j, "call", json_string(sb.buf));
		strbuf_release(&sb);
		if (t->has_expected)
			json_object_set_new(j, "expected", json_integer(t->expected));
		if (t->has_actual)
			json_object_set_new(j, "actual", json_integer(t->actual));
		json_object_set_new(j, "output", json_bytes(t->output));
		json_object_set_new(j, "output_bytes", json_integer((json_int_t)t->output_total));
	}
	return j;
}

int report_json(FILE *out, const struct grade_result *r, const struct report_options *o)
{
	json_t *root = json_object(), *problems = json_array();
	int ret;

	json_object_set_new(root, "grader_version", json_string(GRADER_VERSION));
	json_object_set_new(root, "submission", json_bytes(r->submission));
	json_object_set_new(root, "score", json_real(r->score));
	json_object_set_new(root, "max_score", json_real(r->max_score));
	json_object_set_new(root, "execution_time", json_real(r->elapsed_s));
	json_object_set_new(root, "isolation", json_string(r->isolation ? r->isolation : ""));
	json_object_set_new(root, "internal_error", json_boolean(r->internal_error));
	for (int i = 0; i < r->nproblems; i++) {
		const struct problem_result *pr = &r->problems[i];
		const struct problem *p = pr->problem;
		json_t *pj = json_object(), *tests = json_array(), *limits = json_object();
		json_object_set_new(pj, "id", json_string(p->id));
		json_object_set_new(pj, "title", json_string(p->title));
		json_object_set_new(pj, "source", pr->source ? json_bytes(pr->source) : json_null());
		json_object_set_new(pj, "score", json_real(pr->score));
		json_object_set_new(pj, "max_score", json_real(pr->max_score));
		json_object_set_new(pj, "build", json_string(verdict_name(pr->build_verdict)));
		json_object_set_new(pj, "build_message", json_bytes(pr->build_message));
		json_object_set_new(limits, "memory_mb", json_integer(p->limits.memory_mb));
		json_object_set_new(limits, "output_kb", json_integer(p->limits.output_kb));
		json_object_set_new(pj, "limits", limits);
		for (int k = 0; k < pr->ntests; k++)
			json_array_append_new(tests, test_json(p, &pr->tests[k], o));
		json_object_set_new(pj, "tests", tests);
		json_array_append_new(problems, pj);
	}
	json_object_set_new(root, "problems", problems);
	ret = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(root);
	return ret < 0 || ferror(out) ? -1 : 0;
}
