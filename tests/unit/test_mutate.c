/*
 * test_mutate.c - cmocka tests for grader/mutate/mutate.c (and mutate_lex.c):
 * every operator on small C and Python sources, with the complete list of
 * mutants each source must give written out by hand (id and the mutated
 * source), so a missing, extra or wrong mutant fails; the unified diff;
 * what is never mutated (comments, strings, preprocessor lines, a unary
 * minus, a pointer's star).
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

#include <stdlib.h>
#include <string.h>

#include "mutate/mutate.h"

struct expect {
	const char *id;
	const char *source; /* the whole mutated source */
};

/* Generate the mutants of src and compare them, in order, with want[0 .. n). */
static void check(const char *name, const char *src, const struct expect *want, int n)
{
	struct mutant_list l = MUTANT_LIST_INIT;
	struct strbuf err = STRBUF_INIT;
	if (mutate_generate(name, src, strlen(src), &l, &err) < 0)
		fail_msg("mutate_generate failed: %s", err.buf);
	for (int i = 0; i < l.n || i < n; i++) {
		char *got;
		if (i >= l.n)
			fail_msg("mutant %d missing: %s", i, want[i].id);
		if (i >= n)
			fail_msg("unexpected mutant %s (%s)", l.v[i].id, l.v[i].description);
		got = mutant_apply(src, strlen(src), &l.v[i]);
		if (strcmp(l.v[i].id, want[i].id) || strcmp(got, want[i].source))
			fail_msg("mutant %d: got %s\n%s\nwanted %s\n%s", i, l.v[i].id, got, want[i].id, want[i].source);
		free(got);
	}
	mutant_list_release(&l);
	strbuf_release(&err);
}

#define CHECK(name, src, want) check(name, src, want, (int)(sizeof(want) / sizeof(want[0])))

static void test_c_relational_and_return(void **state)
{
	static const char src[] = "int f(int a, int b)\n{\n\treturn a < b;\n}\n";
	static const struct expect want[] = {
		{ "t.c:3:2:stmt-del", "int f(int a, int b)\n{\n}\n" },
		{ "t.c:3:11:rel", "int f(int a, int b)\n{\n\treturn a <= b;\n}\n" },
	};
	(void)state;
	CHECK("t.c", src, want);
}

static void test_c_arith_constants_narrow(void **state)
{
	static const char src[] = "long long g(long long x)\n{\n\treturn x * 2 - -x;\n}\n";
	static const struct expect want[] = {
		{ "t.c:1:1:narrow", "int g(long long x)\n{\n\treturn x * 2 - -x;\n}\n" },
		{ "t.c:1:13:narrow", "long long g(int x)\n{\n\treturn x * 2 - -x;\n}\n" },
		{ "t.c:3:2:stmt-del", "long long g(long long x)\n{\n}\n" },
		{ "t.c:3:11:arith", "long long g(long long x)\n{\n\treturn x + 2 - -x;\n}\n" },
		{ "t.c:3:13:const-dec", "long long g(long long x)\n{\n\treturn x * 1 - -x;\n}\n" },
		{ "t.c:3:13:const-inc", "long long g(long long x)\n{\n\treturn x * 3 - -x;\n}\n" },
		{ "t.c:3:13:const-zero", "long long g(long long x)\n{\n\treturn x * 0 - -x;\n}\n" },
		{ "t.c:3:15:arith", "long long g(long long x)\n{\n\treturn x * 2 + -x;\n}\n" },
	};
	(void)state;
	CHECK("t.c", src, want);
}

