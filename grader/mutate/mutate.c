/*
 * mutate.c - see mutate.h.  Each operator walks the token list
 * (mutate_lex.h) and emits mutants as (span, replacement) pairs; the
 * operators share a few helpers that find a bracket's partner, a
 * statement's end and an expression's edges.
 */
#define _GNU_SOURCE
#include "mutate/mutate.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct gen {
	const char *name;
	enum mutate_lang lang;
	const char *src;
	size_t len;
	const struct token *t;
	int n;
	struct mutant_list *out;
};

/* C words after which a '*' declares a pointer rather than multiplies, and that start no expression statement. */
static const char *const c_words[] = {
	"int", "long", "short", "char", "unsigned", "signed", "void", "bool", "_Bool", "float", "double",
	"const", "static", "extern", "struct", "union", "enum", "volatile", "register", "size_t", "return",
	"sizeof", "case", "typedef", "if", "else", "for", "while", "do", "switch", "goto", "break",
	"continue", "default", "inline", NULL,
};
static const char *const c_types[] = {
	"int", "long", "short", "char", "unsigned", "signed", "void", "bool", "_Bool", "float", "double",
	"const", "size_t", NULL,
};
static const char *const py_words[] = {
	"and", "or", "not", "in", "is", "if", "else", "elif", "while", "for", "return", "lambda", "yield",
	"assert", "del", "def", "class", "try", "except", "finally", "with", "pass", "break", "continue",
	"import", "from", "global", "nonlocal", "raise", "async", "await", "as", NULL,
};

static bool in_list(const char *const *list, const char *src, const struct token *t)
{
	for (int i = 0; list[i]; i++)
		if (token_is(src, t, list[i]))
			return true;
	return false;
}

static bool is(const struct gen *g, int i, const char *s)
{
	return i >= 0 && i < g->n && token_is(g->src, &g->t[i], s);
}

static bool is_word(const struct gen *g, int i)
{
	return i >= 0 && i < g->n && g->t[i].kind == TOK_IDENT &&
	       in_list(g->lang == MUTATE_C ? c_words : py_words, g->src, &g->t[i]);
}

static bool is_c_type(const struct gen *g, int i)
{
	return g->lang == MUTATE_C && i >= 0 && g->t[i].kind == TOK_IDENT && in_list(c_types, g->src, &g->t[i]);
}

static size_t tend(const struct gen *g, int i)
{
	return g->t[i].off + g->t[i].len;
}

/* ---- emitting ---- */

static void emit(struct gen *g, const char *op, int tok, size_t start, size_t end, const char *repl,
		 const char *description)
{
	struct mutant *m;
	char *id = xasprintf("%s:%d:%d:%s", g->name, g->t[tok].line, g->t[tok].column, op);
	int same = 1;
	for (int k = 0; k < g->out->n; k++)
		if (!strncmp(g->out->v[k].id, id, strlen(id)) &&
		    (g->out->v[k].id[strlen(id)] == '\0' || g->out->v[k].id[strlen(id)] == '#'))
			same++;
	if (same > 1) {
		char *numbered = xasprintf("%s#%d", id, same);
		free(id);
		id = numbered;
	}
	ALLOC_GROW(g->out->v, (size_t)g->out->n + 1, g->out->alloc);
	m = &g->out->v[g->out->n++];
	m->id = id;
	m->op = op;
	m->line = g->t[tok].line;
	m->column = g->t[tok].column;
	m->start = start;
	m->end = end;
	m->replacement = xstrdup(repl);
	m->description = xstrdup(description);
}

/* Replace token i by repl. */
static void emit_token(struct gen *g, const char *op, int i, const char *repl)
{
	char *d = xasprintf("'%.*s' -> '%s'", (int)g->t[i].len, g->src + g->t[i].off, repl);
	emit(g, op, i, g->t[i].off, tend(g, i), repl, d);
	free(d);
}

/* Replace tokens [a, b) by pre + their text + post, or (keep false) by pre alone. */
static void emit_wrap(struct gen *g, const char *op, int a, int b, const char *pre, bool keep, const char *post,
		      const char *what)
{
	char *text = xstrndup(g->src + g->t[a].off, tend(g, b - 1) - g->t[a].off);
	char *repl = keep ? xasprintf("%s%s%s", pre, text, post) : xstrdup(pre);
	char *d = xasprintf("%s: '%s' -> '%s'", what, text, repl);
	emit(g, op, a, g->t[a].off, tend(g, b - 1), repl, d);
	free(d);
	free(repl);
	free(text);
}

