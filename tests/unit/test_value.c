/*
 * test_value.c - cmocka tests for grader/problem/value.c: range checks, display,
 * the wire encoding and answer formatting.
 *
 * Expected bytes and strings are written out by hand; the encoding is
 * checked against grader/runtime/protocol.h's kind numbers, which the
 * runner decodes with.
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

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/protocol.h"
#include "problem/value.h"

static struct value scalar(enum value_type t, long long i)
{
	struct value v;
	memset(&v, 0, sizeof(v));
	v.type = t;
	v.i = i;
	return v;
}

/* An int array value backed by a heap copy of items (value_release frees it). */
static struct value array(const int *items, size_t n)
{
	struct value v;
	memset(&v, 0, sizeof(v));
	v.type = VT_INT_ARRAY;
	v.arr = malloc(n ? n * sizeof(*v.arr) : 1);
	assert_non_null(v.arr);
	for (size_t k = 0; k < n; k++)
		v.arr[k] = items[k];
	v.len = n;
	return v;
}

static void assert_formats(const struct value *v, size_t max_items, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, ">");
	value_format(&sb, v, max_items);
	/* appends: what was there stays */
	assert_int_equal(sb.buf[0], '>');
	assert_string_equal(sb.buf + 1, want);
	assert_int_equal(sb.len, strlen(want) + 1);
	strbuf_release(&sb);
}

static void assert_answer(enum value_type t, long long a, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	answer_format(&sb, t, a);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

/* ---- value_fits ---- */

static void test_fits_int(void **state)
{
	(void)state;
	assert_true(value_fits(VT_INT, 0));
	assert_true(value_fits(VT_INT, -1));
	assert_true(value_fits(VT_INT, 2147483647LL));
	assert_true(value_fits(VT_INT, -2147483648LL));
	assert_false(value_fits(VT_INT, 2147483648LL));
	assert_false(value_fits(VT_INT, -2147483649LL));
	assert_false(value_fits(VT_INT, LLONG_MAX));
	assert_false(value_fits(VT_INT, LLONG_MIN));
	assert_false(value_fits(VT_INT, 4294967296LL)); /* wraps to 0 if truncated */
	/* the elements of an int array are ints */
	assert_true(value_fits(VT_INT_ARRAY, 2147483647LL));
	assert_true(value_fits(VT_INT_ARRAY, -2147483648LL));
	assert_false(value_fits(VT_INT_ARRAY, 2147483648LL));
	assert_false(value_fits(VT_INT_ARRAY, -2147483649LL));
}

static void test_fits_bool_and_long(void **state)
{
	(void)state;
	assert_true(value_fits(VT_BOOL, 0));
	assert_true(value_fits(VT_BOOL, 1));
	assert_false(value_fits(VT_BOOL, 2));
	assert_false(value_fits(VT_BOOL, -1));
	assert_false(value_fits(VT_BOOL, 256)); /* 0 in a byte */
	assert_false(value_fits(VT_BOOL, LLONG_MIN));
	assert_true(value_fits(VT_LONG, LLONG_MAX));
	assert_true(value_fits(VT_LONG, LLONG_MIN));
	assert_true(value_fits(VT_LONG, 0));
}

/* ---- value_format ---- */

static void test_format_scalars(void **state)
{
	struct value v;
	(void)state;
	v = scalar(VT_BOOL, 1);
	assert_formats(&v, 8, "true");
	v = scalar(VT_BOOL, 0);
	assert_formats(&v, 8, "false");
	v = scalar(VT_INT, 42);
	assert_formats(&v, 8, "42");
	v = scalar(VT_INT, -2147483647 - 1);
	assert_formats(&v, 8, "-2147483648");
	v = scalar(VT_LONG, LLONG_MAX);
	assert_formats(&v, 8, "9223372036854775807");
	v = scalar(VT_LONG, LLONG_MIN);
	assert_formats(&v, 8, "-9223372036854775808");
	v = scalar(VT_LONG, 0);
	assert_formats(&v, 8, "0");
}

static void test_format_arrays(void **state)
{
	static const int a4[] = { 4, 3, 1, 2 };
	static const int neg[] = { -3, -1, 0, 2147483647, -2147483647 - 1 };
	struct value v;
	(void)state;

	v = array(a4, 4);
	assert_formats(&v, 8, "[4, 3, 1, 2]");
	/* exactly max_items: nothing is left out */
	assert_formats(&v, 4, "[4, 3, 1, 2]");
	value_release(&v);
	assert_null(v.arr);
	assert_int_equal(v.len, 0);

	v = array(neg, 5);
	assert_formats(&v, 10, "[-3, -1, 0, 2147483647, -2147483648]");
	value_release(&v);

	v = array(NULL, 0);
	assert_formats(&v, 8, "[]");
	value_release(&v);

	v = array(a4, 1);
	assert_formats(&v, 8, "[4]");
	value_release(&v);
}

static void test_format_shortened(void **state)
{
	int big[20];
	struct value v;
	(void)state;
	for (int k = 0; k < 20; k++)
		big[k] = k + 1;
	v = array(big, 20);
	/* past max_items: the first max_items, then the total count */
	assert_formats(&v, 3, "[1, 2, 3, ... (20 values)]");
	assert_formats(&v, 8, "[1, 2, 3, 4, 5, 6, 7, 8, ... (20 values)]");
	assert_formats(&v, 19, "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, ... (20 values)]");
	assert_formats(&v, 20, "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]");
	value_release(&v);

	v = array(big, 5);
	assert_formats(&v, 4, "[1, 2, 3, 4, ... (5 values)]");
	value_release(&v);
}

/* ---- value_encode ---- */

/* The expected bytes below are little-endian (the encoding uses host order). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#define SKIP_UNLESS_LITTLE_ENDIAN() skip()
#else
#define SKIP_UNLESS_LITTLE_ENDIAN() ((void)0)
#endif

static void test_kind_numbers_match_protocol(void **state)
{
	(void)state;
	/* the runner decodes the kind byte with protocol.h's numbers */
	assert_int_equal(VT_BOOL, GR_BOOL);
	assert_int_equal(VT_INT, GR_INT);
	assert_int_equal(VT_LONG, GR_LONG);
	assert_int_equal(VT_INT_ARRAY, GR_INT_ARRAY);
	assert_int_equal(VT_LONG_ARRAY, GR_LONG_ARRAY);
}

