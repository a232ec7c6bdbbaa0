/* setup_cache.c - see setup_cache.h */
#define _GNU_SOURCE
#include "build/setup_cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "build/compile.h"
#include "base/digest.h"
#include "base/embed.h"
#include "base/version.h"

#define SUMS_FILE "SHA256SUMS"
#define MAX_PRODUCT_BYTES (64u << 20)

#ifndef GRADER_PYTHON_CFLAGS
#define GRADER_PYTHON_CFLAGS ""
#endif
#ifndef GRADER_PYTHON_LIBS
#define GRADER_PYTHON_LIBS ""
#endif

/* CACHE/runtime/<kind>-<key>, or NULL when there is nothing to key on (no compiler). */
static char *entry_path(const char *cache_dir, const struct setup_item *it, const char *cc)
{
	char *command = compile_command_path(cc), *compiler = realpath(command, NULL);
	struct stat st, self;
	struct digest d;
	char key[DIGEST_HEX_SIZE];

	free(command);
	if (!compiler)
		return NULL;
	if (stat(compiler, &st) < 0 || stat("/proc/self/exe", &self) < 0) {
		free(compiler);
		return NULL;
	}
	digest_init(&d);
	digest_add_str(&d, GRADER_VERSION);
	/* this grader's own file: a rebuild (other set-up flags, say) is a new key */
	digest_add(&d, &self.st_dev, sizeof(self.st_dev));
	digest_add(&d, &self.st_ino, sizeof(self.st_ino));
	digest_add(&d, &self.st_size, sizeof(self.st_size));
	digest_add(&d, &self.st_mtim, sizeof(self.st_mtim));
	digest_add_str(&d, it->kind);
	if (it->extra_key)
		digest_add_str(&d, it->extra_key);
	digest_add_str(&d, embed_protocol_h);
	digest_add_str(&d, embed_runtime_c);
	digest_add_str(&d, embed_pyhost_c);
	digest_add_str(&d, compiler);
	digest_add(&d, &st.st_size, sizeof(st.st_size));
	digest_add(&d, &st.st_mtim, sizeof(st.st_mtim));
	digest_add_str(&d, gnu_get_libc_version());
	digest_add_str(&d, GRADER_PYTHON_CFLAGS);
	digest_add_str(&d, GRADER_PYTHON_LIBS);
	digest_hex(&d, key);
	free(compiler);
	return xasprintf("%s/runtime/%s-%.32s", cache_dir, it->kind, key);
}

/* Is path this user's, of the type wanted, and closed to writes by anyone else? */
static bool owned(const char *path, mode_t type)
{
	struct stat st;
	return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == type && st.st_uid == geteuid() &&
	       !(st.st_mode & (S_IWGRP | S_IWOTH));
}

static void file_digest(const struct strbuf *data, char hex[DIGEST_HEX_SIZE])
{
	struct digest d;
	digest_init(&d);
	digest_add(&d, data->buf, data->len);
	digest_hex(&d, hex);
}

/* A new file (never an existing one, never through a link) with data and mode. */
static int write_new(const char *path, const struct strbuf *data, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	int ret;
	if (fd < 0)
		return -1;
	ret = write_all(fd, data->buf, data->len);
	if (fchmod(fd, mode) < 0) /* the umask may have taken bits away */
		ret = -1;
	if (close(fd) < 0)
		ret = -1;
	if (ret < 0)
		unlink(path);
	return ret;
}

/* The checksum SHA256SUMS gives name ("HEX  NAME" lines), into hex.  0, or -1 when not listed. */
static int listed_sum(const char *sums, const char *name, char hex[DIGEST_HEX_SIZE])
{
	for (const char *line = sums; *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		if (len == DIGEST_HEX_SIZE - 1 + 2 + strlen(name) && !strncmp(line + DIGEST_HEX_SIZE + 1, name, strlen(name)) &&
		    line[DIGEST_HEX_SIZE - 1] == ' ' && line[DIGEST_HEX_SIZE] == ' ') {
			memcpy(hex, line, DIGEST_HEX_SIZE - 1);
			hex[DIGEST_HEX_SIZE - 1] = '\0';
			return 0;
		}
		line = end ? end + 1 : line + len;
	}
	return -1;
}

