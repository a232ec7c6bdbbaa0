/*
 * stub.h - generate the calling stub of a problem (CMS's grader-stub model).
 *
 * For each function of the problem the stub declares a weak reference to
 * the student's function (so a missing function is reported per function,
 * not as a link error) and an adapter that turns decoded arguments into a
 * C call.  The declarations header is force-included into the student's
 * file (-include), so a function written with another signature is a
 * compile error that names the required one.
 */
#ifndef GRADER_STUB_H
#define GRADER_STUB_H

#include "problem/problem.h"

/* Append the C source of the stub (stub.c) to sb. */
void stub_generate(struct strbuf *sb, const struct problem *p);
/* Append the declarations header (decls.h) to sb. */
void stub_declarations(struct strbuf *sb, const struct problem *p);

/* The macro name the student's own main() is renamed to. */
#define STUB_RENAMED_MAIN "grader_student_own_main"

#endif
