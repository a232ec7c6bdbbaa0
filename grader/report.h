/*
 * report.h - writing a grade_result for its readers.
 *
 * One table (report.c) names every format and its writer; each writer is a
 * thin function over the result model in result.h (curl's tool_writeout
 * pattern).  Writers never show a hidden test's inputs, expected or actual
 * values, message details or captured output unless opts->show_hidden:
 * they ask report_visible() / report_message() / report_output() and use
 * the shared helpers below, which apply that rule for them.
 *
 * Everything a student's program printed (captured output, compiler
 * messages) is untrusted bytes: writers pass it through text_clean()
 * (text.h) before it reaches a terminal, an XML file or a CI log, and write
 * scores with text_score(), so every format agrees.
 *
 * Ownership: writers borrow the result and write to `out`; they return 0,
 * or -1 when writing failed.  The helpers append to a caller's strbuf.
 */
#ifndef GRADER_REPORT_H
#define GRADER_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "result.h"

struct report_options {
	bool color;        /* ANSI colours (text) */
	bool show_hidden;  /* instructor view: reveal hidden tests' details */
	bool verbose;      /* text: list passing tests too */
	const char *version;
};

typedef int (*report_writer)(FILE *out, const struct grade_result *r, const struct report_options *o);

struct report_format {
	const char *name;
	const char *description;
	report_writer write;
};

/* The format called name, or NULL. */
const struct report_format *report_find(const char *name);
/* All formats, terminated by an entry with name NULL. */
extern const struct report_format report_formats[];

/* Are the details of this group's tests visible under opts?  (public, or show_hidden) */
bool report_group_visible(const struct problem *p, int group, const struct report_options *o);

/* Is this test's detail visible under opts?  (its group's) */
bool report_visible(const struct test_result *t, const struct problem *p, const struct report_options *o);

/* The message to show for a test: its message when visible, else the verdict in words. */
const char *report_message(const struct test_result *t, const struct problem *p, const struct report_options *o);

/* The captured output to show for a test: NULL when there is none or the test is hidden. */
const char *report_output(const struct test_result *t, const struct problem *p, const struct report_options *o);

/* ---- helpers shared by the writers (report.c) ---- */

/* What the report_* helpers cut captured output to, in bytes of the original. */
#define REPORT_OUTPUT_MAX 2048

/*
 * One line saying why a test failed (nothing for a correct test).  Visible
 * tests: "AcanWin(3) returned false, expected true", or the call and the
 * message ("canWin(7): crashed with signal 11 (segmentation fault)").
 * Hidden tests: the verdict in words only.  Cleaned with text_clean().
 */
void report_describe(struct strbuf *sb, const struct problem *p, const struct test_result *t,
		     const struct report_options *o);

/* Counts over one group of a problem result (group < 0: the whole problem). */
struct report_tally {
	int tests, passed, failed, skipped; /* failed: neither correct nor skipped */
	double score, max_score;
	unsigned long long cpu_ms;          /* CPU time of all its tests */
	unsigned long long peak_kb;         /* the largest peak memory of its tests */
	unsigned limit_ms;                  /* the largest CPU limit that applied */
};
void report_tally(const struct problem_result *pr, int group, struct report_tally *out);
int report_total_tests(const struct grade_result *r);

/*
 * A problem's title for people: "Partizan stone game", and when the problem
 * accepts several languages the one graded, "Partizan stone game (Python
 * 3.11.2)".  Trusted text (from the problem file).
 */
void report_title(struct strbuf *sb, const struct problem *p);

/* The student's file as a path CI tools can point at: "mywork/p1.c" (no "./"). */
char *report_source_path(const struct grade_result *r, const struct problem_result *pr);


/* The writers (each in report_<name>.c). */
int report_text(FILE *out, const struct grade_result *r, const struct report_options *o);
int report_json(FILE *out, const struct grade_result *r, const struct report_options *o);
int report_gradescope(FILE *out, const struct grade_result *r, const struct report_options *o);
int report_junit(FILE *out, const struct grade_result *r, const struct report_options *o);
int report_tap(FILE *out, const struct grade_result *r, const struct report_options *o);
int report_github(FILE *out, const struct grade_result *r, const struct report_options *o);
int report_markdown(FILE *out, const struct grade_result *r, const struct report_options *o);

#endif
