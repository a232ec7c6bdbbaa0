/*
 * test_signature.c - cmocka tests for grader/problem/signature.c: parsing the C
 * signatures written in problem files, their errors, and formatting.
 *
 * Expected values are written out by hand from signature.h's contract.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/*
 * cmocka.h turns malloc/free into its leak-checking versions when
 * UNIT_TESTING is defined; memory here comes from the grader's real
 * allocator, so use the real functions (ASan checks leaks instead).
 */
#undef malloc
#undef calloc
#undef realloc
#undef free

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "problem/signature.h"

/* Parse text, which must succeed; the caller releases sig. */
static void parse_ok(struct signature *sig, const char *text)
{
	struct strbuf err = STRBUF_INIT;
	int r = signature_parse(sig, text, &err);
	if (r != 0)
		fail_msg("parsing \"%s\" failed: %s", text, err.buf);
	assert_string_equal(err.buf, "");
	strbuf_release(&err);
}

/* Parse text, which must fail with a message containing `want`. */
static void parse_fails(const char *text, const char *want)
{
	struct signature sig;
	struct strbuf err = STRBUF_INIT;
	int r = signature_parse(&sig, text, &err);
	if (r != -1)
		fail_msg("parsing \"%s\" should have failed (returned %d)", text, r);
	if (!err.len)
		fail_msg("parsing \"%s\" failed without a message", text);
	if (want && !strstr(err.buf, want))
		fail_msg("parsing \"%s\": message \"%s\" lacks \"%s\"", text, err.buf, want);
	signature_release(&sig); /* must be safe after a failed parse */
	assert_null(sig.name);
	assert_null(sig.params);
	assert_int_equal(sig.nparams, 0);
	strbuf_release(&err);
}

static void assert_format(const struct signature *sig, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	signature_format(&sb, sig);
	assert_string_equal(sb.buf, want);
	assert_int_equal(sb.len, strlen(want));
	strbuf_release(&sb);
}

/* ---- valid signatures ---- */

static void test_bool_int(void **state)
{
	struct signature sig;
	(void)state;
	parse_ok(&sig, "bool AcanWin(int n)");
	assert_string_equal(sig.name, "AcanWin");
	assert_int_equal(sig.ret, VT_BOOL);
	assert_int_equal(sig.nparams, 1);
	assert_int_equal(sig.params[0].type, VT_INT);
	assert_string_equal(sig.params[0].name, "n");
	assert_false(sig.params[0].is_length);
	assert_int_equal(sig.ninputs, 1);
	assert_int_equal(sig.input_types[0], VT_INT);
	signature_release(&sig);
}

static void test_pointer_array(void **state)
{
	struct signature sig;
	(void)state;
	parse_ok(&sig, "long long f(const int *L, int n)");
	assert_string_equal(sig.name, "f");
	assert_int_equal(sig.ret, VT_LONG);
	assert_int_equal(sig.nparams, 2);
	assert_int_equal(sig.params[0].type, VT_INT_ARRAY);
	assert_true(sig.params[0].is_const);
	assert_false(sig.params[0].is_length);
	assert_string_equal(sig.params[0].name, "L");
	assert_int_equal(sig.params[1].type, VT_INT);
	assert_true(sig.params[1].is_length);
	assert_string_equal(sig.params[1].name, "n");
	/* the length is filled in: only the array is an input */
	assert_int_equal(sig.ninputs, 1);
	assert_int_equal(sig.input_types[0], VT_INT_ARRAY);
	signature_release(&sig);
}

static void test_bracket_array(void **state)
{
	struct signature sig;
	(void)state;
	parse_ok(&sig, "int g(int L[], int n)");
	assert_string_equal(sig.name, "g");
	assert_int_equal(sig.ret, VT_INT);
	assert_int_equal(sig.nparams, 2);
	assert_int_equal(sig.params[0].type, VT_INT_ARRAY);
	assert_false(sig.params[0].is_const);
	assert_string_equal(sig.params[0].name, "L");
	assert_true(sig.params[1].is_length);
	assert_int_equal(sig.ninputs, 1);
	assert_int_equal(sig.input_types[0], VT_INT_ARRAY);
	/* int L[] is int *L in C */
	assert_format(&sig, "int g(int *L, int n)");
	signature_release(&sig);

	parse_ok(&sig, "int g(const int L[], int n)");
	assert_int_equal(sig.params[0].type, VT_INT_ARRAY);
	assert_true(sig.params[0].is_const);
	assert_format(&sig, "int g(const int *L, int n)");
	signature_release(&sig);
}

