/* view.c - see view.h */
#include "report/view.h"

#include <stdlib.h>
#include <string.h>

#include "judge/growth.h"
#include "base/text.h"
#include "base/l10n.h"

/* What every failing test of grp returned, when it was never a number: None, or another type (view.h). */
static enum returned_kind group_returned(const struct group *grp, const struct test_result *tests)
{
	enum returned_kind r = RETURNED_NUMBER;
	for (int k = grp->first_case; k < grp->first_case + grp->ncases; k++) {
		const struct test_result *t = &tests[k];
		if (t->verdict == V_CORRECT || t->verdict == V_SKIPPED)
			continue;
		if (t->returned == RETURNED_NUMBER)
			return RETURNED_NUMBER;
		if (r != RETURNED_OTHER_TYPE)
			r = t->returned;
	}
	return r;
}

/*
 * Did the group stop after fewer than REPEATED_FAILURES failures of one kind in
 * a row (case order), because an earlier group had failed that way so often?
 */
static bool stopped_elsewhere(const struct group *grp, const struct test_result *tests)
{
	int row = 0;
	for (int k = grp->first_case; k < grp->first_case + grp->ncases && grp->scoring != SCORE_ALL_OR_NOTHING; k++) {
		const struct test_result *t = &tests[k];
		if (t->verdict == V_SKIPPED)
			return row > 0 && row < REPEATED_FAILURES;
		row = verdict_is_costly(t->verdict) && row && t->verdict == tests[k - 1].verdict ? row + 1
		      : verdict_is_costly(t->verdict) ? 1 : 0;
	}
	return false;
}

/* Counts over a group whose tests are listed: the facts as they are. */
static void tally_listed(struct view_tally *tl, const struct group *grp, const struct test_result *t)
{
	tl->tests++;
	tl->passed += t->verdict == V_CORRECT;
	tl->skipped += t->verdict == V_SKIPPED;
	tl->failed += t->verdict != V_CORRECT && t->verdict != V_SKIPPED;
	if (t->verdict == V_SKIPPED && grp->scoring != SCORE_ALL_OR_NOTHING) {
		tl->unrun++;
		tl->unrun_points += t->max_score;
	}
	tl->score += t->score;
	tl->max_score += t->max_score;
	tl->cpu_ms += t->time_ms;
	tl->remeasured += t->runs > 1;
	if (t->peak_kb > tl->peak_kb)
		tl->peak_kb = t->peak_kb;
	if (t->limit_ms > tl->limit_ms)
		tl->limit_ms = t->limit_ms;
}

/* Counts over a counts-only group: passed of N and points, nothing that depends on order or resources. */
static void tally_counts_only(struct view_tally *tl, const struct group *grp, const struct test_result *tests)
{
	int correct = 0, skipped = 0;

	for (int k = 0; k < grp->ncases; k++) {
		const struct test_result *t = &tests[grp->first_case + k];
		correct += t->verdict == V_CORRECT;
		if (t->verdict == V_SKIPPED && grp->scoring != SCORE_ALL_OR_NOTHING) {
			skipped++;
			tl->unrun++;
			tl->unrun_points += t->max_score;
		}
		tl->score += t->score;
		tl->max_score += t->max_score;
		if (t->limit_ms > tl->limit_ms)
			tl->limit_ms = t->limit_ms;
	}
	if (grp->scoring == SCORE_ALL_OR_NOTHING && correct < grp->ncases)
		correct = 0;
	tl->tests = grp->ncases;
	tl->passed = correct;
	tl->skipped = skipped;
	tl->failed = grp->ncases - correct - skipped;
}

static void tally_add(struct view_tally *sum, const struct view_tally *tl)
{
	sum->tests += tl->tests;
	sum->passed += tl->passed;
	sum->failed += tl->failed;
	sum->skipped += tl->skipped;
	sum->unrun += tl->unrun;
	sum->unrun_points += tl->unrun_points;
	sum->score += tl->score;
	sum->max_score += tl->max_score;
	sum->cpu_ms += tl->cpu_ms;
	sum->remeasured += tl->remeasured;
	if (tl->peak_kb > sum->peak_kb)
		sum->peak_kb = tl->peak_kb;
	if (tl->limit_ms > sum->limit_ms)
		sum->limit_ms = tl->limit_ms;
}

