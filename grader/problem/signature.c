/* signature.c - see signature.h */
#include "problem/signature.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* A tiny tokenizer: identifiers and the punctuation ( ) , * [ ] */
struct lexer {
	const char *p;
	const char *bad;   /* where the token an error is about starts, or NULL */
};

#define TYPES_THERE_ARE "the types are bool, int, long long, and the arrays const int * and const long long * " \
	"(each followed by its int length)"

static void skip_space(struct lexer *lx)
{
	while (isspace((unsigned char)*lx->p))
		lx->p++;
}

/* Next token into tok (identifier or one punctuation char); "" at the end. */
static void next_token(struct lexer *lx, char tok[64])
{
	size_t n = 0;
	skip_space(lx);
	if (isalpha((unsigned char)*lx->p) || *lx->p == '_') {
		while ((isalnum((unsigned char)*lx->p) || *lx->p == '_') && n < 63)
			tok[n++] = *lx->p++;
	} else if (*lx->p) {
		tok[n++] = *lx->p++;
	}
	tok[n] = '\0';
}

static int is_c_keyword(const char *s)
{
	static const char *const kw[] = { "bool", "_Bool", "int", "long", "const",
		"unsigned", "signed", "short", "char", "void", "return", "static",
		"main", NULL };
	for (int i = 0; kw[i]; i++)
		if (!strcmp(s, kw[i]))
			return 1;
	return 0;
}

/*
 * Parse a type and an optional name: words until the name, then '*' or '[]'.
 * Leaves the lexer after the name (and brackets).
 */
static int parse_typed_name(struct lexer *lx, enum value_type *type, bool *is_const,
			    bool *is_pointer, char **name, struct strbuf *err)
{
	char tok[64];
	int longs = 0, ints = 0, bools = 0;
	const char *save, *start;
	int stars = 0;

	*is_const = false;
	*is_pointer = false;
	*name = NULL;
	skip_space(lx);
	start = lx->p;
	for (;;) {
		save = lx->p;
		next_token(lx, tok);
		if (!strcmp(tok, "const"))
			*is_const = true;
		else if (!strcmp(tok, "long"))
			longs++;
		else if (!strcmp(tok, "int"))
			ints++;
		else if (!strcmp(tok, "bool") || !strcmp(tok, "_Bool"))
			bools++;
		else if (!strcmp(tok, "*")) {
			*is_pointer = true;
			stars++;
		}
		else {
			lx->p = save;
			break;
		}
	}
	if (stars > 1) {
		strbuf_addstr(err, "pointers to pointers are not supported (use const int * or const long long *)");
		return -1;
	}
	if (bools && !longs && !ints)
		*type = VT_BOOL;
	else if (longs == 1 && !bools) {
		strbuf_addstr(err, "plain 'long' is not supported: write 'long long'");
		return -1;
	} else if (longs == 2 && ints <= 1 && !bools)
		*type = VT_LONG;
	else if (ints == 1 && !bools)
		*type = VT_INT;
	else {
		next_token(lx, tok);
		lx->bad = lx->p - strlen(tok);
		if (longs || ints || bools) {
			/* known words in a combination that is no type: "int int", "bool int" */
			lx->bad = start;
			strbuf_addf(err, "'%.*s' is not a type: %s", (int)(lx->p - start), start, TYPES_THERE_ARE);
		} else if (!tok[0] || !(isalpha((unsigned char)tok[0]) || tok[0] == '_')) {
			strbuf_addf(err, "a type is missing before '%s': %s", tok, TYPES_THERE_ARE);
		} else {
			strbuf_addf(err, "unknown type '%s': %s", tok, TYPES_THERE_ARE);
		}
		return -1;
	}
	save = lx->p;
	next_token(lx, tok);
	if (isalpha((unsigned char)tok[0]) || tok[0] == '_') {
		if (is_c_keyword(tok)) {
			strbuf_addf(err, "'%s' cannot be a name", tok);
			return -1;
		}
		*name = xstrdup(tok);
		save = lx->p;
		next_token(lx, tok);
		if (!strcmp(tok, "[")) {
			next_token(lx, tok);
			if (strcmp(tok, "]")) {
				strbuf_addstr(err, "expected ']' in array parameter");
				return -1;
			}
			if (*is_pointer) {
				strbuf_addstr(err, "arrays of pointers are not supported (use const int * or const long long *)");
				return -1;
			}
			*is_pointer = true;
		} else {
			lx->p = save;
		}
	} else {
		lx->p = save;
	}
	return 0;
}

/* The return type and the function's name. */
static int parse_return_and_name(struct lexer *lx, struct signature *sig, struct strbuf *err)
{
	bool is_const, is_pointer;
	char *name = NULL;
	int ret = -1;

	if (parse_typed_name(lx, &sig->ret, &is_const, &is_pointer, &name, err) < 0)
		goto cleanup;
	if (is_pointer) {
		strbuf_addstr(err, "a function cannot return a pointer here");
		goto cleanup;
	}
	if (!name) {
		strbuf_addstr(err, "missing function name");
		goto cleanup;
	}
	sig->name = name;
	name = NULL;
	ret = 0;
cleanup:
	free(name);
	return ret;
}

