/*
 * batch_class.c - see batch_class.h.
 */
#define _GNU_SOURCE
#include "reference.h"
#include "batch_class.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch_archive.h"
#include "text.h"
#include "version.h"

#define FINGERPRINT_READ_CAP (256ull << 20)  /* bytes of one submission hashed in full */

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
}

int class_collect(const char *dir, const char *outdir, struct student **out, int *count, struct strbuf *notes,
		  struct strbuf *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct stat out_st;
	bool have_out = stat(outdir, &out_st) == 0;
	struct student *list = NULL;
	size_t alloc = 0;
	int n = 0, kept = 0;

	if (!d) {
		strbuf_addf(err, "cannot read the submissions directory '%s': %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		const char *name = de->d_name;
		struct stat st;
		size_t stem;
		char *path, *id = NULL;
		bool archive = false;

		if (name[0] == '.' || !strcmp(name, "__MACOSX"))
			continue;
		path = xasprintf("%s/%s", dir, name);
		if (stat(path, &st) < 0) {
			strbuf_addf(notes, "ignoring '%s': %s\n", path, strerror(errno));
		} else if (have_out && st.st_dev == out_st.st_dev && st.st_ino == out_st.st_ino) {
			; /* the output directory inside the submissions */
		} else if (S_ISDIR(st.st_mode)) {
			id = xstrdup(name);
		} else if (S_ISREG(st.st_mode) && unpack_is_archive(name, &stem) && stem > 0) {
			id = xstrndup(name, stem);
			archive = true;
		} else {
			strbuf_addf(notes, "ignoring '%s': not a folder, .zip or .tar.gz\n", path);
		}
		if (id && (!text_is_utf8(id) || strpbrk(id, "\r\n\t"))) {
			strbuf_addf(notes, "ignoring '%s': rename it (the name is not valid UTF-8 or has control characters)\n",
				    path);
			free(id);
			id = NULL;
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
		n++;
	}
	closedir(d);
	if (n)
		qsort(list, (size_t)n, sizeof(*list), cmp_student);
	for (int i = 0; i < n; i++) {
		if (kept && !strcmp(list[kept - 1].id, list[i].id)) {
			struct student *k = &list[kept - 1];
			char *why = xasprintf("%s%s'%s'", k->unusable ? k->unusable : "more than one submission: ",
					      k->unusable ? ", " : "", list[i].name);
			if (!k->unusable) {
				free(why);
				why = xasprintf("more than one submission: '%s', '%s'", k->name, list[i].name);
			}
			free(k->unusable);
			k->unusable = why;
			student_release(&list[i]);
			continue;
		}
		list[kept++] = list[i];
	}
	*out = list;
	*count = kept;
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
		char tag[64];
		struct stat st;
		digest_add(h, names[i], strlen(names[i]) + 1);
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
		digest_add(h, "/", 1);
		free(path);
		free(names[i]);
	}
	free(names);
}

void class_problem_key(const struct engine *e, bool show_hidden, bool verbose, char out[DIGEST_HEX_SIZE])
{
	struct digest h;
	char flags[8];

	digest_init(&h);
	digest_add_str(&h, "combgrader-batch-2");
	digest_add_str(&h, GRADER_VERSION);
	snprintf(flags, sizeof(flags), "%d%d", show_hidden, verbose);
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
	if (s->archive)
		hash_file(&h, s->path, &budget);
	else
		hash_tree(&h, s->path, 0, &budget);
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
