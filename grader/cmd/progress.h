/*
 * progress.h - the one updating status line a student sees on a terminal
 * while their work is graded (as ninja and cargo show theirs): the phase,
 * the problem whose tests run, tests done of all, failures so far.
 *
 * Written to a terminal only: progress_new() returns NULL when the stream
 * is not one (a pipe, a file, a CI log) or the user asked for quiet, and
 * every function takes that NULL and does nothing.  The line is redrawn in
 * place ("\r", then spaces over what was there: no escape codes, so NO_COLOR
 * and dumb terminals get none) at most every PROGRESS_REDRAW_MS, cut to
 * the terminal's width, and erased before anything else is written to the
 * same stream through progress_log() and by progress_free(), so it never
 * mixes with warnings or the report.
 *
 * Ownership: the caller owns the struct (progress_free) and the stream.
 */
#ifndef GRADER_PROGRESS_H
#define GRADER_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

#include "judge/engine.h"

#define PROGRESS_REDRAW_MS 100

struct progress;

/* A status line on out when out is a terminal and enabled; else NULL. */
struct progress *progress_new(FILE *out, bool enabled);
/* engine_options.progress: redraw the line (ctx is the struct progress). */
void progress_update(void *ctx, const struct engine_progress *now);
/*
 * A stream for the engine's log (engine_options.log) that erases the line
 * before each write and lets the next update draw it again below; with a
 * NULL progress, out itself.  Closed by progress_free.
 */
FILE *progress_log(struct progress *p, FILE *out);
/* Erase the line and free everything; NULL is fine. */
void progress_free(struct progress *p);

#endif
