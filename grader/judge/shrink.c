/* shrink.c - see shrink.h */
#define _GNU_SOURCE
#include "judge/shrink.h"
#include "base/l10n.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/interrupt.h"
#include "run/runner.h"
#include "judge/verdict.h"

/* What the candidate at an index of a pass is. */
enum cand { CAND_END, CAND_SKIP, CAND_OK };
enum pass { PASS_LENGTHS, PASS_INTEGERS, PASS_ELEMENTS, PASS_COUNT };

/* One search: the problem, the two programs, the input found so far, the budget. */
struct shrinker {
	const struct judge_context *c;
	const struct problem *p;
	int func, nargs;
	const struct arg_bounds *gen;
	const struct build_result *student;
	struct build_result ref;
	struct pool *pool;
	unsigned cpu_ms, wall_ms, memory_mb, output_kb;
	enum verdict want;
	struct shrunk_input *found;  /* the input found so far (found->tc.args) */
	long long resume[PASS_COUNT];/* per pass: where its last success was (chunk size, argument, element) */
	bool start_failed;           /* the submission failed before its tests: no input is to blame */
	uint64_t started;
	uint64_t slowest_step_us;    /* the longest one step (the reference's answers, or a batch) took so far */
};


/* The value nearest 0 within [lo, hi]: where integers and elements shrink to. */
static long long target(long long lo, long long hi)
{
	return lo > 0 ? lo : hi < 0 ? hi : 0;
}

static int compare_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;
	return x < y ? -1 : x > y;
}

/*
 * The values tried instead of v, as distances from t (v itself excluded),
 * nearest t first: 0 and 1, then d/2^j and d - d/2^j for every j, so
 * that a failure at some threshold is closed in on as a binary search does
 * (d = |v - t|).  Unsigned: d may not fit a long long.  Returns how many.
 */
static int ladder_steps(unsigned long long d, unsigned long long steps[128])
{
	int n = 0, m = 0;
	if (!d)
		return 0;
	steps[n++] = 0;
	steps[n++] = 1;
	steps[n++] = d - 1;
	for (int j = 1; j < 63; j++) {
		steps[n++] = d >> j;
		steps[n++] = d - (d >> j);
	}
	qsort(steps, (size_t)n, sizeof(*steps), compare_ull);
	for (int i = 0; i < n; i++)
		if (steps[i] < d && (!m || steps[i] != steps[m - 1]))
			steps[m++] = steps[i];
	return m;
}

/* The k-th value tried instead of v, from t towards v; false past the last. */
static bool ladder(long long v, long long t, int k, long long *out)
{
	unsigned long long d = v >= t ? (unsigned long long)v - (unsigned long long)t
				       : (unsigned long long)t - (unsigned long long)v;
	unsigned long long steps[128];
	int n = ladder_steps(d, steps);

	if (k >= n)
		return false;
	*out = (long long)(v >= t ? (unsigned long long)t + steps[k] : (unsigned long long)t - steps[k]);
	return true;
}

static int ladder_len(long long v, long long t)
{
	unsigned long long steps[128];
	return ladder_steps(v >= t ? (unsigned long long)v - (unsigned long long)t
				   : (unsigned long long)t - (unsigned long long)v, steps);
}

static struct value *args_copy(const struct value *args, int nargs)
{
	struct value *c = xcalloc((size_t)nargs + 1, sizeof(*c));
	for (int i = 0; i < nargs; i++)
		value_copy(&c[i], &args[i]);
	return c;
}

static void args_free(struct value *args, int nargs)
{
	for (int i = 0; args && i < nargs; i++)
		value_release(&args[i]);
	free(args);
}

/*
 * Delta debugging: the index-th removal of a chunk from some generated row,
 * halves first, then quarters... down to single values; chunks of the size
 * that last succeeded first (s->resume), as ddmin keeps its granularity.
 * *pos: the chunk size, for resuming.
 */
