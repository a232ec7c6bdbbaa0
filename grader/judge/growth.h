/*
 * growth.h - how a solution's running time grows with the size of its
 * input, measured and said in words ("f grows like N^3.0 (expected N^2):
 * an O(N^3) algorithm; ...").  Empirical complexity in the manner of
 * trend-prof (Goldsmith et al., FSE 2007) and pberkes/big_O: run the
 * function at doubling sizes, fit the exponent on a log-log scale.
 *
 * When: for a problem whose file declares `growth:` (problem.h, struct
 * growth_spec), when a test of the declared call failed by time
 * (timelimit), or always with --growth (engine_options.growth): after the
 * public tests and before the hidden ones, or - when only a hidden test
 * failed by time - after those, for the instructor's view alone
 * (growth_after_grading).  It changes no score.
 *
 * How (growth_measure):
 *   inputs   with the file's `args:` (growth_spec.gen), drawn by the tests'
 *            generators (casegen.h) with N the size and a seed fixed for
 *            every size; without it, generated from the size alone (a
 *            splitmix64 stream seeded by N), every array N long.  Either
 *            way the same submission sees the same inputs every time
 *   runs     the submission's own built runner, through the runner pool
 *            (runner.h) with the problem's memory limit and a CPU limit of
 *            GROWTH_RUN_CAP_MS per call; the time is the case child's CPU
 *            time (not wall-clock: the machine may be busy).  The search
 *            places each size with one run; then the usable sizes get more,
 *            in rounds (one run of each per round: a passing load touches
 *            every size alike), GROWTH_REPS_FIRST in all before a class is
 *            named, GROWTH_REPS (GROWTH_REPS_SLOW over GROWTH_SLOW_MS) when
 *            that named none, and the LEAST time counts: a busy machine only
 *            ever adds time
 *   sizes    from `sizes[0]`, doubling up to `sizes[1]` (or up by `step:`,
 *            without refinement: the sizes are dense); doubling stops at
 *            a first run over the cap, a run that fails (memory, crash), or when
 *            the budget (GROWTH_BUDGET_MS of CPU per problem, all runs
 *            counted) cannot pay for the next size.  Sequential: it stops
 *            as soon as GROWTH_ENOUGH_POINTS usable points spanning
 *            GROWTH_ENOUGH_SPAN of time name one class, on their first
 *            runs and again on the least of GROWTH_REPS_FIRST; and before
 *            a size that the last two usable points' local exponent puts
 *            over GROWTH_TOP_MS (the costliest run, adding least).  When fewer than three
 *            usable points came out because the time jumped past the cap
 *            within one doubling by more than 2^6 (exponential growth does
 *            that), the sizes between the last two are tried in eight even
 *            steps (one by one when the size below is usable already); after
 *            a smaller jump (a steep polynomial), the sizes x sqrt 2 and
 *            / sqrt 2 around the last one under the cap (docs/growth.md).
 *   fit      the fixed cost of a call (starting the case, passing the
 *            input: the fastest time measured, when under GROWTH_FIXED_MAX_MS)
 *            is taken off every time when it is one (another size took less
 *            than 1.5 times as long); then least squares of log t over log N,
 *            over the usable points: those at or above GROWTH_MIN_MS (well
 *            above timer resolution) and under the cap.  At least
 *            GROWTH_MIN_POINTS are needed to say anything (fewer are
 *            degenerate: the sentence says the grader cannot say, and why),
 *            and a time that grew slower than N^GROWTH_FLAT_EXPONENT names
 *            no class (an early exit).
 *   class    exponential when the fitted exponent exceeds GROWTH_EXP_CUTOFF
 *            (doubling N multiplies the time by more than 2^6 = 64, which
 *            no polynomial of degree 6 or less does, and which
 *            exponential growth does at every size where its time is
 *            measurable); its base per +1 of N then comes from a fit of
 *            log t over N.  Else each class N^k (k <= GROWTH_MAX_ORDER) is
 *            tested: the model a N^k + b N^(k-1), a, b >= 0 (lower-order
 *            work drags the exponent below k at small sizes), must meet
 *            every point within the tolerance (GROWTH_TOLERANCE, or the
 *            points' scatter between runs, up to GROWTH_TOLERANCE_MAX) with
 *            its N^k term at least half the time at the largest size.  One
 *            class fits and every other misses by more than the tolerance
 *            plus GROWTH_MARGIN: it is named.  Otherwise the sentence says
 *            the measurement cannot tell, naming the classes around it -
 *            after more runs, more sizes (halfway between neighbouring ones)
 *            and GROWTH_MORE_REPS more rounds, budget permitting.  With
 *            GROWTH_ASIDE_POINTS usable points or more, one size between two
 *            others that lies above the only class fitting the rest is set
 *            aside as slowed (growth_result.set_aside; noise only adds time).
 *   extrapolation  to the largest size N of the call's public groups that
 *            failed by time (else of any public group): a*N^p, or a*b^N.
 *
 * The finding, struct growth_result, is growth_result.h's (the result
 * model holds it without calling this module).
 */
