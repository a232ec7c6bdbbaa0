/*
 * cli.c - option parsing and the helpers every subcommand shares (see cli.h).
 */
#define _GNU_SOURCE
#include "cmd/cli.h"
#include "cmd/progress.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/interrupt.h"
#include "judge/reference.h"
#include "base/version.h"
#include "base/l10n.h"

static const char usage_text[] =
	"usage: grader [grade] [options] [SUBMISSION_DIR]   grade a submission (default: student_template/)\n"
	"       grader selftest [options]                  check the reference and the problem files\n"
	"       grader list [--sources] [options]          list the problems and their tests (--sources: only\n"
	"                                                  the file names a submission may hold, one a line)\n"
	"       grader batch SUBMISSIONS -o OUTDIR [--resume] [--shard I/N]   grade a class\n"
	"                                                  (subdirectories, .zip and .tar.gz, or a Canvas,\n"
	"                                                  Moodle or Gradescope download; docs/batch.md)\n"
	"       grader merge OUTDIR... -o MERGED           merge the outputs of batch shards\n"
	"       grader pack OUTDIR                         the student pack's problem files: hidden groups\n"
	"                                                  removed, public answers written out (make student-pack)\n"
	"       grader skeleton OUTDIR                     the students' starting files from the problem files:\n"
	"                                                  C and Python skeletons, the guide's table (problems.md)\n"
	"       grader mutate [--format text|json] [options]   mutation analysis of the reference: how many\n"
	"                                                  wrong versions do the tests catch (-j: mutants at\n"
	"                                                  a time; exit 1 when one survives unlisted)\n"
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
	"  --cache DIR        where reference answers and compiled runtimes are kept\n"
	"                     (default: ~/.cache/combgrader)\n"
	"  --no-cache         always recompute the reference answers and recompile the runtimes\n"
	"  --show-hidden      instructor view: list hidden tests with their inputs, values and\n"
	"                     output (students see only how many of a hidden group passed)\n"
	"  --growth           measure how each problem's time grows with N (problems that declare\n"
	"                     growth:; grade does anyway after a time limit, batch only with\n"
	"                     this option), e.g. 'f grows like N^3.0'\n"
	"  --no-growth        never measure growth (up to 10 s of CPU per problem that timed out)\n"
	"  --all-tests        grade: run every test (as batch and --show-hidden do); without it,\n"
	"                     a group's tests after 3 failures in a row of one costly kind (time or\n"
	"                     memory limit, a crash) are not run, and the report says so\n"
	"  -v, --verbose      list passing tests too\n"
	"  -q, --quiet        no progress line on the terminal while grading\n"
	"  --shrink, --no-shrink  search the smallest input a failing generated public test\n"
	"                     still fails on (default: on for grade, off for batch; docs/shrink.md)\n"
	"  --resume           batch: skip students whose result is complete and current\n"
	"  --shard I/N        batch: grade the I-th of N deterministic parts of the class\n"
	"  --layout L         batch: read SUBMISSIONS as auto (default: detected), folders, canvas,\n"
	"                     moodle or gradescope\n"
	"  --assignment NAME  batch: the assignment column of canvas-import.csv, as Canvas' gradebook\n"
	"                     export names it, e.g. 'Problem set 3 (123456)' (default: combgrader)\n"
	"  --policy FILE      batch: deadline, late_until, penalty and extensions (YAML): grades.csv\n"
	"                     gains late, penalty and final columns (docs/batch.md)\n"
	"  --regrade ID       batch: grade that student again even when current (implies --resume;\n"
	"                     repeatable); with --resume, regrade.md says what moved\n"
	"  --regrade-problem P  batch: grade every student again after problem P was fixed (implies\n"
	"                     --resume); regrade.md lists how P's scores and verdicts moved first\n"
	"  --reveal-hidden    batch, after the deadline: each student's feedback shows, for every\n"
	"                     hidden group they failed, its smallest failing input (shrunk)\n"
	"  --color WHEN       auto (default), always or never; NO_COLOR disables\n"
	"  --lang LANG        the language of the text and Markdown reports: en or ko (default:\n"
	"                     the locale's, e.g. LANG=ko_KR.UTF-8; machine formats stay as they are)\n"
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
#ifdef GRADER_STUDENT_PACK
	fputs("\nin the student pack: grade and list work on the public tests in problems/; selftest,\n"
	      "batch, merge, pack, --reference and --show-hidden need the instructor's tree (reference\n"
	      "solutions, hidden tests) and are not for use here\n", out);
