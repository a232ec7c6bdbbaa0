/*
 * cmd/selftest.c - `grader selftest`: is the problem set sound?
 *   1. every language's reference, graded like any submission, gets full
 *      marks (reference/ for C, reference/python/ for Python; this also
 *      checks every explicit `expected:` against it);
 *   2. every explicit `expected:` agrees with the reference's own answer;
 *   3. the languages agree: the first language's reference (C) is graded on
 *      every other language's variant of the problem - its cases, the
 *      answers of that language's reference - and must get full marks;
 *   4. a problem with `equivalent_to: Q` has a reference that agrees with
 *      Q's reference on all of Q's cases, in every language (p4_dp and p4).
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "judge/reference.h"
#include "sandbox/sandbox.h"

static int check_expected(const struct engine *e)
{
	int bad = 0;
	for (int i = 0; i < e->nproblems; i++) {
		const struct problem *p = e->problems[i];
		for (int k = 0; k < p->ncases; k++) {
			const struct test_case *tc = &p->cases[k];
			if (!tc->has_expected)
				continue;
			if (!e->ref[i].have[k]) {
				printf("FAIL %s (%s): the reference gave no answer for '%s'\n", p->id, p->lang->name, tc->name);
				bad++;
			} else if (e->ref[i].answer[k] != tc->expected) {
				printf("FAIL %s:%d: '%s' expects %lld but the %s reference returns %lld\n", p->path, tc->line,
				       tc->name, tc->expected, p->lang->name, e->ref[i].answer[k]);
				bad++;
			}
		}
	}
	return bad;
}

/*
 * Print the failing tests of a problem result (at most 5), graded from dir.
 * A reference file missing from dir is the instructor's setup: one line
 * saying so, not the per-test "no file in your submission" a student gets.
 */
static void show_failures(const struct problem_result *pr, const char *dir, const char *what)
{
	int shown = 0;
	if (pr->build_verdict == V_MISSING) {
		printf("       the reference directory '%s' has no file '%s' (check --reference, or add the file)\n", dir,
		       pr->problem->source);
		return;
	}
	for (int k = 0; k < pr->ntests && shown < 5; k++)
		if (pr->tests[k].verdict != V_CORRECT) {
			shown++;
			printf("       %s%s: %s%s%s\n", what, pr->tests[k].tc->name, verdict_name(pr->tests[k].verdict),
			       pr->tests[k].message ? ": " : "", pr->tests[k].message ? pr->tests[k].message : "");
		}
	if (pr->build_message)
		printf("       %s\n", pr->build_message);
}

/*
 * Grade code_from's reference (its language's reference directory, its
 * file) on the cases of `cases`, expecting `answers` (the answers of
 * cases's own reference).  0 when they agree on every test.
 */
static int check_agreement(struct cli *cli, const struct engine *e, const struct problem *cases,
			   struct reference_answers *answers, const struct problem *code_from)
{
	struct problem_set one = PROBLEM_SET_INIT;
	struct problem view = *cases;
	struct engine e2;
	struct engine_options opts;
	struct grade_result r;
	struct strbuf err = STRBUF_INIT;
	char *dir = reference_dir(e, code_from->lang);
	bool usage;
	int bad = 0;

	/* cases's tests and answers, run by code_from's reference */
	view.lang = code_from->lang;
	view.source = code_from->source;
	view.calls = code_from->calls;
	view.variants = NULL;
	view.nvariants = 0;
	view.nlanguages = 1;
	/* the two references compared with each other: an explicit expected: value, wrong or right, is check 2's
	 * (a wrong one would make both "disagree" though they return the same value; issue 31) */
	view.cases = xcalloc((size_t)cases->ncases + 1, sizeof(*view.cases));
	memcpy(view.cases, cases->cases, (size_t)cases->ncases * sizeof(*view.cases));
	for (int k = 0; k < cases->ncases; k++)
		view.cases[k].has_expected = false;
	one.problems = &view;
	one.nproblems = 1;
	one.dir = e->opts.set->dir;
	cli_engine_options(cli, &opts, &one);
	opts.only = NULL;
	opts.log = NULL;
	if (engine_init(&e2, &opts, &err, &usage) < 0) {
		printf("FAIL %s: %s\n", code_from->id, err.buf);
		bad = 1;
		goto cleanup;
	}
	reference_lend(&e2, answers);
	if (engine_grade(&e2, dir, &r, &err) < 0) {
		printf("FAIL %s: %s\n", code_from->id, err.buf);
		bad = 1;
	} else {
		bad = grade_result_failures(&r) != 0;
		if (bad) {
			printf("FAIL the %s reference of %s disagrees with the %s reference of %s:\n", code_from->lang->name,
			       code_from->id, cases->lang->name, cases->id);
			show_failures(&r.problems[0], dir, "");
		} else {
			printf("ok   the %s reference of %s agrees with the %s reference of %s on all %d of its tests\n",
			       code_from->lang->name, code_from->id, cases->lang->name, cases->id, r.problems[0].ntests);
		}
		grade_result_release(&r);
	}
cleanup:
	engine_release(&e2);
	strbuf_release(&err);
	free(dir);
	free(view.cases); /* the copy's array; its cases' contents are cases's */
	return bad;
}