#ifndef GRADER_GROWTH_H
#define GRADER_GROWTH_H

#include <stdbool.h>

#include "problem/problem.h"
#include "base/util.h"
#include "judge/growth_result.h"

#define GROWTH_BUDGET_MS 10000u  /* CPU time all runs of one problem may use */
#define GROWTH_RUN_CAP_MS 2000u  /* one call's CPU limit: doubling stops past it */
#define GROWTH_MIN_MS 5.0        /* points under this are too close to timer resolution to fit */
#define GROWTH_MIN_POINTS 3      /* usable points a class needs: with fewer the sentence says it cannot say */
#define GROWTH_REPS_FIRST 2      /* runs of every usable size before a class is named (the least counts) */
#define GROWTH_REPS 5            /* runs per size when those did not decide (noise only adds time: the least counts) */
#define GROWTH_REPS_SLOW 3       /*   for sizes whose first run took over GROWTH_SLOW_MS */
#define GROWTH_SLOW_MS 300.0
#define GROWTH_EXP_CUTOFF 6.0    /* a fitted exponent above this is exponential growth */
#define GROWTH_FIXED_MAX_MS 2.5 /* the fastest point, when under this, is a call's fixed cost */
#define GROWTH_ENOUGH_POINTS 4   /* this many usable points... */
#define GROWTH_ENOUGH_SPAN 32.0  /* ...whose times span this factor, naming one class: no larger sizes */
#define GROWTH_TOP_MS 1000.0     /* a size predicted to take longer than this is not measured */
#define GROWTH_TOLERANCE 0.15    /* a class's model must meet every point within e^0.15 (16%)... */
#define GROWTH_TOLERANCE_MAX 0.3 /*   or within the points' own scatter, up to this */
#define GROWTH_MARGIN 0.3        /* a class is named only when every other misses by the tolerance plus this */
#define GROWTH_MORE_REPS 4       /* runs added to each usable size when no class fits alone */
#define GROWTH_ASIDE_POINTS 5    /* usable points from which one slowed size may be set aside (growth_fit) */
#define GROWTH_FLAT_EXPONENT 0.5 /* a fitted exponent under this: the time did not grow (no class) */
#define GROWTH_MAX_ORDER 6

/* "N^2", "N", "exponential" (class), or "2^N" (a declared expectation: exponential). */
void growth_class_name(struct strbuf *sb, int order, bool exponential);
void growth_expected_name(struct strbuf *sb, int expected);

/*
 * Fit the points (sets nused, known, exponent, exponential, base, order),
 * then the extrapolation (when target is set) and the sentence.  Pure: the
 * unit tests call it on made-up points.
 */
void growth_fit(struct growth_result *g);


struct judge_context;
struct build_result;
struct grade_result;

/*
 * The engine's hook, called with that run's builds (builds[i] belongs to
 * out->problems[i]) once the tests of visibility vis ran and were
 * collected: measure every problem that asks for it (see above) and attach
 * the result (problem_result.growth).  VIS_PUBLIC: after the public tests
 * and before any hidden one (engine.c, dispatch_order) - with --growth, or
 * after a public time limit: what the student may see is measured before
 * hidden tests could make the machine busy or the clock late.  VIS_HIDDEN:
 * after the hidden tests, the problems not measured yet whose hidden test
 * timed out (from_hidden: the instructor's view only, and not logged).  A
 * problem whose measurement could not run gets a result that says so.
 * Never fails the grading.  c is the engine's (context.h): its pool's
 * slots, its log, engine_options.growth.
 */
void growth_after_grading(const struct judge_context *c, const struct build_result *builds, struct grade_result *out,
			  enum visibility vis);

#endif