static char *cleaned(const char *s, size_t max_bytes, bool *cut)
{
	struct strbuf sb = STRBUF_INIT;
	bool c = text_clean(&sb, s, max_bytes);
	if (cut)
		*cut = c;
	return strbuf_detach(&sb);
}

/* A long message's first line, at most VIEW_MESSAGE_SHORT bytes, marked as cut. */
static char *first_line(const char *msg)
{
	size_t l = strcspn(msg, "\n");
	struct strbuf sb = STRBUF_INIT;
	char *line;

	if (l > VIEW_MESSAGE_SHORT - 6)
		l = VIEW_MESSAGE_SHORT - 6;
	while (l && ((unsigned char)msg[l] & 0xc0) == 0x80)
		l--; /* not inside a UTF-8 character */
	line = xstrndup(msg, l);
	strbuf_addf(&sb, "%s [...]", line);
	free(line);
	return strbuf_detach(&sb);
}

/* The message of a test that is not correct: whole when short or while the budget lasts. */
static void give_message(struct view_test *vt, struct view_problem *vp, size_t *budget)
{
	const struct test_result *t = vt->t;
	char *msg;
	size_t len;

	if (t->verdict == V_CORRECT)
		return;
	msg = cleaned(t->message ? t->message : verdict_words(t->verdict), 0, NULL);
	len = strlen(msg);
	if (len > VIEW_MESSAGE_SHORT) {
		if (len <= *budget) {
			*budget -= len;
		} else {
			char *line = first_line(msg);
			free(msg);
			msg = line;
			vt->message_cut = true;
			vp->messages_cut++;
		}
	}
	vt->message = msg;
	if (l10n_active()) {
		/* the same message in the students' language, cut where the English one was (the budget counts English) */
		char *local;
		l10n_begin();
		local = cleaned(t->message ? l10n_message(t->message) : verdict_words(t->verdict), 0, NULL);
		l10n_end();
		if (vt->message_cut) {
			char *line = first_line(local);
			free(local);
			local = line;
		}
		if (strcmp(local, msg))
			vt->message_local = local;
		else
			free(local);
	}
}

const char *view_message(const struct view_test *vt)
{
	return vt->message_local && l10n_speaking() ? vt->message_local : vt->message;
}

/* The captured output of a test: shown while the budget lasts, else counted as left out. */
static void give_output(struct view_test *vt, struct view_problem *vp, size_t *budget)
{
	const struct test_result *t = vt->t;
	bool cut = false;
	char *out;
	size_t len;

	if (!t->output || !*t->output)
		return;
	out = cleaned(t->output, VIEW_OUTPUT_MAX, &cut);
	len = strlen(out);
	if (len > *budget) {
		free(out);
		vt->output_left_out = vt->output_cut = true;
		vp->output_left_out++;
		vp->output_left_out_bytes += t->output_total > strlen(t->output) ? t->output_total : strlen(t->output);
		return;
	}
	*budget -= len;
	vt->output = out;
	vt->output_cut = cut || t->output_total > strlen(t->output);
}

/* Messages and output of the listed tests, failing tests first, within the problem's budget. */
static void share_budget(struct view_problem *vp)
{
	size_t budget = VIEW_OUTPUT_BUDGET;

	for (int pass = 0; pass < 2; pass++)
		for (int k = 0; k < vp->ntests; k++) {
			struct view_test *vt = &vp->tests[k];
			bool failing = vt->t->verdict != V_CORRECT && vt->t->verdict != V_SKIPPED;
			if (failing != (pass == 0))
				continue;
			give_message(vt, vp, &budget);
			give_output(vt, vp, &budget);
		}
}

