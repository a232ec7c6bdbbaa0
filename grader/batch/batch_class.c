/*
 * batch_class.c - see batch_class.h.
 */
#define _GNU_SOURCE
#include "judge/reference.h"
#include "batch/batch_class.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch/batch_archive.h"
#include "base/l10n.h"
#include "base/text.h"
#include "base/version.h"
#include "problem/language.h"

#define FINGERPRINT_READ_CAP (256ull << 20)  /* bytes of one submission hashed in full */
#define MORE_THAN_ONE "more than one submission: "

static int cmp_student(const void *a, const void *b)
{
	const struct student *x = a, *y = b;
	int c = strcmp(x->id, y->id);
	return c ? c : strcmp(x->name, y->name);
}

void student_release(struct student *s)
{
	free(s->id);
	free(s->name);
	free(s->path);
	free(s->unusable);
	free(s->commit);
	lms_student_free(s->lms);
}

/* Is name a source file of a language the grader grades (carol.c, dave.py)?  *stem_len: the name without it. */
static bool source_file(const char *name, size_t *stem_len)
{
	const struct language *l = language_of_file(name);
	size_t len = strlen(name);

	if (!l || len <= strlen(l->extension))
		return false;
	*stem_len = len - strlen(l->extension);
	return true;
}

/* The id of an entry: its name without the archive's extension (any kind of archive). */
static char *entry_id(const char *name)
{
	size_t stem;
	if ((unpack_is_archive(name, &stem) || unpack_other_archive(name, &stem)) && stem > 0)
		return xstrndup(name, stem);
	return xstrdup(name);
}

/*
 * The folders layout: every folder and archive of dir is a student, and so
 * is every entry that was meant to be one but cannot be graded (an archive
 * of another kind, a bare source file, an entry that cannot be read): those
 * get a row saying why.
 */
