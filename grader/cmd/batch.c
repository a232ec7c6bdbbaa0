/*
 * cmd/batch.c - `grader batch` and `grader merge` (batch.h does the work).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "batch/batch.h"
#include "batch/batch_lms.h"
#include "batch/batch_policy.h"
#include "cmd/cli.h"
#include "base/interrupt.h"
#include "sandbox/sandbox.h"
#include "base/text.h"

/* GRADER_BATCH_TIMEOUT: the per-student deadline in seconds (the tests' hung worker); 0 when unset. */
static double deadline_from_env(void)
{
	const char *env = getenv("GRADER_BATCH_TIMEOUT");
	char *end;
	double v;
	if (!env || !*env)
		return 0;
	v = strtod(env, &end);
	if (!*end && v > 0)
		return v;
	warning("ignoring GRADER_BATCH_TIMEOUT='%s' (seconds expected)", env);
	return 0;
}

/* What batch_grade left unprinted (batch.h): names are untrusted bytes, so each line is cleaned. */
static void print_notes(const struct strbuf *notes)
{
	for (const char *p = notes->buf; *p;) {
		size_t l = strcspn(p, "\n");
		char *line = xstrndup(p, l);
		struct strbuf clean = STRBUF_INIT;
		text_clean(&clean, line, 0);
		warning("%s", clean.buf);
		strbuf_release(&clean);
		free(line);
		p += l + (p[l] == '\n');
	}
}

/* "wrote OUTDIR/grades.csv, ..." */
static void print_written(const char *outdir, const struct gradebook_totals *t)
{
	fprintf(stderr, "wrote %s/grades.csv", outdir);
	if (t->lms_file)
		fprintf(stderr, ", %s/%s", outdir, t->lms_file);
	fprintf(stderr, " and %s/summary.html\n", outdir);
}

static void print_summary(const char *outdir, const struct batch_summary *s)
{
	struct strbuf took = STRBUF_INIT;
	text_duration(&took, s->seconds);
	fprintf(stderr, "grader: %d of %d student%s graded", s->totals.graded, s->totals.students,
		s->totals.students == 1 ? "" : "s");
	if (s->totals.errors)
		fprintf(stderr, " (%d row%s with status 'error: ...'", s->totals.errors, s->totals.errors == 1 ? "" : "s");
	if (s->warnings)
		fprintf(stderr, "%s%d warning%s about the class's entries above", s->totals.errors ? "; " : " (",
			s->warnings, s->warnings == 1 ? "" : "s");
	if (s->totals.errors || s->warnings)
		fputc(')', stderr);
	fprintf(stderr, " in %s; ", took.buf);
	print_written(outdir, &s->totals);
	if (s->regrade_written)
		fprintf(stderr, "grader: what the regrade moved: %s/regrade.md (and .csv)\n", outdir);
	strbuf_release(&took);
}

/* --layout: LMS_AUTO or a layout.  0, or -1 after saying why. */
static int layout_option(const char *arg, int *layout)
{
	enum lms_layout l;
	*layout = LMS_AUTO;
	if (!arg || !strcmp(arg, "auto"))
		return 0;
	if (lms_layout_parse(arg, &l) < 0)
		return error("--layout takes auto, folders, canvas, moodle or gradescope, not '%s'", arg);
	*layout = (int)l;
	return 0;
}

/* -o OUTDIR is created when missing; when it exists it must be a directory.  0, or -1 after saying why. */
static int check_outdir(const char *outdir)
{
	struct stat st;
	if (stat(outdir, &st) == 0 && !S_ISDIR(st.st_mode))
		return error("'%s' is not a directory", outdir);
	return 0;
}

