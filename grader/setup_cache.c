/* setup_cache.c - see setup_cache.h */
#define _GNU_SOURCE
#include "setup_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "digest.h"
#include "embed.h"
#include "version.h"

#define SUMS_FILE "SHA256SUMS"
#define MAX_PRODUCT_BYTES (64u << 20)

#ifndef GRADER_PYTHON_CFLAGS
#define GRADER_PYTHON_CFLAGS ""
#endif
#ifndef GRADER_PYTHON_LIBS
#define GRADER_PYTHON_LIBS ""
#endif

/* The compiler's file: cc itself when it names a path, else the first match on $PATH.  NULL if none. */
static char *find_compiler(const char *cc)
{
	const char *path = getenv("PATH");
	char *found = NULL, *copy, *dir, *save = NULL;

	if (strchr(cc, '/'))
		return realpath(cc, NULL);
	copy = xstrdup(path && *path ? path : "/usr/bin:/bin");
	for (dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		char *candidate = xasprintf("%s/%s", *dir ? dir : ".", cc);
		if (access(candidate, X_OK) == 0)
			found = realpath(candidate, NULL);
		free(candidate);
	}
	free(copy);
	return found;
}

/* CACHE/runtime/<language>-<key>, or NULL when there is nothing to key on (no compiler). */
static char *entry_path(const char *cache_dir, const struct language *lang, const char *cc)
{
	char *compiler = find_compiler(cc);
	struct stat st;
	struct digest d;
	char key[DIGEST_HEX_SIZE];

	if (!compiler)
		return NULL;
	if (stat(compiler, &st) < 0) {
		free(compiler);
		return NULL;
	}
	digest_init(&d);
	digest_add_str(&d, GRADER_VERSION);
	digest_add_str(&d, lang->name);
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
	return xasprintf("%s/runtime/%s-%.32s", cache_dir, lang->name, key);
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
	ret = dest_dir ? write_new(to, &data, st.st_mode & 0755) : 0;
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
static enum setup_cache_fetch entry_fetch(const char *cache_dir, const char *entry, const struct language *lang,
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
	for (int i = 0; lang->setup_products[i]; i++)
		if (fetch_product(entry, sums.buf, lang->setup_products[i], dest_dir) < 0) {
			/* none of a half-fetched set stays: the set-up writes them all afresh */
			for (int k = 0; dest_dir && k < i; k++) {
				char *partial = xasprintf("%s/%s", dest_dir, lang->setup_products[k]);
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

enum setup_cache_fetch setup_cache_fetch(const char *cache_dir, const struct language *lang, const char *cc,
					 const char *dest_dir)
{
	enum setup_cache_fetch ret = SETUP_CACHE_MISS;
	char *entry;

	if (!cache_dir || !*cache_dir || !lang->setup_products || !(entry = entry_path(cache_dir, lang, cc)))
		return SETUP_CACHE_MISS;
	ret = entry_fetch(cache_dir, entry, lang, dest_dir);
	free(entry);
	return ret;
}

/* Copy the products from src_dir into the new entry dir and list their checksums.  0 or -1. */
static int fill_entry(const char *dir, const struct language *lang, const char *src_dir)
{
	struct strbuf sums = STRBUF_INIT;
	char *sums_path = xasprintf("%s/" SUMS_FILE, dir);
	int ret = -1;

	for (int i = 0; lang->setup_products[i]; i++) {
		const char *name = lang->setup_products[i];
		char *from = xasprintf("%s/%s", src_dir, name), *to = xasprintf("%s/%s", dir, name);
		struct strbuf data = STRBUF_INIT;
		char hex[DIGEST_HEX_SIZE];
		struct stat st;
		int rc = -1;
		if (lstat(from, &st) == 0 && S_ISREG(st.st_mode) && read_file(&data, from) == 0 &&
		    write_new(to, &data, (st.st_mode & 0111) ? 0755 : 0644) == 0) {
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

void setup_cache_store(const char *cache_dir, const struct language *lang, const char *cc, const char *src_dir)
{
	char *entry = NULL, *runtime = NULL, *tmp = NULL;

	if (!cache_dir || !*cache_dir || !lang->setup_products || !(entry = entry_path(cache_dir, lang, cc)))
		goto cleanup;
	runtime = xasprintf("%s/runtime", cache_dir);
	if (mkdir_p(runtime, 0755) < 0 || !owned(runtime, S_IFDIR))
		goto cleanup;
	/* built aside and renamed into place: a reader sees a whole entry or none */
	tmp = xasprintf("%s/.new-XXXXXX", runtime);
	if (!mkdtemp(tmp)) {
		free(tmp);
		tmp = NULL;
		goto cleanup;
	}
	if (fill_entry(tmp, lang, src_dir) < 0 || chmod(tmp, 0755) < 0)
		goto cleanup;
	if (rename(tmp, entry) < 0) {
		/* an entry of the same key: kept when trusted (another grader stored it meanwhile), else
		 * replaced when it is ours */
		struct stat st;
		if (entry_fetch(cache_dir, entry, lang, NULL) != SETUP_CACHE_HIT && lstat(entry, &st) == 0 &&
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
