/* jsontext.c - see jsontext.h */
#include "report/jsontext.h"

#include "base/text.h"

json_t *json_text_cut(const char *s, size_t max_bytes, int *cut)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *j;
	if (cut)
		*cut = 0;
	if (!s)
		return json_null();
	if (text_clean(&sb, s, max_bytes) && cut)
		*cut = 1;
	j = json_string(sb.buf);
	strbuf_release(&sb);
	return j ? j : json_string("");
}

json_t *json_text(const char *s)
{
	return json_text_cut(s, 0, NULL);
}
