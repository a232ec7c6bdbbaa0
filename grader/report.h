/*
 * report.h - writing a grade_result for its readers.
 *
 * One table (report.c) names every format and its writer; each writer is a
 * thin function over the result model in result.h (curl's tool_writeout
 * pattern).  Writers never show a hidden test's inputs, expected or actual
 * values, message details or captured output unless opts->show_hidden.
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

/* Is this test's detail visible under opts?  (public, or show_hidden) */
bool report_visible(const struct test_result *t, const struct problem *p, const struct report_options *o);

/* The message to show for a test: its message when visible, else the verdict in words. */
const char *report_message(const struct test_result *t, const struct problem *p, const struct report_options *o);

/* The writers (each in report_<name>.c). */
int report_text(FILE *out, const struct grade_result *r, const struct report_options *o);
int report_json(FILE *out, const struct grade_result *r, const struct report_options *o);

#endif
