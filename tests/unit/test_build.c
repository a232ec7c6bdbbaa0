/*
 * test_build.c - cmocka tests for grader/build/build.c with the C language
 * (grader/build/lang_c.c): how a C build gets the problem's stub.
 *
 * The engine compiles each problem's stub once, before any submission is
 * built (build_env_share); every build then links that object.  When the
 * stub could not be had - its own compile failed - builds must still work:
 * each compiles the stub beside the student's file (c_prepare's fallback).
 * Both paths are run here for real (gcc, the compile sandbox, the runtime
 * object), on problems/p1.yaml and reference/p1.c, and told apart by what
 * the build directory holds: grader_stub.c only where the build compiled
 * the stub itself.
 *
 * Files go to a fresh mkdtemp() directory, removed after each test.
 */
#define _GNU_SOURCE /* asprintf */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* cmocka.h wraps malloc/free under UNIT_TESTING; the grader uses the real ones. */
#undef malloc
#undef calloc
#undef realloc
#undef free

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build/build.h"
#include "problem/problem.h"
#include "sandbox/sandbox.h"
#include "unit.h"
#include "base/util.h"

struct fixture {
	int lease;         /* the uid block leased as the engine does (sandbox.h), or -1 */
	unsigned block;
	char *scratch;     /* the build's scratch directory */
	char *submission;  /* a submission holding reference/p1.c as p1.c */
	struct problem p1; /* problems/p1.yaml */
};

static bool exists(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	struct stat st;
	bool found = stat(path, &st) == 0;
	free(path);
	return found;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char tmpl[] = "/tmp/test-build.XXXXXX";
	char *yaml = repo_path("problems/p1.yaml"), *source = repo_path("reference/p1.c"), *copy;
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;

	assert_non_null(f);
	assert_non_null(mkdtemp(tmpl));
	/* as the engine's: the compiler runs as a uid of its own when we are root, and must enter */
	assert_int_equal(chmod(tmpl, 0711), 0);
	f->lease = sandbox_lease_block(0, &f->block);
	f->scratch = xasprintf("%s/scratch", tmpl);
	f->submission = xasprintf("%s/submission", tmpl);
	assert_int_equal(mkdir(f->scratch, 0755), 0);
	assert_int_equal(mkdir(f->submission, 0755), 0);
	if (problem_load(&f->p1, yaml, &err) < 0)
		fail_msg("%s: %s", yaml, err.buf);
	assert_ptr_equal(f->p1.lang, &language_c);
	if (read_file(&text, source) < 0)
		fail_msg("cannot read %s", source);
	copy = xasprintf("%s/p1.c", f->submission);
	assert_int_equal(write_file_atomic(copy, text.buf, text.len), 0);
	free(copy);
	free(yaml);
	free(source);
	strbuf_release(&err);
	strbuf_release(&text);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char *top = xstrdup(f->scratch);

	*strrchr(top, '/') = '\0';
	remove_tree(top);
	free(top);
	if (f->lease >= 0)
		close(f->lease);
	problem_release(&f->p1);
	free(f->scratch);
	free(f->submission);
	free(f);
	return 0;
}

/* The runtime for C in f's scratch directory. */
static void env_init(struct fixture *f, struct build_env *env)
{
	static const struct language *const c_only[] = { &language_c, NULL };
	struct strbuf err = STRBUF_INIT;

	memset(env, 0, sizeof(*env));
	sandbox_ids(f->block, SANDBOX_BLOCK - 1, &env->compile.uid, &env->compile.gid);
	if (build_env_init(env, f->scratch, c_only, &err) < 0)
		fail_msg("build_env_init: %s", err.buf);
	strbuf_release(&err);
}

/* Build f's submission for p1: the build must succeed. */
static void build_p1(struct fixture *f, const struct build_env *env)
{
	struct problem *variants[] = { &f->p1 };
	struct build_choice choice;
	struct build_result result;

	memset(&choice, 0, sizeof(choice));
	memset(&result, 0, sizeof(result));
	build_choose(f->submission, variants, 1, &choice);
	assert_non_null(choice.file);
	assert_int_equal(build_all(env, &choice, 1, f->submission, &result, 1), 0);
	if (result.status != BUILD_OK)
		fail_msg("the build failed (status %d): %s", (int)result.status, result.message ? result.message : "");
	assert_non_null(result.runner);
	assert_int_equal(access(result.runner, X_OK), 0);
	build_result_release(&result);
	build_choice_release(&choice);
}

/* The usual path: the stub compiled once, ahead; the build links that object and compiles no stub. */
static void test_shared_stub_is_linked(void **state)
{
	struct fixture *f = *state;
	const struct problem *problems[] = { &f->p1 };
	struct strbuf failures = STRBUF_INIT;
	struct build_env env;
	char *dir = xasprintf("%s/build-p1", f->scratch);

	env_init(f, &env);
	if (build_env_share(&env, problems, 1, &failures) != 0)
		fail_msg("the stub could not be compiled ahead: %s", failures.buf);
	build_p1(f, &env);
	assert_false(exists(dir, "grader_stub.c"));
	assert_true(exists(dir, "grader_decls.h"));
	free(dir);
	strbuf_release(&failures);
	build_env_release(&env);
}

/*
 * The stub's own compile fails (a compiler that fails, for that step only):
 * build_env_share says so for p1, and the build compiles the stub beside
 * the file and still makes a runner.
 */
static void test_failed_share_falls_back(void **state)
{
	struct fixture *f = *state;
	const struct problem *problems[] = { &f->p1 };
	struct strbuf failures = STRBUF_INIT;
	struct build_env env;
	char *dir = xasprintf("%s/build-p1", f->scratch), *cc;

	env_init(f, &env);
	cc = env.cc;
	env.cc = xstrdup("false");
	assert_int_equal(build_env_share(&env, problems, 1, &failures), 1);
	if (strncmp(failures.buf, "p1: ", 4) != 0)
		fail_msg("the failure does not name p1: '%s'", failures.buf);
	free(env.cc);
	env.cc = cc;
	build_p1(f, &env);
	assert_true(exists(dir, "grader_stub.c"));
	assert_true(exists(dir, "grader_decls.h"));
	free(dir);
	strbuf_release(&failures);
	build_env_release(&env);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_shared_stub_is_linked, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_share_falls_back, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