static enum cand cand_length(const struct shrinker *s, const struct value *cur, int index, struct value **out,
			     long long *pos)
{
	for (int a = 0; a < s->nargs; a++) {
		size_t n = cur[a].len, c = (n + 1) / 2;
		if (!s->gen[a].generated || !value_type_is_array(cur[a].type) || !n)
			continue;
		if (s->resume[PASS_LENGTHS] && (size_t)s->resume[PASS_LENGTHS] < c)
			c = (size_t)s->resume[PASS_LENGTHS];
		for (;;) {
			size_t chunks = (n + c - 1) / c, from, to;
			if ((size_t)index >= chunks) {
				index -= (int)chunks;
				if (c == 1)
					break;
				c = (c + 1) / 2;
				continue;
			}
			from = (size_t)index * c;
			to = from + c < n ? from + c : n;
			if ((long long)(n - (to - from)) < s->gen[a].len_lo)
				return CAND_SKIP;
			*out = args_copy(cur, s->nargs);
			memmove(&(*out)[a].arr[from], &(*out)[a].arr[to], (n - to) * sizeof(*cur[a].arr));
			(*out)[a].len = n - (to - from);
			*pos = (long long)c;
			return CAND_OK;
		}
	}
	return CAND_END;
}

/* The index-th value nearer its target for a generated integer argument, from the last one that shrank. */
static enum cand cand_integer(const struct shrinker *s, const struct value *cur, int index, struct value **out,
			      long long *pos)
{
	for (int a = (int)s->resume[PASS_INTEGERS]; a < s->nargs; a++) {
		long long t, x;
		int n;
		if (!s->gen[a].generated || value_type_is_array(cur[a].type))
			continue;
		t = target(s->gen[a].lo, s->gen[a].hi);
		n = ladder_len(cur[a].i, t);
		if (index >= n) {
			index -= n;
			continue;
		}
		ladder(cur[a].i, t, index, &x);
		*out = args_copy(cur, s->nargs);
		(*out)[a].i = x;
		*pos = a;
		return CAND_OK;
	}
	return CAND_END;
}

/* The index-th value nearer its target for one element of a generated row, from the last element that shrank. */
static enum cand cand_element(const struct shrinker *s, const struct value *cur, int index, struct value **out,
			      long long *pos)
{
	long long flat = 0; /* elements of all generated rows, counted in order */
	for (int a = 0; a < s->nargs; a++) {
		long long t;
		if (!s->gen[a].generated || !value_type_is_array(cur[a].type))
			continue;
		t = target(s->gen[a].lo, s->gen[a].hi);
		for (size_t e = 0; e < cur[a].len; e++, flat++) {
			int n;
			long long x;
			if (flat < s->resume[PASS_ELEMENTS])
				continue;
			n = ladder_len(cur[a].arr[e], t);
			if (index >= n) {
				index -= n;
				continue;
			}
			ladder(cur[a].arr[e], t, index, &x);
			*out = args_copy(cur, s->nargs);
			(*out)[a].arr[e] = x;
			*pos = flat;
			return CAND_OK;
		}
	}
	return CAND_END;
}

static enum cand candidate(const struct shrinker *s, enum pass pass, int index, struct value **out, long long *pos)
{
	const struct value *cur = s->found->tc.args;
	switch (pass) {
	case PASS_LENGTHS:
		return cand_length(s, cur, index, out, pos);
	case PASS_INTEGERS:
		return cand_integer(s, cur, index, out, pos);
	default:
		return cand_element(s, cur, index, out, pos);
	}
}

/* ---- running candidates: the reference's answers, then the submission's ---- */

static int seq_next(void *ctx)
{
	int *q = ctx; /* q[0]: next, q[1]: how many */
	return q[0] < q[1] ? q[0]++ : -1;
}

static void seq_finished(void *ctx, int task)
{
	(void)ctx;
	(void)task;
}

