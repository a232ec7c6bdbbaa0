/*
 * progress.c - the status line on a terminal (progress.h).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cmd/progress.h"
#include "base/l10n.h"
#include "base/text.h"
#include "base/util.h"

struct progress {
	FILE *out;
	int fd;
	bool shown;              /* the line is on the screen now (to be erased before other output) */
	size_t width_shown;      /* its length: erased by as many spaces (no escape codes: NO_COLOR, dumb terminals) */
	uint64_t started_us, drawn_us;
	const char *last_phase;
	struct engine_progress now; /* the last state, its strings copied */
	char problem[64], language[64];
	FILE *log;               /* progress_log's stream, or NULL */
};

static void draw(struct progress *p);

struct progress *progress_new(FILE *out, bool enabled)
{
	struct progress *p;
	if (!enabled || !out || !isatty(fileno(out)))
		return NULL;
	p = xcalloc(1, sizeof(*p));
	p->out = out;
	p->fd = fileno(out);
	p->started_us = now_us();
	draw(p); /* from the first moment: loading the problems, the sandbox, the reference answers */
	return p;
}

static void erase(struct progress *p)
{
	if (!p->shown)
		return;
	fflush(p->out);
	fprintf(p->out, "\r%*s\r", (int)p->width_shown, "");
	fflush(p->out);
	p->shown = false;
}

static unsigned columns(const struct progress *p)
{
	struct winsize ws;
	if (ioctl(p->fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
}

/* "[3.2 s] p3 (C): 120/3021 tests, 5 failed" and what the engine does now. */
static void draw(struct progress *p)
{
	const struct engine_progress *n = &p->now;
	double s = (double)(now_us() - p->started_us) / 1e6;
	struct strbuf sb = STRBUF_INIT;
	unsigned width = columns(p);
	size_t cols;

	strbuf_addf(&sb, "[%4.1f s] ", s);
	l10n_begin(); /* the student's language, as the report that follows */
	if (!n->phase)
		strbuf_addstr(&sb, _("preparing: the problems, the sandbox, the reference answers..."));
	else if (!strcmp(n->phase, "building"))
		strbuf_addstr(&sb, _("compiling and starting the submission..."));
	else {
		if (n->phase && !strcmp(n->phase, "reference"))
			strbuf_addstr(&sb, _("reference answers: "));
		else if (n->phase && !strcmp(n->phase, "hidden tests"))
			strbuf_addstr(&sb, _("hidden tests: "));
		else if (p->problem[0])
			strbuf_addf(&sb, "%s (%s): ", p->problem, p->language);
		/* TRANSLATORS: the progress line: "120/3021 tests done" */
		strbuf_addf(&sb, _("%d/%d tests done"), n->done, n->total);
		if (n->failed)
			strbuf_addf(&sb, _(", %d failed"), n->failed);
		if (n->phase && !strcmp(n->phase, "feedback"))
			strbuf_addstr(&sb, _("; looking closer at the failures (smallest input, growth)..."));
	}
	l10n_end();
	/* cut to the terminal's width in columns (Hangul is two), on a character's boundary */
	while (sb.len && text_width(sb.buf) >= width) {
		do
			sb.len--;
		while (sb.len && ((unsigned char)sb.buf[sb.len] & 0xc0) == 0x80);
		sb.buf[sb.len] = '\0';
	}
	cols = text_width(sb.buf);
	/* over the last line: padded with spaces to its width, so nothing of it stays */
	fprintf(p->out, "\r%s%*s", sb.buf, p->shown && p->width_shown > cols ? (int)(p->width_shown - cols) : 0, "");
	p->width_shown = p->shown && p->width_shown > cols ? p->width_shown : cols;
	fflush(p->out);
	p->shown = true;
	p->drawn_us = now_us();
	strbuf_release(&sb);
}

void progress_update(void *ctx, const struct engine_progress *now)
{
	struct progress *p = ctx;
	bool new_phase;
	if (!p)
		return;
	new_phase = p->last_phase != now->phase;
	p->now = *now;
	p->last_phase = now->phase;
	if (now->problem) {
		snprintf(p->problem, sizeof(p->problem), "%s", now->problem);
		snprintf(p->language, sizeof(p->language), "%s", now->language ? now->language : "?");
	}
	p->now.problem = p->now.language = NULL; /* the copies above are what stays valid */
	/* a redraw per test would cost more than a test: at most every PROGRESS_REDRAW_MS, and at a new phase */
	if (new_phase || !p->shown || now_us() - p->drawn_us >= PROGRESS_REDRAW_MS * 1000ull)
		draw(p);
}

static ssize_t log_write(void *cookie, const char *buf, size_t n)
{
	struct progress *p = cookie;
	erase(p);
	if (fwrite(buf, 1, n, p->out) != n)
		return -1;
	fflush(p->out);
	return (ssize_t)n;
}

FILE *progress_log(struct progress *p, FILE *out)
{
	cookie_io_functions_t io = { NULL, log_write, NULL, NULL };
	if (!p)
		return out;
	if (!p->log) {
		p->log = fopencookie(p, "w", io);
		if (!p->log)
			return out;
		setvbuf(p->log, NULL, _IOLBF, 0);
	}
	return p->log;
}

void progress_free(struct progress *p)
{
	if (!p)
		return;
	if (p->log)
		fclose(p->log);
	erase(p);
	free(p);
}
