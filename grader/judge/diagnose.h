/*
 * diagnose.h - what the pattern of a problem's verdicts says about the
 * mistake behind them, added to the messages of the tests that show it:
 *
 *   - a wrong answer that equals the expected value modulo 2^32, or has the
 *     wrong sign where the expected value is beyond 32 bits: "looks like
 *     32-bit overflow: use long long";
 *   - the first time limit of a group whose earlier tests all passed:
 *     "correct on the 45 earlier tests of this group, too slow from
 *     AcanWin(46) on" - a faster algorithm is needed, not a fix.
 *
 * Messages belong to tests, so what a student sees of them follows the
 * view's rule for hidden groups (view.h) like every other message.
 * Deterministic: it reads verdicts, values and case order only, never times.
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