#endif
	strbuf_release(&formats);
}

/* dir/rel when it exists (freshly allocated), else NULL. */
static char *existing(const char *dir, const char *rel)
{
	struct stat st;
	char *cand = xasprintf("%s/%s", dir, rel);
	if (stat(cand, &st) == 0)
		return cand;
	free(cand);
	return NULL;
}

/* A default directory: see cli.h for where it is looked for. */
char *cli_default_dir(const char *name)
{
	char exe[PATH_MAX], *found = NULL, *slash;
	ssize_t n;
	struct stat st;
	if (stat(name, &st) == 0)
		return xstrdup(name);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			char *in_tree = xasprintf("../%s", name), *installed = xasprintf("../share/combgrader/%s", name);
			*slash = '\0';
			found = existing(exe, in_tree);
			if (!found)
				found = existing(exe, installed);
			free(in_tree);
			free(installed);
		}
	}
#ifdef GRADER_SHARE_DIR
	if (!found)
		found = existing(GRADER_SHARE_DIR, name);
#endif
	return found ? found : xstrdup(name);
}

enum {
	OPT_PROBLEMS = 256, OPT_REFERENCE, OPT_ONLY, OPT_FORMAT, OPT_CACHE, OPT_NO_CACHE,
	OPT_SHOW_HIDDEN, OPT_COLOR, OPT_HELP, OPT_VERSION, OPT_RESUME, OPT_SHARD, OPT_SOURCES, OPT_LAYOUT,
	OPT_ASSIGNMENT, OPT_POLICY, OPT_REGRADE, OPT_GROWTH, OPT_NO_GROWTH, OPT_SHRINK, OPT_NO_SHRINK, OPT_LANG,
	OPT_ALL_TESTS, OPT_REGRADE_PROBLEM, OPT_REVEAL_HIDDEN
};

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
	{ "growth", no_argument, NULL, OPT_GROWTH },
	{ "no-growth", no_argument, NULL, OPT_NO_GROWTH },
	{ "all-tests", no_argument, NULL, OPT_ALL_TESTS },
	{ "shrink", no_argument, NULL, OPT_SHRINK },
	{ "no-shrink", no_argument, NULL, OPT_NO_SHRINK },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "color", required_argument, NULL, OPT_COLOR },
	{ "colour", required_argument, NULL, OPT_COLOR },
	{ "lang", required_argument, NULL, OPT_LANG },
	{ "resume", no_argument, NULL, OPT_RESUME },
	{ "sources", no_argument, NULL, OPT_SOURCES },
	{ "shard", required_argument, NULL, OPT_SHARD },
	{ "layout", required_argument, NULL, OPT_LAYOUT },
	{ "assignment", required_argument, NULL, OPT_ASSIGNMENT },
	{ "policy", required_argument, NULL, OPT_POLICY },
	{ "regrade", required_argument, NULL, OPT_REGRADE },
	{ "regrade-problem", required_argument, NULL, OPT_REGRADE_PROBLEM },
	{ "reveal-hidden", no_argument, NULL, OPT_REVEAL_HIDDEN },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

/* The options that take a value needing a check: 0, or -1 after saying why. */

