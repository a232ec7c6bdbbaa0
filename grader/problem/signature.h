/*
 * signature.h - C function signatures as written in a problem file,
 * e.g. "long long f(const int *L, int n)".
 *
 * Supported return types: bool, int, long long (also "long", "_Bool").
 * Supported parameters: bool, int, long long, and an int or long long array
 * written as "const int *L" or "int *L" or "const int L[]" (the same with
 * long long), which must be directly followed by an int parameter that
 * receives its length.  Test cases give
 * one argument per "input" parameter: the length parameter is filled in.
 */
#ifndef GRADER_SIGNATURE_H
#define GRADER_SIGNATURE_H

#include "problem/value.h"

struct param {
	enum value_type type;  /* VT_INT_ARRAY or VT_LONG_ARRAY for the pointer */
	char *name;
	bool is_length;        /* an int that receives the previous array's length */
	bool is_const;         /* the array was declared const */
};

struct signature {
	char *name;
	enum value_type ret;
	struct param *params;
	int nparams;
	int ninputs;            /* parameters that are not lengths */
	enum value_type *input_types; /* ninputs entries */
};

/*
 * Parse text into sig.  On error returns -1 and appends a message (no
 * location) to err.  signature_release() frees what parse allocated, also
 * after a failed parse.
 */
int signature_parse(struct signature *sig, const char *text, struct strbuf *err);
/* The same, and on an error about one token *where is its offset in text (else 0). */
int signature_parse_at(struct signature *sig, const char *text, size_t *where, struct strbuf *err);
void signature_release(struct signature *sig);

/* The C declaration, e.g. "long long f(const int *L, int n)". */
void signature_format(struct strbuf *sb, const struct signature *sig);
/* The C spelling of a type: "bool", "int", "long long", "const int *", "const long long *". */
const char *signature_ctype(enum value_type t, bool is_const);

#endif
