/*
 * diagnose.h - what the pattern of a problem's verdicts says about the
 * mistake behind them, added to the messages of the tests that show it:
 *
 *   - a wrong answer that equals the expected value modulo 2^32, or has the
 *     wrong sign where the expected value is beyond 32 bits: "looks like
 *     32-bit overflow: use long long";
 *   - the first time limit of a group whose earlier tests all passed:
 *     "correct on the 45 earlier tests of this group, too slow from
 *     AcanWin(46) on" - a faster algorithm is needed, not a fix;
 *   - a call correct on every test up to a size that crashes on every test
 *     from a larger size on (a local array too small, dp[20]): "f was
 *     correct on every test up to length 20 and crashed on every test from
 *     length 21 on", from the
 *     sizes of the tests that ran - none when passes and crashes
 *     interleave in size, or when a test of the call failed otherwise.
 *
 * Messages belong to tests, so what a student sees of them follows the
 * view's rule for hidden groups (view.h) like every other message.
 * Deterministic: it reads verdicts, values, sizes and case order only, never times.
 */
#ifndef GRADER_DIAGNOSE_H
#define GRADER_DIAGNOSE_H

#include "judge/result.h"

/*
 * Once the verdicts of r's tests of visibility vis are in (a group's tests
 * are all public or all hidden): rewrites the messages of those tests in
 * place.  The engine calls it for the public tests as soon as they ran -
 * the smallest failing input (shrink.h) starts from their messages - and
 * for the hidden ones after them.
 */
void diagnose_result(struct grade_result *r, enum visibility vis);

#endif
