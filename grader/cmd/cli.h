/*
 * cli.h - what the subcommands share: parsed options and the helpers that
 * turn them into engine options and reports.  Each subcommand is
 * `int cmd_NAME(struct cli *)` returning an exit code (git's builtin style).
 */
#ifndef GRADER_CLI_H
#define GRADER_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "judge/engine.h"
#include "report/report.h"
#include "sandbox/sandbox.h"

#define CLI_MAX_FORMATS 16

/* The options only one subcommand takes (struct cli's `own`: those given). */
enum {
	CLI_OPT_RESUME = 1 << 0,  /* batch */
	CLI_OPT_SHARD = 1 << 1,   /* batch */
	CLI_OPT_SOURCES = 1 << 2, /* list */
	CLI_OPT_LAYOUT = 1 << 3,  /* batch */
	CLI_OPT_ASSIGNMENT = 1 << 4, /* batch */
	CLI_OPT_POLICY = 1 << 5,  /* batch */
	CLI_OPT_REGRADE = 1 << 6, /* batch */
	CLI_OPT_REVEAL_HIDDEN = 1 << 7, /* batch */
	CLI_OPT_REGRADE_PROBLEM = 1 << 8, /* batch */
};

struct cli {
	const char *problems, *reference, *output, *cache;
	const char *only;        /* every --only, comma-joined, each id once; NULL when none */
	const char *layout;      /* batch --layout: auto, folders, canvas, moodle or gradescope; NULL: auto */
	const char *assignment;  /* batch --assignment: the Canvas import's column; NULL: the default */
	const char *policy;      /* batch --policy: the deadline policy file (batch_policy.h); NULL: none */
	struct strvec regrade;   /* batch --regrade ID, each given (ids may hold commas) */
	const char *regrade_problem; /* batch --regrade-problem P: every student again, regrade.md about P; or NULL */
	bool reveal_hidden;      /* batch --reveal-hidden: feedback shows each failed hidden group's smallest input */
	char *problems_owned, *reference_owned, *only_owned;
	int jobs;
	struct {
		const struct report_format *format;
		const char *file; /* NULL: stdout */
		FILE *out;        /* file opened by cli_open_reports, until written */
		bool created;     /* ... and created by it (removed if never written) */
	} formats[CLI_MAX_FORMATS];
	int nformats;
	bool show_hidden, verbose, help, version, resume, sources, growth, no_growth;
	bool all_tests;          /* grade: run every test (engine_options.skip_repeated_failures off) */
	bool quiet;              /* -q: no progress line on the terminal */
	struct progress *progress; /* grade's status line on a terminal (progress.h), or NULL: not owned */
	unsigned own;            /* CLI_OPT_* given */
	int color;               /* -1 auto, 0 never, 1 always */
	const char *lang;        /* --lang (points into argv), or NULL: the locale decides (l10n.h) */
	int shrink;              /* --shrink 1, --no-shrink 0, neither -1 (the command's default) */
	int shard_index, shard_count;
	char **args;             /* operands after the options */
	int nargs;
};

int cli_parse(struct cli *cli, int argc, char **argv);
/*
 * A default directory: as given when it exists (relative to the current
 * directory), else next to the grader binary (bin/../NAME), else where
 * `make install` put it (bin/../share/combgrader/NAME, GRADER_SHARE_DIR/NAME);
 * NAME itself when none exists.  The caller frees the result.
 */
char *cli_default_dir(const char *name);
/* Frees what cli_parse allocated; removes a report file cli_open_reports created and nothing wrote. */
void cli_release(struct cli *cli);
void cli_usage(FILE *out);
/* Refuse the command-specific options (CLI_OPT_*) that `command` does not take: 0, or -1 after saying why. */
int cli_check_own_options(const struct cli *cli, const char *command, unsigned accepted);
/* Is path a directory?  0, or -1 after saying "'path' is not a directory" or why it cannot be opened. */
int cli_check_dir(const char *path, const char *what);
/*
 * The directories the engine reads, as the user gave them: --problems, an
 * explicit --reference (a default one only when it exists), and the parent
 * of --cache (the nearest existing one).  0, or -1 after saying why.
 */
int cli_check_dirs(const struct cli *cli);
/*
 * Open every --format F:FILE for writing before any grading, so an
 * unwritable path fails at once (an existing file is left as it is until
 * cli_write_reports writes it).  0, or -1 after saying which and why.
 */
int cli_open_reports(struct cli *cli);
int cli_load_problems(struct cli *cli, struct problem_set *set);
void cli_engine_options(const struct cli *cli, struct engine_options *o, struct problem_set *set);
int cli_write_reports(struct cli *cli, const struct grade_result *r);
/*
 * Did writing to f fail because its reader went away (`grader | head`):
 * f has its error flag set and is a pipe or socket whose other end is
 * closed?  Such a failure is not the grader's: the writers say nothing of
 * it, and main() ends the grader by SIGPIPE once everything is cleaned up,
 * as git, grep and cat end.  A file (a full disk) is never such a reader.
 */
bool cli_reader_gone(FILE *f);
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
int cmd_skeleton(struct cli *cli);
int cmd_mutate(struct cli *cli);

#endif
