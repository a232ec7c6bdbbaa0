/* text.c - see text.h */
#include "base/text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s (1-4) and its code point, or 0 when invalid. */
static size_t utf8_decode(const unsigned char *s, unsigned *cp)
{
	unsigned lo = 0x80, hi = 0xbf;
	size_t n;
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		*cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		*cp = s[0] & 0x0f;
		if (s[0] == 0xe0)
			lo = 0xa0; /* overlong */
		else if (s[0] == 0xed)
			hi = 0x9f; /* surrogates */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		*cp = s[0] & 0x07;
		if (s[0] == 0xf0)
			lo = 0x90; /* overlong */
		else if (s[0] == 0xf4)
			hi = 0x8f; /* above U+10FFFF */
	} else {
		return 0;
	}
	for (size_t k = 1; k < n; k++) {
		if (s[k] < (k == 1 ? lo : 0x80) || s[k] > (k == 1 ? hi : 0xbf))
			return 0; /* also stops at the terminating NUL */
		*cp = (*cp << 6) | (s[k] & 0x3f);
	}
	return n;
}

/* Characters that must not reach a terminal or an XML file as they are. */
static bool unsafe_code_point(unsigned cp)
{
	return (cp < 0x20 && cp != '\n' && cp != '\t') || (cp >= 0x7f && cp < 0xa0) ||
	       (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200e ||
	       cp == 0x200f || cp == 0x061c || cp == 0xfeff || cp == 0xfffe || cp == 0xffff;
}

bool text_clean(struct strbuf *sb, const char *s, size_t max_bytes)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t used = 0;

	if (!s)
		return false;
	while (*p) {
		unsigned cp;
		size_t n = utf8_decode(p, &cp);
		if (max_bytes && used + (n ? n : 1) > max_bytes)
			return true;
		if (!n) {
			strbuf_addf(sb, "\\x%02x", *p);
			n = 1;
		} else if (cp == '\r') {
			strbuf_addstr(sb, "\\r");
		} else if (unsafe_code_point(cp)) {
			strbuf_addf(sb, cp < 0x80 ? "\\x%02x" : "\\u%04x", cp);
		} else {
			strbuf_add(sb, p, n);
		}
		p += n;
		used += n;
	}
	return false;
}

bool text_is_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		unsigned cp;
		size_t n = utf8_decode(p, &cp);
		if (!n)
			return false;
		p += n;
	}
	return true;
}

void text_one_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 32 || *s == 127)
			*s = ' ';
}

void text_first_lines(struct strbuf *sb, const char *text, int max, const char *more)
{
	const char *p = text ? text : "";
	for (int lines = 0; *p && lines < max; lines++) {
		size_t l = strcspn(p, "\n");
		strbuf_add(sb, p, l);
		strbuf_addch(sb, '\n');
		p += l + (p[l] == '\n');
	}
	if (*p && more) {
		strbuf_addstr(sb, more);
		strbuf_addch(sb, '\n');
	}
}

void text_score(struct strbuf *sb, double score)
{
	char buf[64];
	char *end;
	if (!isfinite(score))
		score = 0;
	snprintf(buf, sizeof(buf), "%.6f", round(score * 1e6) / 1e6);
	end = buf + strlen(buf);
	while (end > buf && end[-1] == '0')
		*--end = '\0';
	if (end > buf && end[-1] == '.')
		*--end = '\0';
	strbuf_addstr(sb, strcmp(buf, "-0") ? buf : "0");
}

void text_duration(struct strbuf *sb, double seconds)
{
	long t = (long)(seconds + 0.5);
	if (t >= 3600)
		strbuf_addf(sb, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		strbuf_addf(sb, "%ld:%02ld", t / 60, t % 60);
}
