/* growth.c - see growth.h */
#define _GNU_SOURCE
#include "growth.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "engine.h"
#include "interrupt.h"
#include "runner.h"
#include "verdict.h"

/* ---- naming and fitting (pure) ---- */

void growth_class_name(struct strbuf *sb, int order, bool exponential)
{
	if (exponential)
		strbuf_addstr(sb, "exponential");
	else if (order <= 0)
		strbuf_addstr(sb, "1");
	else if (order == 1)
		strbuf_addstr(sb, "N");
	else
		strbuf_addf(sb, "N^%d", order);
}

void growth_expected_name(struct strbuf *sb, int expected)
{
	if (expected == GROWTH_EXPONENTIAL)
		strbuf_addstr(sb, "2^N");
	else
		growth_class_name(sb, expected, false);
}

static bool usable(const struct growth_point *pt)
{
	return !pt->capped && pt->ms >= GROWTH_MIN_MS;
}

/* Least squares y = a + b x over the usable points, x = ln N (log_x) or N. */
static void least_squares(const struct growth_result *g, bool log_x, double *a, double *b)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, n = 0;
	for (int i = 0; i < g->npoints; i++) {
		const struct growth_point *pt = &g->points[i];
		double x = log_x ? log((double)pt->size) : (double)pt->size, y = log(pt->ms - g->fixed_ms);
		if (!usable(pt))
			continue;
		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
		n++;
	}
	*b = n * sxx - sx * sx != 0 ? (n * sxy - sx * sy) / (n * sxx - sx * sx) : 0;
	*a = n ? (sy - *b * sx) / n : 0;
}

/* "about 40 s", "about 3 minutes", "more than a year" */
static void format_duration(struct strbuf *sb, double s)
{
	if (s < 0.095)
		strbuf_addf(sb, "about %.0f ms", s * 1000);
	else if (s < 10)
		strbuf_addf(sb, "about %.1f s", s);
	else if (s < 120)
		strbuf_addf(sb, "about %.0f s", s);
	else if (s < 7200)
		strbuf_addf(sb, "about %.0f minutes", s / 60);
	else if (s < 2 * 86400)
		strbuf_addf(sb, "about %.0f hours", s / 3600);
	else if (s < 365 * 86400.0)
		strbuf_addf(sb, "about %.0f days", s / 86400);
	else
		strbuf_addstr(sb, "more than a year");
}

static void make_sentence(struct growth_result *g)
{
	struct strbuf sb = STRBUF_INIT, expected = STRBUF_INIT, cls = STRBUF_INIT;
	growth_expected_name(&expected, g->expected);
	growth_class_name(&cls, g->order, g->exponential);
	if (!g->known)
		strbuf_addf(&sb, "%s: its growth could not be measured (%s)", g->call,
			    g->stopped ? g->stopped : "fewer than two sizes took 5 ms or more");
	else if (g->exponential)
		strbuf_addf(&sb, "%s grows exponentially, about %.2f^N (expected %s): an exponential algorithm", g->call,
			    g->base, expected.buf);
	else
		strbuf_addf(&sb, "%s grows like N^%.1f (expected %s): an O(%s) algorithm", g->call, g->exponent,
			    expected.buf, cls.buf);
	if (g->known && g->expected == (g->exponential ? GROWTH_EXPONENTIAL : g->order))
		strbuf_addstr(&sb, ", as expected");
	if (g->known && g->extrapolated_s >= 0) {
		strbuf_addf(&sb, "; at N = %lld", g->target);
		if (g->target_group)
			strbuf_addf(&sb, " (group %s)", g->target_group);
		strbuf_addstr(&sb, " one call would take ");
		format_duration(&sb, g->extrapolated_s);
	}
	free(g->sentence);
	g->sentence = strbuf_detach(&sb);
	strbuf_release(&expected);
	strbuf_release(&cls);
}

void growth_fit(struct growth_result *g)
{
	double a, p, log_s;
	g->nused = 0;
	g->fixed_ms = 0;
	for (int i = 0; i < g->npoints; i++) {
		const struct growth_point *pt = &g->points[i];
		g->nused += usable(pt);
		if (!pt->capped && pt->ms < GROWTH_FIXED_MAX_MS && (!g->fixed_ms || pt->ms < g->fixed_ms))
			g->fixed_ms = pt->ms;
	}
	g->known = g->nused >= 2;
	g->exponential = false;
	g->extrapolated_s = -1;
	if (g->known) {
		least_squares(g, true, &a, &p);
		g->exponent = p;
		g->exponential = p > GROWTH_EXP_CUTOFF;
		g->order = p < 0 ? 0 : (int)lround(p);
		log_s = a + p * log((double)g->target);
		if (g->exponential) {
			double b;
			least_squares(g, false, &a, &b);
			g->base = exp(b);
			log_s = a + b * (double)g->target;
		}
		/* ms to s; capped at 10^9 s, which the sentence calls "more than a year" */
		if (g->target > 0)
			g->extrapolated_s = log_s - log(1000.0) > log(1e9) ? 1e9 : exp(log_s) / 1000.0;
	}
	make_sentence(g);
}