int cmd_batch(struct cli *cli)
{
	struct problem_set set = PROBLEM_SET_INIT;
	struct batch_options o;
	struct batch_summary sum;
	struct late_policy policy;
	bool have_policy = false;
	struct strbuf err = STRBUF_INIT, notes = STRBUF_INIT;
	bool usage = false;
	int ret = GRADER_EXIT_INTERNAL;

	if (cli->nargs != 1 || !cli->output) {
		error("usage: grader batch SUBMISSIONS -o OUTDIR [-j N] [--resume] [--shard I/N] [--problems DIR] "
		      "[--reference DIR] [--only IDS] [--layout L] [--assignment NAME] [--policy FILE] [--regrade ID] "
		      "[--regrade-problem P] [--reveal-hidden]");
		return GRADER_EXIT_USAGE;
	}
	memset(&o, 0, sizeof(o));
	if (cli_check_dir(cli->args[0], "submissions") < 0 || check_outdir(cli->output) < 0 ||
	    layout_option(cli->layout, &o.layout) < 0)
		return GRADER_EXIT_USAGE;
	if (cli->assignment && !*cli->assignment) {
		error("--assignment takes the name of the Canvas assignment's column, not ''");
		return GRADER_EXIT_USAGE;
	}
	if (cli->policy) {
		if (late_policy_load(cli->policy, &policy, &err) < 0) {
			error("%s", err.buf);
			strbuf_release(&err);
			return GRADER_EXIT_USAGE;
		}
		have_policy = true;
		o.policy = &policy;
	}
	if (cli_load_problems(cli, &set) < 0) {
		if (have_policy)
			late_policy_release(&policy);
		return GRADER_EXIT_USAGE;
	}
	o.submissions = cli->args[0];
	o.assignment = cli->assignment;
	o.outdir = cli->output;
	cli_engine_options(cli, &o.engine, &set);
	o.engine.jobs = 0;
	/* up to 10 s of CPU per problem that timed out, for every such student: only when asked */
	if (!cli->growth)
		o.engine.growth = GROWTH_NEVER;
	o.jobs = cli->jobs;
	o.engine.reveal_hidden = cli->reveal_hidden;
	o.resume = cli->resume || cli->regrade.n || cli->regrade_problem;
	o.regrade_problem = cli->regrade_problem;
	o.regrade = cli->regrade.v;
	o.nregrade = (int)cli->regrade.n;
	o.shard_index = cli->shard_index;
	o.shard_count = cli->shard_count;
	o.verbose = cli->verbose;
	o.deadline_s = deadline_from_env();
	o.progress = stderr;
	cli_warn_isolation(SANDBOX_CLASS);
	if (batch_grade(&o, &sum, &notes, &err, &usage) < 0) {
		print_notes(&notes);
		if (grader_interrupted) {
			ret = 130;
			error("interrupted: the students graded so far are saved in '%s'; run the same command "
			      "with --resume to finish", o.outdir);
		} else {
			error("%s", err.buf);
			ret = usage ? GRADER_EXIT_USAGE : GRADER_EXIT_INTERNAL;
		}
		goto cleanup;
	}
	print_notes(&notes);
	print_summary(o.outdir, &sum);
	ret = sum.totals.errors ? GRADER_EXIT_FAILED : GRADER_EXIT_OK;
cleanup:
	problem_set_release(&set); /* after batch_grade: its engine borrowed the set */
	if (have_policy)
		late_policy_release(&policy);
	strbuf_release(&err);
	strbuf_release(&notes);
	return ret;
}

int cmd_merge(struct cli *cli)
{
	struct gradebook_totals totals;
	struct strbuf err = STRBUF_INIT;
	bool usage = false;
	int ret;

	if (cli->nargs < 1 || !cli->output) {
		error("usage: grader merge OUTDIR... -o MERGED");
		return GRADER_EXIT_USAGE;
	}
	for (int i = 0; i < cli->nargs; i++)
		if (cli_check_dir(cli->args[i], "shard output") < 0)
			return GRADER_EXIT_USAGE;
	if (check_outdir(cli->output) < 0)
		return GRADER_EXIT_USAGE;
	if (batch_merge(cli->args, cli->nargs, cli->output, &totals, &err, &usage) < 0) {
		error("%s", err.buf);
		ret = usage ? GRADER_EXIT_USAGE : GRADER_EXIT_INTERNAL;
	} else {
		fprintf(stderr, "grader: merged %d shard%s: %d of %d student%s graded; ", cli->nargs,
			cli->nargs == 1 ? "" : "s", totals.graded, totals.students, totals.students == 1 ? "" : "s");
		print_written(cli->output, &totals);
		ret = totals.errors ? GRADER_EXIT_FAILED : GRADER_EXIT_OK;
	}
	strbuf_release(&err);
	return ret;
}