static int list_folders(const char *dir, const char *outdir, struct student **out, int *count, struct strbuf *notes,
			struct strbuf *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct stat out_st;
	bool have_out = stat(outdir, &out_st) == 0;
	struct student *list = NULL;
	size_t alloc = 0;
	int n = 0, bare = 0;

	if (!d) {
		strbuf_addf(err, "cannot read the submissions directory '%s': %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		const char *name = de->d_name;
		struct stat st;
		size_t stem;
		char *path, *id = NULL, *unusable = NULL;
		bool archive = false;

		if (name[0] == '.' || !strcmp(name, "__MACOSX"))
			continue;
		path = xasprintf("%s/%s", dir, name);
		if (stat(path, &st) < 0) {
			/* a dangling link, no permission: still somebody's entry */
			id = entry_id(name);
			unusable = xasprintf("cannot read '%s': %s", name, strerror(errno));
		} else if (have_out && st.st_dev == out_st.st_dev && st.st_ino == out_st.st_ino) {
			; /* the output directory inside the submissions */
		} else if (S_ISDIR(st.st_mode)) {
			id = xstrdup(name);
		} else if (S_ISREG(st.st_mode) && unpack_is_archive(name, &stem) && stem > 0) {
			id = xstrndup(name, stem);
			archive = true;
		} else if (S_ISREG(st.st_mode) && unpack_other_archive(name, &stem) && stem > 0) {
			id = xstrndup(name, stem);
			unusable = xasprintf("'%s' is an archive the grader does not unpack (it reads .zip, .tar.gz, .tgz "
					     "and .tar): unpack it into a folder '%.*s' or pack it again as a .zip",
					     name, (int)stem, name);
		} else if (S_ISREG(st.st_mode) && source_file(name, &stem)) {
			/* a student who handed in a bare p1.c: a row saying why, not a warning alone (issue 32) */
			id = xstrndup(name, stem);
			bare++;
			unusable = xasprintf("'%s' is a single source file, not a folder or archive holding the problem "
					     "files: move it into a folder '%.*s', under the file name its problem asks "
					     "for",
					     name, (int)stem, name);
		} else {
			strbuf_addf(notes, "ignoring '%s': not a folder, .zip or .tar.gz\n", path);
		}
		if (!id) {
			free(path);
			continue;
		}
		ALLOC_GROW(list, n + 1, alloc);
		memset(&list[n], 0, sizeof(list[n]));
		list[n].id = id;
		list[n].name = xstrdup(name);
		list[n].path = path;
		list[n].archive = archive;
		list[n].unusable = unusable;
		n++;
	}
	closedir(d);
	if (bare && bare == n) {
		/* only source files: one student's folder given as the class, not a class (the caller says so) */
		for (int i = 0; i < n; i++)
			student_release(&list[i]);
		n = 0;
	}
	*out = list;
	*count = n;
	return 0;
}

/* An LMS download (batch_lms.h): its students, taken over field by field. */
static int list_lms(const char *dir, enum lms_layout layout, const struct lms_options *o, struct student **out,
		    int *count, struct strbuf *notes, struct strbuf *err)
{
	struct lms_found *found;
	struct student *list;
	int n;

	if (lms_collect(dir, layout, o, &found, &n, notes, err) < 0)
		return -1;
	list = xcalloc((size_t)n + 1, sizeof(*list));
	for (int i = 0; i < n; i++) {
		list[i].id = found[i].id;
		list[i].name = found[i].entry;
		list[i].path = found[i].path;
		list[i].archive = found[i].archive;
		list[i].lms = found[i].lms;
		list[i].unusable = found[i].unusable; /* a stray entry: a row saying why, with no LMS id */
	}
	free(found);
	*out = list;
	*count = n;
	return 0;
}

/*
 * A name as an id: the name itself when it is UTF-8 without control
 * characters (or other characters text_clean() escapes); else its backslashes
 * doubled, then every byte that is not UTF-8 and every such character
 * escaped as text_clean() writes them ("\xe9l\xe8ve"), '\n' and '\t' as
 * "\x0a" and "\x09": safe in a file name, a CSV cell and a terminal, and
 * two different names never give one id this way.  *escaped: it was.
 */
static char *name_to_id(const char *name, bool *escaped)
{
	struct strbuf out = STRBUF_INIT, dbl = STRBUF_INIT;
	char *id;

	text_clean(&out, name, 0);
	*escaped = strcmp(out.buf, name) || strpbrk(name, "\n\t");
	if (!*escaped)
		return strbuf_detach(&out);
	strbuf_reset(&out);
	for (const char *p = name; *p; p++) {
		if (*p == '\\')
			strbuf_addch(&dbl, '\\');
		strbuf_addch(&dbl, *p);
	}
	text_clean(&out, dbl.buf, 0);
	strbuf_release(&dbl);
	for (const char *p = out.buf; *p; p++) {
		if (*p == '\n' || *p == '\t')
			strbuf_addf(&dbl, "\\x%02x", *p);
		else
			strbuf_addch(&dbl, *p);
	}
	strbuf_release(&out);
	id = strbuf_detach(&dbl);
	return id;
}

/* The name read as Latin-1 (what old zip tools wrote), cleaned: a guess, for the user to recognise the student. */
static void latin1_guess(struct strbuf *sb, const char *name)
{
	struct strbuf utf8 = STRBUF_INIT;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		if (*p < 0x80) {
			strbuf_addch(&utf8, *p);
		} else {
			strbuf_addch(&utf8, 0xc0 | (*p >> 6));
			strbuf_addch(&utf8, 0x80 | (*p & 0x3f));
		}
	}
	text_clean(sb, utf8.buf, 0);
	strbuf_release(&utf8);
}

/* An entry as messages name it: cleaned, and marked when its name had to be escaped (two entries may look alike). */
static void entry_words(struct strbuf *sb, const struct student *s)
{
	strbuf_addch(sb, '\'');
	text_clean(sb, s->name, 0);
	strbuf_addf(sb, "'%s", s->escaped ? " (a name that is not UTF-8 or has control characters)" : "");
}

