/*
 * lang_c.c - C submissions: the generated stub (stub.h) and the runtime
 * compiled and linked with the student's file by one gcc run, then the ELF
 * inspection of the linked runner (elfcheck.h).  The runner's seccomp
 * filter goes in from .preinit_array, before any constructor of the
 * submission runs.
 */
#include "language.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "compile.h"
#include "elfcheck.h"
#include "stub.h"

static int c_setup(const struct build_env *env, struct strbuf *err)
{
	char *const argv[] = { env->cc, "-std=gnu11", "-O2", "-pipe", "-fno-stack-protector", "-c", "runtime.c",
			       "-o", "runtime.o", NULL };
	if (compile_run(&env->compile, env->runtime_dir, argv, err) < 0) {
		strbuf_addstr(err, "(compiling the C runner runtime)");
		return -1;
	}
	return 0;
}

static int write_generated(const char *dir, const char *name, const struct strbuf *text, struct strbuf *err)
{
	char *path = xasprintf("%s/%s", dir, name);
	int ret = write_file_atomic(path, text->buf, text->len);
	if (ret < 0)
		strbuf_addf(err, "cannot write '%s': %s", path, strerror(errno));
	free(path);
	return ret;
}

static int c_prepare(const struct build_env *env, const struct problem *p, const char *dir, const char *file,
		     struct strvec *argv, struct strbuf *err)
{
	struct strbuf stub = STRBUF_INIT, decls = STRBUF_INIT;
	int ret = -1;

	stub_generate(&stub, p);
	stub_declarations(&decls, p);
	if (write_generated(dir, "grader_stub.c", &stub, err) < 0 ||
	    write_generated(dir, "grader_decls.h", &decls, err) < 0)
		goto cleanup;
	strvec_push(argv, env->cc);
	strvec_push(argv, "-std=gnu17");
	strvec_push(argv, "-O2");
	strvec_push(argv, "-pipe");
	strvec_push(argv, "-fmax-errors=20");
	strvec_pushf(argv, "-I%s", env->runtime_dir);
	strvec_push(argv, "-include");
	strvec_push(argv, "grader_decls.h");
	strvec_push(argv, "-D" "main=" STUB_RENAMED_MAIN);
	strvec_pushf(argv, "%s/runtime.o", env->runtime_dir);
	strvec_push(argv, file);
	strvec_push(argv, "grader_stub.c");
	strvec_push(argv, "-o");
	strvec_push(argv, "runner");
	strvec_push(argv, "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc");
	/* every symbol bound at start-up, in the runner: left lazy, each case child would look up anew (and copy
	 * the page of) every library function that only case children call - a tenth of a test's own cost */
	strvec_push(argv, "-Wl,-z,now");
	strvec_push(argv, "-lm");
	ret = 0;
cleanup:
	strbuf_release(&stub);
	strbuf_release(&decls);
	return ret;
}

static int c_inspect(const struct build_env *env, const struct problem *p, const char *dir, struct build_facts *f,
		     struct strbuf *forbidden, struct strbuf *clashes)
{
	char *runner = xasprintf("%s/runner", dir), *runtime_o = xasprintf("%s/runtime.o", env->runtime_dir);
	int ret = elfcheck_inspect(runner, runtime_o, &f->static_bytes, forbidden, clashes);
	(void)p;
	free(runner);
	free(runtime_o);
	return ret;
}

static void c_runner(const struct build_env *env, const struct problem *p, const char *dir, const char *file,
		     char **program, struct strvec *argv)
{
	(void)env;
	(void)p;
	(void)file;
	*program = xasprintf("%s/runner", dir);
	strvec_push(argv, "runner");
}

static const char *const c_setup_products[] = { "runtime.o", NULL };

const struct language language_c = {
	.name = "c",
	.display = "C",
	.extension = ".c",
	.true_word = "true",
	.false_word = "false",
	.renames = false,
	.filters = FILTER_NATIVE,
	.tokens = TOKENS_C,
	.setup = c_setup,
	.setup_products = c_setup_products,
	.prepare = c_prepare,
	.inspect = c_inspect,
	.runner = c_runner,
};
