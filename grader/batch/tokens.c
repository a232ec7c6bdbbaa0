/* tokens.c - see tokens.h */
#include "batch/tokens.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct lexer {
	const char *p, *end;
	struct token_stream *ts;
};

static const char *const c_keywords[] = {
	"auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
	"extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return",
	"short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void",
	"volatile", "while", "_Bool", "bool", "true", "false", "NULL", NULL,
};

/* longest first: the lexer takes the first that matches */
static const char *const c_puncts[] = {
	"<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=",
	"*=", "/=", "%=", "&=", "|=", "^=", NULL,
};

static const char *const py_keywords[] = {
	"False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
	"def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in",
	"is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with",
	"yield", NULL,
};

static const char *const py_puncts[] = {
	"**=", "//=", ">>=", "<<=", "...", "**", "//", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "%=",
	"&=", "|=", "^=", "->", ":=", "<<", ">>", NULL,
};

/* FNV-1a, 64 bits: a token's identity */
static uint64_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ULL;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

static void emit(struct lexer *lx, const char *s, size_t n)
{
	struct token_stream *ts = lx->ts;
	ALLOC_GROW(ts->v, ts->n + 1, ts->alloc);
	ts->v[ts->n++] = hash_bytes(s, n);
}

static void emit_str(struct lexer *lx, const char *s)
{
	emit(lx, s, strlen(s));
}

static bool ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80;
}

static bool ident_char(char c)
{
	return ident_start(c) || isdigit((unsigned char)c);
}

static bool in_list(const char *const *list, const char *s, size_t n)
{
	for (; *list; list++)
		if (strlen(*list) == n && !memcmp(*list, s, n))
			return true;
	return false;
}

/* An identifier or keyword at lx->p: the keyword itself, or the placeholder. */
static void lex_word(struct lexer *lx, const char *const *keywords)
{
	const char *start = lx->p;
	while (lx->p < lx->end && ident_char(*lx->p))
		lx->p++;
	if (in_list(keywords, start, (size_t)(lx->p - start)))
		emit(lx, start, (size_t)(lx->p - start));
	else
		emit_str(lx, "<id>");
}

/* A number (any base, suffix or exponent): one placeholder. */
static void lex_number(struct lexer *lx)
{
	while (lx->p < lx->end) {
		char c = *lx->p;
		if (ident_char(c) || c == '.')
			lx->p++;
		else if ((c == '+' || c == '-') && strchr("eEpP", lx->p[-1]))
			lx->p++;
		else
			break;
	}
	emit_str(lx, "<num>");
}

static bool starts_number(const struct lexer *lx)
{
	return isdigit((unsigned char)*lx->p) ||
	       (*lx->p == '.' && lx->p + 1 < lx->end && isdigit((unsigned char)lx->p[1]));
}

/* An operator or punctuation mark: the longest one listed, else one byte. */
static void lex_punct(struct lexer *lx, const char *const *puncts)
{
	size_t left = (size_t)(lx->end - lx->p);
	for (; *puncts; puncts++) {
		size_t n = strlen(*puncts);
		if (n <= left && !memcmp(lx->p, *puncts, n)) {
			emit(lx, lx->p, n);
			lx->p += n;
			return;
		}
	}
	emit(lx, lx->p++, 1);
}

/* Past a quoted literal whose opening quote is at lx->p (escapes honoured; a line end stops it). */
static void skip_quoted(struct lexer *lx)
{
	char q = *lx->p++;
	while (lx->p < lx->end && *lx->p != q && *lx->p != '\n') {
		if (*lx->p == '\\' && lx->p + 1 < lx->end)
			lx->p++;
		lx->p++;
	}
	if (lx->p < lx->end && *lx->p == q)
		lx->p++;
}

/* To the end of the line (not past it); with continued, a backslash before the line end continues it. */
static void skip_line(struct lexer *lx, bool continued)
{
	while (lx->p < lx->end && *lx->p != '\n') {
		if (continued && *lx->p == '\\' && lx->p + 1 < lx->end && lx->p[1] == '\n')
			lx->p++;
		lx->p++;
	}
}

static bool at(const struct lexer *lx, const char *s)
{
	size_t n = strlen(s);
	return (size_t)(lx->end - lx->p) >= n && !memcmp(lx->p, s, n);
}