/* ---- structure helpers ---- */

/* The closing partner of the opening bracket at i, or g->n. */
static int closing(const struct gen *g, int i)
{
	for (int j = i + 1; j < g->n; j++)
		if (g->t[j].depth == g->t[i].depth && g->t[j].kind == TOK_PUNCT && g->t[j].len == 1 &&
		    strchr(")]}", g->src[g->t[j].off]))
			return j;
	return g->n;
}

/* Python: one past the last token of the logical line that holds token i. */
static int line_end(const struct gen *g, int i)
{
	int j = i + 1;
	while (j < g->n && !g->t[j].bol)
		j++;
	return j;
}

/* C: the first ';' at token i's depth from i on, or g->n. */
static int semicolon(const struct gen *g, int i)
{
	for (int j = i; j < g->n; j++)
		if (g->t[j].depth == g->t[i].depth && is(g, j, ";"))
			return j;
	return g->n;
}

/* Do token ranges [a0, a1) and [b0, b1) hold the same text? */
static bool same_text(const struct gen *g, int a0, int a1, int b0, int b1)
{
	if (a1 - a0 != b1 - b0 || a1 <= a0)
		return false;
	for (int k = 0; k < a1 - a0; k++)
		if (g->t[a0 + k].len != g->t[b0 + k].len ||
		    memcmp(g->src + g->t[a0 + k].off, g->src + g->t[b0 + k].off, g->t[a0 + k].len))
			return false;
	return true;
}

static bool is_rel(const struct gen *g, int i)
{
	return g->t[i].kind == TOK_PUNCT &&
	       (is(g, i, "<") || is(g, i, "<=") || is(g, i, ">") || is(g, i, ">=") || is(g, i, "==") || is(g, i, "!="));
}

/* Does the token before i end an operand (so that an operator at i is binary)? */
static bool ends_operand(const struct gen *g, int i)
{
	if (i < 0)
		return false;
	if (g->t[i].kind == TOK_NUMBER || g->t[i].kind == TOK_STRING)
		return true;
	if (g->t[i].kind == TOK_IDENT)
		return !is_word(g, i) || is(g, i, "True") || is(g, i, "False");
	return is(g, i, ")") || is(g, i, "]");
}

/* ---- the operators ---- */

/* rel: < <=, > >=, == != */
static void op_rel(struct gen *g, int i)
{
	static const char *const swaps[][2] = { { "<", "<=" }, { "<=", "<" }, { ">", ">=" },
						{ ">=", ">" }, { "==", "!=" }, { "!=", "==" } };
	for (size_t k = 0; k < sizeof(swaps) / sizeof(swaps[0]); k++)
		if (g->t[i].kind == TOK_PUNCT && is(g, i, swaps[k][0]))
			emit_token(g, "rel", i, swaps[k][1]);
}

/* arith: binary + -, * -> +, / -> *, % -> /, and the compound assignments */
static void op_arith(struct gen *g, int i)
{
	static const char *const c_swaps[][2] = { { "+", "-" }, { "-", "+" }, { "*", "+" }, { "/", "*" },
						  { "%", "/" }, { "+=", "-=" }, { "-=", "+=" }, { "*=", "+=" } };
	static const char *const py_swaps[][2] = { { "+", "-" }, { "-", "+" }, { "*", "+" }, { "/", "*" },
						   { "//", "*" }, { "%", "//" }, { "+=", "-=" }, { "-=", "+=" },
						   { "*=", "+=" } };
	const char *const(*swaps)[2] = g->lang == MUTATE_C ? c_swaps : py_swaps;
	size_t n = g->lang == MUTATE_C ? sizeof(c_swaps) / sizeof(c_swaps[0]) : sizeof(py_swaps) / sizeof(py_swaps[0]);

	if (g->t[i].kind != TOK_PUNCT)
		return;
	for (size_t k = 0; k < n; k++)
		if (is(g, i, swaps[k][0])) {
			bool compound = swaps[k][0][strlen(swaps[k][0]) - 1] == '=';
			if (compound || ends_operand(g, i - 1))
				emit_token(g, "arith", i, swaps[k][1]);
		}
}