void growth_result_free(struct growth_result *g)
{
	if (!g)
		return;
	free(g->call);
	free(g->target_group);
	free(g->stopped);
	free(g->sentence);
	free(g);
}

/* ---- measuring ---- */

struct measure {
	const struct engine *e;
	const struct problem *p;
	const struct build_result *b;
	struct pool *pool;
	double used_ms;            /* CPU time spent so far (capped runs count their cap) */
	struct growth_result *g;
};

static uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The inputs at size n, encoded: the same n gives the same inputs (seeded by n). */
static void encode_inputs(const struct problem *p, long long n, struct strbuf *enc)
{
	const struct growth_spec *gs = &p->growth;
	const struct signature *sig = &p->funcs[gs->func];
	uint64_t state = (uint64_t)n * 0x2545f4914f6cdd1dull;
	uint64_t span = (uint64_t)(gs->hi - gs->lo) + 1;

	for (int a = 0; a < sig->ninputs; a++) {
		struct value v = { sig->input_types[a], 0, NULL, 0 };
		if (v.type == VT_INT_ARRAY) {
			v.len = (size_t)n;
			v.arr = xcalloc(v.len + 1, sizeof(int));
			for (size_t i = 0; i < v.len; i++)
				v.arr[i] = (int)(gs->lo + (long long)(rng_next(&state) % span));
		} else if (a == gs->size_arg) {
			v.i = n;
		} else {
			v.i = v.type == VT_BOOL ? (long long)(rng_next(&state) & 1)
						: gs->lo + (long long)(rng_next(&state) % span);
		}
		value_encode(enc, &v);
		value_release(&v);
	}
}

struct batch {
	int n, next;
};

static int batch_next(void *ctx)
{
	struct batch *b = ctx;
	return b->next < b->n ? b->next++ : -1;
}

static void batch_finished(void *ctx, int task)
{
	(void)ctx;
	(void)task;
}

static void plan_call(const struct measure *m, struct run_task *t, const struct strbuf *args)
{
	const struct problem *p = m->p;
	memset(t, 0, sizeof(*t));
	t->runner = m->b->runner;
	t->runner_argv = (const char *const *)m->b->runner_argv;
	t->runner_dir = m->b->runner_dir;
	t->filters = &m->e->filters[p->lang->filters];
	t->function = p->growth.func;
	t->args = (struct strbuf)STRBUF_INIT;
	strbuf_add(&t->args, args->buf, args->len);
	t->cpu_ms = GROWTH_RUN_CAP_MS;
	/* CPU time is what counts: a busy machine may stretch the wall clock far beyond it */
	t->wall_ms = GROWTH_RUN_CAP_MS * 10;
	t->memory_mb = problem_max_memory_mb(p);
	t->output_kb = p->limits.output_kb;
	t->zygote_memory_mb = problem_max_memory_mb(p);
	t->startup_ms = p->limits.startup_ms;
}

/*
 * Run `reps` calls at size n (in parallel on the pool's slots).  ms[i]:
 * the CPU time of run i, or -1 when it went over the cap.  0, or -1 when a
 * run failed otherwise (*why says how) or the pool stopped.
 */
