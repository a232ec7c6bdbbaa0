/*
 * jsontext.h - untrusted text as a JSON string: cleaned with text_clean()
 * (jansson wants valid UTF-8, and a report or state file should carry no
 * control characters), so every JSON file of the grader writes text the
 * same way.  Returns a new reference, never NULL (json_null() for NULL).
 */
#ifndef GRADER_JSONTEXT_H
#define GRADER_JSONTEXT_H

#include <jansson.h>
#include <stddef.h>

json_t *json_text(const char *s);
/* The same, from at most max_bytes of s (cut at a character boundary); *cut says whether it was. */
json_t *json_text_cut(const char *s, size_t max_bytes, int *cut);

#endif