static int parse_jobs(struct cli *cli, const char *arg)
{
	char *end;
	long n = strtol(arg, &end, 10);
	if (*end || n < 1 || n > 256)
		return error("-j takes a number of jobs from 1 to 256, not '%s'", arg);
	cli->jobs = (int)n;
	return 0;
}

/* F or F:FILE; FILE points into arg (argv), which outlives the cli. */
static int parse_format(struct cli *cli, const char *arg)
{
	const char *colon = strchr(arg, ':');
	char *name = colon ? xstrndup(arg, (size_t)(colon - arg)) : xstrdup(arg);
	const struct report_format *f = report_find(name);
	if (!f) {
		error("unknown format '%s' (see --help)", name);
		free(name);
		return -1;
	}
	free(name);
	if (cli->nformats == CLI_MAX_FORMATS)
		return error("too many --format options");
	cli->formats[cli->nformats].format = f;
	cli->formats[cli->nformats].file = colon ? colon + 1 : NULL;
	cli->nformats++;
	return 0;
}

/* Does the comma-separated list hold id (len bytes)? */
static bool list_has(const char *list, const char *id, size_t len)
{
	for (const char *p = list; *p;) {
		size_t l = strcspn(p, ",");
		if (l == len && !strncmp(p, id, len))
			return true;
		p += l + (p[l] == ',');
	}
	return false;
}

/* --only IDS, once or more: every id joins the list once. */
static void add_only(struct cli *cli, const char *arg)
{
	if (!cli->only_owned)
		cli->only_owned = xstrdup("");
	for (const char *p = arg; *p;) {
		size_t l = strcspn(p, ",");
		if (l && !list_has(cli->only_owned, p, l)) {
			char *joined = xasprintf("%s%s%.*s", cli->only_owned, *cli->only_owned ? "," : "", (int)l, p);
			free(cli->only_owned);
			cli->only_owned = joined;
		}
		p += l + (p[l] == ',');
	}
	cli->only = cli->only_owned;
}

static int parse_color(struct cli *cli, const char *arg)
{
	if (!strcmp(arg, "always"))
		cli->color = 1;
	else if (!strcmp(arg, "never"))
		cli->color = 0;
	else if (!strcmp(arg, "auto"))
		cli->color = -1;
	else
		return error("--color takes auto, always or never");
	return 0;
}

static int parse_shard(struct cli *cli, const char *arg)
{
	if (sscanf(arg, "%d/%d", &cli->shard_index, &cli->shard_count) != 2 || cli->shard_count < 1 ||
	    cli->shard_index < 1 || cli->shard_index > cli->shard_count)
		return error("--shard takes I/N with 1 <= I <= N, not '%s'", arg);
	return 0;
}