static void fill_task(const struct shrinker *s, struct run_task *t, const struct build_result *b,
		      const struct value *args, unsigned cpu_ms)
{
	judge_task_init(s->c, t, b, s->p, s->func);
	for (int a = 0; a < s->nargs; a++)
		value_encode(&t->args, &args[a]);
	t->cpu_ms = cpu_ms;
	t->wall_ms = s->wall_ms > cpu_ms ? s->wall_ms : cpu_ms * 2 + 1000;
	t->memory_mb = s->memory_mb;
	t->output_kb = s->output_kb;
}

/* Run n tasks on the pool in order; each judged into j[].  0, or -1 when interrupted. */
static int run_tasks(struct shrinker *s, struct run_task *tasks, int n, struct judgement *j)
{
	int q[2] = { 0, n };
	struct pool_client client = { seq_next, seq_finished, q };
	if (pool_run(s->pool, tasks, &client) < 0 || grader_interrupted)
		return -1;
	for (int i = 0; i < n; i++)
		verdict_of_run(&j[i], &tasks[i], &s->p->funcs[s->func]);
	return 0;
}

/* Take candidate c (its args move into found) with what the submission made of it. */
static void accept(struct shrinker *s, struct value **c, long long expected, struct judgement *j)
{
	args_free(s->found->tc.args, s->nargs);
	s->found->tc.args = *c;
	*c = NULL;
	s->found->has_expected = true;
	s->found->expected = expected;
	s->found->has_actual = j->answered;
	s->found->actual = j->answer;
	free(s->found->message);
	s->found->message = j->message;
	j->message = NULL;
	s->found->steps++;
}

/* The reference's answers to n candidates (have[i]: it answered).  0, or -1 when interrupted. */
static int reference_answers(struct shrinker *s, struct value **c, int n, bool *have, long long *expected)
{
	struct run_task tasks[SHRINK_AHEAD];
	struct judgement j[SHRINK_AHEAD];
	int ret;

	memset(j, 0, sizeof(j));
	for (int i = 0; i < n; i++)
		fill_task(s, &tasks[i], &s->ref, c[i], s->cpu_ms * 2);
	ret = run_tasks(s, tasks, n, j);
	for (int i = 0; i < n; i++) {
		have[i] = ret == 0 && j[i].verdict == V_CORRECT && j[i].answered;
		expected[i] = j[i].answer;
		run_task_release(&tasks[i]);
		judgement_release(&j[i]);
	}
	return ret;
}

/*
 * Run the n candidates the reference answered on the submission; take the
 * first (in order) it fails as wanted.  Its index in c, -1 none, -2 stop
 * (interrupted, or the submission failed before its tests: start_failed).
 */
static int try_batch(struct shrinker *s, struct value **c, int n, const bool *have, const long long *expected)
{
	struct run_task tasks[SHRINK_BATCH];
	struct judgement j[SHRINK_BATCH];
	int who[SHRINK_BATCH], m = 0, ret = -1;

	memset(j, 0, sizeof(j));
	for (int i = 0; i < n; i++)
		if (have[i]) {
			fill_task(s, &tasks[m], s->student, c[i], s->cpu_ms);
			who[m++] = i;
		}
	s->found->runs += n;
	if (m && run_tasks(s, tasks, m, j) < 0)
		ret = -2;
	for (int k = 0; ret == -1 && k < m; k++)
		if (tasks[k].facts.starting) { /* an import error, a constructor: every input fails alike */
			s->start_failed = true;
			ret = -2;
		}
	for (int k = 0; ret == -1 && k < m; k++) {
		verdict_compare(&j[k], s->p, s->func, true, expected[who[k]]);
		if (j[k].verdict == s->want) {
			accept(s, &c[who[k]], expected[who[k]], &j[k]);
			ret = who[k];
		}
	}
	for (int k = 0; k < m; k++) {
		run_task_release(&tasks[k]);
		judgement_release(&j[k]);
	}
	return ret;
}

