/* build_status.c - see build_status.h */
#define _GNU_SOURCE
#include "build/build_status.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "base/text.h"

#define COMPILER_LINES 20

static char *compile_error_message(const struct build_facts *f)
{
	struct strbuf msg = STRBUF_INIT;
	strbuf_addf(&msg, "'%s' does not compile:\n", f->source);
	text_first_lines(&msg, f->output, COMPILER_LINES, "[... more compiler output cut ...]");
	if (f->signatures && (strstr(f->output, "conflicting types") || strstr(f->output, "grader_decls.h")))
		strbuf_addf(&msg, "The required signatures are:\n%s", f->signatures);
	return strbuf_detach(&msg);
}

/* The compiler ran: did it succeed? */
static enum build_status judge_compiler(const struct build_facts *f, char **message)
{
	if (f->interrupted) {
		*message = xstrdup("interrupted while compiling");
		return BUILD_INTERNAL;
	}
	if (f->timed_out) {
		*message = xasprintf("compiling '%s' took longer than the compiler's time limit (%u s)", f->source,
				     (f->wall_limit_ms + 999) / 1000);
		return BUILD_COMPILE_ERROR;
	}
	if (WIFSIGNALED(f->status) && (WTERMSIG(f->status) == SIGKILL || WTERMSIG(f->status) == SIGXCPU)) {
		*message = xasprintf("compiling '%s' used more than the compiler's CPU time limit (%u s) or was killed",
				     f->source, f->cpu_limit_s);
		return BUILD_COMPILE_ERROR;
	}
	if (!WIFEXITED(f->status) || WEXITSTATUS(f->status)) {
		*message = compile_error_message(f);
		return BUILD_COMPILE_ERROR;
	}
	return BUILD_OK;
}

enum build_status build_status_of(const struct build_facts *f, char **message)
{
	enum build_status s;

	*message = NULL;
	if (f->missing) {
		*message = xasprintf(f->source[0] == '\'' ? "no file %s in your submission%s%s"
							  : "no file '%s' in your submission%s%s",
				     f->source, f->lookalikes ? "; " : "", f->lookalikes ? f->lookalikes : "");
		return BUILD_MISSING_FILE;
	}
	if (f->conflict) {
		*message = xasprintf("your submission has %s for the same problem: keep only the one in the language "
				     "you want graded (the grader does not choose)", f->conflict);
		return BUILD_COMPILE_ERROR;
	}
	if (f->copy_error) {
		*message = xasprintf("'%s': %s", f->source, f->copy_error);
		return BUILD_COMPILE_ERROR;
	}
	s = judge_compiler(f, message);
	if (s != BUILD_OK)
		return s;
	if (!f->inspected) {
		*message = xasprintf("cannot inspect the runner built from '%s'", f->source);
		return BUILD_INTERNAL;
	}
	if (f->forbidden && *f->forbidden) {
		*message = xstrdup(f->forbidden);
		return BUILD_FORBIDDEN;
	}
	if (f->clashes && *f->clashes) {
		*message = xasprintf("'%s' defines %s, with the name of something of the C library the grader's runner uses "
				     "itself: rename it, or make it static", f->source, f->clashes);
		return BUILD_COMPILE_ERROR;
	}
	if (f->static_bytes > f->memory_limit_bytes) {
		*message = xasprintf("the program's static data needs %llu MiB, above the memory limit of %llu MiB",
				     f->static_bytes >> 20, f->memory_limit_bytes >> 20);
		return BUILD_TOO_BIG;
	}
	return BUILD_OK;
}
