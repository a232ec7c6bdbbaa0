/*
 * lang_c.c - C submissions: the student's file compiled and linked with the
 * runtime and the problem's generated stub (stub.h) by one gcc run, then
 * the ELF inspection of the linked runner (elfcheck.h).  The runner's
 * seccomp filter goes in from .preinit_array, before any constructor of
 * the submission runs.  runtime.o (the set-up) and each problem's stub
 * (c_share) are compiled once per engine, before any submission, and kept
 * between runs (setup_cache.h): a build compiles the student's file alone.
 */
#include "problem/language.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include "build/build.h"
#include "build/compile.h"
#include "base/digest.h"
#include "build/elfcheck.h"
#include "build/setup_cache.h"
#include "build/stub.h"

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

/*
 * The compiler and the flags of every compile of a build, the student's
 * file and the stub alike, so that a stub compiled on its own is the
 * object it would have been beside the file.
 */
static void push_compile_flags(struct strvec *argv, const struct build_env *env)
{
	strvec_push(argv, env->cc);
	strvec_push(argv, "-std=gnu17");
	strvec_push(argv, "-O2");
	strvec_push(argv, "-pipe");
	strvec_push(argv, "-fmax-errors=20");
	strvec_pushf(argv, "-I%s", env->runtime_dir);
	strvec_push(argv, "-include");
	strvec_push(argv, "grader_decls.h");
	strvec_push(argv, "-D" "main=" STUB_RENAMED_MAIN);
}

static const char *const stub_products[] = { "grader_stub.o", NULL };

/* The problem's stub and declarations, and the directory of its object: runtime/stub-<digest of both>. */
static char *stub_texts(const struct build_env *env, const struct problem *p, struct strbuf *stub,
			struct strbuf *decls, char key[DIGEST_HEX_SIZE])
{
	struct digest d;

	stub_generate(stub, p);
	stub_declarations(decls, p);
	digest_init(&d);
	digest_add_str(&d, stub->buf);
	digest_add_str(&d, decls->buf);
	digest_hex(&d, key);
	return xasprintf("%s/stub-%.32s", env->runtime_dir, key);
}

/*
 * Compile the stub in dir (a directory of its own, given to the compiler)
 * and keep it in the cache.  0, or -1 with no object left behind: an
 * assembler killed at a limit leaves a truncated one, which would fail
 * every build that linked it.
 */
static int compile_stub(const struct build_env *env, const struct setup_item *it, const char *dir,
			const struct strbuf *stub, const struct strbuf *decls, struct strbuf *err)
{
	struct strvec argv = STRVEC_INIT;
	char *object = xasprintf("%s/grader_stub.o", dir);
	int ret = -1;

	if (write_generated(dir, "grader_stub.c", stub, err) < 0 || write_generated(dir, "grader_decls.h", decls, err) < 0)
		goto cleanup;
	push_compile_flags(&argv, env);
	strvec_push(&argv, "-c");
	strvec_push(&argv, "grader_stub.c");
	strvec_push(&argv, "-o");
	strvec_push(&argv, "grader_stub.o");
	if (compile_run(&env->compile, dir, argv.v, err) < 0) {
		strbuf_addstr(err, " (compiling the problem's stub)");
		goto cleanup;
	}
	setup_cache_store_item(env->cache_dir, it, env->cc, dir);
	ret = 0;
cleanup:
	if (ret < 0)
		unlink(object);
	free(object);
	strvec_clear(&argv);
	return ret;
}

/*
 * Once per engine and problem, before any submission is built (so before
 * any student's compiler runs as the uid the directory is given to): the
 * stub as an object, taken from the cache or compiled, instead of compiled
 * in every student's build (about a fifth of a C build's CPU).  When it
 * cannot be had, the builds compile the stub beside the file, as before.
 */
static int c_share(const struct build_env *env, const struct problem *p, bool *rejected, struct strbuf *err)
{
	struct strbuf stub = STRBUF_INIT, decls = STRBUF_INIT;
	char key[DIGEST_HEX_SIZE];
	struct setup_item it = { "c-stub", key, stub_products };
	char *dir = stub_texts(env, p, &stub, &decls, key);
	enum setup_cache_fetch cached;
	int ret = -1;

	/* an existing directory: a variant with the same stub text came first */
	if (mkdir(dir, 0755) < 0) {
		ret = errno == EEXIST ? 0 : -1;
		if (ret < 0)
			strbuf_addf(err, "cannot make '%s': %s", dir, strerror(errno));
		goto cleanup;
	}
	if (compile_give_dir(&env->compile, dir) < 0) {
		strbuf_addf(err, "cannot give '%s' to the compiler: %s", dir, strerror(errno));
		goto cleanup;
	}
	cached = setup_cache_fetch_item(env->cache_dir, &it, env->cc, dir);
	ret = cached == SETUP_CACHE_HIT ? 0 : compile_stub(env, &it, dir, &stub, &decls, err);
	/* a kept copy not trusted counts as replaced only once a new one is made */
	*rejected = cached == SETUP_CACHE_REJECTED && ret == 0;
cleanup:
	free(dir);
	strbuf_release(&stub);
	strbuf_release(&decls);
	return ret;
}

static int c_prepare(const struct build_env *env, const struct problem *p, const char *dir, const char *file,
		     struct strvec *argv, struct strbuf *err)
{
	struct strbuf stub = STRBUF_INIT, decls = STRBUF_INIT;
	char key[DIGEST_HEX_SIZE];
	char *stub_dir = stub_texts(env, p, &stub, &decls, key), *stub_o = xasprintf("%s/grader_stub.o", stub_dir);
	struct stat st;
	int ret = -1;

	/* the object c_share made, else the stub compiled beside the file */
	if (stat(stub_o, &st) < 0 || !S_ISREG(st.st_mode)) {
		free(stub_o);
		stub_o = NULL;
	}
	if (write_generated(dir, "grader_decls.h", &decls, err) < 0 ||
	    (!stub_o && write_generated(dir, "grader_stub.c", &stub, err) < 0))
		goto cleanup;
	push_compile_flags(argv, env);
	strvec_pushf(argv, "%s/runtime.o", env->runtime_dir);
	strvec_push(argv, file);
	strvec_push(argv, stub_o ? stub_o : "grader_stub.c");
	strvec_push(argv, "-o");
	strvec_push(argv, "runner");
	strvec_push(argv, "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc");
	/* every symbol bound at start-up, in the runner: left lazy, each case child would look up anew (and copy
	 * the page of) every library function that only case children call - a tenth of a test's own cost */
	strvec_push(argv, "-Wl,-z,now");
	strvec_push(argv, "-lm");
	ret = 0;
cleanup:
	free(stub_o);
	free(stub_dir);
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
	.share = c_share,
	.prepare = c_prepare,
	.inspect = c_inspect,
	.runner = c_runner,
};