/* An id no file name or gradebook can carry as it is: escaped, with a note saying so. */
static void escape_id(struct student *s, struct strbuf *notes)
{
	bool escaped;
	char *id = name_to_id(s->id, &escaped);
	if (!escaped) {
		free(id);
		return;
	}
	s->escaped = true;
	strbuf_addstr(notes, "the name of '");
	text_clean(notes, s->path ? s->path : s->name, 0);
	if (!text_is_utf8(s->id)) {
		strbuf_addstr(notes, "' is not UTF-8 (read as Latin-1, a guess: '");
		latin1_guess(notes, s->id);
		strbuf_addstr(notes, "')");
	} else {
		strbuf_addstr(notes, "' has control characters");
	}
	strbuf_addf(notes, ": its row's id is '%s' (rename it to change that)\n", id);
	if (s->lms) {
		/* the LMS roster finds the student by id; the name goes into the import file: cleaned */
		struct strbuf name = STRBUF_INIT;
		free(s->lms->person.id);
		s->lms->person.id = xstrdup(id);
		text_clean(&name, s->lms->person.name, 0);
		free(s->lms->person.name);
		s->lms->person.name = strbuf_detach(&name);
	}
	free(s->id);
	s->id = id;
}

/*
 * Escape ids no file name or gradebook can carry as they are (with a note),
 * sort by id, and make two entries for one id one unusable row naming them
 * all.  Every entry keeps a row.  The number of students.
 */
static int tidy_class(struct student *list, int n, struct strbuf *notes)
{
	int kept = 0;

	for (int i = 0; i < n; i++)
		escape_id(&list[i], notes);
	if (n)
		qsort(list, (size_t)n, sizeof(*list), cmp_student);
	for (int i = 0; i < n; i++) {
		if (kept && !strcmp(list[kept - 1].id, list[i].id)) {
			struct student *k = &list[kept - 1];
			struct strbuf why = STRBUF_INIT;
			if (k->unusable && !strncmp(k->unusable, MORE_THAN_ONE, strlen(MORE_THAN_ONE))) {
				strbuf_addf(&why, "%s, ", k->unusable);
			} else {
				strbuf_addstr(&why, MORE_THAN_ONE);
				entry_words(&why, k);
				strbuf_addstr(&why, ", ");
			}
			entry_words(&why, &list[i]);
			free(k->unusable);
			k->unusable = strbuf_detach(&why);
			student_release(&list[i]);
			continue;
		}
		list[kept++] = list[i];
	}
	/* said now, before the grading, not only in the progress lines among the others */
	for (int i = 0; i < kept; i++)
		if (list[i].unusable)
			strbuf_addf(notes, "'%s' will not be graded: %s\n", list[i].id, list[i].unusable);
	return kept;
}

int class_collect(const char *dir, const struct lms_options *o, enum lms_layout *layout, struct student **out,
		  int *count, struct strbuf *notes, struct strbuf *err)
{
	struct student *list = NULL;
	int n = 0, rc;

	*layout = o->layout == LMS_AUTO ? lms_detect(dir, o->outdir) : (enum lms_layout)o->layout;
	if (*layout == LMS_FOLDERS)
		rc = list_folders(dir, o->outdir, &list, &n, notes, err);
	else
		rc = list_lms(dir, *layout, o, &list, &n, notes, err);
	if (rc < 0)
		return -1;
	n = tidy_class(list, n, notes);
	if (!n) {
		strbuf_addf(err, "no student found in '%s' (read as %s%s): ", dir, lms_layout_words(*layout),
			    o->layout == LMS_AUTO ? "" : ", as --layout says");
		lms_describe(dir, o->outdir, err);
		if (*layout == LMS_FOLDERS)
			strbuf_addstr(err, "; a class is one folder or archive per student, or a Canvas, Moodle or "
				      "Gradescope download (docs/batch.md)");
		class_release(list, 0);
		return -1;
	}
	*out = list;
	*count = n;
	return 0;
}

/* ---- fingerprints ---- */

static void hash_file(struct digest *h, const char *path, unsigned long long *budget)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	char buf[64 << 10];
	ssize_t n;

	if (fd < 0) {
		digest_add(h, "?", 1);
		return;
	}
	while (*budget && (n = read(fd, buf, *budget < sizeof(buf) ? (size_t)*budget : sizeof(buf))) > 0) {
		digest_add(h, buf, (size_t)n);
		*budget -= (unsigned long long)n;
	}
	close(fd);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void hash_tree(struct digest *h, const char *dir, int depth, unsigned long long *budget);

