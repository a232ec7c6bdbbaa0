/* growth.c - see growth.h */
#define _GNU_SOURCE
#include "judge/growth.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build/build.h"
#include "judge/context.h"
#include "base/interrupt.h"
#include "run/runner.h"
#include "judge/verdict.h"
#include "problem/casegen.h"
#include "base/l10n.h"

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

/* A usable point the fit stands on: all of them, but the one set aside as slowed down (growth_fit). */
static bool fitted(const struct growth_result *g, const struct growth_point *pt)
{
	return usable(pt) && pt->size != g->set_aside;
}

/* Least squares y = a + b x over the fitted points, x = ln N (log_x) or N. */
static void least_squares(const struct growth_result *g, bool log_x, double *a, double *b)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, n = 0;
	for (int i = 0; i < g->npoints; i++) {
		const struct growth_point *pt = &g->points[i];
		double x = log_x ? log((double)pt->size) : (double)pt->size, y = log(pt->ms - g->fixed_ms);
		if (!fitted(g, pt))
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
	if (s < 0.0005) /* "about 0 ms" says nothing */
		strbuf_addstr(sb, _("under 1 ms"));
	else if (s < 0.095)
		strbuf_addf(sb, _("about %.0f ms"), s * 1000);
	else if (s < 10)
		strbuf_addf(sb, _("about %.1f s"), s);
	else if (s < 120)
		strbuf_addf(sb, _("about %.0f s"), s);
	else if (s < 7200)
		strbuf_addf(sb, _("about %.0f minutes"), s / 60);
	else if (s < 2 * 86400)
		strbuf_addf(sb, _("about %.0f hours"), s / 3600);
	else if (s < 365 * 86400.0)
		strbuf_addf(sb, _("about %.0f days"), s / 86400);
	else
		strbuf_addstr(sb, _("more than a year"));
}

/* "between N = 192 (19 ms) and N = 768 (767 ms)": the usable range, for sentences that cannot name a class */
static void add_range(struct strbuf *sb, const struct growth_result *g)
{
	const struct growth_point *lo = NULL, *hi = NULL;
	for (int i = 0; i < g->npoints; i++)
		if (usable(&g->points[i])) {
			lo = lo ? lo : &g->points[i];
			hi = &g->points[i];
		}
	if (lo && hi)
		strbuf_addf(sb, _("from %.0f ms at N = %lld to %.0f ms at N = %lld"), lo->ms, lo->size, hi->ms, hi->size);
}

/*
 * Why the growth is unknown, in words a student reads, always starting
 * "cannot say": too quick to time, the time did not grow, or too few sizes
 * between the floor and the cap (and why the sizes stopped).
 */
static void add_unknown(struct strbuf *sb, const struct growth_result *g)
{
	long long largest = 0;
	for (int i = 0; i < g->npoints; i++)
		largest = g->points[i].size > largest ? g->points[i].size : largest;
	strbuf_addf(sb, _("%s: the grader cannot say how its time grows: "), g->call);
	if (g->flat) {
		strbuf_addstr(sb, _("it hardly changed with N ("));
		add_range(sb, g);
		strbuf_addstr(sb, _("); the inputs may let it finish early"));
	} else if (g->nused == 0 && largest && !g->stopped) {
		strbuf_addf(sb, _("every call up to N = %lld took under %.0f ms, too quick to time"), largest, GROWTH_MIN_MS);
	} else {
		strbuf_addf(sb, P_("only %d size took from %.0f ms to the %u ms cap, and %d are needed",
				   "only %d sizes took from %.0f ms to the %u ms cap, and %d are needed", g->nused),
			    g->nused, GROWTH_MIN_MS, GROWTH_RUN_CAP_MS, GROWTH_MIN_POINTS);
		if (g->stopped)
			strbuf_addf(sb, " (%s)", l10n_message(g->stopped));
	}
}