/*
 * Is there time for one more step?  A step once begun runs to its end (a
 * batch of SHRINK_BATCH candidates that each time out takes their limits),
 * so the budget must hold the slowest step seen so far as well: the search
 * stops before a step that would likely end past SHRINK_SECONDS, not after
 * it (issue 31: 24.7 s against a budget of 20).
 */
static bool budget_left(struct shrinker *s)
{
	double elapsed = (double)(now_us() - s->started + s->slowest_step_us) / 1e6;
	if (s->found->runs < SHRINK_RUNS && elapsed < SHRINK_SECONDS)
		return true;
	s->found->budget_spent = true;
	return false;
}

/* A step that began at `from` has ended: remember the slowest (budget_left). */
static void note_step(struct shrinker *s, uint64_t from)
{
	uint64_t took = now_us() - from;
	if (took > s->slowest_step_us)
		s->slowest_step_us = took;
}

/*
 * The next candidates of a pass, up to SHRINK_AHEAD and the runs left:
 * how many (*end: the pass has no more).
 */
static int gather(struct shrinker *s, enum pass pass, int *index, struct value **c, long long *pos, bool *end)
{
	int n = 0, room = SHRINK_RUNS - s->found->runs;
	while (n < SHRINK_AHEAD && n < room) {
		enum cand kind = candidate(s, pass, (*index)++, &c[n], &pos[n]);
		if (kind == CAND_END) {
			*end = true;
			break;
		}
		n += kind == CAND_OK;
	}
	return n;
}

/*
 * One pass over the candidates of the input found so far until one fails:
 * the reference answers SHRINK_AHEAD of them at a time (its runner and the
 * submission's take turns on the pool's slots, and each turn starts them
 * again), the submission runs them in batches of SHRINK_BATCH.  1 (the
 * input found is smaller now), 0 (none failed), -1 (stop: see try_batch),
 * -2 (the budget is spent).
 */
static int try_pass(struct shrinker *s, enum pass pass)
{
	int index = 0, ret = 0;
	bool end = false;
	uint64_t step;

	while (!end && ret == 0) {
		struct value *c[SHRINK_AHEAD];
		long long pos[SHRINK_AHEAD], expected[SHRINK_AHEAD];
		bool have[SHRINK_AHEAD];
		int n, taken = -1;
		if (!budget_left(s))
			return -2;
		n = gather(s, pass, &index, c, pos, &end);
		step = now_us();
		if (n && reference_answers(s, c, n, have, expected) < 0)
			taken = -2;
		note_step(s, step);
		for (int from = 0; taken == -1 && from < n; from += SHRINK_BATCH) {
			if (!budget_left(s)) {
				taken = -3;
				break;
			}
			step = now_us();
			taken = try_batch(s, c + from, n - from < SHRINK_BATCH ? n - from : SHRINK_BATCH, have + from,
					  expected + from);
			note_step(s, step);
			if (taken >= 0)
				taken += from;
		}
		for (int i = 0; i < n; i++)
			args_free(c[i], s->nargs);
		if (taken >= 0)
			s->resume[pass] = pos[taken];
		ret = taken >= 0 ? 1 : taken == -2 ? -1 : taken == -3 ? -2 : 0;
	}
	if (ret == 0)
		s->resume[pass] = 0; /* the next pass of this kind starts from the beginning */
	return ret;
}

/* Passes until none makes the input smaller, the budget is spent or the search must stop. */
static void search(struct shrinker *s)
{
	for (;;) {
		bool progress = false;
		for (int pass = 0; pass < PASS_COUNT; pass++) {
			int r;
			while ((r = try_pass(s, (enum pass)pass)) == 1)
				progress = true;
			if (r < 0)
				return;
		}
		if (!progress)
			return;
	}
}

/* ---- which test to start from, and the reference to ask ---- */

