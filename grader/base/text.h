/*
 * text.h - text for people: the one place that makes untrusted bytes safe to
 * show, and the one way each figure is written.
 *
 * Everything a student's program or archive brings in (captured output,
 * compiler messages quoting the source, file and folder names) is untrusted
 * bytes.  Every writer - the reports, the gradebook, the batch progress -
 * passes such text through text_clean() before it reaches a terminal, an
 * XML, JSON, CSV or HTML file or a CI log; text_is_utf8() tells whether a
 * name can be used as it is.
 *
 * Ownership: every function appends to a caller's strbuf or edits the
 * caller's string in place.
 */
#ifndef GRADER_TEXT_H
#define GRADER_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"

/* Is s valid UTF-8 (no overlong forms, surrogates or code points above U+10FFFF)? */
bool text_is_utf8(const char *s);

/*
 * Append untrusted bytes s as display-safe UTF-8: valid UTF-8 is kept;
 * '\n' and '\t' are kept; other control characters (C0, DEL, C1), line and
 * paragraph separators, bidirectional overrides, U+FFFE/U+FFFF and every
 * byte that is not valid UTF-8 are written as \xNN or \uNNNN.  The result is
 * safe for a terminal and, once escaped for the format, for XML 1.0, JSON,
 * CSV and HTML.  At most max_bytes of s are used (0: all), cut at a
 * character boundary.  Returns true when s was cut.  s may be NULL.
 */
bool text_clean(struct strbuf *sb, const char *s, size_t max_bytes);

/* Replace control characters by spaces in place (a status or reason that must stay one line). */
void text_one_line(char *s);

/*
 * The first max lines of text, each ending in '\n'; when more followed,
 * then the line `more` (with its own '\n' added), if not NULL.
 */
void text_first_lines(struct strbuf *sb, const char *text, int max, const char *more);

/*
 * A score for people and spreadsheets alike: at most 6 decimals (scores are
 * sums of points rounded to 1e-6), no trailing zeros, no float noise:
 * "14.2", "0.25", "107", "0.333333".  Every report, grades.csv and the
 * summary page write scores with this, so they always agree.
 */
void text_score(struct strbuf *sb, double score);

/* A duration: "m:ss", or "h:mm:ss" from an hour on. */
void text_duration(struct strbuf *sb, double seconds);

#endif
