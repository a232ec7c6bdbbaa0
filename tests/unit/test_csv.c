/*
 * test_csv.c - cmocka tests for grader/base/csv.c: RFC 4180 quoting and the
 * guard against spreadsheet formula injection (OWASP "CSV Injection"): a
 * text cell starting with = + - @ tab or CR gets a leading apostrophe,
 * inside the quotes when the cell is quoted.
 */
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

#include <string.h>

#include "base/csv.h"
#include "base/text.h"
#include "base/util.h"

static void expect_cell(const char *in, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	csv_add_cell(&sb, in);
	if (strcmp(sb.buf, want))
		fail_msg("csv_add_cell(\"%s\") wrote [%s], expected [%s]", in, sb.buf, want);
	strbuf_release(&sb);
}

static void test_plain_cells(void **state)
{
	(void)state;
	expect_cell("alice", "alice");
	expect_cell("", "");
	expect_cell("a=b", "a=b");          /* only the first character matters */
	expect_cell("Ada Lovelace_201", "Ada Lovelace_201");
	expect_cell("'quoted already", "'quoted already");
}

static void test_quoting(void **state)
{
	(void)state;
	expect_cell("quinn, \"q\"", "\"quinn, \"\"q\"\"\"");
	expect_cell("two\nlines", "\"two\nlines\"");
	expect_cell("cr\rhere", "\"cr\rhere\"");
}

static void test_formula_guard(void **state)
{
	(void)state;
	expect_cell("=1+1", "'=1+1");
	expect_cell("+1", "'+1");
	expect_cell("-1", "'-1");
	expect_cell("@SUM(A1:A9)", "'@SUM(A1:A9)");
	expect_cell("\tx", "'\tx");
	/* a guarded cell that also needs quotes: the apostrophe goes inside them */
	expect_cell("=HYPERLINK(\"http://evil/\",\"x\")", "\"'=HYPERLINK(\"\"http://evil/\"\",\"\"x\"\")\"");
	expect_cell("\rx", "\"'\rx\"");
	assert_true(csv_needs_guard("=x"));
	assert_true(csv_needs_guard("@"));
	assert_false(csv_needs_guard(""));
	assert_false(csv_needs_guard("x=1"));
}

/* Numbers are the grader's own and bypass the guard: written with text_score, a negative stays a number. */
static void test_numbers_are_not_guarded(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	(void)state;
	text_score(&sb, -1.5);
	assert_string_equal(sb.buf, "-1.5");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_cells),
		cmocka_unit_test(test_quoting),
		cmocka_unit_test(test_formula_guard),
		cmocka_unit_test(test_numbers_are_not_guarded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