/*
 * How big a generated case is, to pick the smallest failing one across
 * groups: its rows' lengths, then the magnitudes of its generated values.
 */
static void case_size(const struct problem *p, const struct test_case *tc, bool all, unsigned long long size[2])
{
	size[0] = size[1] = 0;
	for (int a = 0; a < p->funcs[tc->func].ninputs; a++) {
		const struct value *v = &tc->args[a];
		if (!all && tc->gen && !tc->gen[a].generated) /* all: every argument, also for an explicit test */
			continue;
		if (value_type_is_array(v->type)) {
			size[0] += v->len;
			/* |x| without llabs(LLONG_MIN)'s overflow */
			for (size_t e = 0; e < v->len; e++)
				size[1] += v->arr[e] < 0 ? 0ULL - (unsigned long long)v->arr[e]
							 : (unsigned long long)v->arr[e];
		} else {
			size[1] += v->i < 0 ? 0ULL - (unsigned long long)v->i : (unsigned long long)v->i;
		}
	}
}

/* Can the search start from t: a generated input that gave a wrong answer or a run error? */
static bool shrinkable(const struct test_result *t)
{
	return t->tc->gen && !t->at_startup && (t->verdict == V_WRONG_ANSWER || t->verdict == V_RUN_ERROR);
}

/* A failing explicit test (an example: f([])) that can stand for the smallest input: a wrong answer or a run error. */
static bool failing_example(const struct test_result *t)
{
	return !t->tc->gen && !t->at_startup && (t->verdict == V_WRONG_ANSWER || t->verdict == V_RUN_ERROR);
}

/* Did t fail because of its input (not skipped, not the grader's, not before the tests)? */
static bool failed_on_input(const struct test_result *t)
{
	return t->verdict != V_CORRECT && t->verdict != V_SKIPPED && t->verdict != V_JUDGE_ERROR && !t->at_startup;
}

static bool smaller(const unsigned long long a[2], const unsigned long long b[2])
{
	return a[0] < b[0] || (a[0] == b[0] && a[1] < b[1]);
}

/*
 * The smallest failing public test to start from: the smallest shrinkable
 * generated one, or a failing public example (f([])) as small as it or
 * smaller in every argument - that is the smallest input already.  -1 when
 * none fits.
 */
static int starting_public(const struct problem_result *pr)
{
	const struct problem *p = pr->problem;
	unsigned long long best[2] = { 0, 0 }, size[2], best_all[2] = { 0, 0 }, example[2] = { 0, 0 };
	int found = -1, found_example = -1;

	for (int k = 0; k < pr->ntests; k++) {
		const struct test_result *t = &pr->tests[k];
		if (p->groups[t->tc->group].visibility != VIS_PUBLIC)
			continue;
		if (failing_example(t)) {
			case_size(p, t->tc, true, size);
			if (found_example < 0 || smaller(size, example)) {
				found_example = k;
				example[0] = size[0];
				example[1] = size[1];
			}
		} else if (shrinkable(t)) {
			case_size(p, t->tc, false, size);
			if (found < 0 || smaller(size, best)) {
				found = k;
				best[0] = size[0];
				best[1] = size[1];
				case_size(p, t->tc, true, best_all);
			}
		}
	}
	if (found_example >= 0 && (found < 0 || !smaller(best_all, example)))
		return found_example;
	return found;
}

/*
 * The smallest failing test of hidden group g (--reveal-hidden): a
 * shrinkable one when any test of it is, else any that failed on its input.
 * -1 when none fits.
 */
