/*
 * test_lookalike.c - cmocka tests for grader/build/lookalike.c: files that look
 * meant for a missing problem file, in a real scratch directory, and the
 * advice written by hand for each; names that only resemble one (p10.c for
 * p1.c, p4_dp.c for p4.c) get none.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#undef malloc
#undef calloc
#undef realloc
#undef free

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build/lookalike.h"
#include "base/util.h"

static const char *const c_or_py[] = { "p1.c", "p1.py" };
static const char *const c_only[] = { "p1.c" };

static int tmp_setup(void **state)
{
	char *dir = strdup("/tmp/grader-test-lookalike-XXXXXX");
	if (!dir || !mkdtemp(dir))
		return -1;
	*state = dir;
	return 0;
}

static int tmp_teardown(void **state)
{
	int rc = remove_tree(*state);
	free(*state);
	return rc;
}

/* Create dir/rel (and its folders) with a line of C in it. */
static void touch(const char *dir, const char *rel)
{
	char *path = xasprintf("%s/%s", dir, rel);
	char *slash = strrchr(path, '/');
	*slash = '\0';
	assert_int_equal(mkdir_p(path, 0755), 0);
	*slash = '/';
	assert_int_equal(write_file_atomic(path, "int x;\n", 7), 0);
	free(path);
}

/* The advice for the names wanted in dir holding exactly one file rel. */
static void expect_one(const char *dir, const char *rel, const char *const *wanted, int n, const char *advice)
{
	char *got;
	touch(dir, rel);
	got = lookalike_hint(dir, wanted, n);
	if (advice) {
		assert_non_null(got);
		assert_string_equal(got, advice);
	} else {
		assert_null(got);
	}
	free(got);
	assert_int_equal(remove_tree(dir), 0);
	assert_int_equal(mkdir(dir, 0700), 0);
}

static void test_extra_extension(void **state)
{
	expect_one(*state, "p1.c.txt", c_or_py, 2, "found 'p1.c.txt': rename it to 'p1.c'");
	expect_one(*state, "P1.PY.bak", c_or_py, 2, "found 'P1.PY.bak': rename it to 'p1.py'");
}

static void test_copy_marks(void **state)
{
	expect_one(*state, "p1 (1).c", c_or_py, 2, "found 'p1 (1).c': rename it to 'p1.c'");
	expect_one(*state, "p1-2.c", c_or_py, 2, "found 'p1-2.c': rename it to 'p1.c'");
	expect_one(*state, "p1 copy.py", c_or_py, 2, "found 'p1 copy.py': rename it to 'p1.py'");
	expect_one(*state, "P1_final.c", c_or_py, 2, "found 'P1_final.c': rename it to 'p1.c'");
	expect_one(*state, "p1_v2.c", c_or_py, 2, "found 'p1_v2.c': rename it to 'p1.c'");
}

static void test_not_lookalikes(void **state)
{
	expect_one(*state, "p10.c", c_or_py, 2, NULL);
	expect_one(*state, "p1copy.c", c_or_py, 2, NULL);
	expect_one(*state, "p1_helper.c", c_or_py, 2, NULL);
	expect_one(*state, "notes.txt", c_or_py, 2, NULL);
	expect_one(*state, ".p1.c.swp", c_or_py, 2, NULL);
	static const char *const p4[] = { "p4.c", "p4.py" };
	expect_one(*state, "p4_dp.c", p4, 2, NULL);
}

static void test_folders(void **state)
{
	expect_one(*state, "hw/src/p1.c", c_or_py, 2, "found 'hw/src/p1.c' in a folder: move it to the top of your submission");
	expect_one(*state, "hw/p1 (2).py", c_or_py, 2,
		   "found 'hw/p1 (2).py': rename it to 'p1.py' and move it to the top of your submission");
	/* past three folders: not looked at */
	expect_one(*state, "a/b/c/d/p1.c", c_or_py, 2, NULL);
	expect_one(*state, "__MACOSX/p1.c", c_or_py, 2, NULL);
}

static void test_other_languages(void **state)
{
	expect_one(*state, "p1.cpp", c_or_py, 2,
		   "found 'p1.cpp', a C++ file: the grader takes 'p1.c' or 'p1.py' (C, not C++); rename it if the code "
		   "is plain C");
	expect_one(*state, "p1.ipynb", c_or_py, 2,
		   "found 'p1.ipynb', a Jupyter notebook: the grader takes 'p1.c' or 'p1.py': save the code as a plain "
		   "source file (File > Download as)");
	expect_one(*state, "p1.java", c_or_py, 2,
		   "found 'p1.java': the grader looks for 'p1.c' or 'p1.py'; rename it if it holds your solution");
}

/* A .py where the problem takes only C: named as a language it does not take. */
static void test_language_not_taken(void **state)
{
	char *got;
	touch(*state, "P1.py");
	got = lookalike_hint(*state, c_only, 1);
	assert_non_null(got);
	assert_true(strncmp(got, "found 'P1.py', but this problem does not take Python", 52) == 0);
	assert_non_null(strstr(got, ": submit 'p1.c'"));
	free(got);
}

static void test_several_and_links(void **state)
{
	char *got, *link;
	touch(*state, "p1.c.txt");
	touch(*state, "old/p1.c");
	touch(*state, "p1 (1).c");
	touch(*state, "p1 (2).c");
	link = xasprintf("%s/p1 (3).c", (char *)*state);
	assert_int_equal(symlink("/etc/passwd", link), 0);
	got = lookalike_hint(*state, c_or_py, 2);
	/* sorted, three at most, the symbolic link never followed or counted */
	assert_non_null(got);
	assert_string_equal(got, "found 'old/p1.c' in a folder: move it to the top of your submission; "
				 "found 'p1 (1).c': rename it to 'p1.c'; found 'p1 (2).c': rename it to 'p1.c'; "
				 "and 1 more files like these");
	free(got);
	free(link);
}

static void test_unreadable_dir(void **state)
{
	char *missing = xasprintf("%s/nope", (char *)*state);
	assert_null(lookalike_hint(missing, c_or_py, 2));
	free(missing);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_extra_extension, tmp_setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(test_copy_marks, tmp_setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(test_not_lookalikes, tmp_setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(test_folders, tmp_setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(test_other_languages, tmp_setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(test_language_not_taken, tmp_setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(test_several_and_links, tmp_setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(test_unreadable_dir, tmp_setup, tmp_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