static void skip_block_comment(struct lexer *lx)
{
	lx->p += 2;
	while (lx->p < lx->end && !at(lx, "*/"))
		lx->p++;
	lx->p = lx->p < lx->end ? lx->p + 2 : lx->end;
}

static void tokenize_c(struct lexer *lx)
{
	bool line_start = true;
	while (lx->p < lx->end) {
		char c = *lx->p;
		if (c == '\n' || isspace((unsigned char)c)) {
			line_start |= c == '\n';
			lx->p++;
		} else if (c == '#' && line_start) {
			skip_line(lx, true);
		} else if (at(lx, "//")) {
			skip_line(lx, true);
		} else if (at(lx, "/*")) {
			skip_block_comment(lx);
		} else {
			line_start = false;
			if (ident_start(c)) {
				lex_word(lx, c_keywords);
			} else if (starts_number(lx)) {
				lex_number(lx);
			} else if (c == '"' || c == '\'') {
				skip_quoted(lx);
				emit_str(lx, c == '"' ? "<str>" : "<chr>");
			} else {
				lex_punct(lx, c_puncts);
			}
		}
	}
}

/* ---- Python ---- */

/* A string prefix (r, b, f, u, rb, ...) followed by a quote? Its length, else 0. */
static size_t string_prefix(const struct lexer *lx)
{
	size_t n = 0;
	while (n < 2 && lx->p + n < lx->end && lx->p[n] && strchr("rRbBuUfF", lx->p[n]))
		n++;
	return lx->p + n < lx->end && (lx->p[n] == '"' || lx->p[n] == '\'') ? n : 0;
}

/* Past a string literal whose quote is at lx->p, triple-quoted or not. */
static void skip_py_string(struct lexer *lx)
{
	char q = *lx->p;
	char triple[4] = { q, q, q, 0 };
	if (!at(lx, triple)) {
		skip_quoted(lx);
		return;
	}
	lx->p += 3;
	while (lx->p < lx->end && !at(lx, triple))
		lx->p += *lx->p == '\\' && lx->p + 1 < lx->end ? 2 : 1;
	lx->p = lx->p < lx->end ? lx->p + 3 : lx->end;
}

/* Is the rest of the line blank or a comment? */
static bool rest_of_line_empty(const struct lexer *lx)
{
	const char *p = lx->p;
	while (p < lx->end && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	return p >= lx->end || *p == '\n' || *p == '#';
}

/*
 * Python: layout does not count at all (no INDENT or NEWLINE tokens), so
 * `if x: return y` on one line and on two are the same; a string standing
 * alone as a statement (a docstring) is a comment.
 */
static void tokenize_python(struct lexer *lx)
{
	bool line_start = true;
	int brackets = 0;
	while (lx->p < lx->end) {
		char c = *lx->p;
		size_t prefix = 0;
		if (c == '\n' || isspace((unsigned char)c) || (c == '\\' && lx->p + 1 < lx->end && lx->p[1] == '\n')) {
			line_start |= c == '\n' && !brackets;
			lx->p += c == '\\' ? 2 : 1;
		} else if (c == '#') {
			skip_line(lx, false);
		} else if ((prefix = string_prefix(lx)) || c == '"' || c == '\'') {
			bool statement = line_start;
			lx->p += prefix;
			skip_py_string(lx);
			if (!statement || !rest_of_line_empty(lx))
				emit_str(lx, "<str>");
			line_start = false;
		} else {
			line_start = false;
			if (ident_start(c)) {
				lex_word(lx, py_keywords);
			} else if (starts_number(lx)) {
				lex_number(lx);
			} else {
				brackets += strchr("([{", c) ? 1 : strchr(")]}", c) && brackets > 0 ? -1 : 0;
				lex_punct(lx, py_puncts);
			}
		}
	}
}

void tokenize(struct token_stream *ts, enum token_flavour flavour, const char *src, size_t len)
{
	struct lexer lx = { src, src + len, ts };
	if (flavour == TOKENS_PYTHON)
		tokenize_python(&lx);
	else
		tokenize_c(&lx);
}

void token_stream_release(struct token_stream *ts)
{
	free(ts->v);
	ts->v = NULL;
	ts->n = ts->alloc = 0;
}
