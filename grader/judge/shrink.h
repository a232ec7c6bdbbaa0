/*
 * shrink.h - the smallest failing input.  When a generated test (range,
 * random or array arguments) of a public group fails with wrong-answer or
 * run-error, search for a smaller input on which the submission fails the
 * same way, as QuickCheck and Hypothesis shrink a failing property's input:
 *
 *   rows      shorter: drop halves, then quarters, ... then single values
 *             (delta debugging), never below the generator's shortest length
 *   integers  nearer the value nearest 0 the generator could draw (the low
 *             end of a positive range, 0 when the range holds it): that
 *             value, one past it, then ever closer to the failing value
 *   elements  each row value the same way
 *
 * A candidate keeps to the bounds its generator declared (the problem files
 * state no other constraints on arguments, so those bounds are the valid
 * inputs: p2's k < n and p3's n > 5 hold within them); a literal argument
 * is kept as it is.  Its expected value is the reference solution's, built
 * from the reference directory and run through the same sandbox and runner
 * pool as the submission; a candidate the reference does not answer is
 * dropped.  A candidate counts as failing when the submission's verdict on
 * it is the failing test's (wrong-answer stays wrong-answer: a crash on an
 * empty row is another bug).
 *
 * Deterministic: the test to start from is the smallest failing one (rows
 * shorter first, then values of smaller magnitude, then file order); the
 * candidates come in a fixed order, in batches of SHRINK_BATCH whatever -j
 * says, and the first failing candidate of a batch in that order is taken.
 * Only the budget's clock (SHRINK_SECONDS) and a verdict that depends on
 * time (a candidate at its time limit counts as not failing) can make two
 * runs differ.  Bounded: SHRINK_RUNS candidates and SHRINK_SECONDS of wall
 * clock per problem, both stated in the result.
 *
 * Only public groups: the input found is shown to the student, and it and
 * the search's figures depend only on public inputs.  The search runs in a
 * fresh runner pool once the public tests ran and before any hidden test
 * starts (engine.h, the order), so no hidden test's run is alive in it or
 * came before it: not even the clock tells of one.  It changes no verdict
 * and no score.
 *
 * Ownership: the result's problem results own what is attached
 * (problem_result.shrunk, freed by grade_result_release).
 */
#ifndef GRADER_SHRINK_H
#define GRADER_SHRINK_H

#include "build/build.h"
#include "judge/context.h"
#include "judge/result.h"

#define SHRINK_RUNS 500        /* candidate inputs per problem */
#define SHRINK_SECONDS 20.0    /* wall clock per problem, checked between batches */
#define SHRINK_BATCH 4         /* candidates the submission runs together (fixed: the result must not depend on -j) */
#define SHRINK_AHEAD 16        /* candidates the reference answers at a time (fewer runner restarts) */

/*
 * For every problem result of r (built from builds[i]) with a failing
 * generated public test, search for the smallest failing input and attach
 * it (r->problems[i].shrunk).  A problem whose reference cannot be built
 * is left without one (logged on c->log).  c is the engine's (context.h).  0, or -1 when interrupted.
 */
int shrink_result(const struct judge_context *c, const struct build_result *builds, struct grade_result *r);

/*
 * After the deadline (engine_options.reveal_hidden, `grader batch
 * --reveal-hidden`): for every hidden group that failed, the smallest
 * failing input, searched as above from the group's smallest failing
 * generated test that gave a wrong answer or a run error; when the group
 * has none (a literal input failed, or a time limit), its smallest failing
 * test as it is (as_is).  Run once the hidden tests ran, so it changes
 * nothing the student sees before: shown only when asked for, when the
 * hidden inputs may be known.  Attached as r->problems[i].revealed[group].
 * 0, or -1 when interrupted.
 */
int shrink_hidden(const struct judge_context *c, const struct build_result *builds, struct grade_result *r);

#endif
