/*
 * test_stub.c - cmocka tests for grader/build/stub.c: the generated calling stub
 * and declarations header must be C that a real compiler accepts, must
 * reject a student file with another signature, and must call the
 * student's function with the right arguments (checked by compiling the
 * stub with a small student file and driver and running it).
 *
 * Files go to a fresh mkdtemp() directory, removed after each test.  The
 * compiler is $CC if set, else gcc; the flags follow grader/build/build.c.
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
#include <sys/wait.h>

#include "base/embed.h"
#include "build/stub.h"

/* Warnings that would hide a broken stub behind a mere warning are errors. */
#define STRICT "-std=gnu17 -Werror=implicit-function-declaration -Werror=incompatible-pointer-types " \
	       "-Werror=int-conversion -Werror=return-type"

struct tmp {
	char *dir;
	struct problem p;
};

static const char *cc(void)
{
	const char *c = getenv("CC");
	return c && *c ? c : "gcc";
}

/* A problem holding just what the stub needs: id and functions. */
static void make_problem(struct problem *p, const char *id, const char *const *sigs, int n)
{
	memset(p, 0, sizeof(*p));
	p->id = strdup(id);
	p->funcs = calloc((size_t)n, sizeof(*p->funcs));
	assert_non_null(p->funcs);
	p->nfuncs = n;
	for (int i = 0; i < n; i++) {
		struct strbuf err = STRBUF_INIT;
		if (signature_parse(&p->funcs[i], sigs[i], &err) < 0)
			fail_msg("signature '%s': %s", sigs[i], err.buf);
		strbuf_release(&err);
	}
}

static void free_problem(struct problem *p)
{
	for (int i = 0; i < p->nfuncs; i++)
		signature_release(&p->funcs[i]);
	free(p->funcs);
	free(p->id);
	memset(p, 0, sizeof(*p));
}

static int setup(void **state)
{
	struct tmp *t = calloc(1, sizeof(*t));
	if (!t)
		return -1;
	t->dir = strdup("/tmp/grader-test-stub-XXXXXX");
	if (!t->dir || !mkdtemp(t->dir)) {
		free(t->dir);
		free(t);
		return -1;
	}
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct tmp *t = *state;
	char *cmd = NULL;
	int r = -1;
	free_problem(&t->p);
	if (asprintf(&cmd, "rm -rf '%s'", t->dir) >= 0)
		r = system(cmd);
	free(cmd);
	free(t->dir);
	free(t);
	return r == 0 ? 0 : -1;
}

static void write_text(const struct tmp *t, const char *name, const char *text)
{
	char *path = NULL;
	FILE *f;
	assert_true(asprintf(&path, "%s/%s", t->dir, name) >= 0);
	f = fopen(path, "w");
	if (!f)
		fail_msg("cannot write %s", path);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	free(path);
}

/* Write grader_stub.c, grader_decls.h and protocol.h for t->p, as build.c does. */
static void write_stub(const struct tmp *t)
{
	struct strbuf sb = STRBUF_INIT;
	stub_generate(&sb, &t->p);
	write_text(t, "grader_stub.c", sb.buf);
	strbuf_reset(&sb);
	stub_declarations(&sb, &t->p);
	write_text(t, "grader_decls.h", sb.buf);
	strbuf_release(&sb);
	write_text(t, "protocol.h", embed_protocol_h);
}

