/*
 * pack.h - the problem files of a student pack (see pack.c for what goes in
 * and what is left out).  `grader pack` (cmd/pack.c) and tools/pack.sh are
 * the fronts.
 */
#ifndef GRADER_PACK_H
#define GRADER_PACK_H

#include "judge/engine.h"

/*
 * Write DIR/<id>.yaml for the engine's selected problem k (every language of it): public groups only, every
 * case explicit with its expected answer (the file's or the reference's),
 * absolute CPU limits.  e must have its reference answers loaded.  The file
 * is read back and compared before it is put in place.  Returns 1 when a
 * file was written, 0 when the problem has no public group, -1 with a
 * message in err.
 */
int pack_problem(const struct engine *e, int k, const char *dir, struct strbuf *err);

#endif
