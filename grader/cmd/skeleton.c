/*
 * cmd/skeleton.c - `grader skeleton [--problems DIR] [--only IDS] OUTDIR`:
 * the students' starting files from the problem files (skeleton.h):
 * OUTDIR/<source>.c, OUTDIR/python/<source>.py and OUTDIR/problems.md (the
 * guide's table).  An existing file is never replaced: an instructor's
 * edited skeleton is worth more than a generated one, so the command
 * checks every path first and writes nothing when one exists.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cli.h"
#include "pack/skeleton.h"

#define GUIDE_FILE "problems.md"

struct planned {
	char *path;
	struct strbuf text;
};

static void plan_add(struct planned **files, int *n, size_t *alloc, char *path)
{
	ALLOC_GROW(*files, *n + 1, *alloc);
	(*files)[*n].path = path;
	(*files)[*n].text = (struct strbuf)STRBUF_INIT;
	(*n)++;
}

/* Every file the selected problems make, with its text. */
static void plan(const struct cli *cli, const struct problem_set *set, const char *dir, struct planned **files,
		 int *n, size_t *alloc)
{
	const char *only = cli->only && *cli->only ? cli->only : NULL;
	int guide;

	plan_add(files, n, alloc, xasprintf("%s/%s", dir, GUIDE_FILE));
	guide = *n - 1;
	skeleton_guide_header(&(*files)[guide].text);
	for (int i = 0; i < set->nproblems; i++) {
		const struct problem *p = &set->problems[i];
		const struct problem *c = skeleton_variant(p, "c"), *py = skeleton_variant(p, "python");
		if (only && !problem_only_names(only, p->id))
			continue;
		skeleton_guide_row(&(*files)[guide].text, p);
		if (c) {
			plan_add(files, n, alloc, xasprintf("%s/%s", dir, c->source));
			skeleton_c(&(*files)[*n - 1].text, p);
		}
		if (py) {
			plan_add(files, n, alloc, xasprintf("%s/python/%s", dir, py->source));
			skeleton_python(&(*files)[*n - 1].text, p);
		}
	}
}

int cmd_skeleton(struct cli *cli)
{
	struct problem_set set = PROBLEM_SET_INIT;
	struct planned *files = NULL;
	struct strbuf err = STRBUF_INIT, sub = STRBUF_INIT;
	size_t alloc = 0;
	int n = 0, ret = GRADER_EXIT_USAGE;
	const char *dir;

	if (cli->nargs != 1) {
		error("skeleton takes one operand, the directory to write the skeletons to");
		return GRADER_EXIT_USAGE;
	}
	dir = cli->args[0];
	if (cli_load_problems(cli, &set) < 0)
		return GRADER_EXIT_USAGE;
	if (cli->only && *cli->only && problem_set_check_only(&set, cli->only, &err) < 0) {
		error("%s", err.buf);
		goto cleanup;
	}
	plan(cli, &set, dir, &files, &n, &alloc);
	for (int i = 0; i < n; i++) {
		struct stat st;
		if (!lstat(files[i].path, &st)) {
			error("skeleton: '%s' exists; remove it or give another directory (nothing was written)",
			      files[i].path);
			goto cleanup;
		}
	}
	ret = GRADER_EXIT_INTERNAL;
	strbuf_addf(&sub, "%s/python", dir);
	if (mkdir_p(sub.buf, 0755) < 0) {
		error("cannot create '%s': %s", sub.buf, strerror(errno));
		goto cleanup;
	}
	for (int i = 0; i < n; i++) {
		if (write_file_atomic(files[i].path, files[i].text.buf, files[i].text.len) < 0) {
			error("cannot write '%s': %s", files[i].path, strerror(errno));
			goto cleanup;
		}
		printf("skeleton: wrote %s\n", files[i].path);
	}
	ret = fflush(stdout) ? GRADER_EXIT_INTERNAL : GRADER_EXIT_OK;
cleanup:
	for (int i = 0; i < n; i++) {
		free(files[i].path);
		strbuf_release(&files[i].text);
	}
	free(files);
	problem_set_release(&set);
	strbuf_release(&err);
	strbuf_release(&sub);
	return ret;
}