/*
 * Copy one product of entry into dest_dir when it is trusted and matches
 * its checksum (dest_dir NULL: only check).  0 or -1.
 */
static int fetch_product(const char *entry, const char *sums, const char *name, const char *dest_dir)
{
	char *from = xasprintf("%s/%s", entry, name), *to = xasprintf("%s/%s", dest_dir ? dest_dir : "", name);
	struct strbuf data = STRBUF_INIT;
	char want[DIGEST_HEX_SIZE], have[DIGEST_HEX_SIZE];
	struct stat st;
	int ret = -1;

	if (!owned(from, S_IFREG) || lstat(from, &st) < 0 || st.st_size > MAX_PRODUCT_BYTES)
		goto cleanup;
	if (listed_sum(sums, name, want) < 0 || read_file(&data, from) < 0)
		goto cleanup;
	file_digest(&data, have);
	if (strcmp(want, have) != 0)
		goto cleanup;
	/* fixed modes, whatever the entry's: the sandbox's compiler and runners (other uids) read them */
	ret = dest_dir ? write_new(to, &data, (st.st_mode & 0111) ? 0755 : 0644) : 0;
cleanup:
	strbuf_release(&data);
	free(from);
	free(to);
	return ret;
}

/*
 * The products of a trusted entry into dest_dir (NULL: only check them).
 * SETUP_CACHE_MISS when there is no entry.
 */
static enum setup_cache_fetch entry_fetch(const char *cache_dir, const char *entry, const struct setup_item *it,
					  const char *dest_dir)
{
	char *runtime = xasprintf("%s/runtime", cache_dir), *sums_path = xasprintf("%s/" SUMS_FILE, entry);
	struct strbuf sums = STRBUF_INIT;
	enum setup_cache_fetch ret = SETUP_CACHE_MISS;
	struct stat st;

	if (lstat(entry, &st) < 0)
		goto cleanup;
	ret = SETUP_CACHE_REJECTED;
	if (!owned(cache_dir, S_IFDIR) || !owned(runtime, S_IFDIR) || !owned(entry, S_IFDIR) ||
	    !owned(sums_path, S_IFREG) || read_file(&sums, sums_path) < 0)
		goto cleanup;
	for (int i = 0; it->products[i]; i++)
		if (fetch_product(entry, sums.buf, it->products[i], dest_dir) < 0) {
			/* none of a half-fetched set stays: the set-up writes them all afresh */
			for (int k = 0; dest_dir && k < i; k++) {
				char *partial = xasprintf("%s/%s", dest_dir, it->products[k]);
				unlink(partial);
				free(partial);
			}
			goto cleanup;
		}
	ret = SETUP_CACHE_HIT;
cleanup:
	strbuf_release(&sums);
	free(sums_path);
	free(runtime);
	return ret;
}

enum setup_cache_fetch setup_cache_fetch_item(const char *cache_dir, const struct setup_item *it, const char *cc,
					      const char *dest_dir)
{
	enum setup_cache_fetch ret = SETUP_CACHE_MISS;
	char *entry;

	if (!cache_dir || !*cache_dir || !it->products || !(entry = entry_path(cache_dir, it, cc)))
		return SETUP_CACHE_MISS;
	ret = entry_fetch(cache_dir, entry, it, dest_dir);
	free(entry);
	return ret;
}

/* A language's set-up as an item: its name, its products. */
static struct setup_item language_item(const struct language *lang)
{
	struct setup_item it = { lang->name, NULL, lang->setup_products };
	return it;
}

enum setup_cache_fetch setup_cache_fetch(const char *cache_dir, const struct language *lang, const char *cc,
					 const char *dest_dir)
{
	struct setup_item it = language_item(lang);
	return setup_cache_fetch_item(cache_dir, &it, cc, dest_dir);
}

/*
 * A set-up product as the set-up left it: a regular file with one link, not
 * through a symbolic link, at most MAX_PRODUCT_BYTES, read from the
 * descriptor that was checked (the runtime directory belongs to the
 * sandbox's compiler uid while the set-up runs).  0 or -1.
 */