/* The sentence, in the language _() speaks now (make_sentence: English, and remembered in the students' language). */
static char *sentence_of(const struct growth_result *g)
{
	struct strbuf sb = STRBUF_INIT, expected = STRBUF_INIT, cls = STRBUF_INIT, hi = STRBUF_INIT;
	growth_expected_name(&expected, g->expected);
	growth_class_name(&cls, g->decided ? g->order : g->lo, g->exponential);
	growth_class_name(&hi, g->hi, false);
	if (!g->known)
		add_unknown(&sb, g);
	else if (g->exponential)
		strbuf_addf(&sb, _("%s grows exponentially, about %.2f^N (expected %s): an exponential algorithm"), g->call,
			    g->base, expected.buf);
	else if (g->decided)
		strbuf_addf(&sb, _("%s grows like N^%.1f (expected %s): an O(%s) algorithm"), g->call, g->exponent,
			    expected.buf, cls.buf);
	else if (!g->uneven) /* two classes or more explain the times equally well */
		strbuf_addf(&sb, _("%s grows like N^%.1f (expected %s): between O(%s) and O(%s), the measurements cannot "
			    "tell which"), g->call, g->exponent, expected.buf, cls.buf, hi.buf);
	else { /* no class explains every time within the tolerance: name the two around the exponent */
		strbuf_addf(&sb, _("%s grows like N^%.1f (expected %s): between O(%s) and O(%s), its times ("), g->call,
			    g->exponent, expected.buf, cls.buf, hi.buf);
		add_range(&sb, g);
		strbuf_addstr(&sb, _(") were too uneven to tell which (the machine may have been busy)"));
	}
	if (g->known && g->decided && g->expected == (g->exponential ? GROWTH_EXPONENTIAL : g->order))
		strbuf_addstr(&sb, _(", as expected"));
	if (g->known && g->extrapolated_s >= 0) {
		strbuf_addf(&sb, _("; at N = %lld"), g->target);
		if (g->target_group)
			strbuf_addf(&sb, _(" (group %s)"), g->target_group);
		strbuf_addstr(&sb, _(" one call would take "));
		format_duration(&sb, g->extrapolated_s);
	}
	if (g->known && g->decided && g->set_aside)
		strbuf_addf(&sb, _("; the time at N = %lld was left out, slower than the other sizes allow (the machine "
				   "may have been busy)"), g->set_aside);
	strbuf_release(&expected);
	strbuf_release(&cls);
	strbuf_release(&hi);
	return strbuf_detach(&sb);
}

static void make_sentence(struct growth_result *g)
{
	free(g->sentence);
	g->sentence = L10N(sentence_of(g));
}

/*
 * How well does class N^k explain the fitted points?  Its model is t = a N^k +
 * b N^(k-1) with a, b >= 0, fitted in relative least squares: lower-order
 * work (an interpreter's cost per step of an O(N^2) loop around an O(N)
 * builtin, a cache miss per cell, for k = 1 the fixed cost) drags the
 * measured exponent below k at small sizes, and the model allows for it -
 * the log-log slope of such a sum only rises towards k.  Returns the
 * largest distance (ln) of a fitted point from the model, or INFINITY when
 * the N^k term would make less than half the time at the largest size: a
 * class is named by the term that dominates where it was measured.
 * *aside_off, when given, is how far the point set aside lies from the
 * model (ln; above it when positive).
 */
static double class_misfit(const struct growth_result *g, int k, double *aside_off)
{
	double top = 0, s11 = 0, s12 = 0, s22 = 0, s1 = 0, s2 = 0, a, b, det, worst = 0;
	for (int i = 0; i < g->npoints; i++)
		if (fitted(g, &g->points[i]) && (double)g->points[i].size > top)
			top = (double)g->points[i].size;
	for (int i = 0; i < g->npoints; i++) {
		const struct growth_point *pt = &g->points[i];
		double u = (double)pt->size / top, t = pt->ms - g->fixed_ms, x1 = pow(u, k) / t, x2 = pow(u, k - 1) / t;
		if (!fitted(g, pt))
			continue;
		s11 += x1 * x1;
		s12 += x1 * x2;
		s22 += x2 * x2;
		s1 += x1;
		s2 += x2;
	}
	det = s11 * s22 - s12 * s12;
	a = det > 1e-12 * s11 * s22 ? (s1 * s22 - s2 * s12) / det : -1;
	b = det > 1e-12 * s11 * s22 ? (s2 * s11 - s1 * s12) / det : -1;
	if (a < 0 || b < 0) { /* the best fit needs a negative term: the leading one alone */
		a = s1 / s11;
		b = 0;
	}
	if (a < b) /* at the largest size, u = 1: the N^k term is a / (a + b) of the time */
		return INFINITY;
	for (int i = 0; i < g->npoints; i++) {
		const struct growth_point *pt = &g->points[i];
		double u = (double)pt->size / top, off = log((pt->ms - g->fixed_ms) / (a * pow(u, k) + b * pow(u, k - 1)));
		if (aside_off && usable(pt) && pt->size == g->set_aside)
			*aside_off = off;
		if (fitted(g, pt) && fabs(off) > worst)
			worst = fabs(off);
	}
	return worst;
}

/*
 * Judge every class against the fitted points: a class FITS when its model
 * meets every point within the tolerance, and is NEAR when it misses by
 * less than the tolerance plus GROWTH_MARGIN.  One class is named only
 * when it alone fits and no other is near: a class that fits and another
 * that only just does not are not told apart by the measurement (a busy
 * machine slowed an O(N^2) scan's largest size by 40%, and a N^3 + b N^2
 * model met its times while N^2 missed by 0.46: "O(N^3)", 2026-11-27,
 * test_growth.c's test_slowed_top), and the sentence says "between".  Sets lo, hi (the near classes, 0 when none),
 * decided and order; returns how many classes fit.
 */
