/*
 * value.h - the values that cross between grader and runner: function
 * arguments and answers, their wire encoding, display and comparison.
 *
 * A struct value owns its array (arr); value_release() frees it.
 */
#ifndef GRADER_VALUE_H
#define GRADER_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

enum value_type {
	VT_BOOL,
	VT_INT,       /* C int */
	VT_LONG,      /* C long long */
	VT_INT_ARRAY, /* const int * followed by an int length */
	VT_LONG_ARRAY,/* const long long * followed by an int length */
};

struct value {
	enum value_type type;
	long long i;   /* VT_BOOL (0/1), VT_INT, VT_LONG */
	long long *arr;/* an array (VT_INT_ARRAY: each element fits an int), owned */
	size_t len;    /* an array's length */
};

void value_release(struct value *v);
void value_copy(struct value *dst, const struct value *src);
/* Same type, same integer or same array elements. */
bool value_equal(const struct value *a, const struct value *b);
const char *value_type_name(enum value_type t);
/* Is t an array type (a pointer followed by its length in C, a list in Python)? */
bool value_type_is_array(enum value_type t);

/* Does the integer fit the C type (an array's: its elements')?  (bool accepts only 0 and 1.) */
bool value_fits(enum value_type t, long long i);

/*
 * Human-readable form, appended to sb: true/false, 42, [4, 3, 1, 2].
 * Arrays longer than max_items are shortened with "... (N values)".
 */
void value_format(struct strbuf *sb, const struct value *v, size_t max_items);

/* Wire encoding (little-endian host order; grader and runner share a host): an int array's elements as
 * 32-bit, a long long array's as 64-bit integers. */
void value_encode(struct strbuf *sb, const struct value *v);

/* Answers are always returned as a 64-bit integer; compare one against the expected value. */
bool value_answer_equal(enum value_type ret, long long expected, long long actual);
/* Format an answer of return type ret: "true" for a bool 1, the number otherwise. */
void answer_format(struct strbuf *sb, enum value_type ret, long long answer);

#endif
