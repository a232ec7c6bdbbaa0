/* value.c - see value.h */
#include "problem/value.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

void value_release(struct value *v)
{
	free(v->arr);
	v->arr = NULL;
	v->len = 0;
}

void value_copy(struct value *dst, const struct value *src)
{
	*dst = *src;
	if (value_type_is_array(src->type)) {
		dst->arr = xmalloc(src->len * sizeof(*src->arr));
		if (src->len)
			memcpy(dst->arr, src->arr, src->len * sizeof(*src->arr));
	}
}

bool value_equal(const struct value *a, const struct value *b)
{
	if (a->type != b->type)
		return false;
	if (!value_type_is_array(a->type))
		return a->i == b->i;
	return a->len == b->len && (!a->len || !memcmp(a->arr, b->arr, a->len * sizeof(*a->arr)));
}

const char *value_type_name(enum value_type t)
{
	switch (t) {
	case VT_BOOL:
		return "bool";
	case VT_INT:
		return "int";
	case VT_LONG:
		return "long long";
	case VT_INT_ARRAY:
		return "int array";
	case VT_LONG_ARRAY:
		return "long long array";
	}
	return "?";
}

bool value_type_is_array(enum value_type t)
{
	return t == VT_INT_ARRAY || t == VT_LONG_ARRAY;
}

bool value_fits(enum value_type t, long long i)
{
	switch (t) {
	case VT_BOOL:
		return i == 0 || i == 1;
	case VT_INT:
	case VT_INT_ARRAY:
		return i >= INT_MIN && i <= INT_MAX;
	case VT_LONG:
	case VT_LONG_ARRAY:
		return true;
	}
	return false;
}

void answer_format(struct strbuf *sb, enum value_type ret, long long answer)
{
	if (ret == VT_BOOL && (answer == 0 || answer == 1))
		strbuf_addstr(sb, answer ? "true" : "false");
	else
		strbuf_addf(sb, "%lld", answer);
}

void value_format(struct strbuf *sb, const struct value *v, size_t max_items)
{
	if (!value_type_is_array(v->type)) {
		answer_format(sb, v->type, v->i);
		return;
	}
	strbuf_addch(sb, '[');
	for (size_t k = 0; k < v->len; k++) {
		if (k == max_items) {
			strbuf_addf(sb, "%s... (%zu values)", k ? ", " : "", v->len);
			break;
		}
		strbuf_addf(sb, k ? ", %lld" : "%lld", v->arr[k]);
	}
	strbuf_addch(sb, ']');
}

void value_encode(struct strbuf *sb, const struct value *v)
{
	unsigned char kind = (unsigned char)v->type;
	strbuf_add(sb, &kind, 1);
	if (v->type == VT_INT_ARRAY) {
		uint32_t n = (uint32_t)v->len;
		strbuf_add(sb, &n, sizeof(n));
		strbuf_grow(sb, v->len * sizeof(int32_t));
		for (size_t k = 0; k < v->len; k++) {
			int32_t e = (int32_t)v->arr[k];
			strbuf_add(sb, &e, sizeof(e));
		}
	} else if (v->type == VT_LONG_ARRAY) {
		uint32_t n = (uint32_t)v->len;
		strbuf_add(sb, &n, sizeof(n));
		strbuf_grow(sb, v->len * sizeof(int64_t));
		for (size_t k = 0; k < v->len; k++) {
			int64_t e = v->arr[k];
			strbuf_add(sb, &e, sizeof(e));
		}
	} else {
		int64_t i = v->i;
		strbuf_add(sb, &i, sizeof(i));
	}
}

bool value_answer_equal(enum value_type ret, long long expected, long long actual)
{
	/* a C bool comes back as 0 or 1; any other value for bool is never equal */
	(void)ret;
	return expected == actual;
}