static int judge_classes(struct growth_result *g)
{
	int fits = 0;
	g->lo = g->hi = g->order = 0;
	for (int k = 1; k <= GROWTH_MAX_ORDER; k++) {
		double miss = class_misfit(g, k, NULL);
		if (miss <= g->tolerance) {
			fits++;
			g->order = k;
		}
		if (miss <= g->tolerance + GROWTH_MARGIN) {
			g->lo = g->lo ? g->lo : k;
			g->hi = k;
		}
	}
	g->decided = fits == 1 && g->lo == g->hi;
	if (!g->decided)
		g->order = 0;
	return fits;
}

/*
 * No class fits every point: is one size the odd one out?  On a machine
 * that stays busy through all the rounds, one size's least time can still
 * be slowed (a shared core, its caches: 18, 89 and 272 ms at N = 6144,
 * 12288 and 24576 for an O(N^2) loop, on CI, the middle one 25% over the
 * line through the others).  With GROWTH_ASIDE_POINTS usable points or
 * more, a point may be set aside when, without it, exactly one class fits
 * the rest and the point lies ABOVE that class's model - noise only adds
 * time, so a point below the line is evidence, never noise.  Only a point
 * between two others: the smallest and the largest size are where a
 * lower-order term or the leading one shows, and leaving either out would
 * shorten the span the class is judged on.  If leaving out different
 * points lets different classes fit, nothing is set aside: the times stay
 * too uneven to tell.  Returns the class, 0 for none (and g->set_aside
 * stays 0).
 */
static int set_aside_slowed(struct growth_result *g)
{
	int found = 0;
	long long aside = 0, smallest = 0, largest = 0;
	double worst = 0;
	if (g->nused < GROWTH_ASIDE_POINTS)
		return 0;
	for (int i = 0; i < g->npoints; i++)
		if (usable(&g->points[i])) {
			long long n = g->points[i].size;
			smallest = !smallest || n < smallest ? n : smallest;
			largest = n > largest ? n : largest;
		}
	for (int i = 0; i < g->npoints; i++) {
		const struct growth_point *pt = &g->points[i];
		double off = 0;
		if (!usable(pt) || pt->size == smallest || pt->size == largest)
			continue;
		g->set_aside = pt->size;
		/* without it, one class alone fits (no other near), and the point lies above its model */
		if (judge_classes(g) != 1 || !g->decided)
			continue;
		class_misfit(g, g->order, &off);
		if (off <= g->tolerance)
			continue;
		if (found && found != g->order) { /* two classes, each by leaving out another point */
			found = 0;
			aside = 0;
			break;
		}
		found = g->order;
		if (off > worst) { /* of the points whose leaving out lets it fit, the farthest above it */
			aside = pt->size;
			worst = off;
		}
	}
	g->set_aside = aside;
	return found;
}

/* The tolerance: GROWTH_TOLERANCE, or the usable points' own scatter between runs when larger (a busy machine). */
static double tolerance(const struct growth_result *g)
{
	double tol = GROWTH_TOLERANCE;
	for (int i = 0; i < g->npoints; i++)
		if (usable(&g->points[i]) && g->points[i].scatter > tol)
			tol = g->points[i].scatter;
	return tol < GROWTH_TOLERANCE_MAX ? tol : GROWTH_TOLERANCE_MAX;
}

/*
 * The fixed cost of a call (starting the case child, passing the input):
 * the fastest time under GROWTH_FIXED_MAX_MS, when another size took less
 * than twice as long - the time grew less than linearly there, so most of
 * it is not the algorithm's.  When the smallest sizes' times already grow
 * faster (tests/games' Nim scan: 1.6 ms at 1953 piles is mostly its own
 * O(n^2) work, 5.3 ms at 3906), none is known and nothing is taken off:
 * taking the 1.6 ms off made 3906's time grow like N^2.5 to the next size.
 */
static double fixed_cost(const struct growth_result *g)
{
	int at = -1;
	for (int i = 0; i < g->npoints; i++) {
		const struct growth_point *pt = &g->points[i];
		if (!pt->capped && pt->ms < GROWTH_FIXED_MAX_MS && (at < 0 || pt->ms < g->points[at].ms))
			at = i;
	}
	for (int i = 0; i < g->npoints && at >= 0; i++)
		if (i != at && !g->points[i].capped && g->points[i].ms < 2 * g->points[at].ms)
			return g->points[at].ms;
	return 0;
}

