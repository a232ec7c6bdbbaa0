/* l10n.c - see l10n.h */
#define _GNU_SOURCE
#include "base/l10n.h"

#include <libintl.h>
#include <limits.h>
#include <locale.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

static locale_t report_locale = (locale_t)0; /* the report's language; 0: English */
static locale_t outer_locale = (locale_t)0;  /* what l10n_begin() replaced */
static int depth;

/* The remembered translations: an open-addressing table keyed by the English text. */
struct pair {
	char *en, *local;
};
static struct pair *pairs;
static size_t npairs, cap;

static const char *const catalogues[] = { "ko", NULL };

bool l10n_known(const char *lang)
{
	if (!strcmp(lang, "en"))
		return true;
	for (int i = 0; catalogues[i]; i++)
		if (!strcmp(catalogues[i], lang))
			return true;
	return false;
}

/* A directory holding ko/LC_MESSAGES/combgrader.mo, beside the binary or where `make install` puts it. */
static char *locale_dir(void)
{
	static const char *const beside[] = { "../build/locale", "../locale", "../share/locale" };
	char exe[PATH_MAX], *slash;
	struct stat st;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			for (size_t i = 0; i < sizeof(beside) / sizeof(beside[0]); i++) {
				char *mo = xasprintf("%s/%s/%s/LC_MESSAGES/" L10N_DOMAIN ".mo", exe, beside[i], catalogues[0]);
				bool there = stat(mo, &st) == 0;
				free(mo);
				if (there)
					return xasprintf("%s/%s", exe, beside[i]);
			}
		}
	}
#ifdef GRADER_LOCALE_DIR
	return xstrdup(GRADER_LOCALE_DIR);
#else
	return NULL;
#endif
}

/* Does the catalogue answer in loc?  Its header (the translation of "") is empty when none was found. */
static bool speaks(locale_t loc)
{
	locale_t old = uselocale(loc);
	const char *header = dgettext(L10N_DOMAIN, "");
	uselocale(old);
	return header && *header;
}

void l10n_init(const char *lang)
{
	const int mask = LC_MESSAGES_MASK | LC_CTYPE_MASK;
	char *dir;
	locale_t loc = (locale_t)0;

	if (lang && !strcmp(lang, "en"))
		return;
	dir = locale_dir();
	if (!dir)
		return;
	bindtextdomain(L10N_DOMAIN, dir);
	bind_textdomain_codeset(L10N_DOMAIN, "UTF-8");
	free(dir);
	if (lang) {
		/* LANGUAGE outranks the locale in gettext: --lang outranks both */
		setenv("LANGUAGE", lang, 1);
		loc = newlocale(mask, "ko_KR.UTF-8", (locale_t)0);
		if (!loc)
			loc = newlocale(mask, "C.UTF-8", (locale_t)0);
	} else {
		/* "": LC_ALL, LC_MESSAGES, LANG; NULL when the machine lacks that locale (English then) */
		loc = newlocale(mask, "", (locale_t)0);
	}
	if (!loc)
		return;
	if (!speaks(loc)) {
		freelocale(loc);
		return;
	}
	report_locale = loc;
}

bool l10n_active(void)
{
	return report_locale != (locale_t)0;
}

void l10n_begin(void)
{
	if (!report_locale)
		return;
	if (depth++ == 0)
		outer_locale = uselocale(report_locale);
}

void l10n_end(void)
{
	if (!report_locale || depth == 0)
		return;
	if (--depth == 0)
		uselocale(outer_locale);
}

bool l10n_speaking(void)
{
	return depth > 0;
}

const char *l10n_gettext(const char *msgid)
{
	/* outside l10n_begin the thread's locale is the process's, whose LC_MESSAGES stays "C" (main
	 * never sets it): gettext gives msgid back, and so does this without asking it */
	return depth ? dgettext(L10N_DOMAIN, msgid) : msgid;
}

const char *l10n_ngettext(const char *msgid, const char *plural, unsigned long n)
{
	return depth ? dngettext(L10N_DOMAIN, msgid, plural, n) : (n == 1 ? msgid : plural);
}

static uint64_t hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static struct pair *slot(const char *en)
{
	size_t i = hash(en) & (cap - 1);
	while (pairs[i].en && strcmp(pairs[i].en, en))
		i = (i + 1) & (cap - 1);
	return &pairs[i];
}

static void grow(void)
{
	struct pair *old = pairs;
	size_t oldcap = cap;

	cap = cap ? cap * 2 : 256;
	pairs = xcalloc(cap, sizeof(*pairs));
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].en)
			*slot(old[i].en) = old[i];
	free(old);
}

char *l10n_remember(char *en, char *local)
{
	struct pair *p;

	if (!en || !local || !strcmp(en, local)) {
		free(local);
		return en;
	}
	if ((npairs + 1) * 2 > cap)
		grow();
	p = slot(en);
	if (p->en) {
		free(p->local);
	} else {
		p->en = xstrdup(en);
		npairs++;
	}
	p->local = local;
	return en;
}

static const char *lookup(const char *en)
{
	struct pair *p;
	if (!cap)
		return NULL;
	p = slot(en);
	return p->en ? p->local : NULL;
}

const char *l10n_message(const char *en)
{
	const char *found;
	struct strbuf sb = STRBUF_INIT;
	bool changed = false;

	if (!en || !depth)
		return en;
	found = lookup(en);
	if (found)
		return found;
	if (!strchr(en, '\n'))
		return en;
	for (const char *s = en;;) {
		size_t l = strcspn(s, "\n");
		char *line = xstrndup(s, l);
		const char *t = lookup(line);
		strbuf_addstr(&sb, t ? t : line);
		changed = changed || t;
		free(line);
		if (!s[l])
			break;
		strbuf_addch(&sb, '\n');
		s += l + 1;
	}
	if (!changed) {
		strbuf_release(&sb);
		return en;
	}
	/* remembered, so the next call finds it and the string lives as long as the others */
	l10n_remember((char *)en, strbuf_detach(&sb));
	found = lookup(en);
	return found ? found : en;
}
