/*
 * stubgen.c - write the calling stub and declarations header the grader
 * generates for a problem (grader_stub.c, grader_decls.h) into a directory,
 * so that tests/fuzz/make-seeds.py can link real runners as lang_c.c does.
 *
 * usage: stubgen PROBLEM.yaml DIR
 */
#include <stdio.h>
#include <stdlib.h>

#include "problem/problem.h"
#include "build/stub.h"

static int write_text(const char *dir, const char *name, const struct strbuf *sb)
{
	char *path = xasprintf("%s/%s", dir, name);
	int ret = write_file_atomic(path, sb->buf, sb->len);
	if (ret < 0)
		perror(path);
	free(path);
	return ret;
}

int main(int argc, char **argv)
{
	struct problem p;
	struct strbuf err = STRBUF_INIT, stub = STRBUF_INIT, decls = STRBUF_INIT;
	int ret = 1;

	if (argc != 3) {
		fprintf(stderr, "usage: stubgen PROBLEM.yaml DIR\n");
		return 2;
	}
	if (problem_load(&p, argv[1], &err) < 0) {
		fputs(err.buf, stderr);
		strbuf_release(&err);
		return 1;
	}
	stub_generate(&stub, &p);
	stub_declarations(&decls, &p);
	if (write_text(argv[2], "grader_stub.c", &stub) == 0 && write_text(argv[2], "grader_decls.h", &decls) == 0)
		ret = 0;
	problem_release(&p);
	strbuf_release(&err);
	strbuf_release(&stub);
	strbuf_release(&decls);
	return ret;
}