/* a long long array: 64-bit elements on the wire, printed whole, any 64-bit value fits */
static void test_long_array(void **state)
{
	static const unsigned char want[] = {
		4,                                              /* kind */
		2, 0, 0, 0,                                     /* u32 length */
		0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, /* 2^32 */
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, /* -1 */
	};
	struct strbuf sb = STRBUF_INIT;
	struct value v, c;
	(void)state;
	SKIP_UNLESS_LITTLE_ENDIAN();
	memset(&v, 0, sizeof(v));
	v.type = VT_LONG_ARRAY;
	v.len = 2;
	v.arr = malloc(2 * sizeof(*v.arr));
	assert_non_null(v.arr);
	v.arr[0] = 4294967296LL;
	v.arr[1] = -1;
	value_encode(&sb, &v);
	assert_int_equal(sb.len, sizeof(want));
	assert_memory_equal(sb.buf, want, sizeof(want));
	strbuf_reset(&sb);
	value_format(&sb, &v, 8);
	assert_string_equal(sb.buf, "[4294967296, -1]");
	value_copy(&c, &v);
	assert_true(value_equal(&c, &v));
	c.arr[0] = 0; /* 2^32 and 0 agree in their low 32 bits: still different */
	assert_false(value_equal(&c, &v));
	assert_true(value_type_is_array(VT_LONG_ARRAY));
	assert_true(value_type_is_array(VT_INT_ARRAY));
	assert_false(value_type_is_array(VT_LONG));
	assert_true(value_fits(VT_LONG_ARRAY, LLONG_MIN));
	assert_false(value_fits(VT_INT_ARRAY, 4294967296LL));
	assert_string_equal(value_type_name(VT_LONG_ARRAY), "long long array");
	value_release(&c);
	value_release(&v);
	strbuf_release(&sb);
}

