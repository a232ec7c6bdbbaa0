/*
 * mutate.h - mutants of a reference solution: source-level mutation
 * operators (Mull's, mutmut's and PIT's usual ones) applied one at a time
 * to a C or Python file, each mutant a single replaced span of the source.
 *
 * Operators (the `op` part of a mutant's id):
 *   rel         a relational operator swapped: < <=, > >=, == !=
 *   arith       an arithmetic operator: + -, * -> +, / -> * (C), // -> *
 *               (Python), % -> /, and += -=, *= -> +=
 *   const-inc   an integer constant + 1
 *   const-dec   an integer constant - 1
 *   const-zero  an integer constant -> 0
 *   narrow      long long -> int (C)
 *   cond-neg    a condition negated (if, while, for, a ternary's)
 *   cond-true   an if's condition removed: always taken
 *   cond-false  an if's condition removed: never taken
 *   logic       && || (and or) swapped
 *   not-del     a logical not removed
 *   stmt-del    a statement deleted: a return, a base case (an if whose
 *               body is one return), an expression statement (C: replaced
 *               by ';' where the grammar needs one; Python: by `pass`)
 *   minmax      min and max swapped: fmin/fmax, MIN/MAX, min()/max(), or a
 *               ternary that picks the smaller or larger of two operands
 *   bound-inc   a loop bound + 1 (C: the right side of a for's comparison;
 *   bound-dec   ... - 1           Python: the stop of a range())
 * Comments, strings and C preprocessor lines are never mutated.
 *
 * A mutant's id is stable as long as the reference's text does not move:
 * "FILE:LINE:COLUMN:OP" (the position of the first token changed), with
 * "#2", "#3"... appended should one position give an operator twice.
 *
 * Ownership: a mutant_list owns its mutants and their strings
 * (mutant_list_release); nothing points into the source.
 */
#ifndef GRADER_MUTATE_H
#define GRADER_MUTATE_H

#include <stddef.h>

#include "mutate/mutate_lex.h"
#include "base/util.h"

struct mutant {
	char *id;            /* "p4.c:38:29:rel" */
	const char *op;      /* "rel" (static) */
	int line, column;    /* of the first token changed, 1-based */
	size_t start, end;   /* the replaced span of the original source */
	char *replacement;   /* what stands there instead */
	char *description;   /* in words: "'<' -> '<='" */
};

struct mutant_list {
	struct mutant *v;
	int n;
	size_t alloc;
};
#define MUTANT_LIST_INIT { NULL, 0, 0 }

/* The language of a file name (.c or .py); -1 for neither. */
int mutate_lang_of(const char *name);

/*
 * Every mutant of src[0 .. len) (the file called `name`, which decides the
 * language and starts every id), in source order.  0, or -1 with a message
 * in err (an unknown extension, a source the tokenizer cannot read).
 */
int mutate_generate(const char *name, const char *src, size_t len, struct mutant_list *out, struct strbuf *err);
void mutant_list_release(struct mutant_list *l);

/* The mutant's source: src with its span replaced (a new string). */
char *mutant_apply(const char *src, size_t len, const struct mutant *m);

/*
 * A unified diff (diff -u, 3 lines of context) from src to the mutant,
 * headed "--- a/NAME" and "+++ b/NAME", appended to out: `patch -p1`
 * applies it to the reference.
 */
void mutant_diff(struct strbuf *out, const char *name, const char *src, size_t len, const struct mutant *m);

#endif
