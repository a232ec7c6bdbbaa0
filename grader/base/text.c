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

/* U+1100.. ranges of Unicode 15's East Asian Wide (W) and Fullwidth (F) characters that matter here */
static const struct {
	unsigned lo, hi;
} wide[] = {
	{ 0x1100, 0x115f }, { 0x231a, 0x231b }, { 0x2329, 0x232a }, { 0x23e9, 0x23ec }, { 0x23f0, 0x23f0 },
	{ 0x23f3, 0x23f3 }, { 0x25fd, 0x25fe }, { 0x2614, 0x2615 }, { 0x2648, 0x2653 }, { 0x267f, 0x267f },
	{ 0x2693, 0x2693 }, { 0x26a1, 0x26a1 }, { 0x26aa, 0x26ab }, { 0x26bd, 0x26be }, { 0x26c4, 0x26c5 },
	{ 0x26ce, 0x26ce }, { 0x26d4, 0x26d4 }, { 0x26ea, 0x26ea }, { 0x26f2, 0x26f3 }, { 0x26f5, 0x26f5 },
	{ 0x26fa, 0x26fa }, { 0x26fd, 0x26fd }, { 0x2705, 0x2705 }, { 0x270a, 0x270b }, { 0x2728, 0x2728 },
	{ 0x274c, 0x274c }, { 0x274e, 0x274e }, { 0x2753, 0x2755 }, { 0x2757, 0x2757 }, { 0x2795, 0x2797 },
	{ 0x27b0, 0x27b0 }, { 0x27bf, 0x27bf }, { 0x2b1b, 0x2b1c }, { 0x2b50, 0x2b50 }, { 0x2b55, 0x2b55 },
	{ 0x2e80, 0x303e }, { 0x3041, 0x33ff }, { 0x3400, 0x4dbf }, { 0x4e00, 0x9fff }, { 0xa000, 0xa4cf },
	{ 0xa960, 0xa97f }, { 0xac00, 0xd7a3 }, { 0xf900, 0xfaff }, { 0xfe10, 0xfe19 }, { 0xfe30, 0xfe6f },
	{ 0xff00, 0xff60 }, { 0xffe0, 0xffe6 }, { 0x16fe0, 0x16fe4 }, { 0x17000, 0x18cff }, { 0x1b000, 0x1b2ff },
	{ 0x1f004, 0x1f004 }, { 0x1f0cf, 0x1f0cf }, { 0x1f18e, 0x1f18e }, { 0x1f191, 0x1f19a }, { 0x1f200, 0x1f251 },
	{ 0x1f300, 0x1f320 }, { 0x1f32d, 0x1f335 }, { 0x1f337, 0x1f37c }, { 0x1f37e, 0x1f393 }, { 0x1f3a0, 0x1f3ca },
	{ 0x1f3cf, 0x1f3d3 }, { 0x1f3e0, 0x1f3f0 }, { 0x1f3f4, 0x1f3f4 }, { 0x1f3f8, 0x1f43e }, { 0x1f440, 0x1f440 },
	{ 0x1f442, 0x1f4fc }, { 0x1f4ff, 0x1f53d }, { 0x1f54b, 0x1f54e }, { 0x1f550, 0x1f567 }, { 0x1f57a, 0x1f57a },
	{ 0x1f595, 0x1f596 }, { 0x1f5a4, 0x1f5a4 }, { 0x1f5fb, 0x1f64f }, { 0x1f680, 0x1f6c5 }, { 0x1f6cc, 0x1f6cc },
	{ 0x1f6d0, 0x1f6d2 }, { 0x1f6d5, 0x1f6d7 }, { 0x1f6eb, 0x1f6ec }, { 0x1f6f4, 0x1f6fc }, { 0x1f7e0, 0x1f7eb },
	{ 0x1f90c, 0x1f93a }, { 0x1f93c, 0x1f945 }, { 0x1f947, 0x1f9ff }, { 0x1fa70, 0x1faff }, { 0x20000, 0x2fffd },
	{ 0x30000, 0x3fffd },
};

static unsigned code_point_width(unsigned cp)
{
	/* combining marks (the common blocks), Hangul medial vowels and final consonants, zero-width characters */
	if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x1160 && cp <= 0x11ff) || (cp >= 0x200b && cp <= 0x200f) ||
	    (cp >= 0x20d0 && cp <= 0x20ff) || (cp >= 0xfe00 && cp <= 0xfe0f) || cp == 0xfeff)
		return 0;
	if (cp < 0x1100)
		return 1;
	for (size_t i = 0; i < sizeof(wide) / sizeof(wide[0]); i++)
		if (cp >= wide[i].lo && cp <= wide[i].hi)
			return 2;
	return 1;
}

size_t text_width_n(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t w = 0, i = 0;

	while (i < len && p[i]) {
		unsigned cp;
		size_t n = utf8_decode(p + i, &cp);
		if (!n || i + n > len) {
			w++;
			i++;
			continue;
		}
		w += code_point_width(cp);
		i += n;
	}
	return w;
}

size_t text_width(const char *s)
{
	return text_width_n(s, strlen(s));
}

void text_pad(struct strbuf *sb, const char *s, size_t width)
{
	size_t w = text_width(s);
	strbuf_addstr(sb, s);
	while (w++ < width)
		strbuf_addch(sb, ' ');
}
