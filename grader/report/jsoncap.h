/*
 * jsoncap.h - keeping a JSON document under a size limit by cutting its
 * long strings, for consumers that refuse (or truncate) a bigger file:
 * PrairieLearn reads at most 1 MB of results.json.
 *
 * Measured as json_dumpb() writes the document with the caller's flags, so
 * the figure is the file's size when the caller dumps with the same flags.
 *
 * Ownership: works in place on the caller's document; `note` is copied.
 */
#ifndef GRADER_JSONCAP_H
#define GRADER_JSONCAP_H

#include <jansson.h>
#include <stddef.h>

/* The size of root dumped with flags, in bytes (without a final newline). */
size_t jsoncap_size(const json_t *root, size_t flags);

/*
 * Replace strings of the array root[array_key], last element first, by
 * `note`, until root dumped with flags is at most max_bytes: with field
 * non-NULL the string root[array_key][i][field] of each object element,
 * with field NULL the string elements themselves.  Only strings longer
 * than `note` are replaced.  Returns how many were replaced (0 when root
 * fitted already); when all of them were and root is still too big, the
 * caller sees it in jsoncap_size().
 */
int jsoncap_cut(json_t *root, const char *array_key, const char *field, const char *note, size_t max_bytes,
		size_t flags);

#endif
