/*
 * selftest.c - `grader selftest`: is the problem set sound?
 *   1. the reference, graded like any submission, gets full marks
 *      (this also checks every explicit `expected:` against it);
 *   2. every explicit `expected:` agrees with the reference's own answer;
 *   3. a problem with `equivalent_to: Q` has a reference that agrees with
 *      Q's reference on all of Q's cases (p4_dp against p4).
 */
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "cli.h"
#include "sandbox.h"

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
				printf("FAIL %s: the reference gave no answer for '%s'\n", p->id, tc->name);
				bad++;
			} else if (e->ref[i].answer[k] != tc->expected) {
				printf("FAIL %s:%d: '%s' expects %lld but the reference returns %lld\n", p->path, tc->line,
				       tc->name, tc->expected, e->ref[i].answer[k]);
				bad++;
			}
		}
	}
	return bad;
}

/* Grade the reference of p (e.g. p4_dp) on the cases of q (p4), expecting q's answers. */
static int check_equivalent(struct cli *cli, struct engine *e, int pi)
{
	const struct problem *p = e->problems[pi];
	struct problem_set one = PROBLEM_SET_INIT;
	struct problem view;
	struct engine e2;
	struct engine_options opts;
	struct grade_result r;
	struct strbuf err = STRBUF_INIT;
	bool usage;
	int qi = -1, bad = 0;

	for (int i = 0; i < e->nproblems; i++)
		if (!strcmp(e->problems[i]->id, p->equivalent_to))
			qi = i;
	if (qi < 0) {
		printf("skip %s: equivalent_to '%s' is not selected (--only)\n", p->id, p->equivalent_to);
		return 0;
	}
	/* a view of q whose source is p's file: q's cases, answered by p's reference */
	view = *e->problems[qi];
	view.source = p->source;
	one.problems = &view;
	one.nproblems = 1;
	one.dir = e->opts.set->dir;
	cli_engine_options(cli, &opts, &one);
	opts.only = NULL;
	opts.log = NULL;
	if (engine_init(&e2, &opts, &err, &usage) < 0) {
		printf("FAIL %s: %s\n", p->id, err.buf);
		bad = 1;
		goto cleanup;
	}
	reference_lend(&e2, &e->ref[qi]);
	if (engine_grade(&e2, e->opts.reference_dir, &r, &err) < 0) {
		printf("FAIL %s: %s\n", p->id, err.buf);
		bad = 1;
	} else {
		int wrong = grade_result_failures(&r);
		if (wrong) {
			for (int k = 0; k < r.problems[0].ntests; k++) {
				const struct test_result *t = &r.problems[0].tests[k];
				if (t->verdict != V_CORRECT && bad++ < 5)
					printf("FAIL %s disagrees with %s on '%s': %s\n", p->id, view.id, t->tc->name,
					       t->message ? t->message : verdict_name(t->verdict));
			}
		} else {
			printf("ok   %s agrees with %s on all %d of its tests\n", p->id, view.id, r.problems[0].ntests);
		}
		grade_result_release(&r);
	}
	engine_release(&e2);
cleanup:
	strbuf_release(&err);
	return bad;
}

int cmd_selftest(struct cli *cli)
{
	struct problem_set set = PROBLEM_SET_INIT;
	struct engine_options opts;
	struct engine e;
	struct grade_result r;
	struct strbuf err = STRBUF_INIT;
	bool usage = false;
	int bad = 0, ret = GRADER_EXIT_INTERNAL;

	if (cli_load_problems(cli, &set) < 0)
		return GRADER_EXIT_USAGE;
	printf("ok   %d problem files load\n", set.nproblems);
	cli_engine_options(cli, &opts, &set);
	cli_warn_isolation(SANDBOX_OWN_CODE);
	if (engine_init(&e, &opts, &err, &usage) < 0) {
		error("%s", err.buf);
		engine_release(&e);
		problem_set_release(&set);
		strbuf_release(&err);
		return usage ? GRADER_EXIT_USAGE : GRADER_EXIT_INTERNAL;
	}
	if (reference_load(&e, &err) < 0) {
		error("%s", err.buf);
		goto cleanup;
	}
	for (int i = 0; i < e.nproblems; i++)
		if (e.ref[i].failure) {
			printf("FAIL %s\n", e.ref[i].failure);
			bad++;
		}
	if (engine_grade(&e, cli->reference, &r, &err) < 0) {
		error("%s", err.buf);
		goto cleanup;
	}
	for (int i = 0; i < r.nproblems; i++) {
		const struct problem_result *pr = &r.problems[i];
		if (pr->score == pr->max_score) {
			printf("ok   reference %s: full marks (%g / %g)\n", pr->problem->id, pr->score, pr->max_score);
			continue;
		}
		bad++;
		printf("FAIL reference %s: %g / %g\n", pr->problem->id, pr->score, pr->max_score);
		for (int k = 0, shown = 0; k < pr->ntests && shown < 5; k++)
			if (pr->tests[k].verdict != V_CORRECT) {
				shown++;
				printf("       %s: %s%s%s\n", pr->tests[k].tc->name, verdict_name(pr->tests[k].verdict),
				       pr->tests[k].message ? ": " : "", pr->tests[k].message ? pr->tests[k].message : "");
			}
		if (pr->build_message)
			printf("       %s\n", pr->build_message);
	}
	grade_result_release(&r);
	{
		int n = check_expected(&e);
		if (!n)
			printf("ok   every explicit expected value agrees with the reference\n");
		bad += n;
	}
	for (int i = 0; i < e.nproblems; i++)
		if (e.problems[i]->equivalent_to)
			bad += check_equivalent(cli, &e, i);
	printf("%s\n", bad ? "selftest FAILED" : "selftest passed");
	ret = bad ? GRADER_EXIT_FAILED : GRADER_EXIT_OK;
cleanup:
	engine_release(&e);
	problem_set_release(&set);
	strbuf_release(&err);
	return ret;
}
