/*
 * report_github.c - GitHub Actions workflow commands.
 *
 * To standard output (or FILE): an ::error annotation per failing public
 * test (at most ANNOTATIONS_PER_PROBLEM per problem: GitHub itself shows
 * only 10 errors per step), an ::error per compiler error with its line and
 * column, one ::error per problem for what was not annotated (hidden groups
 * as counts: the view, view.h, lists no hidden test for students), and a
 * ::notice with the total.  Captured output is never shown here, so the
 * output budget has nothing to leave out.  The command line appends the
 * Markdown summary (report_markdown) to $GITHUB_STEP_SUMMARY alongside.
 *
 * Escaping follows GitHub's rules (toolkit/core command.ts): in the message
 * % \r \n become %25 %0D %0A; in properties also : and , (%3A, %2C).  The
 * text is cleaned first, so a student's output can neither start a line
 * of its own (no "::set-output" injection) nor smuggle control characters.
 */
#include "report.h"
#include "text.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define ANNOTATIONS_PER_PROBLEM 5
#define COMPILER_ANNOTATIONS 5
#define MESSAGE_MAX 2000

static void escape(struct strbuf *sb, const char *s, bool property)
{
	struct strbuf clean = STRBUF_INIT;
	text_clean(&clean, s, MESSAGE_MAX);
	for (const char *p = clean.buf; *p; p++) {
		if (*p == '%')
			strbuf_addstr(sb, "%25");
		else if (*p == '\r')
			strbuf_addstr(sb, "%0D");
		else if (*p == '\n')
			strbuf_addstr(sb, "%0A");
		else if (property && *p == ':')
			strbuf_addstr(sb, "%3A");
		else if (property && *p == ',')
			strbuf_addstr(sb, "%2C");
		else
			strbuf_addch(sb, *p);
	}
	strbuf_release(&clean);
}

/* ::KIND file=F,line=L,col=C,title=T::MESSAGE (file, line, title optional) */
static void command(FILE *out, const char *kind, const char *file, int line, int col, const char *title,
		    const char *message)
{
	struct strbuf sb = STRBUF_INIT;
	const char *sep = " ";
	strbuf_addf(&sb, "::%s", kind);
	if (file) {
		strbuf_addstr(&sb, " file=");
		escape(&sb, file, true);
		sep = ",";
	}
	if (file && line > 0) {
		strbuf_addf(&sb, ",line=%d", line);
		if (col > 0)
			strbuf_addf(&sb, ",col=%d", col);
	}
	if (title) {
		strbuf_addf(&sb, "%stitle=", sep);
		escape(&sb, title, true);
	}
	strbuf_addstr(&sb, "::");
	escape(&sb, message, false);
	fprintf(out, "%s\n", sb.buf);
	strbuf_release(&sb);
}

/*
 * A compiler's line about src: gcc's "DIR/p2.c:8:14: error: expected
 * expression", or the Python host's "p2.py, line 8, column 14: SyntaxError:
 * ...".  Fills *ln, *col and *msg (inside line); false when it is neither.
 */
static bool error_location(const char *line, const char *src, long *ln, long *col, const char **msg)
{
	const char *at = strstr(line, src);
	size_t srcl = strlen(src);
	char *end;

	*col = 0;
	if (!at || (at != line && at[-1] != '/'))
		return false;
	at += srcl;
	if (*at == ':' && isdigit((unsigned char)at[1])) {
		*ln = strtol(at + 1, &end, 10);
		if (*end == ':' && isdigit((unsigned char)end[1]))
			*col = strtol(end + 1, &end, 10);
		if (strncmp(end, ": error: ", 9) && strncmp(end, ": fatal error: ", 15))
			return false;
		*msg = strstr(end, "error: ") + 7;
		return true;
	}
	if (!strncmp(at, ", line ", 7) && isdigit((unsigned char)at[7])) {
		*ln = strtol(at + 7, &end, 10);
		if (!strncmp(end, ", column ", 9))
			*col = strtol(end + 9, &end, 10);
		if (strncmp(end, ": ", 2))
			return false;
		*msg = end + 2;
		return true;
	}
	return false;
}