static void test_c_skips_comments_strings_preprocessor(void **state)
{
	static const char src[] = "#define N 10\n/* a < b, 1 + 2 */\nint h(void)\n{\n"
				  "\tconst char *s = \"a<b+1\"; // x < 3\n\treturn N + 0;\n}\n";
	static const struct expect want[] = {
		{ "t.c:6:2:stmt-del", "#define N 10\n/* a < b, 1 + 2 */\nint h(void)\n{\n"
				      "\tconst char *s = \"a<b+1\"; // x < 3\n}\n" },
		{ "t.c:6:11:arith", "#define N 10\n/* a < b, 1 + 2 */\nint h(void)\n{\n"
				    "\tconst char *s = \"a<b+1\"; // x < 3\n\treturn N - 0;\n}\n" },
		{ "t.c:6:13:const-dec", "#define N 10\n/* a < b, 1 + 2 */\nint h(void)\n{\n"
					"\tconst char *s = \"a<b+1\"; // x < 3\n\treturn N + -1;\n}\n" },
		{ "t.c:6:13:const-inc", "#define N 10\n/* a < b, 1 + 2 */\nint h(void)\n{\n"
					"\tconst char *s = \"a<b+1\"; // x < 3\n\treturn N + 1;\n}\n" },
	};
	(void)state;
	CHECK("t.c", src, want);
}

static void test_c_base_case_and_conditions(void **state)
{
	static const char src[] = "int m(int n)\n{\n\tif (n < 2)\n\t\treturn n;\n\treturn 0;\n}\n";
#define M(line3, line4, line5) "int m(int n)\n{\n" line3 line4 line5 "}\n"
	static const struct expect want[] = {
		{ "t.c:3:2:stmt-del", M("", "", "\treturn 0;\n") },
		{ "t.c:3:6:cond-false", M("\tif (0)\n", "\t\treturn n;\n", "\treturn 0;\n") },
		{ "t.c:3:6:cond-neg", M("\tif (!(n < 2))\n", "\t\treturn n;\n", "\treturn 0;\n") },
		{ "t.c:3:6:cond-true", M("\tif (1)\n", "\t\treturn n;\n", "\treturn 0;\n") },
		{ "t.c:3:8:rel", M("\tif (n <= 2)\n", "\t\treturn n;\n", "\treturn 0;\n") },
		{ "t.c:3:10:const-dec", M("\tif (n < 1)\n", "\t\treturn n;\n", "\treturn 0;\n") },
		{ "t.c:3:10:const-inc", M("\tif (n < 3)\n", "\t\treturn n;\n", "\treturn 0;\n") },
		{ "t.c:3:10:const-zero", M("\tif (n < 0)\n", "\t\treturn n;\n", "\treturn 0;\n") },
		/* the body of an if without braces: an empty statement keeps the grammar */
		{ "t.c:4:3:stmt-del", M("\tif (n < 2)\n", "\t\t;\n", "\treturn 0;\n") },
		{ "t.c:5:2:stmt-del", M("\tif (n < 2)\n", "\t\treturn n;\n", "") },
		{ "t.c:5:9:const-dec", M("\tif (n < 2)\n", "\t\treturn n;\n", "\treturn -1;\n") },
		{ "t.c:5:9:const-inc", M("\tif (n < 2)\n", "\t\treturn n;\n", "\treturn 1;\n") },
	};
#undef M
	(void)state;
	CHECK("t.c", src, want);
}

static void test_c_ternaries(void **state)
{
	static const char src[] = "int mx(int a, int b)\n{\n\treturn a > b ? a : b;\n}\n"
				  "int pick(int c)\n{\n\treturn c ? 9 : 2;\n}\n";
#define MX(l3) "int mx(int a, int b)\n{\n" l3 "}\n"
#define PK(l7) "int pick(int c)\n{\n" l7 "}\n"
#define L3 "\treturn a > b ? a : b;\n"
#define L7 "\treturn c ? 9 : 2;\n"
	static const struct expect want[] = {
		{ "t.c:3:2:stmt-del", MX("") PK(L7) },
		{ "t.c:3:11:rel", MX("\treturn a >= b ? a : b;\n") PK(L7) },
		{ "t.c:3:17:minmax", MX("\treturn a > b ? b : a;\n") PK(L7) },
		{ "t.c:7:2:stmt-del", MX(L3) PK("") },
		{ "t.c:7:9:cond-neg", MX(L3) PK("\treturn !(c) ? 9 : 2;\n") },
		{ "t.c:7:13:const-dec", MX(L3) PK("\treturn c ? 8 : 2;\n") },
		{ "t.c:7:13:const-inc", MX(L3) PK("\treturn c ? 10 : 2;\n") },
		{ "t.c:7:13:const-zero", MX(L3) PK("\treturn c ? 0 : 2;\n") },
		{ "t.c:7:17:const-dec", MX(L3) PK("\treturn c ? 9 : 1;\n") },
		{ "t.c:7:17:const-inc", MX(L3) PK("\treturn c ? 9 : 3;\n") },
		{ "t.c:7:17:const-zero", MX(L3) PK("\treturn c ? 9 : 0;\n") },
	};
#undef MX
#undef PK
#undef L3
#undef L7
	(void)state;
	CHECK("t.c", src, want);
}