static void test_two_long_long(void **state)
{
	struct signature sig;
	(void)state;
	parse_ok(&sig, "bool canWin(long long k, long long n)");
	assert_string_equal(sig.name, "canWin");
	assert_int_equal(sig.ret, VT_BOOL);
	assert_int_equal(sig.nparams, 2);
	assert_int_equal(sig.params[0].type, VT_LONG);
	assert_string_equal(sig.params[0].name, "k");
	assert_int_equal(sig.params[1].type, VT_LONG);
	assert_string_equal(sig.params[1].name, "n");
	assert_false(sig.params[0].is_length);
	assert_false(sig.params[1].is_length);
	assert_int_equal(sig.ninputs, 2);
	assert_int_equal(sig.input_types[0], VT_LONG);
	assert_int_equal(sig.input_types[1], VT_LONG);
	signature_release(&sig);
}

static void test_void_params(void **state)
{
	struct signature sig;
	(void)state;
	parse_ok(&sig, "int h(void)");
	assert_string_equal(sig.name, "h");
	assert_int_equal(sig.ret, VT_INT);
	assert_int_equal(sig.nparams, 0);
	assert_int_equal(sig.ninputs, 0);
	assert_format(&sig, "int h(void)");
	signature_release(&sig);

	/* an empty list means the same here */
	parse_ok(&sig, "int h()");
	assert_int_equal(sig.nparams, 0);
	assert_int_equal(sig.ninputs, 0);
	assert_format(&sig, "int h(void)");
	signature_release(&sig);

	parse_ok(&sig, "int h( void )");
	assert_int_equal(sig.nparams, 0);
	signature_release(&sig);
}

static void test_whitespace_variants(void **state)
{
	static const char *const variants[] = {
		"long long f(const int *L, int n)",
		"long long f(const int* L, int n)",
		"long long f(const int *L,int n)",
		"long long f (const int * L , int n)",
		"  long   long\tf(\n  const int\t*L,\n  int n\n)  ",
		"long long f(const int*L,int n)",
		"long long f(const int *L, int n);",
		"long long f(const int *L, int n) ;",
	};
	(void)state;
	for (size_t i = 0; i < sizeof(variants) / sizeof(variants[0]); i++) {
		struct signature sig;
		parse_ok(&sig, variants[i]);
		assert_string_equal(sig.name, "f");
		assert_int_equal(sig.ret, VT_LONG);
		assert_int_equal(sig.nparams, 2);
		assert_int_equal(sig.params[0].type, VT_INT_ARRAY);
		assert_true(sig.params[0].is_const);
		assert_string_equal(sig.params[0].name, "L");
		assert_true(sig.params[1].is_length);
		assert_string_equal(sig.params[1].name, "n");
		assert_int_equal(sig.ninputs, 1);
		/* every variant formats to the one canonical spelling */
		assert_format(&sig, "long long f(const int *L, int n)");
		signature_release(&sig);
	}
}

static void test_type_spellings(void **state)
{
	struct signature sig;
	(void)state;
	parse_ok(&sig, "_Bool g(_Bool b)");
	assert_int_equal(sig.ret, VT_BOOL);
	assert_int_equal(sig.params[0].type, VT_BOOL);
	assert_int_equal(sig.input_types[0], VT_BOOL);
	assert_format(&sig, "bool g(bool b)");
	signature_release(&sig);

	/* a bare long would be declared to students as long long: refused */
	parse_fails("long g(long x)", "write 'long long'");
	parse_fails("long long g(long x)", "write 'long long'");

	/* names may hold digits and underscores */
	parse_ok(&sig, "int _g_2(int n_1)");
	assert_string_equal(sig.name, "_g_2");
	assert_string_equal(sig.params[0].name, "n_1");
	signature_release(&sig);
}

static void test_several_arrays(void **state)
{
	struct signature sig;
	(void)state;
	parse_ok(&sig, "long long g(int k, const int *A, int na, int *B, int nb, bool flag)");
	assert_int_equal(sig.nparams, 6);
	assert_int_equal(sig.ninputs, 4);
	assert_int_equal(sig.input_types[0], VT_INT);
	assert_int_equal(sig.input_types[1], VT_INT_ARRAY);
	assert_int_equal(sig.input_types[2], VT_INT_ARRAY);
	assert_int_equal(sig.input_types[3], VT_BOOL);
	assert_false(sig.params[0].is_length);
	assert_false(sig.params[1].is_length);
	assert_true(sig.params[2].is_length);
	assert_false(sig.params[3].is_length);
	assert_false(sig.params[3].is_const);
	assert_true(sig.params[4].is_length);
	assert_false(sig.params[5].is_length);
	assert_format(&sig, "long long g(int k, const int *A, int na, int *B, int nb, bool flag)");
	signature_release(&sig);

	/* an int after an int is not a length: only directly after an array */
	parse_ok(&sig, "int g(int a, int b)");
	assert_false(sig.params[0].is_length);
	assert_false(sig.params[1].is_length);
	assert_int_equal(sig.ninputs, 2);
	signature_release(&sig);
}