/* Annotate the compiler's error lines at their line and column.  Returns how many it found. */
static int compiler_errors(FILE *out, const struct view_problem *vp, const char *file)
{
	const char *src = vp->source ? vp->source : vp->problem->source;
	const char *s = vp->build_message;
	int n = 0;

	while (s && *s && n < COMPILER_ANNOTATIONS) {
		size_t l = strcspn(s, "\n");
		char *line = xstrndup(s, l);
		const char *msg;
		long ln, col;
		s += l + (s[l] == '\n');
		if (error_location(line, src, &ln, &col, &msg)) {
			char *title = xasprintf("%s does not compile", src);
			command(out, "error", file, (int)ln, (int)col, title, msg);
			free(title);
			n++;
		}
		free(line);
	}
	return n;
}

/* "12 of 842 tests passed; 3 more failing tests not annotated; hidden group large: 7 of 10 passed; ..." */
static void problem_counts(struct strbuf *msg, const struct view_problem *vp, int unannotated)
{
	strbuf_addf(msg, "%d of %d tests passed", vp->tally.passed, vp->tally.tests);
	if (unannotated)
		strbuf_addf(msg, "; %d more failing tests not annotated", unannotated);
	for (int g = 0; g < vp->ngroups; g++) {
		const struct view_group *vg = &vp->groups[g];
		if (vg->listed || vg->tally.passed == vg->tally.tests)
			continue;
		strbuf_addf(msg, "; hidden group %s: ", vg->group->name);
		report_passed(msg, vg);
	}
	if (vp->tally.skipped)
		strbuf_addf(msg, "; %d not run (all-or-nothing group)", vp->tally.skipped);
}

static void problem_commands(FILE *out, const struct view *v, const struct view_problem *vp)
{
	const struct problem *p = vp->problem;
	char *file = report_source_path(v, vp);
	struct strbuf title = STRBUF_INIT, msg = STRBUF_INIT;
	int annotated = 0, failed = 0;

	strbuf_addf(&title, "%s ", p->id);
	report_title(&title, p);
	strbuf_addstr(&title, ": ");
	text_score(&title, vp->score);
	strbuf_addstr(&title, " / ");
	text_score(&title, vp->max_score);
	if (vp->build_verdict != V_CORRECT) {
		const char *m = vp->build_message ? vp->build_message : verdict_words(vp->build_verdict);
		if (vp->build_verdict == V_MISSING) {
			command(out, "error", NULL, 0, 0, title.buf, m);
		} else if (!compiler_errors(out, vp, file)) {
			command(out, "error", file, 0, 0, title.buf, m);
		}
		goto cleanup;
	}
	for (int k = 0; k < vp->ntests; k++) {
		const struct view_test *vt = &vp->tests[k];
		if (vt->t->verdict == V_CORRECT || vt->t->verdict == V_SKIPPED)
			continue;
		failed++;
		if (annotated < ANNOTATIONS_PER_PROBLEM) {
			char *t_title = xasprintf("%s %s: %s", p->id, vt->t->tc->name, verdict_words(vt->t->verdict));
			strbuf_reset(&msg);
			report_describe(&msg, p, vt);
			command(out, "error", file, 0, 0, t_title, msg.buf);
			free(t_title);
			annotated++;
		}
	}
	if (failed > annotated || vp->unlisted.passed < vp->unlisted.tests) {
		strbuf_reset(&msg);
		problem_counts(&msg, vp, failed - annotated);
		command(out, "error", file, 0, 0, title.buf, msg.buf);
	}
cleanup:
	strbuf_release(&title);
	strbuf_release(&msg);
	free(file);
}

int report_github(FILE *out, const struct view *v, const struct report_options *o)
{
	struct strbuf total = STRBUF_INIT, msg = STRBUF_INIT;

	(void)o;
	for (int i = 0; i < v->nproblems; i++)
		problem_commands(out, v, &v->problems[i]);
	strbuf_addstr(&total, "Score ");
	text_score(&total, v->score);
	strbuf_addstr(&total, " / ");
	text_score(&total, v->max_score);
	strbuf_addf(&msg, "%d of %d tests passed", v->tally.passed, v->tally.tests);
	command(out, "notice", NULL, 0, 0, total.buf, msg.buf);
	if (v->internal_error)
		command(out, "warning", NULL, 0, 0, "judge-error",
			"some tests could not be judged because of a problem in the grader, not in your code");
	strbuf_release(&total);
	strbuf_release(&msg);
	return ferror(out) ? -1 : 0;
}