static void test_c_loop_bounds(void **state)
{
	static const char src[] = "int s(int n)\n{\n\tint t = 0;\n\tfor (int i = 0; i < n; i++)\n\t\tt += i;\n"
				  "\treturn t;\n}\n";
#define S(l3, l4, l5, l6) "int s(int n)\n{\n" l3 l4 l5 l6 "}\n"
#define L3 "\tint t = 0;\n"
#define L4 "\tfor (int i = 0; i < n; i++)\n"
#define L5 "\t\tt += i;\n"
#define L6 "\treturn t;\n"
	static const struct expect want[] = {
		{ "t.c:3:10:const-dec", S("\tint t = -1;\n", L4, L5, L6) },
		{ "t.c:3:10:const-inc", S("\tint t = 1;\n", L4, L5, L6) },
		{ "t.c:4:15:const-dec", S(L3, "\tfor (int i = -1; i < n; i++)\n", L5, L6) },
		{ "t.c:4:15:const-inc", S(L3, "\tfor (int i = 1; i < n; i++)\n", L5, L6) },
		{ "t.c:4:18:cond-neg", S(L3, "\tfor (int i = 0; !(i < n); i++)\n", L5, L6) },
		{ "t.c:4:20:rel", S(L3, "\tfor (int i = 0; i <= n; i++)\n", L5, L6) },
		{ "t.c:4:22:bound-dec", S(L3, "\tfor (int i = 0; i < n - 1; i++)\n", L5, L6) },
		{ "t.c:4:22:bound-inc", S(L3, "\tfor (int i = 0; i < n + 1; i++)\n", L5, L6) },
		{ "t.c:5:3:stmt-del", S(L3, L4, "\t\t;\n", L6) },
		{ "t.c:5:5:arith", S(L3, L4, "\t\tt -= i;\n", L6) },
		{ "t.c:6:2:stmt-del", S(L3, L4, L5, "") },
	};
#undef S
#undef L3
#undef L4
#undef L5
#undef L6
	(void)state;
	CHECK("t.c", src, want);
}

static void test_c_logic_and_not(void **state)
{
	static const char src[] = "int l(int a, int b)\n{\n\treturn !a && b;\n}\n";
	static const struct expect want[] = {
		{ "t.c:3:2:stmt-del", "int l(int a, int b)\n{\n}\n" },
		{ "t.c:3:9:not-del", "int l(int a, int b)\n{\n\treturn a && b;\n}\n" },
		{ "t.c:3:12:logic", "int l(int a, int b)\n{\n\treturn !a || b;\n}\n" },
	};
	(void)state;
	CHECK("t.c", src, want);
}