static void test_format_round_trip(void **state)
{
	static const char *const canonical[] = {
		"bool AcanWin(int n)",
		"bool BcanWin(int n)",
		"long long f(const int *L, int n)",
		"int g(int *L, int n)",
		"bool canWin(long long k, long long n)",
		"bool canWin(int n)",
		"int h(void)",
		"long long g(int k, const int *A, int na, int *B, int nb, bool flag)",
	};
	(void)state;
	for (size_t i = 0; i < sizeof(canonical) / sizeof(canonical[0]); i++) {
		struct signature a, b;
		struct strbuf sb = STRBUF_INIT;
		parse_ok(&a, canonical[i]);
		signature_format(&sb, &a);
		assert_string_equal(sb.buf, canonical[i]);
		/* and the formatted text parses to the same signature */
		parse_ok(&b, sb.buf);
		assert_string_equal(a.name, b.name);
		assert_int_equal(a.ret, b.ret);
		assert_int_equal(a.nparams, b.nparams);
		assert_int_equal(a.ninputs, b.ninputs);
		for (int k = 0; k < a.nparams; k++) {
			assert_int_equal(a.params[k].type, b.params[k].type);
			assert_string_equal(a.params[k].name, b.params[k].name);
			assert_int_equal(a.params[k].is_length, b.params[k].is_length);
			assert_int_equal(a.params[k].is_const, b.params[k].is_const);
		}
		for (int k = 0; k < a.ninputs; k++)
			assert_int_equal(a.input_types[k], b.input_types[k]);
		signature_release(&a);
		signature_release(&b);
		strbuf_release(&sb);
	}
}

static void test_ctype(void **state)
{
	(void)state;
	assert_string_equal(signature_ctype(VT_BOOL, false), "bool");
	assert_string_equal(signature_ctype(VT_INT, false), "int");
	assert_string_equal(signature_ctype(VT_LONG, false), "long long");
	assert_string_equal(signature_ctype(VT_INT_ARRAY, true), "const int *");
	assert_string_equal(signature_ctype(VT_INT_ARRAY, false), "int *");
}

/* ---- errors ---- */

static void test_unsupported_types(void **state)
{
	(void)state;
	parse_fails("double f(int n)", "unknown type 'double': the types are bool, int, long long, and the arrays "
		    "const int * and const long long * (each followed by its int length)");
	parse_fails("int f(double x)", "unknown type 'double': the types are");
	parse_fails("float f(int n)", "unknown type 'float'");
	parse_fails("void f(int n)", "unknown type 'void'");
	parse_fails("char f(int n)", "unknown type 'char'");
	parse_fails("unsigned f(int n)", "unknown type 'unsigned'");
	parse_fails("int f(unsigned n)", "unknown type 'unsigned'");
	parse_fails("int f(short n)", "unknown type 'short'");
	parse_fails("int f(int int n)", "'int int n' is not a type: the types are");
	parse_fails("bool int f(int n)", "'bool int f' is not a type");
	/* char * is a pointer, but not to int */
	parse_fails("int f(char *s, int n)", "unknown type 'char'");
	parse_fails("int f(bool *a, int n)", "parameter 'a': an array of bool is not supported: the types are");
	/* no pointers as results */
	parse_fails("int *f(int n)", "pointer");
	parse_fails("const int *f(int n)", "pointer");
}