/* One option c (getopt_long's answer) with its argument: 0, or -1 (getopt has said why for unknown ones). */
static int parse_option(struct cli *cli, int c, char *arg)
{
	switch (c) {
	case OPT_PROBLEMS:
		cli->problems = arg;
		return 0;
	case OPT_REFERENCE:
		cli->reference = arg;
		return 0;
	case OPT_ONLY:
		add_only(cli, arg);
		return 0;
	case 'j':
		return parse_jobs(cli, arg);
	case OPT_FORMAT:
		return parse_format(cli, arg);
	case 'o':
		cli->output = arg;
		return 0;
	case OPT_CACHE:
		cli->cache = arg;
		return 0;
	case OPT_NO_CACHE:
		cli->cache = "";
		return 0;
	case OPT_SHOW_HIDDEN:
		cli->show_hidden = true;
		return 0;
	case OPT_GROWTH:
		cli->growth = true;
		return 0;
	case OPT_NO_GROWTH:
		cli->no_growth = true;
		return 0;
	case OPT_ALL_TESTS:
		cli->all_tests = true;
		return 0;
	case 'v':
		cli->verbose = true;
		return 0;
	case 'q':
		cli->quiet = true;
		return 0;
	case OPT_SHRINK:
	case OPT_NO_SHRINK:
		cli->shrink = c == OPT_SHRINK;
		return 0;
	case OPT_COLOR:
		return parse_color(cli, arg);
	case OPT_LANG:
		if (!l10n_known(arg))
			return error("--lang takes en or ko, not '%s'", arg);
		cli->lang = arg;
		return 0;
	case OPT_SOURCES:
		cli->sources = true;
		cli->own |= CLI_OPT_SOURCES;
		return 0;
	case OPT_RESUME:
		cli->resume = true;
		cli->own |= CLI_OPT_RESUME;
		return 0;
	case OPT_SHARD:
		cli->own |= CLI_OPT_SHARD;
		return parse_shard(cli, arg);
	case OPT_LAYOUT:
		cli->own |= CLI_OPT_LAYOUT;
		cli->layout = arg;
		return 0;
	case OPT_ASSIGNMENT:
		cli->own |= CLI_OPT_ASSIGNMENT;
		cli->assignment = arg;
		return 0;
	case OPT_POLICY:
		cli->own |= CLI_OPT_POLICY;
		cli->policy = arg;
		return 0;
	case OPT_REGRADE_PROBLEM:
		cli->own |= CLI_OPT_REGRADE_PROBLEM;
		cli->regrade_problem = arg;
		return 0;
	case OPT_REVEAL_HIDDEN:
		cli->own |= CLI_OPT_REVEAL_HIDDEN;
		cli->reveal_hidden = true;
		return 0;
	case OPT_REGRADE:
		cli->own |= CLI_OPT_REGRADE;
		strvec_push(&cli->regrade, arg);
		return 0;
	case OPT_HELP:
		cli->help = true;
		return 0;
	case OPT_VERSION:
		cli->version = true;
		return 0;
	default:
		return -1;
	}
}

/* After the options: what only their combination decides, and the defaults. */
static int finish_options(struct cli *cli)
{
	if (cli->output && cli->nformats > 1)
		return error("-o goes with a single --format; use --format F:FILE for several");
	if (!cli->nformats) {
		cli->formats[0].format = report_find("text");
		cli->nformats = 1;
	}
	if (cli->output && !cli->formats[0].file)
		cli->formats[0].file = cli->output;
	l10n_init(cli->lang);
	if (!cli->problems)
		cli->problems = cli->problems_owned = cli_default_dir("problems");
	if (!cli->reference)
		cli->reference = cli->reference_owned = cli_default_dir("reference");
	return 0;
}

int cli_parse(struct cli *cli, int argc, char **argv)
{
	int c;

	memset(cli, 0, sizeof(*cli));
	cli->color = -1;
	cli->shrink = -1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "j:o:vq", longopts, NULL)) != -1)
		if (parse_option(cli, c, optarg) < 0)
			return -1;
	cli->args = argv + optind;
	cli->nargs = argc - optind;
	return finish_options(cli);
}

void cli_release(struct cli *cli)
{
	for (int i = 0; i < cli->nformats; i++) {
		if (!cli->formats[i].out)
			continue;
		fclose(cli->formats[i].out); /* never written: nothing to report */
		if (cli->formats[i].created)
			unlink(cli->formats[i].file);
		cli->formats[i].out = NULL;
	}
	free(cli->problems_owned);
	free(cli->reference_owned);
	free(cli->only_owned);
	strvec_clear(&cli->regrade);
}

static const struct {
	unsigned bit;
	const char *option, *command;
} own_options[] = {
	{ CLI_OPT_RESUME, "--resume", "batch" },
	{ CLI_OPT_SHARD, "--shard", "batch" },
	{ CLI_OPT_SOURCES, "--sources", "list" },
	{ CLI_OPT_LAYOUT, "--layout", "batch" },
	{ CLI_OPT_ASSIGNMENT, "--assignment", "batch" },
	{ CLI_OPT_POLICY, "--policy", "batch" },
	{ CLI_OPT_REGRADE, "--regrade", "batch" },
	{ CLI_OPT_REGRADE_PROBLEM, "--regrade-problem", "batch" },
	{ CLI_OPT_REVEAL_HIDDEN, "--reveal-hidden", "batch" },
};