static int read_product(struct strbuf *data, const char *path, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), ret = -1;
	char buf[65536];
	ssize_t n;

	if (fd < 0)
		return -1;
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode) || st->st_nlink != 1 || st->st_size > MAX_PRODUCT_BYTES)
		goto cleanup;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		if (data->len + (size_t)n > MAX_PRODUCT_BYTES)
			goto cleanup;
		strbuf_add(data, buf, (size_t)n);
	}
	ret = n == 0 ? 0 : -1;
cleanup:
	close(fd);
	return ret;
}

/* Copy the products from src_dir into the new entry dir and list their checksums.  0 or -1. */
static int fill_entry(const char *dir, const struct setup_item *it, const char *src_dir)
{
	struct strbuf sums = STRBUF_INIT;
	char *sums_path = xasprintf("%s/" SUMS_FILE, dir);
	int ret = -1;

	for (int i = 0; it->products[i]; i++) {
		const char *name = it->products[i];
		char *from = xasprintf("%s/%s", src_dir, name), *to = xasprintf("%s/%s", dir, name);
		struct strbuf data = STRBUF_INIT;
		char hex[DIGEST_HEX_SIZE];
		struct stat st;
		int rc = -1;
		if (read_product(&data, from, &st) == 0 && write_new(to, &data, (st.st_mode & 0111) ? 0755 : 0644) == 0) {
			file_digest(&data, hex);
			strbuf_addf(&sums, "%s  %s\n", hex, name);
			rc = 0;
		}
		strbuf_release(&data);
		free(from);
		free(to);
		if (rc < 0)
			goto cleanup;
	}
	ret = write_new(sums_path, &sums, 0644);
cleanup:
	strbuf_release(&sums);
	free(sums_path);
	return ret;
}

/* Entries half-built by a grader that was killed meanwhile (.new-*, an hour old): removed. */
static void sweep_unfinished(const char *runtime)
{
	DIR *d = opendir(runtime);
	struct dirent *e;
	time_t now = time(NULL);

	if (!d)
		return;
	while ((e = readdir(d))) {
		char *path;
		struct stat st;
		if (strncmp(e->d_name, ".new-", 5))
			continue;
		path = xasprintf("%s/%s", runtime, e->d_name);
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() && st.st_mtime + 3600 < now)
			remove_tree(path);
		free(path);
	}
	closedir(d);
}

void setup_cache_store_item(const char *cache_dir, const struct setup_item *it, const char *cc, const char *src_dir)
{
	char *entry = NULL, *runtime = NULL, *tmp = NULL;

	if (!cache_dir || !*cache_dir || !it->products || !(entry = entry_path(cache_dir, it, cc)))
		goto cleanup;
	runtime = xasprintf("%s/runtime", cache_dir);
	if (mkdir_p(runtime, 0755) < 0 || !owned(runtime, S_IFDIR))
		goto cleanup;
	sweep_unfinished(runtime);
	/* built aside and renamed into place: a reader sees a whole entry or none */
	tmp = xasprintf("%s/.new-XXXXXX", runtime);
	if (!mkdtemp(tmp)) {
		free(tmp);
		tmp = NULL;
		goto cleanup;
	}
	if (fill_entry(tmp, it, src_dir) < 0 || chmod(tmp, 0755) < 0)
		goto cleanup;
	if (rename(tmp, entry) < 0) {
		/* an entry of the same key: kept when trusted (another grader stored it meanwhile), else
		 * replaced when it is ours */
		struct stat st;
		if (entry_fetch(cache_dir, entry, it, NULL) != SETUP_CACHE_HIT && lstat(entry, &st) == 0 &&
		    st.st_uid == geteuid() && remove_tree(entry) == 0 && rename(tmp, entry) == 0) {
			free(tmp);
			tmp = NULL;
		}
		goto cleanup;
	}
	free(tmp);
	tmp = NULL;
cleanup:
	if (tmp) {
		remove_tree(tmp);
		free(tmp);
	}
	free(runtime);
	free(entry);
}

void setup_cache_store(const char *cache_dir, const struct language *lang, const char *cc, const char *src_dir)
{
	struct setup_item it = language_item(lang);
	setup_cache_store_item(cache_dir, &it, cc, src_dir);
}