static void build_problem(struct view_problem *vp, const struct problem_result *pr, bool instructor)
{
	const struct problem *p = pr->problem;
	int n = 0;

	vp->problem = p;
	vp->source = pr->source;
	vp->source_note = pr->source_note;
	vp->build_verdict = pr->build_verdict;
	vp->build_message = pr->build_message;
	vp->compile_ms = pr->compile_ms;
	/* printed after hidden tests ran, it could tell how long they took */
	if (instructor || !pr->startup_hidden) {
		vp->startup_output = pr->startup_output;
		vp->startup_total = pr->startup_total;
	}
	vp->growth = pr->growth && (instructor || !pr->growth->from_hidden) ? pr->growth : NULL;
	vp->score = pr->score;
	vp->max_score = pr->max_score;
	vp->ngroups = p->ngroups;
	vp->groups = xcalloc((size_t)p->ngroups + 1, sizeof(*vp->groups));
	vp->tests = xcalloc((size_t)pr->ntests + 1, sizeof(*vp->tests));
	for (int g = 0; g < p->ngroups; g++) {
		struct view_group *vg = &vp->groups[g];
		const struct group *grp = &p->groups[g];
		vg->group = grp;
		vg->listed = instructor || grp->visibility == VIS_PUBLIC;
		vg->returned = group_returned(grp, pr->tests);
		vg->stopped_elsewhere = stopped_elsewhere(grp, pr->tests);
		if (!vg->listed) {
			tally_counts_only(&vg->tally, grp, pr->tests);
			tally_add(&vp->unlisted, &vg->tally);
			/* only there when the grading was asked to reveal it: after the deadline (shrink_hidden) */
			vg->revealed = pr->revealed ? pr->revealed[g] : NULL;
		} else {
			vg->tests = &vp->tests[n];
			for (int k = grp->first_case; k < grp->first_case + grp->ncases; k++) {
				vp->tests[n++].t = &pr->tests[k];
				tally_listed(&vg->tally, grp, &pr->tests[k]);
			}
			vg->ntests = vg->tally.tests;
		}
		tally_add(&vp->tally, &vg->tally);
	}
	vp->ntests = n;
	/* shrink.h searches from public tests only; the rule holds here too, as for every hidden test */
	if (pr->shrunk && vp->groups[pr->shrunk->tc.group].listed)
		vp->shrunk = pr->shrunk;
	share_budget(vp);
}

void view_build(struct view *v, const struct grade_result *r, bool instructor)
{
	memset(v, 0, sizeof(*v));
	v->instructor = instructor;
	v->submission = r->submission;
	v->isolation = r->isolation;
	v->calibration = r->calibration;
	v->remeasured_cpu_ms = instructor ? r->remeasured_cpu_ms : 0;
	v->score = r->score;
	v->max_score = r->max_score;
	v->elapsed_s = r->elapsed_s; /* withheld below when a hidden group is not listed */
	v->internal_error = r->internal_error;
	v->nproblems = r->nproblems;
	v->problems = xcalloc((size_t)r->nproblems + 1, sizeof(*v->problems));
	for (int i = 0; i < r->nproblems; i++) {
		build_problem(&v->problems[i], &r->problems[i], instructor);
		tally_add(&v->tally, &v->problems[i].tally);
		/* the run's wall-clock time includes the hidden tests': a test that sleeps as long as its
		 * input says, costing no CPU, would read the input back from it */
		if (v->problems[i].unlisted.tests)
			v->elapsed_s = -1;
	}
}

void view_release(struct view *v)
{
	for (int i = 0; i < v->nproblems; i++) {
		struct view_problem *vp = &v->problems[i];
		for (int k = 0; k < vp->ntests; k++) {
			free(vp->tests[k].message);
			free(vp->tests[k].message_local);
			free(vp->tests[k].output);
		}
		free(vp->tests);
		free(vp->groups);
	}
	free(v->problems);
	memset(v, 0, sizeof(*v));
}