int cli_check_own_options(const struct cli *cli, const char *command, unsigned accepted)
{
	for (size_t i = 0; i < sizeof(own_options) / sizeof(own_options[0]); i++)
		if ((cli->own & own_options[i].bit) && !(accepted & own_options[i].bit))
			return error("%s belongs to 'grader %s', not to 'grader %s'", own_options[i].option,
				     own_options[i].command, command);
	return 0;
}

int cli_check_dir(const char *path, const char *what)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return error("cannot open the %s directory '%s': %s", what, path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return error("'%s' is not a directory", path);
	return 0;
}

/* --cache DIR: DIR, or the nearest of its parents that exists, must be a directory (the engine creates the rest). */
static int check_cache_parent(const char *cache)
{
	char *path = xstrdup(cache);
	struct stat st;
	int ret = 0;
	while (stat(path, &st) < 0) {
		char *slash;
		if (errno != ENOENT && errno != ENOTDIR) {
			free(path);
			return 0; /* the engine says why it cannot use it */
		}
		slash = strrchr(path, '/');
		while (slash && slash > path && slash[1] == '\0') { /* "a/b/": strip the trailing slashes first */
			*slash = '\0';
			slash = strrchr(path, '/');
		}
		if (!slash) {
			free(path);
			return 0; /* relative, nothing of it exists: created in the current directory */
		}
		slash[slash == path] = '\0'; /* "/x" -> "/" */
	}
	if (!S_ISDIR(st.st_mode))
		ret = error("cannot use the cache directory '%s': '%s' is not a directory", cache, path);
	free(path);
	return ret;
}

int cli_check_dirs(const struct cli *cli)
{
	struct stat st;
	if (cli_check_dir(cli->problems, "problems") < 0)
		return -1;
	if ((!cli->reference_owned || stat(cli->reference, &st) == 0) && cli_check_dir(cli->reference, "reference") < 0)
		return -1;
	if (cli->cache && *cli->cache && check_cache_parent(cli->cache) < 0)
		return -1;
	return 0;
}