static void test_python_base_case_minmax(void **state)
{
	static const char src[] = "def f(L):\n    \"\"\"A docstring: a < b, 1 + 2.\"\"\"\n"
				  "    if len(L) == 0:  # base case < 1\n        return 0\n    return max(L[0], f(L[1:]))\n";
#define F(l3, l4, l5) "def f(L):\n    \"\"\"A docstring: a < b, 1 + 2.\"\"\"\n" l3 l4 l5
#define L3 "    if len(L) == 0:  # base case < 1\n"
#define L4 "        return 0\n"
#define L5 "    return max(L[0], f(L[1:]))\n"
	static const struct expect want[] = {
		{ "t.py:3:5:stmt-del", F("    pass\n", "", L5) },
		{ "t.py:3:8:cond-false", F("    if False:  # base case < 1\n", L4, L5) },
		{ "t.py:3:8:cond-neg", F("    if not (len(L) == 0):  # base case < 1\n", L4, L5) },
		{ "t.py:3:8:cond-true", F("    if True:  # base case < 1\n", L4, L5) },
		{ "t.py:3:15:rel", F("    if len(L) != 0:  # base case < 1\n", L4, L5) },
		{ "t.py:3:18:const-dec", F("    if len(L) == -1:  # base case < 1\n", L4, L5) },
		{ "t.py:3:18:const-inc", F("    if len(L) == 1:  # base case < 1\n", L4, L5) },
		{ "t.py:4:9:stmt-del", F(L3, "        pass\n", L5) },
		{ "t.py:4:16:const-dec", F(L3, "        return -1\n", L5) },
		{ "t.py:4:16:const-inc", F(L3, "        return 1\n", L5) },
		{ "t.py:5:5:stmt-del", F(L3, L4, "    pass\n") },
		{ "t.py:5:12:minmax", F(L3, L4, "    return min(L[0], f(L[1:]))\n") },
		{ "t.py:5:18:const-dec", F(L3, L4, "    return max(L[-1], f(L[1:]))\n") },
		{ "t.py:5:18:const-inc", F(L3, L4, "    return max(L[1], f(L[1:]))\n") },
		{ "t.py:5:26:const-dec", F(L3, L4, "    return max(L[0], f(L[0:]))\n") },
		{ "t.py:5:26:const-inc", F(L3, L4, "    return max(L[0], f(L[2:]))\n") },
	};
#undef F
#undef L3
#undef L4
#undef L5
	(void)state;
	CHECK("t.py", src, want);
}

static void test_python_range_and_ternary(void **state)
{
	static const char src[] = "def s(n, a, b):\n    t = 0\n    for i in range(1, n + 1):\n        t += i\n"
				  "    return a if a < b else b\n";
#define S(l2, l3, l4, l5) "def s(n, a, b):\n" l2 l3 l4 l5
#define L2 "    t = 0\n"
#define L3 "    for i in range(1, n + 1):\n"
#define L4 "        t += i\n"
#define L5 "    return a if a < b else b\n"
	static const struct expect want[] = {
		{ "t.py:2:5:stmt-del", S("    pass\n", L3, L4, L5) },
		{ "t.py:2:9:const-dec", S("    t = -1\n", L3, L4, L5) },
		{ "t.py:2:9:const-inc", S("    t = 1\n", L3, L4, L5) },
		{ "t.py:3:20:const-dec", S(L2, "    for i in range(0, n + 1):\n", L4, L5) },
		{ "t.py:3:20:const-inc", S(L2, "    for i in range(2, n + 1):\n", L4, L5) },
		{ "t.py:3:23:bound-dec", S(L2, "    for i in range(1, n + 1 - 1):\n", L4, L5) },
		{ "t.py:3:23:bound-inc", S(L2, "    for i in range(1, n + 1 + 1):\n", L4, L5) },
		{ "t.py:3:25:arith", S(L2, "    for i in range(1, n - 1):\n", L4, L5) },
		{ "t.py:3:27:const-dec", S(L2, "    for i in range(1, n + 0):\n", L4, L5) },
		{ "t.py:3:27:const-inc", S(L2, "    for i in range(1, n + 2):\n", L4, L5) },
		{ "t.py:4:9:stmt-del", S(L2, L3, "        pass\n", L5) },
		{ "t.py:4:11:arith", S(L2, L3, "        t -= i\n", L5) },
		{ "t.py:5:5:stmt-del", S(L2, L3, L4, "    pass\n") },
		{ "t.py:5:12:minmax", S(L2, L3, L4, "    return b if a < b else a\n") },
		{ "t.py:5:19:rel", S(L2, L3, L4, "    return a if a <= b else b\n") },
	};
#undef S
#undef L2
#undef L3
#undef L4
#undef L5
	(void)state;
	CHECK("t.py", src, want);
}

