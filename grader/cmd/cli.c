/*
 * cli.c - option parsing and the helpers every subcommand shares (see cli.h).
 */
#define _GNU_SOURCE
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "version.h"

static const char usage_text[] =
	"usage: grader [grade] [options] [SUBMISSION_DIR]   grade a submission (default: student_template/)\n"
	"       grader selftest [options]                  check the reference and the problem files\n"
	"       grader list [options]                      list the problems and their tests\n"
	"       grader batch SUBMISSIONS -o OUTDIR [--resume] [--shard I/N]   grade a class\n"
	"                                                  (subdirectories, .zip and .tar.gz; docs/batch.md)\n"
	"       grader merge OUTDIR... -o MERGED           merge the outputs of batch shards\n"
	"       grader pack OUTDIR                         the student pack's problem files: hidden groups\n"
	"                                                  removed, public answers written out (make student-pack)\n"
	"       grader --help | --version\n"
	"\n"
	"options:\n"
	"  --problems DIR     problem files (default: problems/)\n"
	"  --reference DIR    reference solutions (default: reference/)\n"
	"  --only IDS         only these problems, e.g. --only p1,p4\n"
	"  -j, --jobs N       run N tests at a time (default: number of cores)\n"
	"  --format F[:FILE]  report format (repeatable; FILE: write there instead of stdout):\n"
	"%s"
	"  -o, --output FILE  write the (single) report to FILE\n"
	"  --cache DIR        where reference answers are cached (default: ~/.cache/combgrader)\n"
	"  --no-cache         always recompute the reference answers\n"
	"  --show-hidden      instructor view: show hidden tests' inputs and values\n"
	"  -v, --verbose      list passing tests too\n"
	"  --resume           batch: skip students whose result is complete and current\n"
	"  --shard I/N        batch: grade the I-th of N deterministic parts of the class\n"
	"  --color WHEN       auto (default), always or never; NO_COLOR disables\n"
	"\n"
	"exit codes: 0 every test correct, 1 some test not correct, 2 usage or problem-file\n"
	"error, 3 internal error (the grader could not judge), 130 interrupted\n";

void cli_usage(FILE *out)
{
	struct strbuf formats = STRBUF_INIT;
	for (int i = 0; report_formats[i].name; i++)
		strbuf_addf(&formats, "                       %-11s %s\n", report_formats[i].name,
			    report_formats[i].description);
	fprintf(out, usage_text, formats.buf);
	strbuf_release(&formats);
}

/* A default directory: as given when it exists, else next to the grader binary (bin/..). */
char *cli_default_dir(const char *name)
{
	char exe[PATH_MAX];
	ssize_t n;
	struct stat st;
	if (stat(name, &st) == 0)
		return xstrdup(name);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *slash;
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			char *cand;
			*slash = '\0';
			cand = xasprintf("%s/../%s", exe, name);
			if (stat(cand, &st) == 0)
				return cand;
			free(cand);
		}
	}
	return xstrdup(name);
}