/* The value and suffix of an integer constant, or false (a float, an imaginary, digits with '_'). */
static bool integer_constant(const struct gen *g, int i, unsigned long long *v, char *suffix, size_t suffix_size)
{
	char *text = xstrndup(g->src + g->t[i].off, g->t[i].len), *end;
	bool hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
	bool ok = !strchr(text, '.') && !strchr(text, '_') && (hex || !strpbrk(text, "eEjJ"));
	size_t digits = 0;

	if (ok) {
		errno = 0;
		*v = strtoull(text, &end, g->lang == MUTATE_PYTHON && !hex ? 10 : 0);
		digits = (size_t)(end - text);
		ok = errno == 0 && digits > 0 && strspn(end, "uUlL") == strlen(end) && strlen(end) < suffix_size;
		if (ok)
			strcpy(suffix, end);
	}
	free(text);
	return ok;
}

/* const-inc, const-dec, const-zero; not an array's declared size (C: `long long next[3]`) */
static void op_const(struct gen *g, int i)
{
	unsigned long long v;
	char suffix[8], repl[64];
	bool glued; /* a sign right before the constant: a negative replacement needs parentheses */

	if (g->t[i].kind != TOK_NUMBER || !integer_constant(g, i, &v, suffix, sizeof(suffix)))
		return;
	if (is(g, i - 1, "[") && i >= 3 && g->t[i - 2].kind == TOK_IDENT && is_c_type(g, i - 3))
		return;
	glued = g->t[i].off > 0 && strchr("+-", g->src[g->t[i].off - 1]);
	snprintf(repl, sizeof(repl), "%llu%s", v + 1, suffix);
	emit_token(g, "const-inc", i, repl);
	if (v == 0)
		snprintf(repl, sizeof(repl), glued ? "(-1%s)" : "-1%s", suffix);
	else
		snprintf(repl, sizeof(repl), "%llu%s", v - 1, suffix);
	emit_token(g, "const-dec", i, repl);
	if (v > 1) { /* 1 - 1 is 0 already */
		snprintf(repl, sizeof(repl), "0%s", suffix);
		emit_token(g, "const-zero", i, repl);
	}
}

/* narrow: long long -> int */
static void op_narrow(struct gen *g, int i)
{
	if (g->lang != MUTATE_C || !is(g, i, "long") || !is(g, i + 1, "long") || is(g, i - 1, "long"))
		return;
	emit(g, "narrow", i, g->t[i].off, tend(g, i + 1), "int", "'long long' -> 'int'");
}

/* logic: && || / and or */
static void op_logic(struct gen *g, int i)
{
	if (is(g, i, g->lang == MUTATE_C ? "&&" : "and"))
		emit_token(g, "logic", i, g->lang == MUTATE_C ? "||" : "or");
	else if (is(g, i, g->lang == MUTATE_C ? "||" : "or"))
		emit_token(g, "logic", i, g->lang == MUTATE_C ? "&&" : "and");
}

/* not-del: a logical not removed (not Python's `not in` / `is not`) */
static void op_not(struct gen *g, int i)
{
	if (g->lang == MUTATE_C && g->t[i].kind == TOK_PUNCT && is(g, i, "!"))
		emit(g, "not-del", i, g->t[i].off, tend(g, i), "", "'!' removed");
	if (g->lang == MUTATE_PYTHON && is(g, i, "not") && !is(g, i + 1, "in") && !is(g, i - 1, "is") && i + 1 < g->n)
		emit(g, "not-del", i, g->t[i].off, g->t[i + 1].off, "", "'not' removed");
}

/* minmax by name: fmin fmax, MIN MAX, min() max(), not where a function of that name is defined */
static void op_minmax_name(struct gen *g, int i)
{
	static const char *const pairs[][2] = { { "min", "max" }, { "max", "min" }, { "fmin", "fmax" }, { "fmax", "fmin" },
						{ "fminl", "fmaxl" }, { "fmaxl", "fminl" }, { "fminf", "fmaxf" },
						{ "fmaxf", "fminf" }, { "MIN", "MAX" }, { "MAX", "MIN" } };
	if (g->t[i].kind != TOK_IDENT || !is(g, i + 1, "(") || is(g, i - 1, "def") || is_c_type(g, i - 1) ||
	    is(g, i - 1, ".") || is(g, i - 1, "->"))
		return;
	for (size_t k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++)
		if (is(g, i, pairs[k][0]))
			emit_token(g, "minmax", i, pairs[k][1]);
}