/* The diff of the first two mutants of test_c_relational_and_return, as diff -u writes them. */
static void test_unified_diff(void **state)
{
	static const char src[] = "int f(int a, int b)\n{\n\treturn a < b;\n}\n";
	static const char deleted[] = "--- a/t.c\n+++ b/t.c\n@@ -1,4 +1,3 @@\n int f(int a, int b)\n {\n"
				      "-\treturn a < b;\n }\n";
	static const char changed[] = "--- a/t.c\n+++ b/t.c\n@@ -1,4 +1,4 @@\n int f(int a, int b)\n {\n"
				      "-\treturn a < b;\n+\treturn a <= b;\n }\n";
	struct mutant_list l = MUTANT_LIST_INIT;
	struct strbuf err = STRBUF_INIT, d = STRBUF_INIT;
	(void)state;
	assert_int_equal(mutate_generate("t.c", src, strlen(src), &l, &err), 0);
	assert_int_equal(l.n, 2);
	mutant_diff(&d, "t.c", src, strlen(src), &l.v[0]);
	assert_string_equal(d.buf, deleted);
	strbuf_reset(&d);
	mutant_diff(&d, "t.c", src, strlen(src), &l.v[1]);
	assert_string_equal(d.buf, changed);
	strbuf_release(&d);
	strbuf_release(&err);
	mutant_list_release(&l);
}

/* Context is at most three lines each side, and the hunk header counts them. */
static void test_unified_diff_context(void **state)
{
	static const char src[] = "a\nb\nc\nd\nint x(void)\n{\n\treturn 7;\n}\ne\nf\ng\nh\n";
	static const char want[] = "--- a/t.c\n+++ b/t.c\n@@ -4,7 +4,7 @@\n d\n int x(void)\n {\n"
				   "-\treturn 7;\n+\treturn 6;\n }\n e\n f\n";
	struct mutant_list l = MUTANT_LIST_INIT;
	struct strbuf err = STRBUF_INIT, d = STRBUF_INIT;
	int found = 0;
	(void)state;
	assert_int_equal(mutate_generate("t.c", src, strlen(src), &l, &err), 0);
	for (int i = 0; i < l.n; i++)
		if (!strcmp(l.v[i].id, "t.c:7:9:const-dec")) {
			mutant_diff(&d, "t.c", src, strlen(src), &l.v[i]);
			found = 1;
		}
	assert_true(found);
	assert_string_equal(d.buf, want);
	strbuf_release(&d);
	strbuf_release(&err);
	mutant_list_release(&l);
}

static void test_errors(void **state)
{
	struct mutant_list l = MUTANT_LIST_INIT;
	struct strbuf err = STRBUF_INIT;
	(void)state;
	assert_int_equal(mutate_generate("t.c", "int x;\n/* oops", 14, &l, &err), -1);
	assert_string_equal(err.buf, "t.c:2:1: unterminated comment");
	strbuf_reset(&err);
	assert_int_equal(mutate_generate("t.py", "x = 'abc\n", 9, &l, &err), -1);
	assert_string_equal(err.buf, "t.py:1:5: unterminated string");
	strbuf_reset(&err);
	assert_int_equal(mutate_generate("t.java", "int x;", 6, &l, &err), -1);
	assert_non_null(strstr(err.buf, "'t.java'"));
	assert_int_equal(l.n, 0);
	strbuf_release(&err);
	mutant_list_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_c_relational_and_return),
		cmocka_unit_test(test_c_arith_constants_narrow),
		cmocka_unit_test(test_c_skips_comments_strings_preprocessor),
		cmocka_unit_test(test_c_base_case_and_conditions),
		cmocka_unit_test(test_c_ternaries),
		cmocka_unit_test(test_c_loop_bounds),
		cmocka_unit_test(test_c_logic_and_not),
		cmocka_unit_test(test_python_base_case_minmax),
		cmocka_unit_test(test_python_range_and_ternary),
		cmocka_unit_test(test_unified_diff),
		cmocka_unit_test(test_unified_diff_context),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