int cli_open_reports(struct cli *cli)
{
	for (int i = 0; i < cli->nformats; i++) {
		const char *file = cli->formats[i].file;
		struct stat st;
		int fd;
		if (!file || !strcmp(file, "-"))
			continue;
		cli->formats[i].created = stat(file, &st) < 0;
		/* no O_TRUNC: an existing report stays whole until the new one is written */
		fd = open(file, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
		if (fd < 0 || !(cli->formats[i].out = fdopen(fd, "w"))) {
			error("cannot write the %s report to '%s': %s", cli->formats[i].format->name, file,
			      strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1; /* cli_release removes what the earlier ones created */
		}
	}
	return 0;
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
	/* --growth wins over --no-growth; neither: after a time limit (batch and mutate decide for themselves) */
	o->growth = cli->growth ? GROWTH_ALWAYS : cli->no_growth ? GROWTH_NEVER : GROWTH_AFTER_TIMELIMIT;
	o->shrink = cli->shrink > 0;
	o->log = progress_log(cli->progress, stderr);
	if (cli->progress) {
		o->progress = progress_update;
		o->progress_ctx = cli->progress;
	}
}

void cli_warn_isolation(enum sandbox_use use)
{
	static int warned;
	struct strbuf sb = STRBUF_INIT;
	if (warned)
		return;
	warned = 1;
	sandbox_limitations(use, &sb);
	if (sb.len)
		warning("%s", sb.buf);
	strbuf_release(&sb);
}

int cli_start_engine(const struct cli *cli, struct problem_set *set, struct engine *e)
{
	struct engine_options opts;
	struct strbuf err = STRBUF_INIT;
	bool usage = false;
	int ret = 0;

	cli_engine_options(cli, &opts, set);
	cli_warn_isolation(SANDBOX_OWN_CODE);
	if (engine_init(e, &opts, &err, &usage) < 0)
		ret = usage ? GRADER_EXIT_USAGE : GRADER_EXIT_INTERNAL;
	else if (reference_load(e, &err) < 0)
		ret = grader_interrupted ? 130 : GRADER_EXIT_INTERNAL;
	if (ret)
		error("%s", err.buf);
	strbuf_release(&err);
	return ret;
}

/* GitHub Actions: the Markdown summary goes to $GITHUB_STEP_SUMMARY along with the annotations. */
static int append_step_summary(const struct view *v, const struct report_options *o)
{
	const char *summary = getenv("GITHUB_STEP_SUMMARY");
	FILE *f;
	int ret = 0;
	if (!summary || !*summary)
		return 0;
	f = fopen(summary, "a");
	if (!f)
		return error("cannot append to $GITHUB_STEP_SUMMARY '%s': %s", summary, strerror(errno));
	l10n_begin();
	if (report_markdown(f, v, o) < 0)
		ret = -1;
	l10n_end();
	if (fclose(f) != 0)
		ret = error("cannot write $GITHUB_STEP_SUMMARY '%s': %s", summary, strerror(errno));
	return ret;
}

/*
 * Write every requested report, all from one view of r: the student's, or
 * the instructor's with --show-hidden.  Returns 0, or -1 when one could
 * not be written.
 */
bool cli_reader_gone(FILE *f)
{
	struct pollfd p = { fileno(f), POLLOUT, 0 };
	struct stat st;

	if (!ferror(f) || p.fd < 0 || fstat(p.fd, &st) < 0 || !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
		return false;
	/* a pipe without readers, a socket whose peer shut down: POLLERR or POLLHUP at once */
	return poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP));
}

int cli_write_reports(struct cli *cli, const struct grade_result *r)
{
	struct view v;
	int ret = 0;

	view_build(&v, r, cli->show_hidden);
	for (int i = 0; i < cli->nformats; i++) {
		const char *file = cli->formats[i].file;
		struct report_options o;
		FILE *out = stdout;
		memset(&o, 0, sizeof(o));
		o.verbose = cli->verbose;
		o.version = GRADER_VERSION;
		if (file && strcmp(file, "-")) {
			struct stat st;
			out = cli->formats[i].out;
			cli->formats[i].out = NULL; /* written, or tried: stays */
			if (!out)
				out = fopen(file, "w"); /* not opened beforehand (cli_open_reports) */
			else if (fstat(fileno(out), &st) == 0 && S_ISREG(st.st_mode) && ftruncate(fileno(out), 0) < 0)
				ret = error("cannot truncate '%s': %s", file, strerror(errno));
			if (!out) {
				ret = error("cannot write '%s': %s", file, strerror(errno));
				continue;
			}
		}
		o.color = cli->color == 1 ||
			  (cli->color == -1 && out == stdout && isatty(STDOUT_FILENO) && !getenv("NO_COLOR"));
		if (cli->formats[i].format->localised)
			l10n_begin();
		if (cli->formats[i].format->write(out, &v, &o) < 0)
			ret = cli_reader_gone(out) ? -1 : error("cannot write the %s report", cli->formats[i].format->name);
		if (cli->formats[i].format->localised)
			l10n_end();
		if (cli->formats[i].format->write == report_github && append_step_summary(&v, &o) < 0)
			ret = -1;
		if (out != stdout && fclose(out) != 0)
			ret = error("cannot write '%s': %s", file, strerror(errno));
	}
	if (fflush(stdout) != 0)
		ret = cli_reader_gone(stdout) ? -1 : error("cannot write to standard output: %s", strerror(errno));
	view_release(&v);
	return ret;
}