/* Is token i where an expression containing it cannot extend backwards past (a ternary's left edge)? */
static bool left_edge(const struct gen *g, int i, int depth)
{
	static const char *const c_edges[] = { ",", "=", "+=", "-=", "*=", "/=", "%=", "return", ";", "{", "}", "?",
					       ":", NULL };
	static const char *const py_edges[] = { ",", "=", "+=", "-=", "*=", "//=", "%=", "return", ":", "lambda",
						"yield", NULL };
	if (g->t[i].depth < depth)
		return true;
	return g->t[i].depth == depth && in_list(g->lang == MUTATE_C ? c_edges : py_edges, g->src, &g->t[i]);
}

static bool right_edge(const struct gen *g, int i, int depth)
{
	static const char *const c_edges[] = { ",", ";", ":", ")", "]", "}", NULL };
	static const char *const py_edges[] = { ",", ":", ")", "]", "}", "for", "if", NULL };
	if (g->t[i].depth < depth || (g->lang == MUTATE_PYTHON && g->t[i].bol))
		return true;
	return g->t[i].depth == depth && in_list(g->lang == MUTATE_C ? c_edges : py_edges, g->src, &g->t[i]);
}

/*
 * A ternary's condition [c0, c1) and branches [a0, a1) (taken when true)
 * and [b0, b1): minmax when the condition compares exactly the two
 * branches (swap them), else cond-neg.
 */
static void ternary(struct gen *g, int c0, int c1, int a0, int a1, int b0, int b1)
{
	int rel = -1, nrel = 0;
	for (int k = c0; k < c1; k++)
		if (g->t[k].depth == g->t[c0].depth && is_rel(g, k)) {
			rel = k;
			nrel++;
		}
	if (nrel == 1 && ((same_text(g, c0, rel, a0, a1) && same_text(g, rel + 1, c1, b0, b1)) ||
			  (same_text(g, c0, rel, b0, b1) && same_text(g, rel + 1, c1, a0, a1)))) {
		size_t s0 = g->t[a0].off, s1 = tend(g, a1 - 1), s2 = g->t[b0].off, s3 = tend(g, b1 - 1);
		/* the branches swapped: the source's own text in between kept */
		char *repl = xasprintf("%.*s%.*s%.*s", (int)(s3 - s2), g->src + s2, (int)(s2 - s1), g->src + s1,
				       (int)(s1 - s0), g->src + s0);
		char *d = xasprintf("min and max swapped: '%.*s' -> '%s'", (int)(s3 - s0), g->src + s0, repl);
		emit(g, "minmax", a0 < b0 ? a0 : b0, a0 < b0 ? s0 : s2, a0 < b0 ? s3 : s1, repl, d);
		free(d);
		free(repl);
		return;
	}
	emit_wrap(g, "cond-neg", c0, c1, g->lang == MUTATE_C ? "!(" : "not (", true, ")", "condition negated");
}

/* C: cond ? a : b */
static void op_ternary_c(struct gen *g, int q)
{
	int d = g->t[q].depth, c0 = q, colon = -1, nested = 0, b1;
	if (g->lang != MUTATE_C || !is(g, q, "?"))
		return;
	while (c0 > 0 && !left_edge(g, c0 - 1, d))
		c0--;
	for (int k = q + 1; k < g->n && colon < 0; k++) {
		if (g->t[k].depth < d)
			return;
		if (g->t[k].depth == d && is(g, k, "?"))
			nested++;
		if (g->t[k].depth == d && is(g, k, ":") && nested-- == 0)
			colon = k;
	}
	if (colon < 0 || c0 == q || colon == q + 1)
		return;
	for (b1 = colon + 1; b1 < g->n && !right_edge(g, b1, d); b1++)
		;
	if (b1 > colon + 1)
		ternary(g, c0, q, q + 1, colon, colon + 1, b1);
}

/* Python: a if cond else b (an `if` that does not start its line) */
static void op_ternary_py(struct gen *g, int i)
{
	int d = g->t[i].depth, a0 = i, els = -1, b1;
	if (g->lang != MUTATE_PYTHON || !is(g, i, "if") || g->t[i].bol)
		return;
	for (int k = i + 1; k < g->n && !g->t[k].bol && g->t[k].depth >= d && els < 0; k++)
		if (g->t[k].depth == d && is(g, k, "else"))
			els = k;
	if (els < 0 || els == i + 1)
		return; /* a comprehension's filter */
	while (a0 > 0 && !g->t[a0].bol && !left_edge(g, a0 - 1, d))
		a0--;
	for (b1 = els + 1; b1 < g->n && !right_edge(g, b1, d); b1++)
		;
	if (a0 < i && b1 > els + 1)
		ternary(g, i + 1, els, a0, i, els + 1, b1);
}