static int starting_hidden(const struct problem_result *pr, int group)
{
	const struct problem *p = pr->problem;
	unsigned long long best[2] = { 0, 0 }, size[2];
	int found = -1;
	bool any_shrinkable = false;

	for (int k = 0; k < pr->ntests; k++)
		any_shrinkable |= pr->tests[k].tc->group == group && shrinkable(&pr->tests[k]);
	for (int k = 0; k < pr->ntests; k++) {
		const struct test_result *t = &pr->tests[k];
		if (t->tc->group != group || (any_shrinkable ? !shrinkable(t) : !failed_on_input(t)))
			continue;
		case_size(p, t->tc, false, size);
		if (found < 0 || smaller(size, best)) {
			found = k;
			best[0] = size[0];
			best[1] = size[1];
		}
	}
	return found;
}

/*
 * Where the reference of lang is: the rule of reference_dir() (reference.h),
 * not called from here because reference.c calls the engine, which calls
 * this module.
 */
static char *reference_folder(const struct judge_context *c, const struct language *lang)
{
	char *own = xasprintf("%s/%s", c->reference_dir, lang->name);
	struct stat st;
	if (stat(own, &st) == 0 && S_ISDIR(st.st_mode))
		return own;
	free(own);
	return xstrdup(c->reference_dir);
}

/* Build the variant's reference solution in the scratch space (*tag, removed by the caller).  0 or -1. */
static int build_reference(struct shrinker *s, char **tag)
{
	const struct judge_context *c = s->c;
	struct problem *variant = NULL;
	struct build_choice choice;
	struct build_env env = *c->env;
	char *dir = reference_folder(c, s->p->lang);
	int ret = -1;

	memset(&choice, 0, sizeof(choice));
	for (int i = 0; i < c->nproblems; i++)
		if (c->problems[i] == s->p)
			variant = c->problems[i];
	*tag = xasprintf("%s/shrink%d", c->scratch, (*c->submissions)++);
	if (!variant || mkdir(*tag, 0711) < 0)
		goto cleanup;
	build_choose(dir, &variant, 1, &choice);
	if (!choice.file)
		goto cleanup;
	env.scratch = *tag;
	if (build_all(&env, &choice, 1, dir, &s->ref, 1) == 0 && s->ref.status == BUILD_OK)
		ret = 0;
cleanup:
	if (ret < 0 && c->log) /* the engine's log, written here: see reference_folder */
		fprintf(c->log, "grader: note: no smallest failing input for %s: its reference in '%s' "
			"could not be built\n", s->p->id, dir);
	build_choice_release(&choice);
	free(dir);
	return ret;
}

/* The failing test in words: a row by its length, integers by the call. */
static char *describe(const struct problem *p, const struct test_case *tc)
{
	struct strbuf sb = STRBUF_INIT;
	for (int a = 0; a < p->funcs[tc->func].ninputs; a++)
		if (value_type_is_array(tc->args[a].type) && tc->gen && tc->gen[a].generated) {
			strbuf_addf(&sb, P_("a failing row of %zu value", "a failing row of %zu values", tc->args[a].len),
				    tc->args[a].len);
			return strbuf_detach(&sb);
		}
	strbuf_addstr(&sb, _("the failing test "));
	test_case_format_call(&sb, p, tc);
	return strbuf_detach(&sb);
}

/* Start the input found at the failing test itself. */
static struct shrunk_input *start_from(const struct problem_result *pr, int k)
{
	const struct test_result *t = &pr->tests[k];
	struct shrunk_input *f = xcalloc(1, sizeof(*f));
	f->from_case = k;
	f->from = L10N(describe(pr->problem, t->tc));
	f->tc.func = t->tc->func;
	f->tc.group = t->tc->group;
	f->tc.line = t->tc->line;
	f->tc.args = args_copy(t->tc->args, pr->problem->funcs[t->tc->func].ninputs);
	f->verdict = t->verdict;
	f->message = t->message ? xstrdup(t->message) : NULL;
	f->has_expected = t->has_expected;
	f->expected = t->expected;
	f->has_actual = t->has_actual;
	f->actual = t->actual;
	f->budget_runs = SHRINK_RUNS;
	f->budget_seconds = SHRINK_SECONDS;
	return f;
}

