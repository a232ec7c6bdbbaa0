/*
 * report.h - writing a grade_result for its readers.
 *
 * One table (report.c) names every format and its writer; each writer is a
 * thin function over one view of the result (view.h, curl's tool_writeout
 * pattern).  The caller builds the view once - the student's, where hidden
 * groups are counts only, or the instructor's (--show-hidden, batch) - and
 * hands the same view to every writer: a writer sees only what its reader
 * may see, so no writer can leak a hidden test by forgetting a rule, and
 * captured output is already cut to the view's budget.
 *
 * Everything a student's program printed (captured output, compiler
 * messages) is untrusted bytes: writers pass it through text_clean()
 * (text.h) before it reaches a terminal, an XML file or a CI log (the
 * view's messages and output are clean already; cleaning them again
 * changes nothing), and write scores with text_score(), so every format
 * agrees.
 *
 * Ownership: writers borrow the view and write to `out`; they return 0,
 * or -1 when writing failed.  The helpers append to a caller's strbuf.
 */
#ifndef GRADER_REPORT_H
#define GRADER_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "report/view.h"

struct report_options {
	bool color;        /* ANSI colours (text) */
	bool verbose;      /* text: list passing tests too */
	bool compact;      /* json: the batch's record (report_json.c): one line, quiet tests short */
	const char *version;
};

typedef int (*report_writer)(FILE *out, const struct view *v, const struct report_options *o);

struct report_format {
	const char *name;
	const char *description;
	report_writer write;
	bool localised;   /* written in the students' language (l10n.h): prose for people, never a machine format */
};

/*
 * A group's hint in the language being written (l10n.h): chosen from what the
 * code did when every failure of the group returned None or no number
 * (view_group.returned: a float hint is no help for a missing return), else
 * the group's own, its hint_ko in a Korean report.  NULL: no hint.
 */
const char *report_hint(const struct view_group *vg);

/* The format called name, or NULL. */
const struct report_format *report_find(const char *name);
/* All formats, terminated by an entry with name NULL. */
extern const struct report_format report_formats[];

/* ---- helpers shared by the writers (report.c) ---- */

/*
 * One line saying why a listed test failed (nothing for a correct test):
 * "AcanWin(3) returned false, expected true", or the call and the message
 * ("canWin(7): crashed with signal 11 (segmentation fault)").  Clean.
 */
void report_describe(struct strbuf *sb, const struct problem *p, const struct view_test *vt);

/*
 * How many tests of a group passed, for people: "7 of 10 passed"; for a
 * counts-only all-or-nothing group that did not pass entirely "not all of
 * 10 passed" (view.h: its count would say where it failed).
 */
void report_passed(struct strbuf *sb, const struct view_group *g);

/*
 * Why g's skipped tests did not run, for people: "3 tests not run: an
 * earlier test of this all-or-nothing group failed", or, in a points-per-
 * test group (engine_options.skip_repeated_failures), "12 tests not run: the
 * 3 tests before them failed the same way (--all-tests runs them)".  No
 * period, no newline; nothing when none was skipped.
 */
void report_not_run(struct strbuf *sb, const struct view_group *g);

/* " (up to 17.5 if the 12 tests not run pass)" after a score, or nothing: t has no such tests. */
void report_up_to(struct strbuf *sb, const struct view_tally *t, double score);

/*
 * What the output budget left out of a problem, for people, or nothing
 * when nothing was: "output of 812 tests not shown (3.2 MiB): reports show
 * at most 64 KiB of captured output per problem", and how many long
 * messages were cut.  Returns true when it wrote something.
 */
bool report_left_out(struct strbuf *sb, const struct view_problem *vp);

/*
 * A group of a problem for people, as Gradescope and PrairieLearn show one
 * test per group: how many passed ("28 of 32 tests passed (points per
 * test)." or, counts only, "Hidden tests: 10 of 10 passed"), up to 10
 * failing listed tests with the call, why, and up to 600 bytes of what the
 * program printed, how many were skipped, and the group's hint when not
 * all passed.  For a problem that did not build: the compiler's message
 * (on its first group, g == 0) or the verdict, and that nothing ran.
 * Clean text, ending with a newline.
 */
void report_group_text(struct strbuf *sb, const struct view_problem *vp, int g);

/*
 * The smallest failing input s of problem p (vp->shrunk, or a hidden
 * group's revealed input: view_group.revealed; shrink.h) for
 * people: into what, "f([-1]): expected -1, returned 0" (or the verdict and
 * the first line of its message); into how, where it came from and what
 * the search cost, "shrunk from a failing row of 60 values; 23 inputs
 * tried in 0.4 s, budget 500 inputs or 20 s".  Clean text, no newline.
 */
void report_shrunk(struct strbuf *what, struct strbuf *how, const struct problem *p, const struct shrunk_input *s);

/* A size for people: "900 bytes", "12.5 KiB", "3.2 MiB". */
void report_size(struct strbuf *sb, unsigned long long bytes);

/*
 * A problem's title for people: "Partizan stone game", and when the problem
 * accepts several languages the one graded, "Partizan stone game (Python
 * 3.11.2)".  Trusted text (from the problem file).
 */
void report_title(struct strbuf *sb, const struct problem *p);

/*
 * One line per problem ("p1 Partizan stone game: 17 / 22 (780 of 842 tests
 * passed)", or the build's verdict), what its output budget left out, and a
 * last line when the grader could not judge some test: the overview that
 * Gradescope's and PrairieLearn's top-level output share.
 */
void report_problem_lines(struct strbuf *sb, const struct view *v);

/* The student's file as a path CI tools can point at: "mywork/p1.c" (no "./"). */
char *report_source_path(const struct view *v, const struct view_problem *vp);


/* The writers (each in report_<name>.c). */
int report_text(FILE *out, const struct view *v, const struct report_options *o);
int report_json(FILE *out, const struct view *v, const struct report_options *o);
int report_gradescope(FILE *out, const struct view *v, const struct report_options *o);
int report_junit(FILE *out, const struct view *v, const struct report_options *o);
int report_tap(FILE *out, const struct view *v, const struct report_options *o);
int report_github(FILE *out, const struct view *v, const struct report_options *o);
int report_markdown(FILE *out, const struct view *v, const struct report_options *o);
int report_classroom(FILE *out, const struct view *v, const struct report_options *o);
int report_prairielearn(FILE *out, const struct view *v, const struct report_options *o);

#endif