/* The condition of an if / while at i: [*c0, *c1), or false. */
static bool statement_condition(const struct gen *g, int i, int *c0, int *c1)
{
	if (g->lang == MUTATE_C) {
		if (!is(g, i + 1, "("))
			return false;
		*c0 = i + 2;
		*c1 = closing(g, i + 1);
		return *c1 < g->n && *c1 > *c0;
	}
	if (!g->t[i].bol && !is(g, i, "elif"))
		return false;
	*c0 = i + 1;
	for (*c1 = *c0; *c1 < g->n && !g->t[*c1].bol; (*c1)++)
		if (g->t[*c1].depth == g->t[i].depth && is(g, *c1, ":"))
			return *c1 > *c0;
	return false;
}

/*
 * Is [c0, c1) one negated operand, "!x[i]" or "not x[i]"?  Negating it
 * again is the mutant not-del makes already.
 */
static bool negated_operand(const struct gen *g, int c0, int c1)
{
	if (!is(g, c0, g->lang == MUTATE_C ? "!" : "not"))
		return false;
	for (int k = c0 + 2; k < c1; k++)
		if (g->t[k].depth == g->t[c0].depth && !is(g, k, "[") && !is(g, k, "(") && !is(g, k, "."))
			return false;
	return true;
}

/* cond-neg, cond-true, cond-false on an if (elif); cond-neg on a while or a for's condition */
static void op_cond(struct gen *g, int i)
{
	int c0, c1;
	bool is_if = is(g, i, "if") || (g->lang == MUTATE_PYTHON && is(g, i, "elif"));
	if (g->t[i].kind != TOK_IDENT)
		return;
	if ((is_if || is(g, i, "while")) && statement_condition(g, i, &c0, &c1)) {
		if (!negated_operand(g, c0, c1))
			emit_wrap(g, "cond-neg", c0, c1, g->lang == MUTATE_C ? "!(" : "not (", true, ")",
				  "condition negated");
		if (is_if) {
			emit_wrap(g, "cond-true", c0, c1, g->lang == MUTATE_C ? "1" : "True", false, "", "condition removed (always)");
			emit_wrap(g, "cond-false", c0, c1, g->lang == MUTATE_C ? "0" : "False", false, "", "condition removed (never)");
		}
	}
	if (g->lang == MUTATE_C && is(g, i, "for") && is(g, i + 1, "(")) {
		int s1 = semicolon(g, i + 2), s2 = s1 < g->n ? semicolon(g, s1 + 1) : g->n;
		if (s2 < g->n && s2 > s1 + 1)
			emit_wrap(g, "cond-neg", s1 + 1, s2, "!(", true, ")", "condition negated");
	}
}

/* The loop bound [b0, b1) ± 1: bound-inc and bound-dec (not a lone constant: const-* covers it). */
static void bound(struct gen *g, int b0, int b1, bool parens)
{
	if (b1 <= b0 || (b1 == b0 + 1 && g->t[b0].kind == TOK_NUMBER))
		return;
	emit_wrap(g, "bound-inc", b0, b1, parens ? "(" : "", true, parens ? ") + 1" : " + 1", "loop bound + 1");
	emit_wrap(g, "bound-dec", b0, b1, parens ? "(" : "", true, parens ? ") - 1" : " - 1", "loop bound - 1");
}

/* C: for (...; i REL B; ...) -> B ± 1 */
static void op_bound_c(struct gen *g, int i)
{
	int s1, s2, rel = -1, nrel = 0, d;
	bool shifts = false;
	if (g->lang != MUTATE_C || !is(g, i, "for") || !is(g, i + 1, "("))
		return;
	d = g->t[i + 1].depth + 1;
	s1 = semicolon(g, i + 2);
	s2 = s1 < g->n ? semicolon(g, s1 + 1) : g->n;
	for (int k = s1 + 1; k < s2; k++) {
		if (g->t[k].depth != d)
			continue;
		if (is_rel(g, k)) {
			rel = k;
			nrel++;
		}
		if (is(g, k, "&&") || is(g, k, "||") || is(g, k, "?") || is(g, k, ","))
			return;
		shifts |= is(g, k, "<<") || is(g, k, ">>");
	}
	if (nrel == 1 && s2 < g->n)
		bound(g, rel + 1, s2, shifts);
}

