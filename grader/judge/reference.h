/*
 * reference.h - the reference solutions' answers and CPU times, which the
 * engine compares against and derives limits from (Kattis-style:
 * cpu_factor x the slowest reference run of a group).
 *
 * They come from a cache when its key matches - the grader's version, the
 * problem file's digest and the reference's source, SHA-256 - and otherwise
 * from running the reference directory through engine_measure(), the same
 * sandboxed machinery a student's code goes through; then they are cached
 * (~/.cache/combgrader or --cache DIR, one file per problem).
 *
 * Ownership: the answers belong to the engine (e->ref), released by
 * engine_release(), unless borrowed (reference_lend).
 */
#ifndef GRADER_REFERENCE_H
#define GRADER_REFERENCE_H

#include "base/digest.h"
#include "judge/engine.h"

/*
 * Load e's answers.  Problems that need no reference (reference_needed
 * false) are skipped, so a student pack without reference/ grades fine.
 * A reference that fails a test is not an error here: its problem gets a
 * failure message (e->ref[i].failure, also logged), and grading that test
 * gives judge-error.  0, or -1 with a message in err (no reference
 * directory, interrupted).
 */
int reference_load(struct engine *e, struct strbuf *err);

/* Does grading p need the reference (an answer not in the file, or a relative time limit)? */
bool reference_needed(const struct problem *p);

/*
 * Where language lang's reference files are: reference/<lang>/ when that
 * folder exists (reference/python/p1.py...), else reference/ itself (the C
 * files), so that `grader reference` and `grader reference/python` each
 * grade one language without a conflict.  A new string.
 */
char *reference_dir(const struct engine *e, const struct language *lang);

/* Add what identifies p's reference solution (its language and version, its source bytes) to a key. */
void reference_key_add(const struct engine *e, const struct problem *p, struct digest *d);

/*
 * Hand src's answers to dst (same problem selection), e.g. to a batch
 * worker's engine after fork: src no longer has them.
 */
void reference_adopt(struct engine *dst, struct engine *src);

/*
 * Let dst (one problem) use the answers ra of another engine's problem,
 * borrowed: dst must be released before ra's engine (selftest's check that
 * p4_dp's reference agrees with p4's on p4's tests).
 */
void reference_lend(struct engine *dst, struct reference_answers *ra);

#endif