/* One parameter, appended to sig->params (of *alloc entries). */
static int parse_param(struct lexer *lx, struct signature *sig, size_t *alloc, struct strbuf *err)
{
	enum value_type t;
	bool is_const, is_pointer;
	char *name = NULL;
	struct param *prm;
	int ret = -1;

	if (parse_typed_name(lx, &t, &is_const, &is_pointer, &name, err) < 0)
		goto cleanup;
	if (!name) {
		strbuf_addf(err, "parameter %d of '%s' needs a name", sig->nparams + 1, sig->name);
		goto cleanup;
	}
	if (is_pointer && t != VT_INT && t != VT_LONG) {
		strbuf_addf(err, "parameter '%s': an array of %s is not supported: %s", name, value_type_name(t),
			    TYPES_THERE_ARE);
		goto cleanup;
	}
	for (int j = 0; j < sig->nparams; j++)
		if (!strcmp(sig->params[j].name, name)) {
			strbuf_addf(err, "two parameters are called '%s'", name);
			goto cleanup;
		}
	if (!strcmp(name, sig->name)) {
		strbuf_addf(err, "parameter '%s' has the function's name", name);
		goto cleanup;
	}
	ALLOC_GROW(sig->params, sig->nparams + 1, *alloc);
	prm = &sig->params[sig->nparams++];
	memset(prm, 0, sizeof(*prm));
	prm->name = name;
	name = NULL;
	prm->type = !is_pointer ? t : t == VT_LONG ? VT_LONG_ARRAY : VT_INT_ARRAY;
	prm->is_const = is_const;
	ret = 0;
cleanup:
	free(name);
	return ret;
}

/* "void" alone between the parentheses means no parameters: step over it. */
static void skip_void_list(struct lexer *lx)
{
	const char *after;

	skip_space(lx);
	if (strncmp(lx->p, "void", 4))
		return;
	after = lx->p + 4;
	while (isspace((unsigned char)*after))
		after++;
	if (*after == ')')
		lx->p = after;
}

/* The parameter list: "(", parameters separated by ",", ")". */
static int parse_param_list(struct lexer *lx, struct signature *sig, struct strbuf *err)
{
	char tok[64];
	size_t alloc = 0;

	next_token(lx, tok);
	if (strcmp(tok, "(")) {
		strbuf_addstr(err, "expected '(' after the function name");
		return -1;
	}
	skip_void_list(lx);
	skip_space(lx);
	if (*lx->p == ')') {
		lx->p++;
		return 0;
	}
	for (;;) {
		if (parse_param(lx, sig, &alloc, err) < 0)
			return -1;
		next_token(lx, tok);
		if (!strcmp(tok, ")"))
			return 0;
		if (strcmp(tok, ",")) {
			strbuf_addf(err, "expected ',' or ')' after parameter '%s'", sig->params[sig->nparams - 1].name);
			return -1;
		}
	}
}

/* What may follow the parameter list: one ';' (copied from a prototype), then nothing. */
static int parse_end(struct lexer *lx, struct strbuf *err)
{
	char tok[64];

	next_token(lx, tok);
	if (!strcmp(tok, ";"))
		next_token(lx, tok);
	if (tok[0]) {
		strbuf_addf(err, "unexpected '%s' after the parameter list", tok);
		return -1;
	}
	return 0;
}

/*
 * Every array must be followed by its int length: mark those as lengths and
 * list the types of the other parameters, the inputs a test case gives.
 */
static int bind_lengths(struct signature *sig, struct strbuf *err)
{
	sig->input_types = xcalloc((size_t)sig->nparams + 1, sizeof(*sig->input_types));
	for (int i = 0; i < sig->nparams; i++) {
		if (!value_type_is_array(sig->params[i].type)) {
			sig->input_types[sig->ninputs++] = sig->params[i].type;
			continue;
		}
		if (i + 1 >= sig->nparams || sig->params[i + 1].type != VT_INT) {
			strbuf_addf(err, "array parameter '%s' must be followed by an int length parameter",
				    sig->params[i].name);
			return -1;
		}
		sig->params[i + 1].is_length = true;
		sig->input_types[sig->ninputs++] = sig->params[i].type;
		i++;
	}
	return 0;
}

int signature_parse(struct signature *sig, const char *text, struct strbuf *err)
{
	return signature_parse_at(sig, text, NULL, err);
}

int signature_parse_at(struct signature *sig, const char *text, size_t *where, struct strbuf *err)
{
	struct lexer lx = { text, NULL };

	memset(sig, 0, sizeof(*sig));
	if (where)
		*where = 0;
	if (parse_return_and_name(&lx, sig, err) < 0 ||
	    parse_param_list(&lx, sig, err) < 0 ||
	    parse_end(&lx, err) < 0 ||
	    bind_lengths(sig, err) < 0) {
		if (where && lx.bad)
			*where = (size_t)(lx.bad - text);
		return -1;
	}
	return 0;
}

void signature_release(struct signature *sig)
{
	for (int i = 0; i < sig->nparams; i++)
		free(sig->params[i].name);
	free(sig->params);
	free(sig->name);
	free(sig->input_types);
	memset(sig, 0, sizeof(*sig));
}

const char *signature_ctype(enum value_type t, bool is_const)
{
	if (t == VT_INT_ARRAY)
		return is_const ? "const int *" : "int *";
	if (t == VT_LONG_ARRAY)
		return is_const ? "const long long *" : "long long *";
	return value_type_name(t);
}

void signature_format(struct strbuf *sb, const struct signature *sig)
{
	strbuf_addf(sb, "%s %s(", signature_ctype(sig->ret, false), sig->name);
	for (int i = 0; i < sig->nparams; i++) {
		const struct param *p = &sig->params[i];
		const char *ct = signature_ctype(p->type, p->is_const);
		size_t l = strlen(ct);
		strbuf_addf(sb, "%s%s%s%s", i ? ", " : "", ct, ct[l - 1] == '*' ? "" : " ", p->name);
	}
	if (!sig->nparams)
		strbuf_addstr(sb, "void");
	strbuf_addch(sb, ')');
}