/* Python: range(stop), range(start, stop[, step]) -> stop ± 1 */
static void op_bound_py(struct gen *g, int i)
{
	int open = i + 1, close, comma[3], ncomma = 0, b0, b1;
	bool complex = false;
	if (g->lang != MUTATE_PYTHON || !is(g, i, "range") || !is(g, open, "(") || is(g, i - 1, "."))
		return;
	close = closing(g, open);
	for (int k = open + 1; k < close; k++) {
		if (g->t[k].depth != g->t[open].depth + 1)
			continue;
		if (is(g, k, ",") && ncomma < 3)
			comma[ncomma++] = k;
		complex |= is_rel(g, k) || is(g, k, "if") || is(g, k, "and") || is(g, k, "or") || is(g, k, "not") ||
			   is(g, k, "lambda");
	}
	if (close >= g->n || ncomma > 2)
		return;
	b0 = ncomma ? comma[0] + 1 : open + 1;
	b1 = ncomma > 1 ? comma[1] : close;
	bound(g, b0, b1, complex);
}

/* ---- stmt-del ---- */

/* The statement's text on one line (runs of whitespace as one space), at most 60 bytes, for descriptions. */
static char *one_line(const char *s, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t k = 0; k < n; k++) {
		if (isspace((unsigned char)s[k])) {
			while (k + 1 < n && isspace((unsigned char)s[k + 1]))
				k++;
			strbuf_addch(&sb, ' ');
		} else {
			strbuf_addch(&sb, s[k]);
		}
		if (sb.len >= 60) {
			strbuf_addstr(&sb, "...");
			break;
		}
	}
	return strbuf_detach(&sb);
}

/*
 * Delete the statement [s, e] (tokens) for repl.  A C statement that is
 * alone on its lines goes with its lines, so the diff shows a deletion.
 */
static void emit_delete(struct gen *g, int s, int e, const char *repl, const char *what)
{
	size_t start = g->t[s].off, end = tend(g, e);
	char *text = one_line(g->src + start, end - start);
	char *d = xasprintf("%s deleted: '%s'", what, text);

	if (!*repl) {
		size_t ls = start, le = end;
		while (ls > 0 && (g->src[ls - 1] == ' ' || g->src[ls - 1] == '\t'))
			ls--;
		while (le < g->len && (g->src[le] == ' ' || g->src[le] == '\t'))
			le++;
		if ((ls == 0 || g->src[ls - 1] == '\n') && le < g->len && g->src[le] == '\n') {
			start = ls;
			end = le + 1;
		}
	}
	emit(g, "stmt-del", s, start, end, repl, d);
	free(d);
	free(text);
}

/* C: does block brace i open a function body (a ')' before it, at file level)? */
static bool function_body(const struct gen *g, int i)
{
	return g->t[i].depth == 0 && is(g, i, "{") && is(g, i - 1, ")");
}

/* C: is token s the first of a statement directly inside a function's block? */
static bool c_statement_start(const struct gen *g, const int *encl, int s)
{
	int b = encl[s];
	if (b < 0 || !is(g, b, "{"))
		return false;
	if (!function_body(g, b) && !(is(g, b - 1, ")") || is(g, b - 1, "{") || is(g, b - 1, "}") ||
				      is(g, b - 1, ";") || is(g, b - 1, "else") || is(g, b - 1, "do")))
		return false; /* an initializer's braces */
	while (b >= 0 && !function_body(g, b))
		b = encl[b];
	if (b < 0)
		return false;
	return is(g, s - 1, ";") || is(g, s - 1, "{") || is(g, s - 1, "}") || is(g, s - 1, ")") || is(g, s - 1, "else");
}

/* C: an if whose body is one return and that has no else: its last token, or -1. */
static int c_base_case(const struct gen *g, int s)
{
	int hdr, e;
	if (!is(g, s, "if") || !is(g, s + 1, "("))
		return -1;
	hdr = closing(g, s + 1);
	if (is(g, hdr + 1, "return"))
		e = semicolon(g, hdr + 1);
	else if (is(g, hdr + 1, "{") && is(g, hdr + 2, "return") && closing(g, hdr + 1) == semicolon(g, hdr + 2) + 1)
		e = closing(g, hdr + 1);
	else
		return -1;
	return e < g->n && !is(g, e + 1, "else") ? e : -1;
}

