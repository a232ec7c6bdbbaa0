/* build_status.c - see build_status.h */
#define _GNU_SOURCE
#include "build/build_status.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "base/l10n.h"
#include "base/text.h"
#include "base/util.h"

#define COMPILER_LINES 20

/* "your submission has 'p1.c' and 'p1.py' ...": files, one per line, joined in the report's language. */
static char *conflict_message(const char *files)
{
	struct strbuf joined = STRBUF_INIT;
	char *message;

	for (const char *p = files; *p;) {
		size_t l = strcspn(p, "\n");
		if (p != files)
			/* TRANSLATORS: between two file names: "'p1.c' and 'p1.py'" */
			strbuf_addstr(&joined, _(" and "));
		strbuf_add(&joined, p, l);
		p += l + (p[l] == '\n');
	}
	message = xasprintf(_("your submission has %s for the same problem: keep only the one in the language "
			      "you want graded (the grader does not choose)"), joined.buf);
	strbuf_release(&joined);
	return message;
}

/* A line of the linker's: "/usr/bin/ld: ...", "p1.c:(.text+0x1d): undefined reference to `MAX'", "collect2: ...". */
static bool linker_line(const char *line, size_t len)
{
	char *l = xstrndup(line, len);
	bool is = strstr(l, "ld: ") || strstr(l, "undefined reference to") || strstr(l, "ld returned") ||
		  !strncmp(l, "collect2:", 9);
	free(l);
	return is;
}

/*
 * The compiler's output with the linker's lines first: a link error (an
 * undefined MAX) comes after every warning of the compile before it, and a
 * student read 12 lines of warnings before the error that failed the build
 * (issue 31).  The other lines keep their order.
 */
static void errors_first(struct strbuf *out, const char *output)
{
	for (int pass = 0; pass < 2; pass++)
		for (const char *p = output; *p;) {
			size_t l = strcspn(p, "\n");
			if (linker_line(p, l) == !pass) {
				strbuf_add(out, p, l);
				strbuf_addch(out, '\n');
			}
			p += l + (p[l] == '\n');
		}
}

static char *compile_error_message(const struct build_facts *f)
{
	struct strbuf msg = STRBUF_INIT, ordered = STRBUF_INIT;
	strbuf_addf(&msg, _("'%s' does not compile:\n"), f->source);
	errors_first(&ordered, f->output);
	text_first_lines(&msg, ordered.buf, COMPILER_LINES, _("[... more compiler output cut ...]"));
	strbuf_release(&ordered);
	if (f->signatures && (strstr(f->output, "conflicting types") || strstr(f->output, "grader_decls.h")))
		strbuf_addf(&msg, _("The required signatures are:\n%s"), f->signatures);
	return strbuf_detach(&msg);
}

/* The compiler ran: did it succeed? */
static enum build_status judge_compiler(const struct build_facts *f, char **message)
{
	if (f->interrupted) {
		*message = L10N(xstrdup(_("interrupted while compiling")));
		return BUILD_INTERNAL;
	}
	if (f->timed_out) {
		*message = L10N(xasprintf(_("compiling '%s' took longer than the compiler's time limit (%u s)"), f->source,
				     (f->wall_limit_ms + 999) / 1000));
		return BUILD_COMPILE_ERROR;
	}
	if (WIFSIGNALED(f->status) && (WTERMSIG(f->status) == SIGKILL || WTERMSIG(f->status) == SIGXCPU)) {
		*message = L10N(xasprintf(_("compiling '%s' used more than the compiler's CPU time limit (%u s) or was killed"),
				     f->source, f->cpu_limit_s));
		return BUILD_COMPILE_ERROR;
	}
	if (!WIFEXITED(f->status) || WEXITSTATUS(f->status)) {
		*message = L10N(compile_error_message(f));
		return BUILD_COMPILE_ERROR;
	}
	return BUILD_OK;
}

enum build_status build_status_of(const struct build_facts *f, char **message)
{
	enum build_status s;

	*message = NULL;
	if (f->missing) {
		*message = L10N(xasprintf(f->source[0] == '\'' ? _("no file %s in your submission%s%s")
								: _("no file '%s' in your submission%s%s"),
					  l10n_message(f->source), f->lookalikes ? "; " : "",
					  f->lookalikes ? l10n_message(f->lookalikes) : ""));
		return BUILD_MISSING_FILE;
	}
	if (f->conflict) {
		*message = L10N(conflict_message(f->conflict));
		return BUILD_COMPILE_ERROR;
	}
	if (f->copy_error) {
		*message = L10N(xasprintf("'%s': %s", f->source, f->copy_error));
		return BUILD_COMPILE_ERROR;
	}
	s = judge_compiler(f, message);
	if (s != BUILD_OK)
		return s;
	if (!f->inspected) {
		*message = L10N(xasprintf(_("cannot inspect the runner built from '%s'"), f->source));
		return BUILD_INTERNAL;
	}
	if (f->forbidden && *f->forbidden) {
		*message = L10N(xstrdup(f->forbidden));
		return BUILD_FORBIDDEN;
	}
	if (f->clashes && *f->clashes) {
		*message = L10N(xasprintf(_("'%s' defines %s, with the name of something of the C library the grader's runner uses "
				     "itself: rename it, or make it static"), f->source, f->clashes));
		return BUILD_COMPILE_ERROR;
	}
	if (f->static_bytes > f->memory_limit_bytes) {
		*message = L10N(xasprintf(_("the program's static data needs %llu MiB, above the memory limit of %llu MiB"),
				     f->static_bytes >> 20, f->memory_limit_bytes >> 20));
		return BUILD_TOO_BIG;
	}
	return BUILD_OK;
}
