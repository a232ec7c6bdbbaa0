/*
 * tokens.h - a source file as a stream of normalised tokens, for the
 * similarity check (similarity.h).
 *
 * What is thrown away is what a student changes to hide a copy without
 * understanding it (the normalisation of MOSS and JPlag):
 *   - whitespace, layout and comments (C: // and block comments and
 *     preprocessor lines; Python: # comments, docstrings - a string
 *     standing alone as a statement - and line breaks and indentation:
 *     `if x: return y` on one line or on two gives the same tokens);
 *   - every identifier that is not a keyword becomes one placeholder, so
 *     renaming variables and functions changes nothing;
 *   - every number, string and character literal becomes a placeholder of
 *     its kind.
 * Keywords, operators and punctuation are kept as they are.
 *
 * A token is a 64-bit hash of its normalised text; the stream is the only
 * output.  The lexers never fail: bytes they do not know become
 * one-character tokens.
 *
 * Ownership: a token_stream owns its array; token_stream_release() frees it.
 */
#ifndef GRADER_TOKENS_H
#define GRADER_TOKENS_H

#include <stddef.h>
#include <stdint.h>

#include "problem/language.h"

struct token_stream {
	uint64_t *v;
	size_t n, alloc;
};
#define TOKEN_STREAM_INIT { NULL, 0, 0 }

/* Append the tokens of src[0..len) in the given flavour to ts. */
void tokenize(struct token_stream *ts, enum token_flavour flavour, const char *src, size_t len);
void token_stream_release(struct token_stream *ts);

#endif
