/*
 * cmd/mutate.c - `grader mutate`: mutation analysis of the reference
 * solutions (mutation.h), for instructors who want to know how strong
 * their tests are.  Takes --only, --problems, --reference, --cache, -j
 * (mutants at a time), -v (every mutant in the text report) and
 * --format text|json[:FILE].
 *
 * Exit codes: 0 every mutant killed or listed as equivalent, and the
 * equivalent list current; 1 a mutant survived that is not listed, a
 * listed one was killed (it is not equivalent) or no longer exists, or a
 * reference fails its own tests; 2 usage or problem-file error; 3 the
 * grader failed (a mutant could not be judged).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "base/interrupt.h"
#include "mutate/mutation.h"

static int check_formats(const struct cli *cli)
{
	for (int i = 0; i < cli->nformats; i++) {
		const char *name = cli->formats[i].format->name;
		if (strcmp(name, "text") && strcmp(name, "json"))
			return error("mutate writes --format text or json, not '%s'", name);
	}
	return 0;
}

/* Every --format, to its file (opened by cli_open_reports) or stdout. */
static int write_reports(struct cli *cli, const struct mutation_result *r)
{
	int ret = 0;
	for (int i = 0; i < cli->nformats; i++) {
		const char *file = cli->formats[i].file;
		FILE *out = stdout;
		if (file && strcmp(file, "-")) {
			struct stat st;
			out = cli->formats[i].out;
			cli->formats[i].out = NULL;
			if (!out)
				out = fopen(file, "w");
			else if (fstat(fileno(out), &st) == 0 && S_ISREG(st.st_mode) && ftruncate(fileno(out), 0) < 0)
				ret = error("cannot truncate '%s': %s", file, strerror(errno));
			if (!out) {
				ret = error("cannot write '%s': %s", file, strerror(errno));
				continue;
			}
		}
		if ((!strcmp(cli->formats[i].format->name, "json") ? mutation_write_json(out, r)
								      : mutation_write_text(out, r, cli->verbose)) < 0)
			ret = cli_reader_gone(out) ? -1 : error("cannot write the %s report", cli->formats[i].format->name);
		if (out != stdout && fclose(out) != 0)
			ret = error("cannot write '%s': %s", file, strerror(errno));
	}
	return ret;
}

static int exit_code(const struct mutation_result *r)
{
	for (int i = 0; i < r->nproblems; i++)
		if (r->problems[i].count[FATE_ERROR])
			return GRADER_EXIT_INTERNAL;
	return mutation_problems_found(r) ? GRADER_EXIT_FAILED : GRADER_EXIT_OK;
}

int cmd_mutate(struct cli *cli)
{
	struct problem_set set = PROBLEM_SET_INIT;
	struct mutation_options o;
	struct mutation_result r;
	struct strbuf err = STRBUF_INIT;
	bool usage = false;
	int ret;

	if (cli->nargs) {
		error("mutate takes no operands (it mutates the reference: --reference DIR)");
		return GRADER_EXIT_USAGE;
	}
	if (check_formats(cli) < 0 || cli_open_reports(cli) < 0)
		return GRADER_EXIT_USAGE;
	if (cli_load_problems(cli, &set) < 0)
		return GRADER_EXIT_USAGE;
	memset(&o, 0, sizeof(o));
	cli_engine_options(cli, &o.engine, &set);
	o.engine.growth = GROWTH_NEVER; /* a mutant is killed by its first failure: nothing to explain */
	o.jobs = cli->jobs;
	o.progress = stderr;
	cli_warn_isolation(SANDBOX_OWN_CODE);
	ret = mutation_run(&o, &r, &err, &usage);
	if (ret < 0) {
		error("%s", err.buf);
		ret = grader_interrupted ? 130
		      : usage ? GRADER_EXIT_USAGE
		      : ret == MUTATION_REFERENCE_FAILS ? GRADER_EXIT_FAILED : GRADER_EXIT_INTERNAL;
		goto cleanup;
	}
	ret = write_reports(cli, &r) < 0 ? GRADER_EXIT_INTERNAL : exit_code(&r);
	mutation_result_release(&r);
cleanup:
	if (fflush(stdout) != 0) {
		if (!cli_reader_gone(stdout))
			error("cannot write to standard output: %s", strerror(errno));
		ret = GRADER_EXIT_INTERNAL;
	}
	problem_set_release(&set);
	strbuf_release(&err);
	return ret;
}