int cli_parse(struct cli *cli, int argc, char **argv)
{
	enum { OPT_PROBLEMS = 256, OPT_REFERENCE, OPT_ONLY, OPT_FORMAT, OPT_CACHE, OPT_NO_CACHE,
	       OPT_SHOW_HIDDEN, OPT_COLOR, OPT_HELP, OPT_VERSION, OPT_RESUME, OPT_SHARD };
	static const struct option longopts[] = {
		{ "problems", required_argument, NULL, OPT_PROBLEMS },
		{ "reference", required_argument, NULL, OPT_REFERENCE },
		{ "only", required_argument, NULL, OPT_ONLY },
		{ "jobs", required_argument, NULL, 'j' },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "output", required_argument, NULL, 'o' },
		{ "cache", required_argument, NULL, OPT_CACHE },
		{ "no-cache", no_argument, NULL, OPT_NO_CACHE },
		{ "show-hidden", no_argument, NULL, OPT_SHOW_HIDDEN },
		{ "verbose", no_argument, NULL, 'v' },
		{ "color", required_argument, NULL, OPT_COLOR },
		{ "colour", required_argument, NULL, OPT_COLOR },
		{ "resume", no_argument, NULL, OPT_RESUME },
		{ "shard", required_argument, NULL, OPT_SHARD },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(cli, 0, sizeof(*cli));
	cli->color = -1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "j:o:v", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_PROBLEMS:
			cli->problems = optarg;
			break;
		case OPT_REFERENCE:
			cli->reference = optarg;
			break;
		case OPT_ONLY:
			cli->only = optarg;
			break;
		case 'j': {
			char *end;
			long n = strtol(optarg, &end, 10);
			if (*end || n < 1 || n > 256) {
				error("-j takes a number of jobs from 1 to 256, not '%s'", optarg);
				return -1;
			}
			cli->jobs = (int)n;
			break;
		}
		case OPT_FORMAT: {
			const char *colon = strchr(optarg, ':');
			char *name = colon ? xstrndup(optarg, (size_t)(colon - optarg)) : xstrdup(optarg);
			const struct report_format *f = report_find(name);
			if (!f) {
				error("unknown format '%s' (see --help)", name);
				free(name);
				return -1;
			}
			free(name);
			if (cli->nformats == CLI_MAX_FORMATS) {
				error("too many --format options");
				return -1;
			}
			cli->formats[cli->nformats].format = f;
			cli->formats[cli->nformats].file = colon ? colon + 1 : NULL;
			cli->nformats++;
			break;
		}
		case 'o':
			cli->output = optarg;
			break;
		case OPT_CACHE:
			cli->cache = optarg;
			break;
		case OPT_NO_CACHE:
			cli->cache = "";
			break;
		case OPT_SHOW_HIDDEN:
			cli->show_hidden = true;
			break;
		case 'v':
			cli->verbose = true;
			break;
		case OPT_COLOR:
			if (!strcmp(optarg, "always"))
				cli->color = 1;
			else if (!strcmp(optarg, "never"))
				cli->color = 0;
			else if (!strcmp(optarg, "auto"))
				cli->color = -1;
			else {
				error("--color takes auto, always or never");
				return -1;
			}
			break;
		case OPT_RESUME:
			cli->resume = true;
			break;
		case OPT_SHARD:
			if (sscanf(optarg, "%d/%d", &cli->shard_index, &cli->shard_count) != 2 ||
			    cli->shard_count < 1 || cli->shard_index < 1 || cli->shard_index > cli->shard_count) {
				error("--shard takes I/N with 1 <= I <= N, not '%s'", optarg);
				return -1;
			}
			break;
		case OPT_HELP:
			cli->help = true;
			break;
		case OPT_VERSION:
			cli->version = true;
			break;
		default:
			return -1;
		}
	}
	cli->args = argv + optind;
	cli->nargs = argc - optind;
	if (cli->output && cli->nformats > 1) {
		error("-o goes with a single --format; use --format F:FILE for several");
		return -1;
	}
	if (!cli->nformats) {
		cli->formats[0].format = report_find("text");
		cli->nformats = 1;
	}
	if (cli->output && !cli->formats[0].file)
		cli->formats[0].file = cli->output;
	if (!cli->problems)
		cli->problems = cli->problems_owned = cli_default_dir("problems");
	if (!cli->reference)
		cli->reference = cli->reference_owned = cli_default_dir("reference");
	return 0;
}

void cli_release(struct cli *cli)
{
	free(cli->problems_owned);
	free(cli->reference_owned);
}

int cli_load_problems(struct cli *cli, struct problem_set *set)
{
	struct strbuf err = STRBUF_INIT;
	if (problem_set_load(set, cli->problems, &err) < 0) {
		fputs(err.buf, stderr);
		strbuf_release(&err);
		problem_set_release(set); /* callers return at once: nothing to free for them */
		return -1;
	}
	strbuf_release(&err);
	return 0;
}

void cli_engine_options(const struct cli *cli, struct engine_options *o, struct problem_set *set)
{
	memset(o, 0, sizeof(*o));
	o->set = set;
	o->only = cli->only;
	o->jobs = cli->jobs;
	o->reference_dir = cli->reference;
	o->cache_dir = cli->cache;
	o->log = stderr;
}

/* Write every requested report.  Returns 0, or -1 when one could not be written. */
int cli_write_reports(const struct cli *cli, const struct grade_result *r)
{
	int ret = 0;
	for (int i = 0; i < cli->nformats; i++) {
		const char *file = cli->formats[i].file;
		struct report_options o;
		FILE *out = stdout;
		memset(&o, 0, sizeof(o));
		o.show_hidden = cli->show_hidden;
		o.verbose = cli->verbose;
		o.version = GRADER_VERSION;
		if (file && strcmp(file, "-")) {
			out = fopen(file, "w");
			if (!out) {
				ret = error("cannot write '%s': %s", file, strerror(errno));
				continue;
			}
		}
		o.color = cli->color == 1 ||
			  (cli->color == -1 && out == stdout && isatty(STDOUT_FILENO) && !getenv("NO_COLOR"));
		if (cli->formats[i].format->write(out, r, &o) < 0)
			ret = error("cannot write the %s report", cli->formats[i].format->name);
		if (out != stdout && fclose(out) != 0)
			ret = error("cannot write '%s': %s", file, strerror(errno));
	}
	if (fflush(stdout) != 0)
		ret = error("cannot write to standard output: %s", strerror(errno));
	return ret;
}

