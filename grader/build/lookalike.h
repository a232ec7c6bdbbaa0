/*
 * lookalike.h - when a problem's file is missing from a submission, the
 * files that were probably meant for it, and what to do about each: the
 * difference between a bare "missing" and "found 'p1.c.txt': rename it to
 * 'p1.c'".
 *
 * Recognised (names compared case-insensitively):
 *   - the right name in a folder below the submission's top ("hw/src/p1.c"):
 *     move it up;
 *   - the right name with more after it ("p1.c.txt", "p1.py.bak"): rename;
 *   - the right stem with copy marks ("p1 (1).c", "p1-2.c", "p1 copy.c",
 *     "p1_final.c"): rename;
 *   - the right stem with another extension: a language the problem does not
 *     take (a .py where only C is graded), C++ (.cpp, .cc, .cxx), a
 *     notebook (.ipynb), a text file...: say what the grader takes.
 *
 * The walk is bounded (three folders deep, a few thousand entries, no
 * symbolic links, hidden entries and __MACOSX skipped): a submission is
 * untrusted and may be a huge tree.
 */
#ifndef GRADER_LOOKALIKE_H
#define GRADER_LOOKALIKE_H

/*
 * wanted: the names the problem's variants look for ("p1.c", "p1.py"), n of
 * them.  Returns advice for the student ("found 'p1.c.txt': rename it to
 * 'p1.c'"; several finds joined by "; "), or NULL when nothing in dir looks
 * like one of them.  The string is the caller's to free.
 */
char *lookalike_hint(const char *dir, const char *const *wanted, int n);

#endif
