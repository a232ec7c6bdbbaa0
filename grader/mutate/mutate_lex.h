/*
 * mutate_lex.h - the tokens of a reference solution, for mutation analysis
 * (mutate.h): small tokenizers for C and Python that know just enough to
 * find operators, constants, names and statement boundaries.
 *
 * What is never a token: comments, whitespace and (in C) preprocessor lines
 * (#include, #define: a mutation there would change every use at once).
 * String and character literals are single tokens of kind TOK_STRING, which
 * no operator mutates.  Python's logical lines are marked: `bol` on the
 * first token of each one, `indent` its column; bracket nesting and
 * backslash continuations join physical lines as Python does.
 *
 * Ownership: a token_list owns its array; the tokens point into the source
 * by offset only, so the source must outlive any use of the offsets.
 */
#ifndef GRADER_MUTATE_LEX_H
#define GRADER_MUTATE_LEX_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"

enum mutate_lang { MUTATE_C, MUTATE_PYTHON };

enum token_kind { TOK_IDENT, TOK_NUMBER, TOK_STRING, TOK_PUNCT };

struct token {
	enum token_kind kind;
	size_t off, len;   /* the token's bytes in the source */
	int line, column;  /* 1-based; column counts bytes */
	int depth;         /* ( [ { nesting before the token (an opening bracket has the outer depth) */
	bool bol;          /* Python: first token of a logical line */
	int indent;        /* Python: the logical line's indentation (column - 1 of its first token) */
};

struct token_list {
	struct token *v;
	int n;
	size_t alloc;
};
#define TOKEN_LIST_INIT { NULL, 0, 0 }

/*
 * Tokenize src[0 .. len) as lang.  0, or -1 with "line:column: why" in err
 * (an unterminated comment or string: the reference would not compile).
 */
int mutate_lex(enum mutate_lang lang, const char *src, size_t len, struct token_list *out, struct strbuf *err);
void token_list_release(struct token_list *tl);

/* Is token t exactly the text s? */
bool token_is(const char *src, const struct token *t, const char *s);

#endif