/* 1: each language's reference directory, graded: full marks for every problem of that language. */
static int check_references(struct engine *e)
{
	struct strbuf err = STRBUF_INIT;
	int bad = 0;

	for (int l = 0; languages[l]; l++) {
		struct grade_result r;
		char *dir;
		bool used = false;
		for (int i = 0; i < e->nproblems; i++)
			used |= e->problems[i]->lang == languages[l];
		if (!used)
			continue;
		dir = reference_dir(e, languages[l]);
		if (engine_grade(e, dir, &r, &err) < 0) {
			error("%s", err.buf);
			free(dir);
			strbuf_release(&err);
			return bad + 1;
		}
		for (int i = 0; i < r.nproblems; i++) {
			const struct problem_result *pr = &r.problems[i];
			if (pr->problem->lang != languages[l])
				continue; /* no file of this language there: another language's problem */
			if (pr->score == pr->max_score) {
				printf("ok   reference %s (%s): full marks (%g / %g)\n", pr->problem->id, languages[l]->name,
				       pr->score, pr->max_score);
				continue;
			}
			bad++;
			printf("FAIL reference %s (%s, %s): %g / %g\n", pr->problem->id, languages[l]->name, dir, pr->score,
			       pr->max_score);
			show_failures(pr, dir, "");
		}
		grade_result_release(&r);
		free(dir);
	}
	strbuf_release(&err);
	return bad;
}

/* 3 and 4: languages against each other, equivalent problems against each other. */
static int check_agreements(struct cli *cli, struct engine *e)
{
	int bad = 0;
	for (int k = 0; k < e->nids; k++) {
		int first = e->first_variant[k];
		for (int v = first + 1; v < e->first_variant[k + 1]; v++)
			bad += check_agreement(cli, e, e->problems[v], &e->ref[v], e->problems[first]);
	}
	for (int i = 0; i < e->nproblems; i++) {
		const struct problem *p = e->problems[i];
		int qi = -1;
		if (!p->equivalent_to)
			continue;
		for (int j = 0; j < e->nproblems; j++)
			if (!strcmp(e->problems[j]->id, p->equivalent_to) && e->problems[j]->lang == p->lang)
				qi = j;
		if (qi < 0)
			printf("skip %s (%s): equivalent_to '%s' is not selected (--only)\n", p->id, p->lang->name,
			       p->equivalent_to);
		else
			bad += check_agreement(cli, e, e->problems[qi], &e->ref[qi], p);
	}
	return bad;
}

/*
 * A file whose name is not its id (zeta in a.yaml) loads: the id is what
 * --only, reports and the cache use, and test sets rename files freely.
 * But an instructor looking for problem zeta will look for zeta.yaml, so
 * selftest, the instructor's check, says so (a note: not a failure).
 */
static void note_misnamed(const struct problem_set *set)
{
	for (int i = 0; i < set->nproblems; i++) {
		const struct problem *p = &set->problems[i];
		const char *base = strrchr(p->path, '/') ? strrchr(p->path, '/') + 1 : p->path;
		size_t len = strcspn(base, ".");
		if (len != strlen(p->id) || strncmp(base, p->id, len))
			printf("note '%s' has id '%s': naming it %s.yaml makes it easier to find\n", p->path, p->id,
			       p->id);
	}
}

int cmd_selftest(struct cli *cli)
{
	struct problem_set set = PROBLEM_SET_INIT;
	struct engine e;
	int bad = 0, ret = GRADER_EXIT_INTERNAL;

	if (cli_load_problems(cli, &set) < 0)
		return GRADER_EXIT_USAGE;
	printf("ok   %d problem files load\n", set.nproblems);
	note_misnamed(&set);
	ret = cli_start_engine(cli, &set, &e);
	if (ret)
		goto cleanup;
	for (int i = 0; i < e.nproblems; i++)
		if (e.ref[i].failure) {
			printf("FAIL %s\n", e.ref[i].failure);
			bad++;
		}
	bad += check_references(&e);
	{
		int n = check_expected(&e);
		if (!n)
			printf("ok   every explicit expected value agrees with the reference\n");
		bad += n;
	}
	bad += check_agreements(cli, &e);
	printf("%s\n", bad ? "selftest FAILED" : "selftest passed");
	ret = bad ? GRADER_EXIT_FAILED : GRADER_EXIT_OK;
cleanup:
	engine_release(&e);
	problem_set_release(&set);
	return ret;
}
