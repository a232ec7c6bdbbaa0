/*
 * lang_python.c - Python submissions, run by the Python host: runtime.c
 * built with GR_FILTER_IN_MAIN and runtime/pyhost.c, linked with Debian's
 * libpython (the flags come from pkg-config python3-embed when the grader
 * is built).  The host is compiled once per engine; a build is a syntax
 * check by the host itself (--check), run like a compiler; a runner is the
 * host started on the student's file with the functions a test calls.
 */
#include "problem/language.h"

#include <stdlib.h>
#include <string.h>

#include "build/build.h"
#include "build/compile.h"
#include "problem/problem.h"

#ifndef GRADER_PYTHON_VERSION
#define GRADER_PYTHON_VERSION "3"
#endif

/* Split flags ("-I/usr/include/python3.11 -lpython3.11") into argv. */
static void push_flags(struct strvec *argv, const char *flags)
{
	for (const char *p = flags; *p;) {
		size_t l = strcspn(p, " \t");
		if (l) {
			char *w = xstrndup(p, l);
			strvec_push(argv, w);
			free(w);
		}
		p += l;
		p += strspn(p, " \t");
	}
}

static int python_setup(const struct build_env *env, struct strbuf *err)
{
#if defined(GRADER_PYTHON_CFLAGS) && defined(GRADER_PYTHON_LIBS)
	struct strvec argv = STRVEC_INIT;
	int ret;

	strvec_push(&argv, env->cc);
	strvec_push(&argv, "-std=gnu11");
	strvec_push(&argv, "-O2");
	strvec_push(&argv, "-pipe");
	strvec_push(&argv, "-DGR_FILTER_IN_MAIN");
	push_flags(&argv, GRADER_PYTHON_CFLAGS);
	strvec_push(&argv, "runtime.c");
	strvec_push(&argv, "pyhost.c");
	strvec_push(&argv, "-o");
	strvec_push(&argv, "pyhost");
	strvec_push(&argv, "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc");
	strvec_push(&argv, "-Wl,-z,now"); /* as lang_c.c's runners: no lazy binding in every case child */
	push_flags(&argv, GRADER_PYTHON_LIBS);
	ret = compile_run(&env->compile, env->runtime_dir, argv.v, err);
	if (ret < 0)
		strbuf_addstr(err, "(compiling the Python host)");
	strvec_clear(&argv);
	return ret;
#else
	(void)env;
	strbuf_addstr(err, "this grader was built without Python (install libpython3-dev and rebuild)");
	return -1;
#endif
}

static int python_prepare(const struct build_env *env, const struct problem *p, const char *dir, const char *file,
			  struct strvec *argv, struct strbuf *err)
{
	(void)p;
	(void)dir;
	(void)err;
	strvec_pushf(argv, "%s/pyhost", env->runtime_dir);
	strvec_push(argv, "--check");
	strvec_push(argv, file);
	strvec_push(argv, file);
	return 0;
}

/* One letter per C type: the host converts values with it. */
static char type_letter(enum value_type t)
{
	switch (t) {
	case VT_BOOL:
		return 'b';
	case VT_INT:
		return 'i';
	case VT_LONG:
		return 'l';
	case VT_INT_ARRAY:
		return 'a';
	case VT_LONG_ARRAY:
		return 'A';
	}
	return 'l';
}

static void python_runner(const struct build_env *env, const struct problem *p, const char *dir, const char *file,
			  char **program, struct strvec *argv)
{
	char *stem = xstrndup(file, strcspn(file, "."));
	*program = xasprintf("%s/pyhost", env->runtime_dir);
	strvec_push(argv, "runner");
	strvec_pushf(argv, "%s/%s", dir, file);
	strvec_push(argv, stem);
	for (int i = 0; i < p->nfuncs; i++) {
		const struct signature *sig = &p->funcs[i];
		struct strbuf spec = STRBUF_INIT;
		strbuf_addf(&spec, "%s:%c:", problem_call_name(p, i), type_letter(sig->ret));
		for (int k = 0; k < sig->ninputs; k++)
			strbuf_addch(&spec, type_letter(sig->input_types[k]));
		strvec_push(argv, spec.buf);
		strbuf_release(&spec);
	}
	free(stem);
}

static const char *const python_setup_products[] = { "pyhost", NULL };

const struct language language_python = {
	.name = "python",
	.display = "Python " GRADER_PYTHON_VERSION,
	.extension = ".py",
	.true_word = "True",
	.false_word = "False",
	.renames = true,
	.filters = FILTER_PYTHON,
	.tokens = TOKENS_PYTHON,
	.setup = python_setup,
	.setup_products = python_setup_products,
	.prepare = python_prepare,
	.inspect = NULL,
	.runner = python_runner,
};