void growth_fit(struct growth_result *g)
{
	double a = 0, p = 0, log_s;
	g->nused = 0;
	for (int i = 0; i < g->npoints; i++)
		g->nused += usable(&g->points[i]);
	g->fixed_ms = fixed_cost(g);
	/* fewer points are degenerate: two fit every two-term model, and name any class */
	g->known = g->nused >= GROWTH_MIN_POINTS;
	g->exponential = g->decided = g->flat = g->uneven = false;
	g->lo = g->hi = g->order = 0;
	g->set_aside = 0;
	g->extrapolated_s = -1;
	g->tolerance = tolerance(g);
	if (g->known) {
		least_squares(g, true, &a, &p);
		g->exponent = p;
		/* the time grew by less than the square root of the size's factor: nothing to classify */
		g->flat = p < GROWTH_FLAT_EXPONENT;
		g->known = !g->flat;
	}
	if (g->known) {
		g->exponential = p > GROWTH_EXP_CUTOFF;
		if (g->exponential) {
			g->decided = true;
		} else if (judge_classes(g) == 0) {
			g->uneven = true;
			if (set_aside_slowed(g)) { /* the class and the exponent without the slowed point */
				g->uneven = judge_classes(g) == 0;
				least_squares(g, true, &a, &p);
				g->exponent = p;
			} else {
				g->decided = false;
				g->order = 0;
			}
		}
		if (g->uneven) { /* none fits: the sentence names the classes around the exponent */
			g->lo = p < 1 ? 1 : (int)floor(p);
			g->hi = g->lo + 1;
		}
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

/* ---- measuring ---- */

struct measure {
	const struct judge_context *c;
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

/*
 * The inputs at size n drawn by the file's `args:` (growth_spec.gen), with
 * the tests' generators (casegen.h): one case, N = n, the spec's own seed
 * (what does not depend on N is drawn alike at every size).
 */
static void encode_generated(const struct problem *p, long long n, struct strbuf *enc)
{
	struct case_spec spec = *p->growth.gen; /* a shallow copy: the args stay the problem's */
	struct test_case *cases = NULL;
	int ncases = 0;
	size_t alloc = 0;

	spec.n = n;
	spec.count = 1;
	spec.tries = 0;
	casegen_expand(&spec, 0, &cases, &ncases, &alloc);
	for (int i = 0; i < ncases; i++) {
		for (int a = 0; a < spec.nargs; a++) {
			if (i == 0)
				value_encode(enc, &cases[i].args[a]);
			value_release(&cases[i].args[a]);
		}
		free(cases[i].args);
		free(cases[i].name);
	}
	free(cases);
}

/* The inputs at size n, encoded: the same n gives the same inputs (seeded by n). */
static void encode_inputs(const struct problem *p, long long n, struct strbuf *enc)
{
	const struct growth_spec *gs = &p->growth;
	const struct signature *sig = &p->funcs[gs->func];
	uint64_t state = (uint64_t)n * 0x2545f4914f6cdd1dull;
	uint64_t span = (uint64_t)(gs->hi - gs->lo) + 1;

	if (gs->gen) {
		encode_generated(p, n, enc);
		return;
	}

	for (int a = 0; a < sig->ninputs; a++) {
		struct value v = { sig->input_types[a], 0, NULL, 0 };
		if (value_type_is_array(v.type)) {
			v.len = (size_t)n;
			v.arr = xcalloc(v.len + 1, sizeof(*v.arr));
			for (size_t i = 0; i < v.len; i++)
				v.arr[i] = (gs->lo + (long long)(rng_next(&state) % span));
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
	judge_task_init(m->c, t, m->b, p, p->growth.func);
	strbuf_add(&t->args, args->buf, args->len);
	t->cpu_ms = GROWTH_RUN_CAP_MS;
	/* CPU time is what counts: a busy machine may stretch the wall clock far beyond it */
	t->wall_ms = GROWTH_RUN_CAP_MS * 10;
	t->memory_mb = problem_max_memory_mb(p);
	t->output_kb = p->limits.output_kb;
}

/*
 * Run one call at each of the count sizes (in parallel on the pool's
 * slots).  ms[i]: the CPU time of the call at sizes[i], or -1 when it went
 * over the cap.  0, or -1 when a run failed otherwise (*why says how) or
 * the pool stopped.
 */
static int run_calls(struct measure *m, const long long *sizes, int count, double *ms, char **why)
{
	struct run_task *tasks = xcalloc((size_t)count + 1, sizeof(*tasks));
	struct batch b = { count, 0 };
	struct pool_client client = { batch_next, batch_finished, &b };
	int ret = 0;

	for (int i = 0; i < count; i++) {
		struct strbuf args = STRBUF_INIT;
		encode_inputs(m->p, sizes[i], &args);
		plan_call(m, &tasks[i], &args);
		strbuf_release(&args);
	}
	if (pool_run(m->pool, tasks, &client) < 0) {
		*why = xstrdup("interrupted");
		ret = -1;
	}
	for (int i = 0; i < count && ret == 0; i++) {
		struct judgement j;
		memset(&j, 0, sizeof(j));
		verdict_of_run(&j, &tasks[i], &m->p->funcs[m->p->growth.func]);
		if (tasks[i].facts.outcome == RUN_WALL_TIMEOUT && tasks[i].facts.child_cpu_ms < GROWTH_RUN_CAP_MS) {
			*why = L10N(xasprintf(_("at N = %lld a call used %u ms of CPU in %u ms of wall-clock time (sleeping, or "
					 "the machine too busy)"), sizes[i], tasks[i].facts.child_cpu_ms, tasks[i].wall_ms));
			ret = -1;
		} else if (j.verdict == V_CORRECT) {
			ms[i] = tasks[i].facts.outcome == RUN_REPORTED ? tasks[i].facts.report.cpu_us / 1000.0 : j.cpu_ms;
			m->used_ms += ms[i];
		} else if (j.verdict == V_TIMELIMIT) {
			ms[i] = -1;
			m->used_ms += GROWTH_RUN_CAP_MS;
		} else {
			*why = L10N(xasprintf(_("at N = %lld the call failed: %s"), sizes[i], j.message ? l10n_message(j.message) : _("no answer")));
			ret = -1;
		}
		judgement_release(&j);
	}
	for (int i = 0; i < count; i++)
		run_task_release(&tasks[i]);
	free(tasks);
	return ret;
}

/* Add a run's time (-1: over the cap, which counts as the cap) to a point: its least and second least. */
static void add_run(struct growth_point *pt, double ms)
{
	ms = ms < 0 ? GROWTH_RUN_CAP_MS : ms;
	if (!pt->runs++) {
		pt->ms = pt->second = ms;
	} else if (ms < pt->ms) {
		pt->second = pt->ms;
		pt->ms = ms;
	} else if (pt->runs == 2 || ms < pt->second) {
		pt->second = ms;
	}
	pt->scatter = pt->runs > 1 && pt->ms > 0 ? log(pt->second / pt->ms) : 0;
	pt->capped = pt->ms >= GROWTH_RUN_CAP_MS; /* every run went over the cap */
}

/*
 * The first run at size n (the search decides on it; rounds() adds the
 * others).  0: measured; 1: over the cap (the point is capped); -1: the run
 * failed (g->stopped says how).
 */
static int measure_size(struct measure *m, long long n, struct growth_point *pt)
{
	double ms;
	char *why = NULL;

	memset(pt, 0, sizeof(*pt));
	pt->size = n;
	if (run_calls(m, &n, 1, &ms, &why) < 0) {
		free(m->g->stopped);
		m->g->stopped = why;
		return -1;
	}
	add_run(pt, ms);
	return pt->capped ? 1 : 0;
}

/*
 * How many runs a point gets in all, want_fast for a usable point under
 * GROWTH_SLOW_MS; a slower one gets GROWTH_REPS - GROWTH_REPS_SLOW fewer,
 * but never fewer than GROWTH_REPS_FIRST (every usable point is measured
 * alike before a class is named).
 */
static int runs_wanted(const struct growth_point *pt, int want_fast)
{
	int slow = want_fast - (GROWTH_REPS - GROWTH_REPS_SLOW);
	int least = want_fast < GROWTH_REPS_FIRST ? want_fast : GROWTH_REPS_FIRST;
	if (!usable(pt))
		return 1; /* the fit does not use it: one run placed it */
	if (pt->ms <= GROWTH_SLOW_MS)
		return want_fast;
	return slow > least ? slow : least;
}

/*
 * More runs of the usable points, in rounds - one run of every point per
 * round - until each has runs_wanted(want_fast) or the budget is spent (a
 * round leaves out the points it cannot pay for, the costliest last).
 * Interleaved, a load that comes and goes during the measurement touches
 * every size alike, and the least time of each comes from the quietest
 * moments: a busy machine (a shared core, its caches) only ever adds time.
 */
static void rounds(struct measure *m, int want_fast)
{
	struct growth_result *g = m->g;
	long long sizes[GROWTH_MAX_POINTS];
	int which[GROWTH_MAX_POINTS];
	double ms[GROWTH_MAX_POINTS];
	while (!grader_interrupted) {
		double cost = 0;
		int count = 0;
		char *why = NULL;
		/* the points are in order of size: the cheap ones first */
		for (int i = 0; i < g->npoints; i++) {
			const struct growth_point *pt = &g->points[i];
			if (pt->runs >= runs_wanted(pt, want_fast) || m->used_ms + cost + pt->ms > GROWTH_BUDGET_MS)
				continue;
			cost += pt->ms;
			which[count] = i;
			sizes[count++] = pt->size;
		}
		if (!count)
			return;
		if (run_calls(m, sizes, count, ms, &why) < 0) {
			free(why); /* a later run failed: the points keep what they had */
			return;
		}
		for (int i = 0; i < count; i++)
			add_run(&g->points[which[i]], ms[i]);
	}
}

/*
 * When no single class fits the points (two fit, or none) even with the
 * sizes widen() added, measure more: GROWTH_MORE_REPS more rounds, as far
 * as the budget pays.  A busy machine's noise shrinks with them.
 */
static void settle(struct measure *m)
{
	struct growth_result *g = m->g;
	growth_fit(g);
	if (!g->known || g->decided)
		return;
	rounds(m, GROWTH_REPS + GROWTH_MORE_REPS);
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
		g->stopped = L10N(xasprintf(_("at N = %lld a call took over %u ms"), n, GROWTH_RUN_CAP_MS));
	}
	return r == 0;
}

/* Can the budget pay for a size whose time is about ms (one run at least)? */
static bool affordable(struct measure *m, double ms)
{
	if (m->used_ms + ms <= GROWTH_BUDGET_MS)
		return true;
	free(m->g->stopped);
	m->g->stopped = L10N(xasprintf(_("the time budget of %u ms was spent"), GROWTH_BUDGET_MS));
	return false;
}

/*
 * Do the runs of every usable point agree within GROWTH_TOLERANCE_MAX (its
 * two least)?  A size whose runs disagree more was measured while the
 * machine's speed changed: no class is named on it before more runs.
 */
static bool steady(const struct growth_result *g)
{
	for (int i = 0; i < g->npoints; i++)
		if (usable(&g->points[i]) && g->points[i].scatter > GROWTH_TOLERANCE_MAX)
			return false;
	return true;
}

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

/*
 * Do the points so far decide the class (growth_fit, with its margin)?
 * Sequential measurement: once GROWTH_ENOUGH_POINTS usable sizes spanning
 * GROWTH_ENOUGH_SPAN of time name one class on their first runs, every
 * usable size is run again (GROWTH_REPS_FIRST in all, in rounds) and the
 * class must stand on the least times; then larger sizes add nothing and
 * the doubling stops.  If it does not stand, the doubling goes on: a wider
 * span of N separates the classes better than more runs of the same sizes.
 * (Three sizes spanning 16 are not enough: the Python cubic's N^3 term
 * dominates only from some N = 400, and at 96, 192 and 384 its times grow
 * like N^2.3, which O(N^2) fits and O(N^3) - whose N^3 term would make
 * less than half of it - does not.)
 */
static bool settled(struct measure *m)
{
	struct growth_result *g = m->g;
	double span;
	int n = usable_span(g, &span);
	if (n < GROWTH_ENOUGH_POINTS || span < GROWTH_ENOUGH_SPAN)
		return false;
	growth_fit(g);
	if (!g->decided || g->exponential)
		return false;
	rounds(m, GROWTH_REPS_FIRST);
	growth_fit(g);
	n = usable_span(g, &span);
	if (!g->decided || g->exponential || n < GROWTH_ENOUGH_POINTS || !steady(g))
		return false;
	free(g->stopped);
	g->stopped = L10N(xasprintf(_("%d sizes spanning a factor %.0f of time were enough"), n, span));
	return true;
}

/*
 * Would size n take longer than GROWTH_TOP_MS?  Judged from the last two
 * points when both are usable, by their local exponent.  A run near or
 * over the cap costs more than all the sizes below it together, and adds
 * least: a run on a busy machine may go over the cap and be lost (the C
 * cubic's N = 3072, 1.8 s of a 2 s cap, once cost 5.3 s of 7.1 measuring:
 * docs/first-minute.md); the sizes halfway below it (refine) fill in when
 * the usable points are too few.
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
	if (predicted < GROWTH_TOP_MS)
		return false;
	free(m->g->stopped);
	m->g->stopped = L10N(xasprintf(_("at N = %lld a call would take about %.1f s, longer than a measured call "
					 "may take (%.0f s)"), n, predicted / 1000, GROWTH_TOP_MS / 1000));
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
 * or under it but grown faster than N^GROWTH_EXP_CUTOFF from the size
 * below, the growth is exponential-looking after all: linear steps up to it.
 */
static void refine_geometric(struct measure *m, const struct growth_point *below)
{
	struct growth_result *g = m->g;
	long long sizes[2] = { llround((double)below->size * M_SQRT2), llround((double)below->size / M_SQRT2) };
	for (int k = 0; k < 2 && !grader_interrupted && !refined(g); k++) {
		if (sizes[k] < m->p->growth.from || sizes[k] > m->p->growth.to)
			continue; /* the declared sizes bound every measurement */
		if (!affordable(m, 3 * g->points[g->npoints - 1].ms))
			break;
		if (add_point(m, sizes[k])) {
			const struct growth_point *up = &g->points[g->npoints - 1];
			/*
			 * Under the cap, but faster than any polynomial of degree 6 or less
			 * grows (the first run at the size below was slow by chance, so the
			 * jump looked polynomial): the sizes between, as for an exponential
			 * jump.  Seen with a Python recursion, 21 ms at 15, 1.5 s at 21.
			 */
			if (k == 0 && usable(below) && up->ms > below->ms &&
			    log(up->ms / below->ms) / log((double)up->size / (double)below->size) > GROWTH_EXP_CUTOFF) {
				refine_linear(m, below, sizes[k]);
				break;
			}
			continue;
		}
		if (!g->points[g->npoints - 1].capped)
			break; /* a failure, not the cap */
		if (k == 0 && GROWTH_RUN_CAP_MS > 8 * below->ms) {
			refine_linear(m, below, sizes[k]);
			break;
		}
	}
}

static int compare_points(const void *a, const void *b)
{
	const struct growth_point *x = a, *y = b;
	return x->size < y->size ? -1 : x->size > y->size;
}

/* Is there a point of size n already? */
static bool has_size(const struct growth_result *g, long long n)
{
	for (int i = 0; i < g->npoints; i++)
		if (g->points[i].size == n)
			return true;
	return false;
}

/*
 * The size halfway (x sqrt 2) between two points a doubling or more apart,
 * the upper one usable, when it should take GROWTH_MIN_MS or more (the
 * geometric mean of their times): *n, and its expected time *ms.  False
 * when there is none worth measuring (refine_below, widen).
 */
static bool halfway(const struct growth_point *below, const struct growth_point *above, long long *n, double *ms)
{
	if (below->capped || !usable(above) || above->size < 2 * below->size)
		return false;
	*ms = sqrt(above->ms * below->ms);
	*n = llround(sqrt((double)above->size * (double)below->size));
	return *ms >= GROWTH_MIN_MS;
}

/*
 * The size halfway (x sqrt 2) between the smallest usable point and the
 * point below it, when that one was just too fast to use and the halfway
 * size should take GROWTH_MIN_MS or more (the geometric mean of their
 * times): the cheapest size that adds a usable point.  The C cubic's 384
 * takes about 5 ms, on one side of the line or the other from run to run;
 * below it, 543 (some 14 ms) completes the three usable sizes that the
 * halfway size above 1536 (2172: 0.6 s a run, run again in rounds) did
 * before - growth's cost went from 0.6 s to 1.8 or 3.3 s of CPU by which
 * side 384 fell on.  True when it was measured.
 */
static bool refine_below(struct measure *m)
{
	struct growth_result *g = m->g;
	const struct growth_spec *gs = &m->p->growth;
	int low = -1;
	long long n;
	double ms;
	for (int i = 0; i < g->npoints && low < 0; i++)
		if (usable(&g->points[i]))
			low = i;
	if (low < 1 || !halfway(&g->points[low - 1], &g->points[low], &n, &ms))
		return false;
	if (has_size(g, n) || n < gs->from || n > gs->to || !affordable(m, g->points[low].ms))
		return false;
	add_point(m, n);
	qsort(g->points, (size_t)g->npoints, sizeof(g->points[0]), compare_points);
	return true;
}

/*
 * Fewer than three usable points because the last size went over the cap,
 * or the doubling stopped before it: fill in.  A jump past the cap by more than 2^6 from the size before is
 * exponential-looking (a polynomial of degree 6 or less cannot do it):
 * linear steps; else halfway sizes.
 */
static void refine(struct measure *m)
{
	struct growth_result *g = m->g;
	const struct growth_point *below;
	double span;
	if (g->npoints < 2 || usable_span(g, &span) >= 3)
		return;
	if (!g->points[g->npoints - 1].capped) {
		/*
		 * The doubling stopped before the cap: the next size was predicted
		 * over it (a cubic from 39 ms at 768 to 306 ms at 1536, with 4.8 ms
		 * at 384 just under GROWTH_MIN_MS on a fast day). The halfway sizes
		 * around the last one are under the cap: measure those rather than
		 * fit two points.
		 */
		if (refine_below(m) && refined(g))
			return;
		if (usable(&g->points[g->npoints - 1]))
			refine_geometric(m, &g->points[g->npoints - 1]);
		return;
	}
	below = &g->points[g->npoints - 2];
	if (GROWTH_RUN_CAP_MS > 64 * below->ms)
		refine_linear(m, below, g->points[g->npoints - 1].size);
	else
		refine_geometric(m, below);
}

/*
 * No single class fits the usable points: more sizes, halfway (x sqrt 2)
 * between neighbouring points a doubling apart, each placed with one run
 * and given GROWTH_REPS in rounds, as far as the budget pays.  Below the
 * smallest usable size too, when the halfway size should take
 * GROWTH_MIN_MS or more: four usable sizes are one fewer than a slowed
 * one may be set aside from (GROWTH_ASIDE_POINTS; tests/growth's bump in
 * a CI rehearsal, 2026-11-27: 3072 at 4.6 ms left 6144 to 17378, four
 * sizes, and "between O(N^2) and O(N^3)").
 * The fit then stands on more sizes over the same span: a size whose
 * runs were all slowed (a machine busy all along: more runs of the same
 * size do not help) weighs less, and may be set aside (growth_fit).  Not
 * with `step:` (the sizes are the declared ones, dense already).
 */
static void widen(struct measure *m)
{
	struct growth_result *g = m->g;
	const struct growth_spec *gs = &m->p->growth;
	long long sizes[GROWTH_MAX_POINTS];
	double cost[GROWTH_MAX_POINTS];
	int count = 0, last = -1;
	growth_fit(g);
	if (!g->known || g->decided || g->exponential || gs->step)
		return;
	for (int i = 0; i < g->npoints; i++) {
		if (g->points[i].capped)
			continue;
		if (last >= 0 && halfway(&g->points[last], &g->points[i], &sizes[count], &cost[count]))
			count++;
		last = i;
	}
	for (int i = 0; i < count && !grader_interrupted; i++) {
		if (has_size(g, sizes[i]) || sizes[i] < gs->from || sizes[i] > gs->to)
			continue;
		if (!affordable(m, GROWTH_REPS_SLOW * cost[i]))
			break;
		add_point(m, sizes[i]);
	}
	qsort(g->points, (size_t)g->npoints, sizeof(g->points[0]), compare_points);
	rounds(m, GROWTH_REPS);
}

/*
 * Refine (when the points are too few), then rounds up to want runs of
 * each usable point; twice, because the rounds' least times may take a
 * point under GROWTH_MIN_MS that its first run had over it (tests/growth's
 * bump, as a normal user under load: 3072 at 4.3 ms after 5 runs left two
 * usable sizes and "cannot say").
 */
static void measure_again(struct measure *m, int want)
{
	struct growth_result *g = m->g;
	for (int pass = 0; pass < 2; pass++) {
		if (!m->p->growth.step) /* even steps: the sizes between are measured already (or skipped on purpose) */
			refine(m);
		qsort(g->points, (size_t)g->npoints, sizeof(g->points[0]), compare_points);
		rounds(m, want);
	}
}

/* Doubling from the declared smallest size, then refine(). */
static void search(struct measure *m)
{
	const struct growth_spec *gs = &m->p->growth;
	struct growth_result *g = m->g;
	for (long long n = gs->from; n <= gs->to && !grader_interrupted; n = gs->step ? n + gs->step : n * 2) {
		/* the next size costs some 4 times the last (N^2) at least: stop before the budget runs out */
		if (g->npoints && !affordable(m, 4 * g->points[g->npoints - 1].ms))
			break;
		if (predicted_over(m, n) || !add_point(m, n) || settled(m))
			break;
	}
	measure_again(m, GROWTH_REPS_FIRST);
	growth_fit(g);
	if (g->known && g->decided && steady(g))
		return; /* every usable size run alike, and one class named with its margin: enough */
	measure_again(m, GROWTH_REPS);
	widen(m);
	settle(m);
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

static struct growth_result *measure_problem(const struct judge_context *c, const struct build_result *b)
{
	const struct problem *p = b->problem;
	struct growth_result *g = xcalloc(1, sizeof(*g));
	struct measure m = { c, p, b, NULL, 0, g };
	g->call = xstrdup(problem_call_name(p, p->growth.func));
	g->expected = p->growth.expected;
	m.pool = judge_pool(c, 0);
	search(&m);
	pool_free(m.pool);
	g->used_s = m.used_ms / 1000.0;
	return g;
}

void growth_after_grading(const struct judge_context *c, const struct build_result *builds, struct grade_result *out,
			  enum visibility vis)
{
	for (int i = 0; i < out->nproblems && !grader_interrupted; i++) {
		struct problem_result *pr = &out->problems[i];
		const struct problem *p = pr->problem;
		bool pub, hid, wanted;
		if (!p->growth.declared || builds[i].status != BUILD_OK || c->growth == GROWTH_NEVER || pr->growth)
			continue;
		timed_out(pr, &pub, &hid);
		/* for the student: always, or after a public time limit; for the instructor: after a hidden one */
		wanted = vis == VIS_PUBLIC ? c->growth == GROWTH_ALWAYS || pub
					   : c->growth == GROWTH_AFTER_TIMELIMIT && hid;
		if (!wanted)
			continue;
		pr->growth = measure_problem(c, &builds[i]);
		pr->growth->from_hidden = vis != VIS_PUBLIC;
		choose_target(pr, pr->growth);
		growth_fit(pr->growth);
		/* the log may be where students look (a CI job's): it says what their view says, no more; the
		 * sentence names the call, so the problem only when it is named otherwise ("p4_dp: f grows ...") */
		if (c->log && !pr->growth->from_hidden)
			fprintf(c->log, "grader: %s%s%s (%.1f s of CPU measuring)\n",
				strcmp(p->id, pr->growth->call) ? p->id : "", strcmp(p->id, pr->growth->call) ? ": " : "",
				pr->growth->sentence, pr->growth->used_s);
	}
}
