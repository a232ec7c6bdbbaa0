/* mutate_lex.c - see mutate_lex.h */
#include "mutate/mutate_lex.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Punctuators, longest first within each list: the lexer takes the first that matches. */
static const char *const c_puncts[] = {
	"<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", NULL,
};
static const char *const py_puncts[] = {
	"**=", "//=", ">>=", "<<=", "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "->", "+=", "-=",
	"*=", "/=", "%=", "&=", "|=", "^=", ":=", NULL,
};

struct lexer {
	enum mutate_lang lang;
	const char *src;
	size_t len, pos;
	int line;
	size_t line_start;   /* offset of the current physical line */
	int depth;
	bool at_bol;         /* Python: the next token starts a logical line */
	struct token_list *out;
};

bool token_is(const char *src, const struct token *t, const char *s)
{
	return strlen(s) == t->len && !memcmp(src + t->off, s, t->len);
}

void token_list_release(struct token_list *tl)
{
	free(tl->v);
	tl->v = NULL;
	tl->n = 0;
	tl->alloc = 0;
}

static void advance(struct lexer *lx, size_t n)
{
	for (size_t k = 0; k < n && lx->pos < lx->len; k++, lx->pos++)
		if (lx->src[lx->pos] == '\n') {
			lx->line++;
			lx->line_start = lx->pos + 1;
			if (lx->lang == MUTATE_PYTHON && lx->depth == 0)
				lx->at_bol = true;
		}
}

static int fail_at(struct lexer *lx, size_t at, const char *why, struct strbuf *err)
{
	int line = 1;
	size_t ls = 0;
	for (size_t k = 0; k < at && k < lx->len; k++)
		if (lx->src[k] == '\n') {
			line++;
			ls = k + 1;
		}
	strbuf_addf(err, "%d:%zu: %s", line, at - ls + 1, why);
	return -1;
}

static void push(struct lexer *lx, enum token_kind kind, size_t len)
{
	struct token *t;
	ALLOC_GROW(lx->out->v, (size_t)lx->out->n + 1, lx->out->alloc);
	t = &lx->out->v[lx->out->n++];
	memset(t, 0, sizeof(*t));
	t->kind = kind;
	t->off = lx->pos;
	t->len = len;
	t->line = lx->line;
	t->column = (int)(lx->pos - lx->line_start) + 1;
	t->depth = lx->depth;
	if (lx->lang == MUTATE_PYTHON) {
		t->bol = lx->at_bol;
		t->indent = t->bol ? t->column - 1 : lx->out->n > 1 ? lx->out->v[lx->out->n - 2].indent : 0;
		lx->at_bol = false;
	}
}

/* Whitespace, comments, C preprocessor lines and Python continuations: 1 when something was skipped. */
static int skip_space(struct lexer *lx, struct strbuf *err)
{
	const char *s = lx->src + lx->pos;
	size_t rest = lx->len - lx->pos;
	if (isspace((unsigned char)*s)) {
		advance(lx, 1);
		return 1;
	}
	if (*s == '\\' && rest > 1 && s[1] == '\n') {
		lx->pos += 1; /* a continuation: the newline does not end the logical line */
		lx->line++;
		lx->pos++;
		lx->line_start = lx->pos;
		return 1;
	}
	if ((lx->lang == MUTATE_PYTHON && *s == '#') || (lx->lang == MUTATE_C && rest > 1 && s[0] == '/' && s[1] == '/')) {
		size_t n = strcspn(s, "\n");
		advance(lx, n);
		return 1;
	}
	if (lx->lang == MUTATE_C && rest > 1 && s[0] == '/' && s[1] == '*') {
		const char *end = strstr(s + 2, "*/");
		if (!end)
			return fail_at(lx, lx->pos, "unterminated comment", err);
		advance(lx, (size_t)(end - s) + 2);
		return 1;
	}
	if (lx->lang == MUTATE_C && *s == '#') {
		/* a preprocessor line, with its backslash continuations: not mutated */
		size_t n = 0;
		while (n < rest && !(s[n] == '\n' && (n == 0 || s[n - 1] != '\\')))
			n++;
		advance(lx, n);
		return 1;
	}
	return 0;
}

