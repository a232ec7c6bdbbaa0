/*
 * cmd/pack.c - `grader pack OUTDIR`: the student pack's problem files
 * (pack.h); tools/pack.sh builds the rest of the pack around them.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "judge/reference.h"
#include "cmd/cli.h"
#include "pack/pack.h"
#include "base/interrupt.h"
#include "sandbox/sandbox.h"

/* Is dir the problems directory itself?  (Writing there would replace the originals.) */
static bool same_dir(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];
	return realpath(a, ra) && realpath(b, rb) && !strcmp(ra, rb);
}

int cmd_pack(struct cli *cli)
{
	struct problem_set set = PROBLEM_SET_INIT;
	struct engine e;
	struct strbuf err = STRBUF_INIT;
	bool have_engine = false;
	const char *dir;
	int ret = GRADER_EXIT_INTERNAL, written = 0;

	if (cli->nargs != 1) {
		error("pack takes one operand, the directory to write the pack's problem files to");
		return GRADER_EXIT_USAGE;
	}
	dir = cli->args[0];
	if (cli_load_problems(cli, &set) < 0) {
		ret = GRADER_EXIT_USAGE;
		goto cleanup;
	}
	if (mkdir_p(dir, 0755) < 0) {
		error("cannot create '%s': %s", dir, strerror(errno));
		goto cleanup;
	}
	if (same_dir(dir, cli->problems)) {
		error("pack: '%s' is the problems directory; give another one", dir);
		ret = GRADER_EXIT_USAGE;
		goto cleanup;
	}
	have_engine = true; /* engine_release undoes a partial engine_init too */
	ret = cli_start_engine(cli, &set, &e);
	if (ret)
		goto cleanup;
	ret = GRADER_EXIT_INTERNAL;
	for (int i = 0; i < e.nids; i++) {
		int rc = pack_problem(&e, i, dir, &err);
		if (rc < 0) {
			error("pack: %s", err.buf);
			goto cleanup;
		}
		written += rc;
	}
	if (!written) {
		error("pack: no problem has a public test: nothing written");
		goto cleanup;
	}
	ret = fflush(stdout) ? GRADER_EXIT_INTERNAL : GRADER_EXIT_OK;
cleanup:
	if (have_engine)
		engine_release(&e);
	problem_set_release(&set);
	strbuf_release(&err);
	return ret;
}
