/*
 * l10n.h - the students' language: GNU gettext for what a student reads.
 *
 * Two languages live in one process.  Everything is built in English first:
 * the result model, the JSON, JUnit, TAP, CSV and every other machine format
 * are byte-identical whatever the language (verdict identifiers such as
 * `wrong-answer` are a contract and are never translated).  The writers of
 * the student's text and Markdown reports run between l10n_begin() and
 * l10n_end(), where _() gives the catalogue's words (po/ko.po) and
 * l10n_message() the translation of a message the engine made.
 *
 * Messages made while grading (verdict.c, diagnose.c, build.c, ...) are
 * made with L10N(expr): expr is evaluated in English and is what the result
 * keeps; when a translation is active it is evaluated a second time in the
 * report's language, and the pair remembered (by its English text) for the
 * writers.  expr must have no effect but allocating the string it returns.
 *
 * Which language: l10n_init(NULL) follows the locale as GNU tools do
 * (LC_ALL, LC_MESSAGES, LANG, then LANGUAGE's list); a locale the machine
 * does not have gives English, without an error.  l10n_init("ko") asks
 * for Korean whatever the locale (the student pack, CI's C.UTF-8): it uses
 * ko_KR.UTF-8 when installed, else C.UTF-8 with LANGUAGE=ko (gettext
 * ignores LANGUAGE under the plain C locale only).  l10n_init("en"): English.
 * The catalogue is looked for beside the binary: bin/../build/locale (the
 * build tree, the student pack), ../locale (build/asan/grader),
 * ../share/locale (an installed prefix), then GRADER_LOCALE_DIR.
 *
 * Ownership: strings from _() and l10n_message() belong to the catalogue or
 * to this module and live until exit.  Not thread-safe: the grader calls it
 * from its main thread only.
 */
#ifndef GRADER_L10N_H
#define GRADER_L10N_H

#include <stdbool.h>

#define L10N_DOMAIN "combgrader"

/* Languages --lang accepts: "en" and those with a catalogue in po/. */
bool l10n_known(const char *lang);

/* Choose the language (see above); lang: NULL, "en" or "ko".  Never fails: English when in doubt. */
void l10n_init(const char *lang);

/* A translation other than English is in use. */
bool l10n_active(void);

/* Between these, _() and l10n_message() speak the report's language (calls nest). */
void l10n_begin(void);
void l10n_end(void);
/* Inside l10n_begin/l10n_end with a translation active. */
bool l10n_speaking(void);

/* msgid in the current language (English outside l10n_begin/l10n_end). */
const char *l10n_gettext(const char *msgid) __attribute__((format_arg(1)));
const char *l10n_ngettext(const char *msgid, const char *plural, unsigned long n)
	__attribute__((format_arg(1))) __attribute__((format_arg(2)));

#define _(s) l10n_gettext(s)
#define N_(s) (s)
#define P_(s, p, n) l10n_ngettext(s, p, n)

/* Remember local as the translation of en (takes local; NULL is fine); returns en. */
char *l10n_remember(char *en, char *local);

/*
 * en in the report's language inside l10n_begin/l10n_end: its remembered
 * translation, else line by line (a message with advice added), each line
 * translated when one was remembered for it.  Outside, or with no
 * translation active: en.  NULL stays NULL.
 */
const char *l10n_message(const char *en);

/* expr in English; also in the report's language when one is active (see above). */
#define L10N(expr)                                                        \
	({                                                                \
		char *l10n_en_ = (expr);                                  \
		if (l10n_active()) {                                      \
			l10n_begin();                                     \
			l10n_remember(l10n_en_, (expr));                  \
			l10n_end();                                       \
		}                                                         \
		l10n_en_;                                                 \
	})

#endif