static void test_encode_scalars(void **state)
{
	struct {
		enum value_type t;
		long long i;
		unsigned char want[9];
	} cases[] = {
		{ VT_BOOL, 1, { 0, 1, 0, 0, 0, 0, 0, 0, 0 } },
		{ VT_BOOL, 0, { 0, 0, 0, 0, 0, 0, 0, 0, 0 } },
		{ VT_INT, 258, { 1, 0x02, 0x01, 0, 0, 0, 0, 0, 0 } },
		{ VT_INT, -1, { 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff } },
		{ VT_INT, -2147483647 - 1, { 1, 0x00, 0x00, 0x00, 0x80, 0xff, 0xff, 0xff, 0xff } },
		{ VT_LONG, 0x0102030405060708LL, { 2, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01 } },
		{ VT_LONG, LLONG_MIN, { 2, 0, 0, 0, 0, 0, 0, 0, 0x80 } },
		{ VT_LONG, LLONG_MAX, { 2, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f } },
	};
	(void)state;
	SKIP_UNLESS_LITTLE_ENDIAN();
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct strbuf sb = STRBUF_INIT;
		struct value v = scalar(cases[c].t, cases[c].i);
		value_encode(&sb, &v);
		/* kind byte + int64 (the grader and runner share a little-endian host) */
		assert_int_equal(sb.len, 9);
		assert_memory_equal(sb.buf, cases[c].want, 9);
		strbuf_release(&sb);
	}
}

static void test_encode_array(void **state)
{
	static const int items[] = { 1, -2, 0x01020304 };
	static const unsigned char want[] = {
		3,                      /* kind */
		3, 0, 0, 0,             /* u32 length */
		0x01, 0x00, 0x00, 0x00, /* 1 */
		0xfe, 0xff, 0xff, 0xff, /* -2 */
		0x04, 0x03, 0x02, 0x01, /* 0x01020304 */
	};
	struct strbuf sb = STRBUF_INIT;
	struct value v = array(items, 3);
	(void)state;
	SKIP_UNLESS_LITTLE_ENDIAN();
	value_encode(&sb, &v);
	assert_int_equal(sb.len, sizeof(want));
	assert_memory_equal(sb.buf, want, sizeof(want));
	value_release(&v);

	/* an empty array is the kind and a zero length */
	strbuf_reset(&sb);
	v = array(NULL, 0);
	value_encode(&sb, &v);
	assert_int_equal(sb.len, 5);
	assert_memory_equal(sb.buf, "\x03\x00\x00\x00\x00", 5);
	value_release(&v);
	strbuf_release(&sb);
}

static void test_encode_appends_sequence(void **state)
{
	/* the arguments of one call go back to back: (k, L) = (7, [5, 6]) */
	static const int items[] = { 5, 6 };
	static const unsigned char want[] = {
		1, 7, 0, 0, 0, 0, 0, 0, 0,
		3, 2, 0, 0, 0, 5, 0, 0, 0, 6, 0, 0, 0,
		0, 1, 0, 0, 0, 0, 0, 0, 0,
	};
	struct strbuf sb = STRBUF_INIT;
	struct value k = scalar(VT_INT, 7), b = scalar(VT_BOOL, 1);
	struct value l = array(items, 2);
	(void)state;
	SKIP_UNLESS_LITTLE_ENDIAN();
	value_encode(&sb, &k);
	value_encode(&sb, &l);
	value_encode(&sb, &b);
	assert_int_equal(sb.len, sizeof(want));
	assert_memory_equal(sb.buf, want, sizeof(want));
	/* still NUL-terminated past binary data */
	assert_int_equal(sb.buf[sb.len], '\0');
	value_release(&l);
	strbuf_release(&sb);
}

