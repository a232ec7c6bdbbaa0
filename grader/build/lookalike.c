/* lookalike.c - see lookalike.h */
#define _GNU_SOURCE
#include "build/lookalike.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "problem/language.h"
#include "base/util.h"

#define MAX_DEPTH 3        /* folders below the submission's top that are searched */
#define MAX_ENTRIES 4000   /* entries looked at in all */
#define MAX_FINDS 3        /* files reported; more are summed up */

struct walk {
	const char *const *wanted;
	int n;
	int entries;
	int finds;
	struct strbuf advice;
};

/* The extension of a name ("p1.c" -> ".c"), or "" (a leading dot starts no extension). */
static const char *extension_of(const char *name)
{
	const char *dot = strrchr(name, '.');
	return dot && dot != name ? dot : name + strlen(name);
}

/* A mark that copies and re-uploads add to a name: "1", "(2)", "copy", "final", "v3". */
static bool copy_mark(const char *word, size_t len)
{
	static const char *const marks[] = { "copy", "final", "old", "new", "kopie", "copie", "copia", "solution",
					     "done", NULL };
	size_t digits = 0;

	while (digits < len && isdigit((unsigned char)word[digits]))
		digits++;
	if (digits == len)
		return true;
	if ((word[0] == 'v' || word[0] == 'V') && len > 1) {
		for (size_t i = 1; i < len; i++)
			if (!isdigit((unsigned char)word[i]))
				return false;
		return true;
	}
	for (int i = 0; marks[i]; i++)
		if (strlen(marks[i]) == len && !strncasecmp(word, marks[i], len))
			return true;
	return false;
}

/* stem is wanted_stem followed only by copy marks: "p1 (1)", "p1-2", "p1 copy", "p1_final". */
static bool copy_of(const char *stem, size_t len, const char *wanted_stem, size_t wanted_len)
{
	size_t i = wanted_len;
	bool marked = false;

	/* a separator first: "p10" is not a copy of "p1" */
	if (len <= wanted_len || strncasecmp(stem, wanted_stem, wanted_len) || !strchr(" _-([.", stem[wanted_len]))
		return false;
	while (i < len) {
		size_t start;
		if (strchr(" _-()[].", stem[i])) {
			i++;
			continue;
		}
		start = i;
		while (i < len && !strchr(" _-()[].", stem[i]))
			i++;
		if (!copy_mark(stem + start, i - start))
			return false;
		marked = true;
	}
	return marked;
}

/* "'p1.c' or 'p1.py'" */
static void add_wanted_list(struct strbuf *sb, const struct walk *w)
{
	for (int i = 0; i < w->n; i++)
		strbuf_addf(sb, "%s'%s'", i ? (i == w->n - 1 ? " or " : ", ") : "", w->wanted[i]);
}

/* What to say about a file whose stem is right and whose extension is not one the problem takes. */
static void add_other_extension(struct strbuf *sb, const struct walk *w, const char *name)
{
	static const char *const cpp[] = { ".cpp", ".cc", ".cxx", ".c++", ".cp", NULL };
	const char *ext = extension_of(name);
	const struct language *l = language_of_file(name);

	for (int i = 0; cpp[i]; i++)
		if (!strcasecmp(ext, cpp[i])) {
			strbuf_addstr(sb, ", a C++ file: the grader takes ");
			add_wanted_list(sb, w);
			strbuf_addstr(sb, " (C, not C++); rename it if the code is plain C");
			return;
		}
	if (l) {
		strbuf_addf(sb, ", but this problem does not take %s: submit ", l->display);
		add_wanted_list(sb, w);
		return;
	}
	if (!strcasecmp(ext, ".ipynb")) {
		strbuf_addstr(sb, ", a Jupyter notebook: the grader takes ");
		add_wanted_list(sb, w);
		strbuf_addstr(sb, ": save the code as a plain source file (File > Download as)");
		return;
	}
	strbuf_addstr(sb, ": the grader looks for ");
	add_wanted_list(sb, w);
	strbuf_addstr(sb, "; rename it if it holds your solution");
}