/* The type, size and contents of path (a folder's tree); never follows a link. */
static void hash_entry(struct digest *h, const char *path, int depth, unsigned long long *budget)
{
	struct stat st;
	char tag[64];

	if (lstat(path, &st) < 0) {
		digest_add(h, "?", 1);
	} else if (S_ISREG(st.st_mode)) {
		snprintf(tag, sizeof(tag), "F%lld", (long long)st.st_size);
		digest_add(h, tag, strlen(tag) + 1);
		hash_file(h, path, budget);
	} else if (S_ISDIR(st.st_mode)) {
		digest_add(h, "D", 2);
		if (depth < 32)
			hash_tree(h, path, depth + 1, budget);
	} else if (S_ISLNK(st.st_mode)) {
		char target[4096];
		ssize_t l = readlink(path, target, sizeof(target));
		digest_add(h, "L", 2);
		if (l > 0)
			digest_add(h, target, (size_t)l);
	} else {
		snprintf(tag, sizeof(tag), "O%o", (unsigned)st.st_mode);
		digest_add(h, tag, strlen(tag) + 1);
	}
}

/* Names, types, sizes and contents of everything below dir; never follows a link. */
static void hash_tree(struct digest *h, const char *dir, int depth, unsigned long long *budget)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t alloc = 0;
	int n = 0;

	if (!d) {
		digest_add(h, "!", 1);
		return;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		ALLOC_GROW(names, n + 1, alloc);
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, (size_t)n, sizeof(char *), cmp_str);
	for (int i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", dir, names[i]);
		digest_add(h, names[i], strlen(names[i]) + 1);
		hash_entry(h, path, depth, budget);
		digest_add(h, "/", 1);
		free(path);
		free(names[i]);
	}
	free(names);
}

void class_problem_key(const struct engine *e, bool show_hidden, bool verbose, char out[DIGEST_HEX_SIZE])
{
	struct digest h;
	char flags[16];

	digest_init(&h);
	digest_add_str(&h, "combgrader-batch-2");
	digest_add_str(&h, GRADER_VERSION);
	/* --shrink adds to the reports (shrink.h); without it the key is what it always was */
	/* so do --reveal-hidden and the feedback's language (l10n.h) */
	snprintf(flags, sizeof(flags), "%d%d%s%s%s", show_hidden, verbose, e->opts.shrink ? "s" : "",
		 e->opts.reveal_hidden ? "r" : "", l10n_active() ? "l" : "");
	digest_add(&h, flags, strlen(flags) + 1);
	for (int i = 0; i < e->nproblems; i++) {
		const struct problem *p = e->problems[i];
		digest_add_str(&h, p->id);
		digest_add_str(&h, p->digest);
		reference_key_add(e, p, &h);
		digest_add(&h, "\n", 1);
	}
	digest_hex(&h, out);
}

void student_fingerprint(struct student *s, const char *key)
{
	struct digest h;
	unsigned long long budget = FINGERPRINT_READ_CAP;
	digest_init(&h);
	digest_add(&h, key, strlen(key));
	digest_add(&h, s->name, strlen(s->name) + 1);
	/* a repository graded at a commit: which one (late_until chose it), and not the work tree's changes */
	if (s->commit)
		digest_add(&h, s->commit, strlen(s->commit) + 1);
	if (s->archive)
		hash_file(&h, s->path, &budget);
	else if (s->path)
		hash_tree(&h, s->path, 0, &budget);
	for (int i = 0; s->lms && i < s->lms->nfiles; i++) {
		/* a flat download's file: the name it is graded under, then what it is */
		digest_add(&h, s->lms->files[i].name, strlen(s->lms->files[i].name) + 1);
		hash_entry(&h, s->lms->files[i].path, 0, &budget);
	}
	for (int i = 0; s->lms && i < s->lms->nalso; i++) {
		const char *base = strrchr(s->lms->also[i], '/');
		base = base ? base + 1 : s->lms->also[i];
		digest_add(&h, base, strlen(base) + 1);
		hash_entry(&h, s->lms->also[i], 0, &budget);
	}
	digest_hex(&h, s->fingerprint);
}

void class_key(const struct student *all, int n, char out[DIGEST_HEX_SIZE])
{
	struct digest h;
	digest_init(&h);
	for (int i = 0; i < n; i++)
		digest_add(&h, all[i].id, strlen(all[i].id) + 1);
	digest_hex(&h, out);
}

void class_release(struct student *students, int count)
{
	for (int i = 0; students && i < count; i++)
		student_release(&students[i]);
	free(students);
}