/* ---- copy, compare, answers ---- */

static void test_copy_is_deep(void **state)
{
	static const int items[] = { 9, 8, 7 };
	struct value a = array(items, 3), b;
	struct value s = scalar(VT_LONG, -5), t;
	(void)state;
	value_copy(&b, &a);
	assert_int_equal(b.type, VT_INT_ARRAY);
	assert_int_equal(b.len, 3);
	assert_ptr_not_equal(b.arr, a.arr);
	for (size_t k = 0; k < 3; k++)
		assert_int_equal(b.arr[k], items[k]);
	b.arr[0] = 100;
	assert_int_equal(a.arr[0], 9);
	value_release(&a);
	assert_int_equal(b.arr[2], 7); /* b survives a's release */
	value_release(&b);

	a = array(NULL, 0);
	value_copy(&b, &a);
	assert_int_equal(b.len, 0);
	value_release(&a);
	value_release(&b);

	value_copy(&t, &s);
	assert_int_equal(t.type, VT_LONG);
	assert_int_equal(t.i, -5);
	assert_null(t.arr);
}

static void test_answer_equal(void **state)
{
	(void)state;
	assert_true(value_answer_equal(VT_BOOL, 1, 1));
	assert_true(value_answer_equal(VT_BOOL, 0, 0));
	assert_false(value_answer_equal(VT_BOOL, 1, 0));
	assert_false(value_answer_equal(VT_BOOL, 0, 1));
	assert_false(value_answer_equal(VT_BOOL, 1, 2)); /* not a C bool */
	assert_true(value_answer_equal(VT_INT, -7, -7));
	assert_false(value_answer_equal(VT_INT, -7, 7));
	assert_true(value_answer_equal(VT_LONG, LLONG_MIN, LLONG_MIN));
	assert_false(value_answer_equal(VT_LONG, LLONG_MAX, LLONG_MAX - 1));
	/* a long long answer differing only above 32 bits is wrong */
	assert_false(value_answer_equal(VT_LONG, 0x100000005LL, 5));
}

static void test_answer_format(void **state)
{
	(void)state;
	assert_answer(VT_BOOL, 1, "true");
	assert_answer(VT_BOOL, 0, "false");
	/* a value no bool can hold is shown as the number it was */
	assert_answer(VT_BOOL, 2, "2");
	assert_answer(VT_BOOL, -1, "-1");
	assert_answer(VT_INT, 0, "0");
	assert_answer(VT_INT, 1, "1");
	assert_answer(VT_INT, -42, "-42");
	assert_answer(VT_LONG, 6, "6");
	assert_answer(VT_LONG, LLONG_MIN, "-9223372036854775808");
	assert_answer(VT_LONG, 12345678901234LL, "12345678901234");
}

static void test_type_names(void **state)
{
	(void)state;
	assert_string_equal(value_type_name(VT_BOOL), "bool");
	assert_string_equal(value_type_name(VT_INT), "int");
	assert_string_equal(value_type_name(VT_LONG), "long long");
	assert_string_equal(value_type_name(VT_INT_ARRAY), "int array");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fits_int),
		cmocka_unit_test(test_fits_bool_and_long),
		cmocka_unit_test(test_format_scalars),
		cmocka_unit_test(test_format_arrays),
		cmocka_unit_test(test_format_shortened),
		cmocka_unit_test(test_kind_numbers_match_protocol),
		cmocka_unit_test(test_long_array),
		cmocka_unit_test(test_encode_scalars),
		cmocka_unit_test(test_encode_array),
		cmocka_unit_test(test_encode_appends_sequence),
		cmocka_unit_test(test_copy_is_deep),
		cmocka_unit_test(test_answer_equal),
		cmocka_unit_test(test_answer_format),
		cmocka_unit_test(test_type_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
