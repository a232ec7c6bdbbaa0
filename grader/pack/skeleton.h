/*
 * skeleton.h - a student's starting files, generated from a problem file
 * (`grader skeleton`, cmd/skeleton.c), so that an instructor who adds a
 * problem writes only its YAML and its reference:
 *
 *   - the C file: the problem's statement as a comment, a prototype and a
 *     body for every function with the exact signature (arrays as
 *     `const int *L, int n`), each returning a wrong constant;
 *   - the Python file in the course's style (student_template/python/):
 *     the statement as the module's docstring, every function the grader
 *     calls returning a wrong constant, and a test() from the public
 *     examples (literal cases with an `expected:`) called at the end; run
 *     as a script (python3 FILE) it exits with 1 when a check fails;
 *   - the guide's table: one Markdown row per problem (id, C signature,
 *     Python call, the game).
 *
 * Each function appends to sb and takes a problem as loaded (any variant:
 * the C and Python parts look up their own language's variant).  Nothing
 * here reads the reference or runs anything.
 */
#ifndef GRADER_SKELETON_H
#define GRADER_SKELETON_H

#include "problem/problem.h"

/* The variant of p in the language named lang ("c", "python"), or NULL when p does not take it. */
const struct problem *skeleton_variant(const struct problem *p, const char *lang);

/* The C file of p (its C variant, which must exist: skeleton_variant(p, "c")). */
void skeleton_c(struct strbuf *sb, const struct problem *p);
/* The Python file of p (its Python variant, which must exist). */
void skeleton_python(struct strbuf *sb, const struct problem *p);
/* How many checks skeleton_python's test() makes (the public examples it takes). */
int skeleton_python_checks(const struct problem *p);

/* The guide table's header (two lines) and p's row. */
void skeleton_guide_header(struct strbuf *sb);
void skeleton_guide_row(struct strbuf *sb, const struct problem *p);

#endif
