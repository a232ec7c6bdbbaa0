/*
 * report_github.c - GitHub Actions workflow commands.
 *
 * To standard output (or FILE): ::error annotations for what failed, a
 * ::notice with the total and, when some were left out, a last ::notice
 * saying how many.  GitHub shows at most 10 annotations of each level
 * (error, warning, notice) per step and drops the rest unseen, so the run
 * as a whole writes at most PER_LEVEL of each, the most useful first:
 * share_errors() gives the errors out round-robin over the problems - the
 * first annotation of every failing problem, then the second of each, and
 * so on.  A problem's annotations, in order: a build failure (the
 * compiler's error lines at their line and column, or the missing file),
 * else its failing public tests in case order, then one with its counts
 * when a hidden group failed (hidden groups as counts: the view, view.h,
 * lists no hidden test for students).  Captured output is never shown
 * here, so the output budget has nothing to leave out.  The command line
 * appends the Markdown summary (report_markdown), which has the rest, to
 * $GITHUB_STEP_SUMMARY alongside.
 *
 * Escaping follows GitHub's rules (toolkit/core command.ts): in the message
 * % \r \n become %25 %0D %0A; in properties also : and , (%3A, %2C).  The
 * text is cleaned first, so a student's output can neither start a line
 * of its own (no "::set-output" injection) nor smuggle control characters.
 */
#include "report/report.h"
#include "base/text.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define PER_LEVEL 10             /* GitHub shows at most this many annotations of a level per step */
#define COMPILER_ANNOTATIONS 5   /* compiler error lines looked at per problem */
#define MESSAGE_MAX 2000

enum level { L_ERROR, L_WARNING, L_NOTICE, NLEVELS };

static const char *const level_names[NLEVELS] = { "error", "warning", "notice" };

/* Where the commands go, and how many of each level were written or refused. */
struct annotations {
	FILE *out;
	int shown[NLEVELS];
	int left_out[NLEVELS];
};

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

/*
 * ::LEVEL file=F,line=L,col=C,title=T::MESSAGE (file, line, title optional);
 * past PER_LEVEL of a level only counted, never written.
 */
static void command(struct annotations *a, enum level level, const char *file, int line, int col,
		    const char *title, const char *message)
{
	struct strbuf sb = STRBUF_INIT;
	const char *sep = " ";

	if (a->shown[level] == PER_LEVEL) {
		a->left_out[level]++;
		return;
	}
	a->shown[level]++;
	strbuf_addf(&sb, "::%s", level_names[level]);
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
	fprintf(a->out, "%s\n", sb.buf);
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

/* Annotate the compiler's error lines at their line and column: the first take of them.  Returns how many it found. */
static int compiler_errors(struct annotations *a, const struct view_problem *vp, const char *file, int take)
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
			if (n < take) {
				char *title = xasprintf("%s does not compile", src);
				command(a, L_ERROR, file, (int)ln, (int)col, title, msg);
				free(title);
			}
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
		strbuf_addf(msg, "; %d not run after earlier failures", vp->tally.skipped);
}

static bool failing(const struct view_test *vt)
{
	return vt->t->verdict != V_CORRECT && vt->t->verdict != V_SKIPPED;
}

/*
 * A problem's error annotations, most useful first: a build failure (the
 * compiler's error lines, or what went wrong), else its failing listed
 * tests in case order, then - when a hidden group failed - its counts.
 * Writes the first take of them and returns how many it has in all (take 0:
 * only counts).
 */
