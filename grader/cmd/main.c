/*
 * main.c - the command line: parse options, dispatch to a subcommand from
 * the table below, choose the exit code.  Everything else lives in the
 * engine and the report writers, so tests can call them without the CLI.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reference.h"
#include "cli.h"
#include "engine.h"
#include "report.h"
#include "interrupt.h"
#include "sandbox.h"
#include "version.h"

static int cmd_grade(struct cli *cli)
{
	struct problem_set set = PROBLEM_SET_INIT;
	struct engine_options opts;
	struct engine e;
	struct grade_result r;
	struct strbuf err = STRBUF_INIT;
	char *submission;
	bool usage = false, have_engine = false, have_result = false;
	int ret = GRADER_EXIT_INTERNAL;

	if (cli->nargs > 1) {
		error("grade takes one submission directory");
		return GRADER_EXIT_USAGE;
	}
	submission = cli->nargs ? xstrdup(cli->args[0]) : cli_default_dir("student_template");
	if (access(submission, R_OK | X_OK) < 0) {
		error("cannot open the submission directory '%s': %s", submission, strerror(errno));
		free(submission);
		return GRADER_EXIT_USAGE;
	}
	if (cli_load_problems(cli, &set) < 0) {
		ret = GRADER_EXIT_USAGE;
		goto cleanup;
	}
	cli_engine_options(cli, &opts, &set);
	cli_warn_isolation(SANDBOX_OWN_CODE);
	have_engine = true; /* engine_release undoes a partial engine_init too */
	if (engine_init(&e, &opts, &err, &usage) < 0) {
		error("%s", err.buf);
		ret = usage ? GRADER_EXIT_USAGE : GRADER_EXIT_INTERNAL;
		goto cleanup;
	}
	if (reference_load(&e, &err) < 0 || engine_grade(&e, submission, &r, &err) < 0) {
		error("%s", err.buf);
		ret = grader_interrupted ? 130 : GRADER_EXIT_INTERNAL;
		goto cleanup;
	}
	have_result = true;
	if (cli_write_reports(cli, &r) < 0)
		ret = GRADER_EXIT_INTERNAL;
	else if (r.internal_error)
		ret = GRADER_EXIT_INTERNAL;
	else
		ret = grade_result_failures(&r) ? GRADER_EXIT_FAILED : GRADER_EXIT_OK;
cleanup:
	if (have_result)
		grade_result_release(&r);
	if (have_engine)
		engine_release(&e);
	problem_set_release(&set);
	strbuf_release(&err);
	free(submission);
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

static void list_group(const struct group *gr)
{
	printf("    group %-14s %-6s %-14s %4d tests  %g point%s%s  cpu ", gr->name, visibility_name(gr->visibility),
	       scoring_name(gr->scoring), gr->ncases, gr->points, gr->points == 1 ? "" : "s",
	       gr->scoring == SCORE_SUM ? " each" : "");
	if (gr->limits.cpu_factor)
		printf("%gx reference (at least %u ms)", gr->limits.cpu_factor, gr->limits.cpu_floor_ms);
	else
		printf("%u ms", gr->limits.cpu_ms);
	printf(", memory %u MiB\n", gr->limits.memory_mb);
}

static int cmd_list(struct cli *cli)
{
	struct problem_set set = PROBLEM_SET_INIT;
	if (cli_load_problems(cli, &set) < 0)
		return GRADER_EXIT_USAGE;
	for (int i = 0; i < set.nproblems; i++) {
		const struct problem *p = &set.problems[i];
		printf("%s  %s  (%s, %g points, %d tests)\n", p->id, p->title, p->source, p->max_score, p->ncases);
		for (int f = 0; f < p->nfuncs; f++) {
			struct strbuf sb = STRBUF_INIT;
			signature_format(&sb, &p->funcs[f]);
			printf("    %s\n", sb.buf);
			strbuf_release(&sb);
		}
		if (problem_nvariants(p) > 1)
			list_languages(p);
		for (int g = 0; g < p->ngroups; g++)
			list_group(&p->groups[g]);
	}
	problem_set_release(&set);
	return fflush(stdout) ? GRADER_EXIT_INTERNAL : GRADER_EXIT_OK;
}

static const struct command {
	const char *name;
	int (*run)(struct cli *cli);
} commands[] = {
	{ "grade", cmd_grade },
	{ "selftest", cmd_selftest },
	{ "list", cmd_list },
	{ "batch", cmd_batch },
	{ "merge", cmd_merge },
	{ "pack", cmd_pack },
	{ NULL, NULL },
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
	interrupt_handle_signals();
	ret = cmd->run(&cli);
	cli_release(&cli);
	if (grader_interrupted)
		ret = 130;
	return ret;
}
