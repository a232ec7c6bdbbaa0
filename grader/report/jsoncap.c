/* jsoncap.c - cutting long strings of a JSON document until it fits (jsoncap.h) */
#include "report/jsoncap.h"

#include <string.h>

size_t jsoncap_size(const json_t *root, size_t flags)
{
	return json_dumpb(root, NULL, 0, flags);
}

/* The string slot i of the array: an element, or an object element's field; NULL when it holds none. */
static json_t *slot(json_t *array, size_t i, const char *field)
{
	json_t *e = json_array_get(array, i);

	if (field)
		e = json_is_object(e) ? json_object_get(e, field) : NULL;
	return json_is_string(e) ? e : NULL;
}

int jsoncap_cut(json_t *root, const char *array_key, const char *field, const char *note, size_t max_bytes,
		size_t flags)
{
	json_t *array = json_object_get(root, array_key);
	size_t i = json_is_array(array) ? json_array_size(array) : 0;
	int cut = 0;

	while (jsoncap_size(root, flags) > max_bytes) {
		json_t *s = NULL;
		while (i > 0 && !s) {
			s = slot(array, --i, field);
			if (s && json_string_length(s) <= strlen(note))
				s = NULL;
		}
		if (!s)
			break;
		json_string_set(s, note);
		cut++;
	}
	return cut;
}