static int problem_errors(struct annotations *a, const struct view *v, const struct view_problem *vp, int take)
{
	const struct problem *p = vp->problem;
	char *file = report_source_path(v, vp);
	struct strbuf title = STRBUF_INIT, msg = STRBUF_INIT;
	bool hidden_failed = vp->unlisted.passed < vp->unlisted.tests;
	int failed = 0, annotated = 0, n;

	strbuf_addf(&title, "%s ", p->id);
	report_title(&title, p);
	strbuf_addstr(&title, ": ");
	text_score(&title, vp->score);
	strbuf_addstr(&title, " / ");
	text_score(&title, vp->max_score);
	if (vp->build_verdict != V_CORRECT) {
		const char *m = vp->build_message ? vp->build_message : verdict_words(vp->build_verdict);
		if (vp->build_verdict != V_MISSING && (n = compiler_errors(a, vp, file, take)))
			goto cleanup;
		if (take)
			command(a, L_ERROR, vp->build_verdict == V_MISSING ? NULL : file, 0, 0, title.buf, m);
		n = 1;
		goto cleanup;
	}
	for (int k = 0; k < vp->ntests; k++) {
		const struct view_test *vt = &vp->tests[k];
		if (!failing(vt))
			continue;
		failed++;
		if (annotated < take) {
			char *t_title = xasprintf("%s %s: %s", p->id, vt->t->tc->name, verdict_words(vt->t->verdict));
			strbuf_reset(&msg);
			report_describe(&msg, p, vt);
			command(a, L_ERROR, file, 0, 0, t_title, msg.buf);
			free(t_title);
			annotated++;
		}
	}
	n = failed + hidden_failed;
	if (hidden_failed && take == n) {
		problem_counts(&msg, vp, 0);
		command(a, L_ERROR, file, 0, 0, title.buf, msg.buf);
	}
cleanup:
	strbuf_release(&title);
	strbuf_release(&msg);
	free(file);
	return n;
}

/*
 * How many error annotations each problem gets (take[i]): round-robin over
 * the problems, one each per round, until PER_LEVEL are given out - so
 * every failing problem gets one (when at most PER_LEVEL fail) before any
 * gets a second.  Returns how many were left out.
 */
static int share_errors(struct annotations *a, const struct view *v, int *take)
{
	int *have = xcalloc(v->nproblems ? v->nproblems : 1, sizeof(*have));
	int given = 0, all = 0;
	bool progress = true;

	for (int i = 0; i < v->nproblems; i++) {
		have[i] = problem_errors(a, v, &v->problems[i], 0);
		all += have[i];
	}
	while (progress && given < PER_LEVEL) {
		progress = false;
		for (int i = 0; i < v->nproblems && given < PER_LEVEL; i++) {
			if (take[i] < have[i]) {
				take[i]++;
				given++;
				progress = true;
			}
		}
	}
	free(have);
	return all - given;
}

int report_github(FILE *out, const struct view *v, const struct report_options *o)
{
	struct annotations a = { .out = out };
	struct strbuf total = STRBUF_INIT, msg = STRBUF_INIT;
	int *take = xcalloc(v->nproblems ? v->nproblems : 1, sizeof(*take));
	int left_out;

	(void)o;
	left_out = share_errors(&a, v, take);
	for (int i = 0; i < v->nproblems; i++)
		if (take[i])
			problem_errors(&a, v, &v->problems[i], take[i]);
	strbuf_addstr(&total, "Score ");
	text_score(&total, v->score);
	strbuf_addstr(&total, " / ");
	text_score(&total, v->max_score);
	strbuf_addf(&msg, "%d of %d tests passed", v->tally.passed, v->tally.tests);
	command(&a, L_NOTICE, NULL, 0, 0, total.buf, msg.buf);
	if (v->internal_error)
		command(&a, L_WARNING, NULL, 0, 0, "judge-error",
			"some tests could not be judged because of a problem in the grader, not in your code");
	for (int l = 0; l < NLEVELS; l++)
		left_out += a.left_out[l];
	if (left_out) {
		/* the notices above are at most two: this one always has room */
		strbuf_reset(&msg);
		strbuf_addf(&msg, "%d more annotation%s left out (GitHub shows at most %d errors per step): "
			    "the rest is in the step summary", left_out, left_out == 1 ? "" : "s", PER_LEVEL);
		command(&a, L_NOTICE, NULL, 0, 0, "Annotations left out", msg.buf);
	}
	free(take);
	strbuf_release(&total);
	strbuf_release(&msg);
	return ferror(out) ? -1 : 0;
}