static void c_statement(struct gen *g, int s)
{
	const char *repl = is(g, s - 1, ")") || is(g, s - 1, "else") ? ";" : "";
	int e = c_base_case(g, s);
	if (e >= 0) {
		emit_delete(g, s, e, repl, "base case");
		return;
	}
	if (is(g, s, "return")) {
		e = semicolon(g, s);
		if (e < g->n)
			emit_delete(g, s, e, repl, "return");
		return;
	}
	if (g->t[s].kind != TOK_IDENT || is_word(g, s) || (s + 1 < g->n && g->t[s + 1].kind == TOK_IDENT) ||
	    (is(g, s + 1, "*") && s + 2 < g->n && g->t[s + 2].kind == TOK_IDENT))
		return; /* a keyword's statement or a declaration */
	e = semicolon(g, s);
	if (e < g->n)
		emit_delete(g, s, e, repl, "statement");
}

/* Python: an if (at s) whose body is one return and that has no else/elif: its last token, or -1. */
static int py_base_case(const struct gen *g, int s)
{
	int c0, c1, b, after;
	if (!is(g, s, "if") || !statement_condition(g, s, &c0, &c1))
		return -1;
	if (c1 + 1 < g->n && !g->t[c1 + 1].bol)
		return is(g, c1 + 1, "return") ? line_end(g, s) - 1 : -1;
	b = c1 + 1;
	if (b >= g->n || g->t[b].indent <= g->t[s].indent || !is(g, b, "return"))
		return -1;
	after = line_end(g, b);
	if (after < g->n && (g->t[after].indent > g->t[s].indent ||
			     (g->t[after].indent == g->t[s].indent && (is(g, after, "else") || is(g, after, "elif")))))
		return -1;
	return after - 1;
}

static void py_statement(struct gen *g, int s)
{
	int e;
	if (!g->t[s].bol || g->t[s].indent == 0)
		return; /* module level: its definitions, not the algorithm */
	e = py_base_case(g, s);
	if (e >= 0)
		emit_delete(g, s, e, "pass", "base case");
	else if (is(g, s, "return"))
		emit_delete(g, s, line_end(g, s) - 1, "pass", "return");
	else if (g->t[s].kind == TOK_IDENT && !is_word(g, s))
		emit_delete(g, s, line_end(g, s) - 1, "pass", "statement");
}

/* C: per token, its innermost enclosing open bracket (or -1); the caller frees the array. */
static int *enclosing(const struct gen *g)
{
	int *encl = xcalloc((size_t)g->n + 1, sizeof(int));
	int *stack = xcalloc((size_t)g->n + 1, sizeof(int)), top = 0;
	for (int i = 0; i < g->n; i++) {
		bool closes = g->t[i].kind == TOK_PUNCT && g->t[i].len == 1 && strchr(")]}", g->src[g->t[i].off]);
		if (closes && top > 0)
			top--;
		encl[i] = top ? stack[top - 1] : -1;
		if (g->t[i].kind == TOK_PUNCT && g->t[i].len == 1 && strchr("([{", g->src[g->t[i].off]))
			stack[top++] = i;
	}
	free(stack);
	return encl;
}

static void run_operators(struct gen *g)
{
	int *encl = g->lang == MUTATE_C ? enclosing(g) : NULL;
	for (int i = 0; i < g->n; i++) {
		op_rel(g, i);
		op_arith(g, i);
		op_const(g, i);
		op_narrow(g, i);
		op_logic(g, i);
		op_not(g, i);
		op_minmax_name(g, i);
		op_ternary_c(g, i);
		op_ternary_py(g, i);
		op_cond(g, i);
		op_bound_c(g, i);
		op_bound_py(g, i);
		if (g->lang == MUTATE_C && c_statement_start(g, encl, i))
			c_statement(g, i);
		if (g->lang == MUTATE_PYTHON)
			py_statement(g, i);
	}
	free(encl);
}

int mutate_lang_of(const char *name)
{
	size_t l = strlen(name);
	if (l > 2 && !strcasecmp(name + l - 2, ".c"))
		return MUTATE_C;
	if (l > 3 && !strcasecmp(name + l - 3, ".py"))
		return MUTATE_PYTHON;
	return -1;
}

static int compare_mutants(const void *a, const void *b)
{
	const struct mutant *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return strcmp(x->id, y->id);
}