/* Run a shell command in t->dir; output to t->dir/out.txt.  Returns the exit status. */
static int run_in(const struct tmp *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int run_in(const struct tmp *t, const char *fmt, ...)
{
	char *inner = NULL, *cmd = NULL;
	va_list ap;
	int r;
	va_start(ap, fmt);
	assert_true(vasprintf(&inner, fmt, ap) >= 0);
	va_end(ap);
	assert_true(asprintf(&cmd, "cd '%s' && ( %s ) >out.txt 2>&1", t->dir, inner) >= 0);
	r = system(cmd);
	free(inner);
	free(cmd);
	assert_true(r != -1 && WIFEXITED(r));
	return WEXITSTATUS(r);
}

/* The text of t->dir/name (caller frees). */
static char *read_text(const struct tmp *t, const char *name)
{
	char *path = NULL, *buf;
	FILE *f;
	long n;
	assert_true(asprintf(&path, "%s/%s", t->dir, name) >= 0);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot read %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc((size_t)n + 1, 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	free(path);
	return buf;
}

static void expect_status(const struct tmp *t, int status, int want, const char *what)
{
	if (status != want) {
		char *out = read_text(t, "out.txt");
		fprintf(stderr, "%s: exit %d, expected %d; output:\n%s\n", what, status, want, out);
		free(out);
		fail_msg("%s", what);
	}
}

static void expect_output(const struct tmp *t, const char *want)
{
	char *out = read_text(t, "out.txt");
	if (strcmp(out, want)) {
		fprintf(stderr, "output:\n%s\nexpected:\n%s\n", out, want);
		free(out);
		fail_msg("wrong output");
	}
	free(out);
}

static const char *const p4_sigs[] = { "long long f(const int *L, int n)" };

/* ---- p4: long long f(const int *L, int n) ---- */

static void test_p4_declarations_text(void **state)
{
	struct tmp *t = *state;
	struct strbuf sb = STRBUF_INIT;
	make_problem(&t->p, "p4", p4_sigs, 1);
	stub_declarations(&sb, &t->p);
	assert_non_null(strstr(sb.buf, "#include <stdbool.h>\n"));
	assert_non_null(strstr(sb.buf, "long long f(const int *L, int n);\n"));
	strbuf_release(&sb);
}

static void test_p4_stub_compiles(void **state)
{
	struct tmp *t = *state;
	make_problem(&t->p, "p4", p4_sigs, 1);
	write_stub(t);
	expect_status(t, run_in(t, "%s -fsyntax-only " STRICT " -I. -include grader_decls.h grader_stub.c", cc()), 0,
		      "the stub does not compile");
	/* the declarations header on its own, twice (include guards not needed for declarations) */
	write_text(t, "empty.c", "int unused_;\n");
	expect_status(t, run_in(t, "%s -fsyntax-only " STRICT " -include grader_decls.h -include grader_decls.h empty.c", cc()),
		      0, "the declarations do not compile");
}

static void test_p4_matching_student_compiles(void **state)
{
	struct tmp *t = *state;
	make_problem(&t->p, "p4", p4_sigs, 1);
	write_stub(t);
	write_text(t, "p4.c",
		   "#include <stdio.h>\n"
		   "long long f(const int *L, int n) { long long s = 0; for (int i = 0; i < n; i++) s += L[i]; return s; }\n"
		   "int main(void) { printf(\"%lld\\n\", f(0, 0)); return 0; }\n");
	expect_status(t, run_in(t, "%s -fsyntax-only " STRICT " -include grader_decls.h -Dmain=" STUB_RENAMED_MAIN " p4.c", cc()),
		      0, "a student file with the right signature does not compile");
	/* the same with the parameter spelled as an array and other names: the same type */
	write_text(t, "p4b.c", "long long f(const int A[], int len) { return len ? A[0] : 0; }\n");
	expect_status(t, run_in(t, "%s -fsyntax-only " STRICT " -include grader_decls.h p4b.c", cc()), 0,
		      "const int A[] is const int *A");
}

static void test_p4_conflicting_student_fails(void **state)
{
	static const char *const wrong[] = {
		"int f(const int *L, int n) { return n; }\n",           /* return type */
		"long long f(int *L, int n) { return n; }\n",           /* const missing */
		"long long f(const int *L, long long n) { return n; }\n", /* length type */
		"long long f(const int *L) { return L[0]; }\n",         /* no length */
		"long f(const int *L, int n) { return n; }\n",          /* long is not long long */
		"long long f(const long long *L, int n) { return n; }\n",
	};
	struct tmp *t = *state;
	make_problem(&t->p, "p4", p4_sigs, 1);
	write_stub(t);
	for (size_t i = 0; i < sizeof(wrong) / sizeof(wrong[0]); i++) {
		char *out;
		write_text(t, "p4.c", wrong[i]);
		if (run_in(t, "%s -fsyntax-only -std=gnu17 -include grader_decls.h p4.c", cc()) == 0)
			fail_msg("compiled despite the wrong signature: %s", wrong[i]);
		/* build.c recognises this message to show the required signature */
		out = read_text(t, "out.txt");
		if (!strstr(out, "conflicting types"))
			fail_msg("no 'conflicting types' for %s: %s", wrong[i], out);
		free(out);
	}
}

/* A driver that calls the stub's adapters like the runtime does. */
static const char p4_driver[] =
	"#include <stdio.h>\n"
	"#include <string.h>\n"
	"#include \"protocol.h\"\n"
	"int main(void)\n"
	"{\n"
	"	static const int L[] = { 4, 3, 1, 2 };\n"
	"	struct gr_arg a[1];\n"
	"	memset(a, 0, sizeof(a));\n"
	"	a[0].arr = L; a[0].len = 4; a[0].i = 4;\n"
	"	struct gr_function *gr_functions; int gr_nfunctions; static struct gr_load load; static struct gr_result res;\n"
	"	gr_stub_init(0, 0, &gr_functions, &gr_nfunctions, &load);\n"
	"	printf(\"n=%d name=%s nargs=%d present=%d\\n\", gr_nfunctions, gr_functions[0].name,\n"
	"	       gr_functions[0].nargs, gr_functions[0].present);\n"
	"	if (gr_functions[0].present)\n"
	"		printf(\"%lld\\n\", (gr_functions[0].call(&gr_functions[0], a, &res), (long long)res.value));\n"
	"	return 0;\n"
	"}\n";

static void test_p4_stub_calls_student(void **state)
{
	struct tmp *t = *state;
	make_problem(&t->p, "p4", p4_sigs, 1);
	write_stub(t);
	write_text(t, "driver.c", p4_driver);
	/* weights each card by its position and adds n * 1000000: shows the array and its length */
	write_text(t, "p4.c",
		   "long long f(const int *L, int n)\n"
		   "{ long long s = 1000000LL * n; for (int i = 0; i < n; i++) s += (long long)L[i] * (i + 1);\n"
		   "  return s * 4294967296LL; }\n" /* and needs all 64 bits */
		   "int main(void) { return 7; }\n"); /* the student's own main is renamed away */
	expect_status(t, run_in(t, "%s " STRICT " -I. -include grader_decls.h -Dmain=" STUB_RENAMED_MAIN
			       " -c p4.c -o p4.o && %s " STRICT " -I. -include grader_decls.h grader_stub.c driver.c p4.o -o run && ./run",
			       cc(), cc()),
		      0, "stub + student + driver");
	/* 4*1 + 3*2 + 1*3 + 2*4 = 21; + 4000000 = 4000021; times 2^32 */
	expect_output(t, "n=1 name=f nargs=1 present=1\n17179959378313216\n");
}

static void test_p4_missing_function_is_not_a_link_error(void **state)
{
	struct tmp *t = *state;
	make_problem(&t->p, "p4", p4_sigs, 1);
	write_stub(t);
	write_text(t, "driver.c", p4_driver);
	write_text(t, "p4.c", "int helper_only(int x) { return x; }\n");
	expect_status(t, run_in(t, "%s " STRICT " -I. -include grader_decls.h p4.c grader_stub.c driver.c -o run && ./run", cc()),
		      0, "a submission without f must still link");
	expect_output(t, "n=1 name=f nargs=1 present=0\n");
}

/* ---- p1 and p2: bools, several functions, long long parameters ---- */

static void test_p1_two_functions(void **state)
{
	static const char *const sigs[] = { "bool AcanWin(int n)", "bool BcanWin(int n)" };
	struct tmp *t = *state;
	make_problem(&t->p, "p1", sigs, 2);
	write_stub(t);
	write_text(t, "p1.c",
		   "#include <stdbool.h>\n"
		   "bool AcanWin(int n) { return n % 3 == 1; }\n"
		   "bool BcanWin(int n) { return n < 0; }\n");
	write_text(t, "driver.c",
		   "#include <stdio.h>\n"
		   "#include \"protocol.h\"\n"
		   "int main(void)\n"
		   "{\n"
		   "	struct gr_arg a[1] = { { 0, 0, 0 } };\n"
		   "	struct gr_function *gr_functions; int gr_nfunctions; static struct gr_load load; static struct gr_result res;\n"
	"	gr_stub_init(0, 0, &gr_functions, &gr_nfunctions, &load);\n"
		   "	printf(\"%d %s %s %d %d\\n\", gr_nfunctions, gr_functions[0].name, gr_functions[1].name,\n"
		   "	       gr_functions[0].nargs, gr_functions[1].nargs);\n"
		   "	a[0].i = 7;  printf(\"%lld \", (gr_functions[0].call(&gr_functions[0], a, &res), (long long)res.value));\n"
		   "	a[0].i = 8;  printf(\"%lld \", (gr_functions[0].call(&gr_functions[0], a, &res), (long long)res.value));\n"
		   "	a[0].i = -5; printf(\"%lld \", (gr_functions[1].call(&gr_functions[1], a, &res), (long long)res.value));\n"
		   "	a[0].i = 5;  printf(\"%lld\\n\", (gr_functions[1].call(&gr_functions[1], a, &res), (long long)res.value));\n"
		   "	return 0;\n"
		   "}\n");
	expect_status(t, run_in(t, "%s -fsyntax-only " STRICT " -I. -include grader_decls.h grader_stub.c", cc()), 0,
		      "p1 stub -fsyntax-only");
	expect_status(t, run_in(t, "%s " STRICT " -I. -include grader_decls.h p1.c grader_stub.c driver.c -o run && ./run", cc()),
		      0, "p1 stub + student + driver");
	expect_output(t, "2 AcanWin BcanWin 1 1\n1 0 1 0\n");

	/* only one of the two functions written: the other is reported absent */
	write_text(t, "p1.c", "#include <stdbool.h>\nbool BcanWin(int n) { return n > 0; }\n");
	write_text(t, "driver.c",
		   "#include <stdio.h>\n"
		   "#include \"protocol.h\"\n"
		   "int main(void) { struct gr_function *gr_functions; int n; static struct gr_load load;\n"
		   "  gr_stub_init(0, 0, &gr_functions, &n, &load); printf(\"%d %d\\n\", gr_functions[0].present, gr_functions[1].present); return 0; }\n");
	expect_status(t, run_in(t, "%s " STRICT " -I. -include grader_decls.h p1.c grader_stub.c driver.c -o run && ./run", cc()),
		      0, "p1 with BcanWin only");
	expect_output(t, "0 1\n");
}

static void test_p2_long_long_params(void **state)
{
	static const char *const sigs[] = { "bool canWin(long long k, long long n)" };
	struct tmp *t = *state;
	make_problem(&t->p, "p2", sigs, 1);
	write_stub(t);
	/* true exactly when both 64-bit values arrive intact and in order */
	write_text(t, "p2.c",
		   "#include <stdbool.h>\n"
		   "bool canWin(long long k, long long n) { return k == 3 && n == 9000000000000000001LL; }\n");
	write_text(t, "driver.c",
		   "#include <stdio.h>\n"
		   "#include \"protocol.h\"\n"
		   "int main(void)\n"
		   "{\n"
		   "	struct gr_arg a[2] = { { 3, 0, 0 }, { 9000000000000000001LL, 0, 0 } };\n"
		   "	struct gr_function *gr_functions; int gr_nfunctions; static struct gr_load load; static struct gr_result res;\n"
	"	gr_stub_init(0, 0, &gr_functions, &gr_nfunctions, &load);\n"
		   "	printf(\"%d \", gr_functions[0].nargs);\n"
		   "	printf(\"%lld \", (gr_functions[0].call(&gr_functions[0], a, &res), (long long)res.value));\n"
		   "	a[0].i = 9000000000000000001LL; a[1].i = 3;\n"
		   "	printf(\"%lld\\n\", (gr_functions[0].call(&gr_functions[0], a, &res), (long long)res.value));\n"
		   "	return 0;\n"
		   "}\n");
	expect_status(t, run_in(t, "%s " STRICT " -I. -include grader_decls.h p2.c grader_stub.c driver.c -o run && ./run", cc()),
		      0, "p2 stub + student + driver");
	expect_output(t, "2 1 0\n");
}

static void test_mixed_params(void **state)
{
	/* scalars before, between and after two arrays */
	static const char *const sigs[] = { "int g(bool neg, const int *A, int na, long long k, int B[], int nb, int m)" };
	struct tmp *t = *state;
	make_problem(&t->p, "px", sigs, 1);
	write_stub(t);
	write_text(t, "px.c",
		   "#include <stdbool.h>\n"
		   "int g(bool neg, const int *A, int na, long long k, int B[], int nb, int m)\n"
		   "{ int s = na * 1000 + nb * 100 + (int)k * 10 + m; B[0] += A[na - 1]; return neg ? -s : s + B[0] * 10000; }\n");
	write_text(t, "driver.c",
		   "#include <stdio.h>\n"
		   "#include \"protocol.h\"\n"
		   "int main(void)\n"
		   "{\n"
		   "	static const int A[] = { 1, 2, 3 };\n"
		   "	static int B[] = { 5, 6 };\n"
		   "	struct gr_arg a[5] = { { 0, 0, 0 }, { 3, A, 3 }, { 4, 0, 0 }, { 2, B, 2 }, { 7, 0, 0 } };\n"
		   "	struct gr_function *gr_functions; int gr_nfunctions; static struct gr_load load; static struct gr_result res;\n"
	"	gr_stub_init(0, 0, &gr_functions, &gr_nfunctions, &load);\n"
		   "	printf(\"%d %lld\\n\", gr_functions[0].nargs, (gr_functions[0].call(&gr_functions[0], a, &res), (long long)res.value));\n"
		   "	return 0;\n"
		   "}\n");
	expect_status(t, run_in(t, "%s " STRICT " -I. -include grader_decls.h px.c grader_stub.c driver.c -o run && ./run", cc()),
		      0, "mixed parameters");
	/* 3*1000 + 2*100 + 4*10 + 7 = 3247; B[0] = 5 + 3 = 8 -> 3247 + 80000 */
	expect_output(t, "5 83247\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_p4_declarations_text, setup, teardown),
		cmocka_unit_test_setup_teardown(test_p4_stub_compiles, setup, teardown),
		cmocka_unit_test_setup_teardown(test_p4_matching_student_compiles, setup, teardown),
		cmocka_unit_test_setup_teardown(test_p4_conflicting_student_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_p4_stub_calls_student, setup, teardown),
		cmocka_unit_test_setup_teardown(test_p4_missing_function_is_not_a_link_error, setup, teardown),
		cmocka_unit_test_setup_teardown(test_p1_two_functions, setup, teardown),
		cmocka_unit_test_setup_teardown(test_p2_long_long_params, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mixed_params, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
