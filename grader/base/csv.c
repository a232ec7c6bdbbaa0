/* csv.c - see csv.h */
#include "base/csv.h"

#include <string.h>

bool csv_needs_guard(const char *s)
{
	return *s && strchr("=+-@\t\r", *s);
}

void csv_add_cell(struct strbuf *sb, const char *s)
{
	bool guard = csv_needs_guard(s);
	bool quote = strpbrk(s, ",\"\r\n") != NULL;

	if (quote)
		strbuf_addch(sb, '"');
	if (guard)
		strbuf_addch(sb, '\'');
	for (; *s; s++) {
		if (*s == '"')
			strbuf_addch(sb, '"');
		strbuf_addch(sb, *s);
	}
	if (quote)
		strbuf_addch(sb, '"');
}
