/* result.c - see result.h */
#include "judge/result.h"

#include "judge/growth_result.h"
#include "base/l10n.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name, *words;
} verdicts[V_COUNT] = {
	/* TRANSLATORS: the words are a verdict as a student reads it ("x small/3: wrong answer"); the
	 * identifiers beside them (wrong-answer) are a contract and stay as they are */
	[V_CORRECT] = { "correct", N_("correct") },
	[V_WRONG_ANSWER] = { "wrong-answer", N_("wrong answer") },
	[V_TIMELIMIT] = { "timelimit", N_("time limit exceeded") },
	[V_MEMORY_LIMIT] = { "memory-limit", N_("memory limit exceeded") },
	[V_RUN_ERROR] = { "run-error", N_("crashed (run error)") },
	[V_OUTPUT_LIMIT] = { "output-limit", N_("printed too much (output limit)") },
	[V_NO_OUTPUT] = { "no-output", N_("ended without giving an answer") },
	[V_COMPILER_ERROR] = { "compiler-error", N_("does not compile") },
	[V_MISSING] = { "missing", N_("missing") },
	[V_FORBIDDEN] = { "forbidden", N_("forbidden system call") },
	[V_SKIPPED] = { "skipped", N_("not run") },
	[V_JUDGE_ERROR] = { "judge-error", N_("could not be judged (grader problem)") },
};

const char *verdict_name(enum verdict v)
{
	return v < V_COUNT ? verdicts[v].name : "judge-error";
}

const char *verdict_words(enum verdict v)
{
	return v < V_COUNT ? _(verdicts[v].words) : _("could not be judged");
}

bool verdict_is_costly(enum verdict v)
{
	return v == V_TIMELIMIT || v == V_MEMORY_LIMIT || v == V_RUN_ERROR || v == V_OUTPUT_LIMIT;
}

int verdict_from_name(const char *name)
{
	for (int v = 0; v < V_COUNT; v++)
		if (!strcmp(verdicts[v].name, name))
			return v;
	return -1;
}

/* Points are decimal fractions (0.25, 0.4): keep sums free of binary noise. */
static double tidy(double x)
{
	return round(x * 1e6) / 1e6;
}

void problem_result_score(struct problem_result *pr)
{
	const struct problem *p = pr->problem;
	pr->score = 0;
	pr->max_score = p->max_score;
	for (int g = 0; g < p->ngroups; g++) {
		const struct group *grp = &p->groups[g];
		bool all = true;
		for (int k = grp->first_case; k < grp->first_case + grp->ncases; k++) {
			struct test_result *t = &pr->tests[k];
			bool ok = t->verdict == V_CORRECT;
			if (grp->scoring == SCORE_SUM) {
				t->max_score = grp->points;
				t->score = ok ? grp->points : 0;
				pr->score += t->score;
			} else {
				/* the group's points are shared out so per-test figures add up */
				t->max_score = grp->points / grp->ncases;
				all = all && ok;
			}
		}
		if (grp->scoring == SCORE_ALL_OR_NOTHING) {
			for (int k = grp->first_case; k < grp->first_case + grp->ncases; k++)
				pr->tests[k].score = all ? pr->tests[k].max_score : 0;
			if (all)
				pr->score += grp->points;
		}
	}
	pr->score = tidy(pr->score);
	pr->max_score = tidy(pr->max_score);
}

void grade_result_score(struct grade_result *r)
{
	r->score = r->max_score = 0;
	for (int i = 0; i < r->nproblems; i++) {
		problem_result_score(&r->problems[i]);
		r->score += r->problems[i].score;
		r->max_score += r->problems[i].max_score;
	}
	r->score = tidy(r->score);
	r->max_score = tidy(r->max_score);
}

int grade_result_failures(const struct grade_result *r)
{
	int n = 0;
	for (int i = 0; i < r->nproblems; i++)
		for (int k = 0; k < r->problems[i].ntests; k++)
			n += r->problems[i].tests[k].verdict != V_CORRECT;
	return n;
}

void shrunk_input_free(struct shrunk_input *s, const struct problem *p)
{
	if (!s)
		return;
	for (int i = 0; s->tc.args && i < p->funcs[s->tc.func].ninputs; i++)
		value_release(&s->tc.args[i]);
	free(s->tc.args);
	free(s->from);
	free(s->message);
	free(s);
}

void grade_result_release(struct grade_result *r)
{
	for (int i = 0; i < r->nproblems; i++) {
		struct problem_result *pr = &r->problems[i];
		for (int k = 0; k < pr->ntests; k++) {
			free(pr->tests[k].message);
			free(pr->tests[k].output);
		}
		free(pr->tests);
		free(pr->source);
		free(pr->source_note);
		free(pr->build_message);
		free(pr->startup_output);
		growth_result_free(pr->growth);
		shrunk_input_free(pr->shrunk, pr->problem);
		for (int g = 0; pr->revealed && pr->problem && g < pr->problem->ngroups; g++)
			shrunk_input_free(pr->revealed[g], pr->problem);
		free(pr->revealed);
	}
	free(r->problems);
	free(r->submission);
	free(r->isolation);
	free(r->calibration);
	memset(r, 0, sizeof(*r));
}
