/*
 * main.c - the command line: parse options, dispatch to a subcommand from
 * the table below, choose the exit code.  Everything else lives in the
 * engine and the report writers, so tests can call them without the CLI.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pack/calibrate.h"
#include "judge/reference.h"
#include "cmd/cli.h"
#include "cmd/progress.h"
#include "judge/engine.h"
#include "report/report.h"
#include "base/interrupt.h"
#include "sandbox/sandbox.h"
#include "base/version.h"

static int cmd_grade(struct cli *cli)
{
	struct problem_set set = PROBLEM_SET_INIT;
	struct engine e;
	struct grade_result r;
	struct strbuf err = STRBUF_INIT;
	struct calibration calib[8];
	struct calibrate_options calib_opts = { cli->cache, NULL, 0 };
	char *submission, *template = NULL;
	bool have_engine = false, have_result = false;
	int ret = GRADER_EXIT_INTERNAL, ncalib = 0;

	if (cli->nargs > 1) {
		error("grade takes one submission directory");
		return GRADER_EXIT_USAGE;
	}
	submission = cli->nargs ? xstrdup(cli->args[0]) : cli_default_dir("student_template");
	if (cli_check_dir(submission, "submission") < 0) {
		free(submission);
		return GRADER_EXIT_USAGE;
	}
	if (access(submission, R_OK | X_OK) < 0) {
		error("cannot open the submission directory '%s': %s", submission, strerror(errno));
		free(submission);
		return GRADER_EXIT_USAGE;
	}
	if (cli_open_reports(cli) < 0) { /* before any grading; cli_release removes what it created */
		free(submission);
		return GRADER_EXIT_USAGE;
	}
	if (cli_load_problems(cli, &set) < 0) {
		ret = GRADER_EXIT_USAGE;
		goto cleanup;
	}
	have_engine = true; /* engine_release undoes a partial engine_init too */
	if (cli->shrink < 0)
		cli->shrink = 1; /* a student grading their own work: the smallest failing input helps most */
	/* a student pack's limits, scaled to this machine's speed (calibrate.h); nothing for other problems */
	calibrate_apply(&set, submission, &calib_opts, calib, 8, &ncalib, stderr);
	cli->progress = progress_new(stderr, !cli->quiet); /* on a terminal only */
	template = cli_default_dir("student_template");
	ret = cli_start_engine(cli, &set, &e);
	if (ret)
		goto cleanup;
	e.opts.template_dir = template; /* a file still the template's is noted (engine.h) */
	/* a student's own run spends no time on what its failures already showed; the instructor's view
	 * (--show-hidden) and --all-tests run every test, as batch does (engine.h) */
	e.opts.skip_repeated_failures = !cli->all_tests && !cli->show_hidden;
	if (engine_grade(&e, submission, &r, &err) < 0) {
		progress_free(cli->progress); /* erased before the message */
		cli->progress = NULL;
		error("%s", err.buf);
		ret = grader_interrupted ? 130 : GRADER_EXIT_INTERNAL;
		goto cleanup;
	}
	have_result = true;
	progress_free(cli->progress); /* the line erased before the report */
	cli->progress = NULL;
	r.calibration = calibrate_note(calib, ncalib);
	if (cli_write_reports(cli, &r) < 0)
		ret = GRADER_EXIT_INTERNAL;
	else if (r.internal_error)
		ret = GRADER_EXIT_INTERNAL;
	else
		ret = grade_result_failures(&r) ? GRADER_EXIT_FAILED : GRADER_EXIT_OK;
cleanup:
	progress_free(cli->progress);
	cli->progress = NULL;
	if (have_result)
		grade_result_release(&r);
	if (have_engine)
		engine_release(&e);
	problem_set_release(&set);
	strbuf_release(&err);
	free(submission);
	free(template);
	return ret;
}

/* "P3_CanWin(n)", "f(L)": the call in a language without C types (an array and its length are one list). */
static void call_shape(struct strbuf *sb, const struct problem *q, int f)
{
	const struct signature *sig = &q->funcs[f];
	int n = 0;
	strbuf_addf(sb, "%s(", problem_call_name(q, f));
	for (int k = 0; k < sig->nparams; k++)
		if (!sig->params[k].is_length)
			strbuf_addf(sb, "%s%s", n++ ? ", " : "", sig->params[k].name);
	strbuf_addch(sb, ')');
}

/* `list`: one problem's languages, files and the functions a test calls in each. */
static void list_languages(const struct problem *p)
{
	for (int v = 0; v < problem_nvariants(p); v++) {
		const struct problem *q = problem_variant((struct problem *)p, v);
		printf("    %-14s %s:", q->lang->display, q->source);
		for (int f = 0; f < q->nfuncs; f++) {
			struct strbuf sb = STRBUF_INIT;
			if (q->lang == p->lang)
				signature_format(&sb, &q->funcs[f]);
			else
				call_shape(&sb, q, f);
			printf("%s %s", f ? "," : "", sb.buf);
			strbuf_release(&sb);
		}
		putchar('\n');
	}
}

/* `list`: one group as variant p has it; lead says whose ("group" or a language). */
static void list_group(const struct problem *p, int g, const char *lead)
{
	const struct group *gr = &p->groups[g];
	printf("    %-5s %-14s %-6s %-14s %4d tests  %g point%s%s  cpu ", lead, gr->name, visibility_name(gr->visibility),
	       scoring_name(gr->scoring), problem_group_tests(p, g), gr->points, gr->points == 1 ? "" : "s",
	       gr->scoring == SCORE_SUM ? " each" : "");
	if (gr->limits.cpu_factor)
		printf("%gx reference (at least %u ms)", gr->limits.cpu_factor, gr->limits.cpu_floor_ms);
	else
		printf("%u ms", gr->limits.cpu_ms);
	printf(", memory %u MiB\n", gr->limits.memory_mb);
}

