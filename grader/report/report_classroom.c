/*
 * report_classroom.c - GitHub Classroom's autograding result.
 *
 * One line: the base64 of a JSON object in the shape GitHub Classroom's
 * runner actions give as their `result` output (classroom-resources/
 * autograding-command-grader, -io-grader) and its reporter reads
 * (classroom-resources/autograding-grading-reporter: the step's env var
 * <RUNNER>_RESULTS, base64-decoded, JSON-parsed):
 *
 *   {"version": 1, "status": "pass" | "fail" | "error", "max_score": 122.5,
 *    "tests": [{"name": "p1 Partizan stone game (C)", "status": "pass" | "fail",
 *               "score": 3.3, "max_score": 22, "message": "16 of 842 tests passed; ...",
 *               "test_code": "", "filename": "mywork/p1.c", "line_no": 0,
 *               "duration": 12}, ...]}
 *
 * One Classroom test per problem.  The reporter sends Classroom the sum of
 * the tests' "score" out of the top-level "max_score", so both are the
 * view's: they add up to the score of every other format.  (Its console
 * table shows passed tests / tests x max_score instead: display only.)
 * "status" is "error" when some test could not be judged (the reporter
 * then fails the step), else "fail" when some problem lost points.  The
 * message is short and counts only: how many tests passed as this reader
 * sees them (view.h: hidden groups as counts) and the first failing public
 * test.  "duration" is the CPU time of the listed tests, in ms.
 *
 * base64 without line breaks (nettle's base64_encode_raw), then "\n".
 */
#include "report/report.h"
#include "base/text.h"

#include <jansson.h>
#include <nettle/base64.h>
#include <stdlib.h>
#include <string.h>

#include "report/jsontext.h"

#define MESSAGE_SHOWN 300

static bool problem_passed(const struct view_problem *vp)
{
	return vp->build_verdict == V_CORRECT && vp->tally.passed == vp->tally.tests;
}

/* "16 of 842 tests passed; first failure: AcanWin(1) returned false, expected true" */
static void message(struct strbuf *sb, const struct view_problem *vp)
{
	const struct problem *p = vp->problem;

	if (vp->build_verdict != V_CORRECT) {
		strbuf_addf(sb, "%s: %s", vp->source ? vp->source : p->source, verdict_words(vp->build_verdict));
		return;
	}
	strbuf_addf(sb, "%d of %d tests passed", vp->tally.passed, vp->tally.tests);
	for (int k = 0; k < vp->ntests; k++) {
		const struct view_test *vt = &vp->tests[k];
		if (vt->t->verdict == V_CORRECT || vt->t->verdict == V_SKIPPED)
			continue;
		strbuf_addf(sb, "; first failure: %s: ", vt->t->tc->name);
		report_describe(sb, p, vt);
		break;
	}
}

static json_t *problem_test(const struct view *v, const struct view_problem *vp)
{
	json_t *j = json_object();
	struct strbuf sb = STRBUF_INIT;
	char *file = report_source_path(v, vp);

	strbuf_addf(&sb, "%s ", vp->problem->id);
	report_title(&sb, vp->problem);
	json_object_set_new(j, "name", json_text(sb.buf));
	json_object_set_new(j, "status", json_string(problem_passed(vp) ? "pass" : "fail"));
	json_object_set_new(j, "score", json_real(vp->score));
	json_object_set_new(j, "max_score", json_real(vp->max_score));
	strbuf_reset(&sb);
	message(&sb, vp);
	json_object_set_new(j, "message", json_text_cut(sb.buf, MESSAGE_SHOWN, NULL));
	json_object_set_new(j, "test_code", json_string(""));
	json_object_set_new(j, "filename", json_text(file));
	json_object_set_new(j, "line_no", json_integer(0));
	json_object_set_new(j, "duration", json_integer((json_int_t)vp->tally.cpu_ms));
	strbuf_release(&sb);
	free(file);
	return j;
}

static json_t *result(const struct view *v)
{
	json_t *root = json_object(), *tests = json_array();
	bool all = true;

	for (int i = 0; i < v->nproblems; i++) {
		json_array_append_new(tests, problem_test(v, &v->problems[i]));
		all = all && problem_passed(&v->problems[i]);
	}
	json_object_set_new(root, "version", json_integer(1));
	json_object_set_new(root, "status", json_string(v->internal_error ? "error" : all ? "pass" : "fail"));
	json_object_set_new(root, "max_score", json_real(v->max_score));
	json_object_set_new(root, "tests", tests);
	return root;
}

int report_classroom(FILE *out, const struct view *v, const struct report_options *o)
{
	json_t *root = result(v);
	char *js = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	char *b64;
	size_t l;
	int ret = -1;

	(void)o;
	json_decref(root);
	if (!js)
		return -1;
	l = strlen(js);
	b64 = xmalloc(BASE64_ENCODE_RAW_LENGTH(l) + 1);
	base64_encode_raw(b64, l, (const uint8_t *)js);
	b64[BASE64_ENCODE_RAW_LENGTH(l)] = '\0';
	if (fprintf(out, "%s\n", b64) >= 0 && !ferror(out))
		ret = 0;
	free(b64);
	free(js);
	return ret;
}