/*
 * The advice for one file (rel: its path below the top, name: its last
 * part, depth: folders below the top), or nothing when it looks like none
 * of the wanted names.
 */
static bool advise(struct strbuf *sb, const struct walk *w, const char *rel, const char *name, int depth)
{
	const char *ext = extension_of(name);
	size_t stem = (size_t)(ext - name);

	for (int i = 0; i < w->n; i++) {
		const char *want = w->wanted[i], *want_ext = extension_of(want);
		size_t want_len = strlen(want), want_stem = (size_t)(want_ext - want);
		bool same_stem = stem == want_stem && !strncasecmp(name, want, stem);
		bool rename = (!strncasecmp(name, want, want_len) && name[want_len] == '.') ||
			      (copy_of(name, stem, want, want_stem) && !strcasecmp(ext, want_ext));

		if (!strcasecmp(name, want) && depth > 0) {
			strbuf_addf(sb, "found '%s' in a folder: move it to the top of your submission", rel);
			return true;
		}
		if (rename) {
			strbuf_addf(sb, "found '%s': rename it to '%s'%s", rel, want,
				    depth > 0 ? " and move it to the top of your submission" : "");
			return true;
		}
		if (same_stem && !strcasecmp(ext, want_ext))
			return false; /* the wanted file itself, at the top: not missing */
	}
	/* the right stem, an extension none of the variants takes */
	for (int i = 0; i < w->n; i++) {
		const char *want_ext = extension_of(w->wanted[i]);
		size_t want_stem = (size_t)(want_ext - w->wanted[i]);
		if ((stem == want_stem && !strncasecmp(name, w->wanted[i], stem)) ||
		    copy_of(name, stem, w->wanted[i], want_stem)) {
			strbuf_addf(sb, "found '%s'", rel);
			add_other_extension(sb, w, name);
			return true;
		}
	}
	return false;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of one folder, sorted (readdir's order differs between file systems). */
static char **sorted_entries(int dirfd, struct walk *w)
{
	struct strvec names = STRVEC_INIT;
	int fd = dup(dirfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return strvec_detach(&names);
	}
	while ((de = readdir(d)) && w->entries < MAX_ENTRIES) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "__MACOSX"))
			continue;
		w->entries++;
		strvec_push(&names, de->d_name);
	}
	closedir(d);
	if (names.n)
		qsort(names.v, names.n, sizeof(*names.v), compare_names);
	return strvec_detach(&names);
}

/* Every entry of the folder dirfd (prefix: its path below the top); closes dirfd. */
static void walk_folder(int dirfd, const char *prefix, int depth, struct walk *w)
{
	char **names = sorted_entries(dirfd, w);

	for (size_t i = 0; names && names[i]; i++) {
		char *rel = xasprintf("%s%s", prefix, names[i]);
		struct stat st;
		struct strbuf one = STRBUF_INIT;
		int fd = openat(dirfd, names[i], O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);

		if (fd >= 0 && fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) && depth < MAX_DEPTH) {
			char *sub = xasprintf("%s/", rel);
			walk_folder(fd, sub, depth + 1, w); /* takes fd */
			fd = -1;
			free(sub);
		} else if (fd >= 0 && S_ISREG(st.st_mode) && advise(&one, w, rel, names[i], depth)) {
			if (w->finds++ < MAX_FINDS)
				strbuf_addf(&w->advice, "%s%s", w->advice.len ? "; " : "", one.buf);
		}
		if (fd >= 0)
			close(fd);
		strbuf_release(&one);
		free(rel);
	}
	strvec_free(names);
	close(dirfd);
}

char *lookalike_hint(const char *dir, const char *const *wanted, int n)
{
	struct walk w = { wanted, n, 0, 0, STRBUF_INIT };
	int top = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (top >= 0)
		walk_folder(top, "", 0, &w);
	if (w.finds > MAX_FINDS)
		strbuf_addf(&w.advice, "; and %d more files like these", w.finds - MAX_FINDS);
	if (!w.advice.len) {
		strbuf_release(&w.advice);
		return NULL;
	}
	return strbuf_detach(&w.advice);
}
