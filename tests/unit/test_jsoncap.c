/*
 * test_jsoncap.c - cmocka tests for grader/report/jsoncap.c: a JSON document cut
 * down to a size limit, the last long strings first, and only as far as
 * needed (what keeps PrairieLearn's results.json under 1 MB).  Sizes are
 * checked against json_dumps() of the same document, not against
 * jsoncap_size() alone.
 */
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

#include "report/jsoncap.h"

#define FLAGS (JSON_INDENT(1) | JSON_PRESERVE_ORDER)
#define NOTE "(cut)"

static size_t dumped(const json_t *root)
{
	char *s = json_dumps(root, FLAGS);
	size_t n = strlen(s);
	free(s);
	return n;
}

/* {"tests": [{"name": "tN", "output": <len x 'a'>}, ...], "errors": [<len x 'b'>, ...]} */
static json_t *doc(int ntests, size_t len)
{
	json_t *root = json_object(), *tests = json_array(), *errors = json_array();
	char *big = malloc(len + 1);

	memset(big, 'a', len);
	big[len] = '\0';
	for (int i = 0; i < ntests; i++)
		json_array_append_new(tests, json_pack("{s:s, s:s}", "name", "t", "output", big));
	memset(big, 'b', len);
	json_array_append_new(errors, json_string(big));
	json_object_set_new(root, "tests", tests);
	json_object_set_new(root, "errors", errors);
	free(big);
	return root;
}

static const char *output_of(json_t *root, size_t i)
{
	return json_string_value(json_object_get(json_array_get(json_object_get(root, "tests"), i), "output"));
}

static void test_size_is_the_dump(void **state)
{
	json_t *root = doc(3, 1000);
	(void)state;
	assert_int_equal(jsoncap_size(root, FLAGS), dumped(root));
	json_decref(root);
}

static void test_fits_already(void **state)
{
	json_t *root = doc(3, 1000);
	(void)state;
	assert_int_equal(jsoncap_cut(root, "tests", "output", NOTE, 100000, FLAGS), 0);
	assert_int_equal(strlen(output_of(root, 2)), 1000);
	json_decref(root);
}

static void test_last_first_and_no_more_than_needed(void **state)
{
	json_t *root = doc(10, 1000);
	size_t before = dumped(root);
	(void)state;
	/* room for about 7 of the 10 outputs plus the rest: the last 3 or 4 go */
	int n = jsoncap_cut(root, "tests", "output", NOTE, before - 3500, FLAGS);
	assert_int_equal(n, 4);
	assert_true(dumped(root) <= before - 3500);
	assert_string_equal(output_of(root, 9), NOTE);
	assert_string_equal(output_of(root, 6), NOTE);
	assert_int_equal(strlen(output_of(root, 5)), 1000);
	assert_int_equal(strlen(output_of(root, 0)), 1000);
	json_decref(root);
}

static void test_string_elements_and_too_big(void **state)
{
	json_t *root = doc(2, 5000);
	(void)state;
	/* the two outputs cannot make it fit alone */
	assert_int_equal(jsoncap_cut(root, "tests", "output", NOTE, 3000, FLAGS), 2);
	assert_true(jsoncap_size(root, FLAGS) > 3000);
	/* then the array of strings: its one element */
	assert_int_equal(jsoncap_cut(root, "errors", NULL, NOTE, 3000, FLAGS), 1);
	assert_string_equal(json_string_value(json_array_get(json_object_get(root, "errors"), 0)), NOTE);
	assert_true(dumped(root) <= 3000);
	/* nothing long is left: a limit below the skeleton cuts nothing more */
	assert_int_equal(jsoncap_cut(root, "tests", "output", NOTE, 10, FLAGS), 0);
	assert_int_equal(jsoncap_cut(root, "missing", "output", NOTE, 10, FLAGS), 0);
	json_decref(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_is_the_dump),
		cmocka_unit_test(test_fits_already),
		cmocka_unit_test(test_last_first_and_no_more_than_needed),
		cmocka_unit_test(test_string_elements_and_too_big),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