int mutate_generate(const char *name, const char *src, size_t len, struct mutant_list *out, struct strbuf *err)
{
	struct token_list tl = TOKEN_LIST_INIT;
	struct strbuf lexerr = STRBUF_INIT;
	struct gen g;
	int lang = mutate_lang_of(name), ret = -1;

	if (lang < 0) {
		strbuf_addf(err, "'%s': no mutation operators for this kind of file (.c and .py only)", name);
		goto cleanup;
	}
	if (mutate_lex((enum mutate_lang)lang, src, len, &tl, &lexerr) < 0) {
		strbuf_addf(err, "%s:%s", name, lexerr.buf);
		goto cleanup;
	}
	g.name = name;
	g.lang = (enum mutate_lang)lang;
	g.src = src;
	g.len = len;
	g.t = tl.v;
	g.n = tl.n;
	g.out = out;
	run_operators(&g);
	qsort(out->v, (size_t)out->n, sizeof(*out->v), compare_mutants);
	ret = 0;
cleanup:
	token_list_release(&tl);
	strbuf_release(&lexerr);
	return ret;
}

void mutant_list_release(struct mutant_list *l)
{
	for (int i = 0; i < l->n; i++) {
		free(l->v[i].id);
		free(l->v[i].replacement);
		free(l->v[i].description);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

char *mutant_apply(const char *src, size_t len, const struct mutant *m)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_add(&sb, src, m->start);
	strbuf_addstr(&sb, m->replacement);
	strbuf_add(&sb, src + m->end, len - m->end);
	return strbuf_detach(&sb);
}

/* ---- the unified diff ---- */

static size_t line_start_of(const char *src, size_t at)
{
	while (at > 0 && src[at - 1] != '\n')
		at--;
	return at;
}

/* One past the newline ending the line at `at` (or len). */
static size_t line_after(const char *src, size_t len, size_t at)
{
	while (at < len && src[at] != '\n')
		at++;
	return at < len ? at + 1 : len;
}

static int count_lines(const char *s, size_t n)
{
	int lines = 0;
	for (size_t k = 0; k < n; k++)
		lines += s[k] == '\n';
	return lines + (n > 0 && s[n - 1] != '\n');
}

/* Each line of s[0 .. n) prefixed with mark; a last line without newline gets diff's marker. */
static void add_lines(struct strbuf *out, char mark, const char *s, size_t n)
{
	size_t k = 0;
	while (k < n) {
		size_t e = k;
		while (e < n && s[e] != '\n')
			e++;
		strbuf_addch(out, mark);
		strbuf_add(out, s + k, e - k);
		strbuf_addch(out, '\n');
		if (e == n)
			strbuf_addstr(out, "\\ No newline at end of file\n");
		k = e + 1;
	}
}

void mutant_diff(struct strbuf *out, const char *name, const char *src, size_t len, const struct mutant *m)
{
	size_t old0 = line_start_of(src, m->start);
	size_t old1 = line_after(src, len, m->end > m->start ? m->end - 1 : m->start);
	size_t ctx0 = old0, ctx1 = old1;
	struct strbuf neu = STRBUF_INIT;
	int first, nbefore, nafter, nold, nnew;

	if (m->end > m->start && src[m->end - 1] == '\n')
		old1 = m->end; /* a whole line deleted: the hunk ends with it */
	ctx1 = old1;
	for (int k = 0; k < 3 && ctx0 > 0; k++)
		ctx0 = line_start_of(src, ctx0 - 1);
	for (int k = 0; k < 3 && ctx1 < len; k++)
		ctx1 = line_after(src, len, ctx1);
	strbuf_add(&neu, src + old0, m->start - old0);
	strbuf_addstr(&neu, m->replacement);
	strbuf_add(&neu, src + m->end, old1 - m->end);
	first = count_lines(src, ctx0) + 1;
	nbefore = count_lines(src + ctx0, old0 - ctx0);
	nafter = count_lines(src + old1, ctx1 - old1);
	nold = nbefore + count_lines(src + old0, old1 - old0) + nafter;
	nnew = nbefore + count_lines(neu.buf, neu.len) + nafter;
	strbuf_addf(out, "--- a/%s\n+++ b/%s\n", name, name);
	strbuf_addf(out, "@@ -%d,%d +%d,%d @@\n", nold ? first : first - 1, nold, nnew ? first : first - 1, nnew);
	add_lines(out, ' ', src + ctx0, old0 - ctx0);
	add_lines(out, '-', src + old0, old1 - old0);
	add_lines(out, '+', neu.buf, neu.len);
	add_lines(out, ' ', src + old1, ctx1 - old1);
	strbuf_release(&neu);
}