/* A string or character literal starting at pos + prefix (Python's r, b, f... prefixes included). */
static int lex_string(struct lexer *lx, size_t prefix, struct strbuf *err)
{
	const char *s = lx->src + lx->pos + prefix;
	size_t rest = lx->len - lx->pos - prefix, n;
	char q = *s;
	bool triple = lx->lang == MUTATE_PYTHON && rest >= 3 && s[1] == q && s[2] == q;
	size_t open = triple ? 3 : 1;

	for (n = open; n < rest; n++) {
		if (s[n] == '\\') {
			n++;
			continue;
		}
		if (!triple && s[n] == '\n')
			break;
		if (s[n] == q && (!triple || (n + 2 < rest && s[n + 1] == q && s[n + 2] == q)))
			break;
	}
	if (n >= rest || s[n] != q)
		return fail_at(lx, lx->pos, "unterminated string", err);
	push(lx, TOK_STRING, prefix + n + (triple ? 3 : 1));
	advance(lx, prefix + n + (triple ? 3 : 1));
	lx->at_bol = false; /* a newline inside a triple-quoted string ends no line */
	return 0;
}

static size_t string_prefix(const struct lexer *lx)
{
	const char *s = lx->src + lx->pos;
	size_t n = 0;
	if (lx->lang == MUTATE_C)
		return (size_t)-1;
	while (n < 2 && strchr("rRbBfFuU", s[n]) && s[n])
		n++;
	return n < lx->len - lx->pos && (s[n] == '"' || s[n] == '\'') ? n : (size_t)-1;
}

static void lex_punct(struct lexer *lx)
{
	const char *const *list = lx->lang == MUTATE_C ? c_puncts : py_puncts;
	const char *s = lx->src + lx->pos;
	size_t n = 1;
	for (int i = 0; list[i]; i++)
		if (!strncmp(s, list[i], strlen(list[i]))) {
			n = strlen(list[i]);
			break;
		}
	if (n == 1 && strchr(")]}", *s) && lx->depth > 0)
		lx->depth--;
	push(lx, TOK_PUNCT, n);
	if (n == 1 && strchr("([{", *s))
		lx->depth++;
	advance(lx, n);
}

static int lex_one(struct lexer *lx, struct strbuf *err)
{
	const char *s = lx->src + lx->pos;
	size_t prefix = string_prefix(lx), n = 0;

	if (*s == '"' || *s == '\'' || prefix != (size_t)-1)
		return lex_string(lx, *s == '"' || *s == '\'' ? 0 : prefix, err);
	if (isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]))) {
		while (lx->pos + n < lx->len &&
		       (isalnum((unsigned char)s[n]) || s[n] == '.' || s[n] == '_' ||
			((s[n] == '+' || s[n] == '-') && n && (s[n - 1] == 'e' || s[n - 1] == 'E') &&
			 !(s[0] == '0' && (s[1] == 'x' || s[1] == 'X')))))
			n++;
		push(lx, TOK_NUMBER, n);
		advance(lx, n);
		return 0;
	}
	if (isalpha((unsigned char)*s) || *s == '_') {
		while (lx->pos + n < lx->len && (isalnum((unsigned char)s[n]) || s[n] == '_'))
			n++;
		push(lx, TOK_IDENT, n);
		advance(lx, n);
		return 0;
	}
	lex_punct(lx);
	return 0;
}

int mutate_lex(enum mutate_lang lang, const char *src, size_t len, struct token_list *out, struct strbuf *err)
{
	struct lexer lx;
	memset(&lx, 0, sizeof(lx));
	lx.lang = lang;
	lx.src = src;
	lx.len = len;
	lx.line = 1;
	lx.at_bol = true;
	lx.out = out;
	while (lx.pos < lx.len) {
		int r = skip_space(&lx, err);
		if (r < 0)
			return -1;
		if (r == 0 && lex_one(&lx, err) < 0)
			return -1;
	}
	return 0;
}