/* `list`: a group, then the languages in which it differs (other cases, limits or hint). */
static void list_groups(const struct problem *p)
{
	for (int g = 0; g < p->ngroups; g++) {
		list_group(p, g, "group");
		for (int v = 1; v < problem_nvariants(p); v++) {
			const struct problem *q = problem_variant((struct problem *)p, v);
			unsigned own = problem_group_differs(p, q, g);
			if (!own)
				continue;
			printf("      in %s: its own%s%s%s\n", q->lang->display, own & GROUP_OWN_CASES ? " cases" : "",
			       own & GROUP_OWN_LIMITS ? (own & GROUP_OWN_CASES ? ", limits" : " limits") : "",
			       own & GROUP_OWN_HINT ? (own & ~GROUP_OWN_HINT ? ", hint" : " hint") : "");
			if (own & ~GROUP_OWN_HINT)
				list_group(q, g, "");
		}
	}
}

static int cmd_list(struct cli *cli)
{
	struct problem_set set = PROBLEM_SET_INIT;
	const char *only = cli->only && *cli->only ? cli->only : NULL;
	if (cli_load_problems(cli, &set) < 0)
		return GRADER_EXIT_USAGE;
	if (only) {
		struct strbuf err = STRBUF_INIT;
		if (problem_set_check_only(&set, only, &err) < 0) {
			fprintf(stderr, "grader: error: %s\n", err.buf);
			strbuf_release(&err);
			problem_set_release(&set);
			return GRADER_EXIT_USAGE;
		}
	}
	for (int i = 0; i < set.nproblems && cli->sources; i++)
		for (int v = 0; v < problem_nvariants(&set.problems[i]); v++)
			if (!only || problem_only_names(only, set.problems[i].id))
				printf("%s\n", problem_variant(&set.problems[i], v)->source);
	for (int i = 0; i < set.nproblems && !cli->sources; i++) {
		const struct problem *p = &set.problems[i];
		if (only && !problem_only_names(only, p->id))
			continue;
		printf("%s  %s  (%s, %g points, %d tests)\n", p->id, p->title, p->source, p->max_score, problem_tests(p));
		for (int f = 0; f < p->nfuncs; f++) {
			struct strbuf sb = STRBUF_INIT;
			signature_format(&sb, &p->funcs[f]);
			printf("    %s\n", sb.buf);
			strbuf_release(&sb);
		}
		if (problem_nvariants(p) > 1)
			list_languages(p);
		list_groups(p);
	}
	problem_set_release(&set);
	return fflush(stdout) ? GRADER_EXIT_INTERNAL : GRADER_EXIT_OK;
}

static const struct command {
	const char *name;
	int (*run)(struct cli *cli);
	unsigned own;       /* the command-specific options it takes (CLI_OPT_*) */
	bool reads_problems; /* --problems, --reference, --cache: checked before it starts */
} commands[] = {
	{ "grade", cmd_grade, 0, true },
	{ "selftest", cmd_selftest, 0, true },
	{ "list", cmd_list, CLI_OPT_SOURCES, true },
	{ "batch", cmd_batch, CLI_OPT_RESUME | CLI_OPT_SHARD | CLI_OPT_LAYOUT | CLI_OPT_ASSIGNMENT | CLI_OPT_POLICY | CLI_OPT_REGRADE |
	  CLI_OPT_REGRADE_PROBLEM | CLI_OPT_REVEAL_HIDDEN, true },
	{ "merge", cmd_merge, 0, false },
	{ "pack", cmd_pack, 0, true },
	{ "skeleton", cmd_skeleton, 0, true },
	{ "mutate", cmd_mutate, 0, true },
	{ NULL, NULL, 0, false },
};

int main(int argc, char **argv)
{
	const struct command *cmd = &commands[0];
	struct cli cli;
	int ret;

	if (argc > 1) {
		for (int i = 0; commands[i].name; i++)
			if (!strcmp(argv[1], commands[i].name)) {
				cmd = &commands[i];
				argv[1] = argv[0];
				argv++;
				argc--;
				break;
			}
	}
	if (cli_parse(&cli, argc, argv) < 0) {
		fputs("(see grader --help)\n", stderr);
		cli_release(&cli);
		return GRADER_EXIT_USAGE;
	}
	if (cli.help) {
		cli_usage(stdout);
		cli_release(&cli);
		return GRADER_EXIT_OK;
	}
	if (cli.version) {
		printf("grader %s\n", GRADER_VERSION);
		cli_release(&cli);
		return GRADER_EXIT_OK;
	}
	if (cli_check_own_options(&cli, cmd->name, cmd->own) < 0 || (cmd->reads_problems && cli_check_dirs(&cli) < 0)) {
		cli_release(&cli);
		return GRADER_EXIT_USAGE;
	}
	interrupt_handle_signals();
	ret = cmd->run(&cli);
	cli_release(&cli);
	if (grader_interrupted)
		ret = 130;
	/* the reader of the output stopped early (`| head`): not the grader's failure, and no "internal error";
	 * now that everything is cleaned up, end as other tools do, by the SIGPIPE that was ignored meanwhile */
	if (ret != GRADER_EXIT_OK && ret != 130 && cli_reader_gone(stdout)) {
		signal(SIGPIPE, SIG_DFL);
		raise(SIGPIPE);
	}
	return ret;
}