static int run_calls(struct measure *m, long long n, int reps, double *ms, char **why)
{
	struct run_task *tasks = xcalloc((size_t)reps + 1, sizeof(*tasks));
	struct strbuf args = STRBUF_INIT;
	struct batch b = { reps, 0 };
	struct pool_client client = { batch_next, batch_finished, &b };
	int ret = 0;

	encode_inputs(m->p, n, &args);
	for (int i = 0; i < reps; i++)
		plan_call(m, &tasks[i], &args);
	if (pool_run(m->pool, tasks, &client) < 0) {
		*why = xstrdup("interrupted");
		ret = -1;
	}
	for (int i = 0; i < reps && ret == 0; i++) {
		struct judgement j;
		memset(&j, 0, sizeof(j));
		verdict_of_run(&j, &tasks[i], &m->p->funcs[m->p->growth.func]);
		if (tasks[i].facts.outcome == RUN_WALL_TIMEOUT && tasks[i].facts.child_cpu_ms < GROWTH_RUN_CAP_MS) {
			*why = xasprintf("at N = %lld a call used %u ms of CPU in %u ms of wall-clock time (sleeping, or "
					 "the machine too busy)", n, tasks[i].facts.child_cpu_ms, tasks[i].wall_ms);
			ret = -1;
		} else if (j.verdict == V_CORRECT) {
			ms[i] = tasks[i].facts.outcome == RUN_REPORTED ? tasks[i].facts.report.cpu_us / 1000.0 : j.cpu_ms;
			m->used_ms += ms[i];
		} else if (j.verdict == V_TIMELIMIT) {
			ms[i] = -1;
			m->used_ms += GROWTH_RUN_CAP_MS;
		} else {
			*why = xasprintf("at N = %lld the call failed: %s", n, j.message ? j.message : "no answer");
			ret = -1;
		}
		judgement_release(&j);
	}
	for (int i = 0; i < reps; i++)
		run_task_release(&tasks[i]);
	free(tasks);
	strbuf_release(&args);
	return ret;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* How many runs a size whose first run took first_ms gets, within what is left of the budget. */
static int reps_for(const struct measure *m, double first_ms)
{
	int reps = first_ms < GROWTH_MIN_MS / 2 ? 1 : first_ms > GROWTH_SLOW_MS ? GROWTH_REPS_SLOW : GROWTH_REPS;
	double left = GROWTH_BUDGET_MS - m->used_ms;
	if ((reps - 1) * first_ms > left)
		reps = 1 + (int)(left / (first_ms > 0.001 ? first_ms : 0.001));
	return reps < 1 ? 1 : reps;
}

/*
 * One point at size n: a first run, then more for the median.  0: measured;
 * 1: a run went over the cap (the point is capped); -1: a run failed
 * (g->stopped says how).
 */
static int measure_size(struct measure *m, long long n, struct growth_point *pt)
{
	double ms[GROWTH_REPS + 1];
	char *why = NULL;
	int reps;

	memset(pt, 0, sizeof(*pt));
	pt->size = n;
	if (run_calls(m, n, 1, ms, &why) < 0)
		goto failed;
	pt->runs = 1;
	if (ms[0] < 0) {
		pt->capped = true;
		pt->ms = GROWTH_RUN_CAP_MS;
		return 1;
	}
	reps = reps_for(m, ms[0]);
	if (reps > 1 && run_calls(m, n, reps - 1, ms + 1, &why) < 0)
		goto failed;
	pt->runs = reps;
	/* a run over the cap counts as the cap: one such run among faster ones is noise, the median decides */
	for (int i = 1; i < reps; i++)
		if (ms[i] < 0)
			ms[i] = GROWTH_RUN_CAP_MS;
	qsort(ms, (size_t)reps, sizeof(double), compare_doubles);
	pt->ms = ms[reps / 2];
	pt->capped = pt->ms >= GROWTH_RUN_CAP_MS;
	return pt->capped ? 1 : 0;
failed:
	free(m->g->stopped);
	m->g->stopped = why;
	return -1;
}

/* Measure n and add the point; false when the search must stop here (g->stopped set). */
static bool add_point(struct measure *m, long long n)
{
	struct growth_result *g = m->g;
	struct growth_point pt;
	int r;
	if (g->npoints == GROWTH_MAX_POINTS)
		return false;
	r = measure_size(m, n, &pt);
	if (r >= 0)
		g->points[g->npoints++] = pt;
	if (r > 0) {
		free(g->stopped);
		g->stopped = xasprintf("at N = %lld a call took over %u ms", n, GROWTH_RUN_CAP_MS);
	}
	return r == 0;
}

/* Can the budget pay for a size whose time is about ms (one run at least)? */
static bool affordable(struct measure *m, double ms)
{
	if (m->used_ms + ms <= GROWTH_BUDGET_MS)
		return true;
	free(m->g->stopped);
	m->g->stopped = xasprintf("the time budget of %u ms was spent", GROWTH_BUDGET_MS);
	return false;
}

/* Do the usable points so far settle the question: GROWTH_ENOUGH_POINTS of them spanning GROWTH_ENOUGH_SPAN? */
/* The usable points: how many, and the factor their times span. */
static int usable_span(const struct growth_result *g, double *span)
{
	double lo = 0, hi = 0;
	int n = 0;
	for (int i = 0; i < g->npoints; i++) {
		const struct growth_point *pt = &g->points[i];
		if (!usable(pt))
			continue;
		lo = n && lo < pt->ms ? lo : pt->ms;
		hi = hi > pt->ms ? hi : pt->ms;
		n++;
	}
	*span = n ? hi / lo : 0;
	return n;
}

static bool enough(struct measure *m)
{
	double span;
	int n = usable_span(m->g, &span);
	if (n < GROWTH_ENOUGH_POINTS || span < GROWTH_ENOUGH_SPAN)
		return false;
	free(m->g->stopped);
	m->g->stopped = xasprintf("%d sizes spanning a factor %.0f of time were enough", n, span);
	return true;
}

/*
 * Would size n go over the cap?  Judged from the last two points when both
 * are usable, by their local exponent: a run known to be over the cap
 * would spend the budget and add nothing.
 */
static bool predicted_over(struct measure *m, long long n)
{
	const struct growth_result *g = m->g;
	const struct growth_point *a, *b;
	double p, predicted;
	if (g->npoints < 2)
		return false;
	a = &g->points[g->npoints - 2];
	b = &g->points[g->npoints - 1];
	if (!usable(a) || !usable(b) || b->size <= a->size)
		return false;
	p = log(b->ms / a->ms) / log((double)b->size / (double)a->size);
	predicted = b->ms * pow((double)n / (double)b->size, p);
	if (predicted < 1.5 * GROWTH_RUN_CAP_MS)
		return false;
	free(m->g->stopped);
	m->g->stopped = xasprintf("at N = %lld a call would take about %.1f s, over the %u ms cap", n,
				  predicted / 1000, GROWTH_RUN_CAP_MS);
	return true;
}

/* Three usable points spanning a factor 16: what a refinement must reach. */
static bool refined(const struct growth_result *g)
{
	double span;
	return usable_span(g, &span) >= 3 && span >= 16;
}

/*
 * Exponential growth jumps past the cap within one doubling: the sizes
 * between, in eight even steps - or one by one when the time at lo is
 * already usable (the cap is then only a few steps of a base-2 growth
 * away).
 */
static void refine_linear(struct measure *m, const struct growth_point *below, long long hi)
{
	struct growth_result *g = m->g;
	long long lo = below->size, step = usable(below) ? 1 : (hi - lo) / 8 > 0 ? (hi - lo) / 8 : 1;
	for (long long n = lo + step; n < hi && !grader_interrupted; n += step) {
		double last = g->points[g->npoints - 1].ms;
		if (!affordable(m, last) || !add_point(m, n) || refined(g))
			break;
	}
}

/*
 * A polynomial whose times went from under 5 ms to over the cap within
 * two doublings: the sizes halfway (x sqrt 2) around the last one under
 * the cap, the upper first, until three usable points span a factor 16.
 * If the upper one is over the cap too although a polynomial of degree 6
 * or less would have stayed under it (at most 2^3 times the size below),
 * the growth is exponential-looking after all: linear steps up to it.
 */
static void refine_geometric(struct measure *m, const struct growth_point *below)
{
	struct growth_result *g = m->g;
	long long sizes[2] = { llround((double)below->size * M_SQRT2), llround((double)below->size / M_SQRT2) };
	for (int k = 0; k < 2 && !grader_interrupted && !refined(g); k++) {
		if (sizes[k] < m->p->growth.from || !affordable(m, 3 * g->points[g->npoints - 1].ms))
			break;
		if (add_point(m, sizes[k]))
			continue;
		if (!g->points[g->npoints - 1].capped)
			break; /* a failure, not the cap */
		if (k == 0 && GROWTH_RUN_CAP_MS > 8 * below->ms) {
			refine_linear(m, below, sizes[k]);
			break;
		}
	}
}

/*
 * Fewer than three usable points because the last size went over the cap:
 * fill in.  A jump past the cap by more than 2^6 from the size before is
 * exponential-looking (a polynomial of degree 6 or less cannot do it):
 * linear steps; else halfway sizes.
 */
static void refine(struct measure *m)
{
	struct growth_result *g = m->g;
	const struct growth_point *below;
	double span;
	if (g->npoints < 2 || !g->points[g->npoints - 1].capped || usable_span(g, &span) >= 3)
		return;
	below = &g->points[g->npoints - 2];
	if (GROWTH_RUN_CAP_MS > 64 * below->ms)
		refine_linear(m, below, g->points[g->npoints - 1].size);
	else
		refine_geometric(m, below);
}

static int compare_points(const void *a, const void *b)
{
	const struct growth_point *x = a, *y = b;
	return x->size < y->size ? -1 : x->size > y->size;
}

/* Doubling from the declared smallest size, then refine(). */
static void search(struct measure *m)
{
	const struct growth_spec *gs = &m->p->growth;
	struct growth_result *g = m->g;
	for (long long n = gs->from; n <= gs->to && !grader_interrupted; n *= 2) {
		/* the next size costs some 4 times the last (N^2) at least: stop before the budget runs out */
		if (g->npoints && !affordable(m, 4 * g->points[g->npoints - 1].ms))
			break;
		if (predicted_over(m, n) || !add_point(m, n) || enough(m))
			break;
	}
	refine(m);
	qsort(g->points, (size_t)g->npoints, sizeof(g->points[0]), compare_points);
}

/* ---- when, and for whom ---- */

/* The size a case gives the growth's call, or -1 when it calls another function. */
static long long case_size(const struct problem *p, const struct test_case *tc)
{
	const struct growth_spec *gs = &p->growth;
	const struct value *v;
	if (tc->func != gs->func)
		return -1;
	v = &tc->args[gs->size_arg];
	return gs->by_length ? (long long)v->len : v->i;
}

/* Did a test of the growth's call fail by time, in a public group (*pub) or a hidden one (*hid)? */
static void timed_out(const struct problem_result *pr, bool *pub, bool *hid)
{
	const struct problem *p = pr->problem;
	*pub = *hid = false;
	for (int k = 0; k < pr->ntests; k++) {
		const struct test_case *tc = pr->tests[k].tc;
		if (pr->tests[k].verdict != V_TIMELIMIT || tc->func != p->growth.func)
			continue;
		if (p->groups[tc->group].visibility == VIS_PUBLIC)
			*pub = true;
		else
			*hid = true;
	}
}

/* Extrapolate to the largest public size that failed by time, else the largest public size. */
static void choose_target(const struct problem_result *pr, struct growth_result *g)
{
	const struct problem *p = pr->problem;
	for (int pass = 0; pass < 2 && !g->target; pass++)
		for (int k = 0; k < pr->ntests; k++) {
			const struct test_case *tc = pr->tests[k].tc;
			long long n = case_size(p, tc);
			if (p->groups[tc->group].visibility != VIS_PUBLIC || n <= g->target)
				continue;
			if (pass == 0 && pr->tests[k].verdict != V_TIMELIMIT)
				continue;
			g->target = n;
			free(g->target_group);
			g->target_group = xstrdup(p->groups[tc->group].name);
		}
}

static struct growth_result *measure_problem(const struct engine *e, const struct build_result *b)
{
	const struct problem *p = b->problem;
	struct growth_result *g = xcalloc(1, sizeof(*g));
	struct measure m = { e, p, b, NULL, 0, g };
	g->call = xstrdup(problem_call_name(p, p->growth.func));
	g->expected = p->growth.expected;
	m.pool = pool_new(e->opts.jobs, e->workdir, (const char *const *)e->hidden, e->opts.id_block);
	search(&m);
	pool_free(m.pool);
	g->used_s = m.used_ms / 1000.0;
	return g;
}

void growth_after_grading(const struct engine *e, const struct build_result *builds, struct grade_result *out,
			  enum visibility vis)
{
	for (int i = 0; i < out->nproblems && !grader_interrupted; i++) {
		struct problem_result *pr = &out->problems[i];
		const struct problem *p = pr->problem;
		bool pub, hid, wanted;
		if (!p->growth.declared || builds[i].status != BUILD_OK || e->opts.growth == GROWTH_NEVER || pr->growth)
			continue;
		timed_out(pr, &pub, &hid);
		/* for the student: always, or after a public time limit; for the instructor: after a hidden one */
		wanted = vis == VIS_PUBLIC ? e->opts.growth == GROWTH_ALWAYS || pub
					   : e->opts.growth == GROWTH_AFTER_TIMELIMIT && hid;
		if (!wanted)
			continue;
		pr->growth = measure_problem(e, &builds[i]);
		pr->growth->from_hidden = vis != VIS_PUBLIC;
		choose_target(pr, pr->growth);
		growth_fit(pr->growth);
		/* the log may be where students look (a CI job's): it says what their view says, no more */
		if (e->opts.log && !pr->growth->from_hidden)
			fprintf(e->opts.log, "grader: %s: %s (%.1f s of CPU measuring)\n", p->id, pr->growth->sentence,
				pr->growth->used_s);
	}
}