/* long long arrays (issue 33): the type, the C spelling, the length bound; where an error is */
static void test_long_long_array(void **state)
{
	struct signature sig;
	struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT;
	size_t where = 99;
	(void)state;
	assert_int_equal(signature_parse(&sig, "bool nimWin(const long long *piles, int n)", &err), 0);
	assert_int_equal(sig.nparams, 2);
	assert_int_equal(sig.params[0].type, VT_LONG_ARRAY);
	assert_true(sig.params[1].is_length);
	assert_int_equal(sig.ninputs, 1);
	assert_int_equal(sig.input_types[0], VT_LONG_ARRAY);
	assert_format(&sig, "bool nimWin(const long long *piles, int n)");
	signature_release(&sig);
	assert_int_equal(signature_parse(&sig, "long long s(long long L[], int n)", &err), 0);
	assert_format(&sig, "long long s(long long *L, int n)");
	signature_release(&sig);
	parse_fails("long long f(const long long *L, long long n)", "must be followed by an int length");
	/* the offset of the word an error is about */
	assert_int_equal(signature_parse_at(&sig, "bool f(int n, unsigned k)", &where, &err), -1);
	assert_int_equal(where, 14);
	signature_release(&sig);
	assert_int_equal(signature_parse_at(&sig, "double g(double x)", &where, &err), -1);
	assert_int_equal(where, 0);
	signature_release(&sig);
	strbuf_release(&err);
	strbuf_release(&sb);
}

static void test_array_needs_length(void **state)
{
	(void)state;
	parse_fails("long long f(const int *L)", "must be followed by an int length");
	parse_fails("int g(int L[])", "must be followed by an int length");
	parse_fails("long long f(const int *L, long long n)", "must be followed by an int length");
	parse_fails("long long f(const int *L, bool n)", "must be followed by an int length");
	parse_fails("long long f(const int *A, const int *B, int n)", "must be followed by an int length");
	/* the length must come directly after the array */
	parse_fails("long long f(const int *L, long long k, int n)", "must be followed by an int length");
	parse_fails("long long f(int L[5], int n)", "']'");
}

static void test_missing_names(void **state)
{
	(void)state;
	parse_fails("int (int n)", "missing function name");
	parse_fails("bool", "missing function name");
	parse_fails("", NULL);
	parse_fails("   ", NULL);
	parse_fails("int f(int)", "needs a name");
	parse_fails("int f(int n, long long)", "needs a name");
	parse_fails("long long f(const int *, int n)", "needs a name");
	/* keywords are not names */
	parse_fails("int int(int n)", NULL);
	parse_fails("int f(int const)", NULL);
	parse_fails("int main(void)", "cannot be a name");
}

static void test_bad_punctuation(void **state)
{
	(void)state;
	parse_fails("int f(int n) x", "after the parameter list");
	parse_fails("int f(int n) {", "after the parameter list");
	parse_fails("int f(int n))", "after the parameter list");
	parse_fails("int f(int n); int g(int m)", "after the parameter list");
	parse_fails("int f(int n", NULL);
	parse_fails("int f int n", "expected '('");
	parse_fails("int f[int n]", NULL);
	parse_fails("int f(int n; int m)", "expected ',' or ')'");
	parse_fails("int f(int n,)", NULL);
	parse_fails("int f(,int n)", NULL);
	parse_fails("int f(void, int n)", NULL);
}

/* Signatures that once slipped through the parser (regressions). */
static void test_rejected_declarations(void **state)
{
	static const char *const must_fail[] = {
		/* the declarations "int f(int n, int n);" do not compile: every submission fails */
		"int f(int n, int n)",
		"long long f(const int *L, int L)",
		/* a pointer to pointer is not an int array */
		"long long f(int **L, int n)",
		"long long f(int *L[], int n)",
		/* not a C type */
		"long long long f(int n)",
	};
	int failures = 0;
	(void)state;
	for (size_t i = 0; i < sizeof(must_fail) / sizeof(must_fail[0]); i++) {
		struct signature sig;
		struct strbuf err = STRBUF_INIT;
		if (signature_parse(&sig, must_fail[i], &err) == 0) {
			print_error("\"%s\" was accepted\n", must_fail[i]);
			failures++;
		}
		signature_release(&sig);
		strbuf_release(&err);
	}
	assert_int_equal(failures, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bool_int),
		cmocka_unit_test(test_pointer_array),
		cmocka_unit_test(test_bracket_array),
		cmocka_unit_test(test_two_long_long),
		cmocka_unit_test(test_void_params),
		cmocka_unit_test(test_whitespace_variants),
		cmocka_unit_test(test_type_spellings),
		cmocka_unit_test(test_several_arrays),
		cmocka_unit_test(test_format_round_trip),
		cmocka_unit_test(test_ctype),
		cmocka_unit_test(test_unsupported_types),
		cmocka_unit_test(test_long_long_array),
		cmocka_unit_test(test_array_needs_length),
		cmocka_unit_test(test_missing_names),
		cmocka_unit_test(test_bad_punctuation),
		cmocka_unit_test(test_rejected_declarations),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