/* Is there any smaller input to try?  (None: the failing test is the smallest its generator draws.) */
static bool has_candidates(const struct shrinker *s)
{
	for (int pass = 0; pass < PASS_COUNT; pass++)
		for (int index = 0;; index++) {
			struct value *c = NULL;
			long long pos;
			enum cand kind = candidate(s, (enum pass)pass, index, &c, &pos);
			args_free(c, s->nargs);
			if (kind == CAND_OK)
				return true;
			if (kind == CAND_END)
				break;
		}
	return false;
}

/*
 * Search from test k of pr (built as b) for the smallest input that fails alike; *out the input found (the test
 * itself when nothing smaller is to be tried, or it cannot be searched), or NULL when the search could not run.
 * 0, or -1 when interrupted.
 */
static int shrink_from(const struct judge_context *c, const struct build_result *b, struct problem_result *pr, int k,
		       struct shrunk_input **out)
{
	const struct test_result *t = &pr->tests[k];
	struct shrinker s;
	char *tag = NULL;

	*out = NULL;
	memset(&s, 0, sizeof(s));
	s.c = c;
	s.p = pr->problem;
	s.func = t->tc->func;
	s.nargs = s.p->funcs[s.func].ninputs;
	s.gen = t->tc->gen;
	s.student = b;
	s.want = t->verdict;
	s.cpu_ms = t->limit_ms;
	s.wall_ms = s.p->groups[t->tc->group].limits.wall_ms;
	s.memory_mb = s.p->groups[t->tc->group].limits.memory_mb;
	s.output_kb = s.p->groups[t->tc->group].limits.output_kb;
	s.started = now_us();
	s.found = start_from(pr, k);
	if (s.p->groups[t->tc->group].visibility == VIS_PUBLIC && failing_example(t)) {
		s.found->example = true; /* a failing example as small as any failing generated input: no search */
		*out = s.found;
	} else if (!shrinkable(t)) {
		s.found->as_is = true; /* a hidden group's literal input, or a time limit: shown as it is */
		*out = s.found;
	} else if (!has_candidates(&s)) {
		*out = s.found; /* nothing smaller to try: no reference to build */
	} else if (build_reference(&s, &tag) == 0) {
		s.pool = judge_pool(c, SHRINK_BATCH);
		search(&s);
		pool_free(s.pool);
		s.found->seconds = (double)(now_us() - s.started) / 1e6;
		if (s.start_failed || grader_interrupted)
			shrunk_input_free(s.found, s.p);
		else
			*out = s.found;
	} else {
		shrunk_input_free(s.found, s.p);
	}
	build_result_release(&s.ref);
	if (tag)
		remove_tree(tag);
	free(tag);
	return grader_interrupted ? -1 : 0;
}

int shrink_result(const struct judge_context *c, const struct build_result *builds, struct grade_result *r)
{
	for (int i = 0; i < r->nproblems; i++) {
		struct problem_result *pr = &r->problems[i];
		int k = starting_public(pr);
		if (k >= 0 && builds[i].status == BUILD_OK && shrink_from(c, &builds[i], pr, k, &pr->shrunk) < 0)
			return -1;
	}
	return 0;
}

int shrink_hidden(const struct judge_context *c, const struct build_result *builds, struct grade_result *r)
{
	for (int i = 0; i < r->nproblems; i++) {
		struct problem_result *pr = &r->problems[i];
		const struct problem *p = pr->problem;
		if (!p || builds[i].status != BUILD_OK)
			continue;
		pr->revealed = xcalloc((size_t)p->ngroups + 1, sizeof(*pr->revealed));
		for (int g = 0; g < p->ngroups; g++) {
			int k = p->groups[g].visibility == VIS_HIDDEN ? starting_hidden(pr, g) : -1;
			if (k >= 0 && shrink_from(c, &builds[i], pr, k, &pr->revealed[g]) < 0)
				return -1;
		}
	}
	return 0;
}
