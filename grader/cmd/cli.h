/*
 * cli.h - what the subcommands share: parsed options and the helpers that
 * turn them into engine options and reports.  Each subcommand is
 * `int cmd_NAME(struct cli *)` returning an exit code (git's builtin style).
 */
#ifndef GRADER_CLI_H
#define GRADER_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "engine.h"
#include "report.h"
#include "sandbox.h"

#define CLI_MAX_FORMATS 8

struct cli {
	const char *problems, *reference, *only, *output, *cache;
	char *problems_owned, *reference_owned;
	int jobs;
	struct {
		const struct report_format *format;
		const char *file; /* NULL: stdout */
	} formats[CLI_MAX_FORMATS];
	int nformats;
	bool show_hidden, verbose, help, version, resume, sources;
	int color;               /* -1 auto, 0 never, 1 always */
	int shard_index, shard_count;
	char **args;             /* operands after the options */
	int nargs;
};

int cli_parse(struct cli *cli, int argc, char **argv);
/* A default directory: as given when it exists, else next to the grader binary (bin/..). */
char *cli_default_dir(const char *name);
void cli_release(struct cli *cli);
void cli_usage(FILE *out);
int cli_load_problems(struct cli *cli, struct problem_set *set);
void cli_engine_options(const struct cli *cli, struct engine_options *o, struct problem_set *set);
int cli_write_reports(const struct cli *cli, const struct grade_result *r);
/* Say once, on stderr, what the sandbox cannot enforce here for this use. */
void cli_warn_isolation(enum sandbox_use use);
/*
 * An engine for a command on one's own code (grade, selftest, pack): the
 * options from the command line, the isolation note, engine_init and the
 * reference's answers.  0, or the exit code to return (the reason printed).
 * engine_release(e) is due either way.
 */
int cli_start_engine(const struct cli *cli, struct problem_set *set, struct engine *e);

int cmd_selftest(struct cli *cli);
int cmd_batch(struct cli *cli);
int cmd_merge(struct cli *cli);
int cmd_pack(struct cli *cli);

#endif
