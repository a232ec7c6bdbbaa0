/* batch_archive.c - see batch_archive.h */
#define _GNU_SOURCE
#include "batch/batch_archive.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const archive_suffixes[] = { ".tar.gz", ".tgz", ".zip", ".tar", NULL };

/* Does name end in one of suffixes (and hold more than it)?  *stem_len: the name without it. */
static bool has_suffix(const char *name, const char *const *suffixes, size_t *stem_len)
{
	size_t len = strlen(name);
	for (int i = 0; suffixes[i]; i++) {
		size_t sl = strlen(suffixes[i]);
		if (len > sl && !strcasecmp(name + len - sl, suffixes[i])) {
			*stem_len = len - sl;
			return true;
		}
	}
	return false;
}

bool unpack_is_archive(const char *name, size_t *stem_len)
{
	return has_suffix(name, archive_suffixes, stem_len);
}

/* Archives of kinds the grader does not unpack: a student handed one in, so it is a row, not a note. */
static const char *const other_archives[] = { ".tar.bz2", ".tbz2", ".tbz", ".tar.xz", ".txz", ".tar.zst", ".tzst",
					      ".tar.lz", ".tar.lzma", ".rar", ".7z", ".gz", ".bz2", ".xz", ".zst", NULL };

bool unpack_other_archive(const char *name, size_t *stem_len)
{
	return has_suffix(name, other_archives, stem_len);
}

/*
 * The entry name with "." components and repeated slashes removed, or NULL
 * (with *why) when it is absolute, climbs with "..", or is empty.
 */
static char *clean_name(const char *name, const char **why)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = name;

	if (*name == '/') {
		*why = "an absolute path";
		return NULL;
	}
	while (*p) {
		size_t l = strcspn(p, "/");
		if (l == 2 && !strncmp(p, "..", 2)) {
			strbuf_release(&sb);
			*why = "a '..' path";
			return NULL;
		}
		if (l && !(l == 1 && *p == '.')) {
			if (sb.len)
				strbuf_addch(&sb, '/');
			strbuf_add(&sb, p, l);
		}
		p += l;
		while (*p == '/')
			p++;
	}
	if (!sb.len) {
		*why = "an empty path";
		return NULL;
	}
	return strbuf_detach(&sb);
}

/* Does a symbolic link at entry (a clean name) pointing to target stay inside the tree? */
static bool link_stays_inside(const char *entry, const char *target)
{
	int depth = 0;
	const char *p = target;

	if (!target || !*target || *target == '/')
		return false;
	for (const char *s = entry; *s; s++)
		depth += *s == '/';
	while (*p) {
		size_t l = strcspn(p, "/");
		if (l == 2 && !strncmp(p, "..", 2)) {
			if (--depth < 0)
				return false;
		} else if (l && !(l == 1 && *p == '.')) {
			depth++;
		}
		p += l;
		while (*p == '/')
			p++;
	}
	return true;
}

static struct archive *open_reader(const char *path, struct strbuf *err)
{
	struct archive *a = archive_read_new();
	if (!a) {
		strbuf_addstr(err, "cannot read the archive: out of memory");
		return NULL;
	}
	archive_read_support_format_zip(a);
	archive_read_support_format_tar(a);
	/* only the built-in gzip filter: never an external decompressor program */
	archive_read_support_filter_gzip(a);
	if (archive_read_open_filename(a, path, 64 << 10) != ARCHIVE_OK) {
		strbuf_addf(err, "cannot read the archive: %s", archive_error_string(a));
		archive_read_free(a);
		return NULL;
	}
	return a;
}

static void shown_name(struct strbuf *sb, const char *name)
{
	/* names are untrusted: keep them printable and short */
	size_t n = 0;
	for (const unsigned char *p = (const unsigned char *)name; *p && n < 80; p++, n++)
		strbuf_addch(sb, *p < 32 || *p == 127 ? '?' : *p);
	if (strlen(name) > 80)
		strbuf_addstr(sb, "...");
}

/* Pass 1: headers only.  0 when every entry is acceptable, else -1 with the reason. */
static int check_entries(const char *path, const struct unpack_limits *lim, struct strbuf *err)
{
	struct archive *a = open_reader(path, err);
	struct archive_entry *ent;
	unsigned long long declared = 0;
	unsigned entries = 0;
	int r, ret = -1;

	if (!a)
		return -1;
	while ((r = archive_read_next_header(a, &ent)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
		const char *name = archive_entry_pathname(ent);
		const char *link = archive_entry_hardlink(ent);
		const char *why = "";
		char *clean;

		if (++entries > lim->max_entries) {
			strbuf_addf(err, "more than %u entries", lim->max_entries);
			goto cleanup;
		}
		if (!name) {
			strbuf_addstr(err, "an entry has no readable name");
			goto cleanup;
		}
		clean = clean_name(name, &why);
		if (!clean && (link || archive_entry_filetype(ent) != AE_IFDIR || strcmp(why, "an empty path"))) {
			strbuf_addstr(err, "entry '");
			shown_name(err, name);
			strbuf_addf(err, "' has %s", why);
			goto cleanup;
		}
		if (link) {
			char *target = clean_name(link, &why);
			free(target);
			if (!target) {
				strbuf_addstr(err, "hard link '");
				shown_name(err, name);
				strbuf_addstr(err, "' points out of the folder");
				free(clean);
				goto cleanup;
			}
		} else {
			switch (archive_entry_filetype(ent)) {
			case AE_IFDIR:
				break;
			case AE_IFREG:
				if (archive_entry_size_is_set(ent) && archive_entry_size(ent) > 0)
					declared += (unsigned long long)archive_entry_size(ent);
				break;
			case AE_IFLNK:
				if (!clean || !link_stays_inside(clean, archive_entry_symlink(ent))) {
					strbuf_addstr(err, "symbolic link '");
					shown_name(err, name);
					strbuf_addstr(err, "' points out of the folder");
					free(clean);
					goto cleanup;
				}
				break;
			default:
				strbuf_addstr(err, "'");
				shown_name(err, name);
				strbuf_addstr(err, "' is a device or special file");
				free(clean);
				goto cleanup;
			}
		}
		free(clean);
		if (declared > lim->max_bytes) {
			strbuf_addf(err, "it expands to more than %llu MiB", lim->max_bytes >> 20);
			goto cleanup;
		}
		if (archive_read_data_skip(a) != ARCHIVE_OK) {
			strbuf_addf(err, "cannot read the archive: %s", archive_error_string(a));
			goto cleanup;
		}
	}
	if (r != ARCHIVE_EOF) {
		strbuf_addf(err, "cannot read the archive: %s", archive_error_string(a));
		goto cleanup;
	}
	if (!entries) {
		strbuf_addstr(err, "the archive is empty");
		goto cleanup;
	}
	ret = 0;
cleanup:
	archive_read_free(a);
	return ret;
}

/*
 * Open (creating as needed) the directory holding the last component of
 * rel below root; with want_leaf the last component is a directory too.
 * Returns a directory fd, or -1.  Never follows a symbolic link.
 */
static int open_dirs(int root, const char *rel, bool want_leaf, const char **leaf)
{
	int fd = dup(root);
	const char *p = rel;

	while (fd >= 0) {
		size_t l = strcspn(p, "/");
		char *comp;
		int next;
		if (!p[l] && !want_leaf) {
			*leaf = p;
			return fd;
		}
		comp = xstrndup(p, l);
		if (mkdirat(fd, comp, 0755) < 0 && errno != EEXIST) {
			free(comp);
			close(fd);
			return -1;
		}
		next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		free(comp);
		close(fd);
		fd = next;
		if (!p[l])
			return fd;
		p += l + 1;
	}
	return -1;
}

static int extract_file(struct archive *a, int root, const char *clean, unsigned long long *total,
			const struct unpack_limits *lim, struct strbuf *err)
{
	const char *leaf = NULL;
	int dir = open_dirs(root, clean, false, &leaf), fd = -1, ret = -1;
	char buf[64 << 10];

	if (dir < 0 || !leaf) {
		strbuf_addf(err, "cannot create the folders of '%s': %s", clean, strerror(errno));
		if (dir >= 0)
			close(dir);
		return -1;
	}
	fd = openat(dir, leaf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		strbuf_addf(err, errno == EEXIST ? "'%s' appears twice" : "cannot create '%s'", clean);
		goto cleanup;
	}
	for (;;) {
		la_ssize_t n = archive_read_data(a, buf, sizeof(buf));
		if (n == 0)
			break;
		if (n < 0) {
			strbuf_addf(err, "cannot read '%s' from the archive: %s", clean, archive_error_string(a));
			goto cleanup;
		}
		*total += (unsigned long long)n;
		if (*total > lim->max_bytes) {
			strbuf_addf(err, "it expands to more than %llu MiB", lim->max_bytes >> 20);
			goto cleanup;
		}
		if (write_all(fd, buf, (size_t)n) < 0) {
			strbuf_addf(err, "cannot write '%s': %s", clean, strerror(errno));
			goto cleanup;
		}
	}
	ret = 0;
cleanup:
	if (fd >= 0 && close(fd) < 0 && !ret) {
		strbuf_addf(err, "cannot write '%s': %s", clean, strerror(errno));
		ret = -1;
	}
	close(dir);
	return ret;
}

/* Pass 2: write regular files and directories.  0 or -1 with the reason. */
static int extract_entries(const char *path, int root, const struct unpack_limits *lim, struct strbuf *err)
{
	struct archive *a = open_reader(path, err);
	struct archive_entry *ent;
	unsigned long long total = 0;
	unsigned entries = 0;
	int r, ret = -1;

	if (!a)
		return -1;
	while ((r = archive_read_next_header(a, &ent)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
		const char *why = "";
		char *clean;
		int fd;

		/* the archive may differ from what pass 1 saw: check everything again */
		if (++entries > lim->max_entries) {
			strbuf_addf(err, "more than %u entries", lim->max_entries);
			goto cleanup;
		}
		if (!archive_entry_pathname(ent)) {
			strbuf_addstr(err, "an entry has no readable name");
			goto cleanup;
		}
		clean = clean_name(archive_entry_pathname(ent), &why);
		if (!clean) {
			if (archive_entry_filetype(ent) == AE_IFDIR && !archive_entry_hardlink(ent))
				continue; /* "./" */
			strbuf_addf(err, "an entry has %s", why);
			goto cleanup;
		}
		if (archive_entry_hardlink(ent)) {
			free(clean); /* links are not extracted */
			continue;
		}
		switch (archive_entry_filetype(ent)) {
		case AE_IFDIR:
			fd = open_dirs(root, clean, true, NULL);
			if (fd < 0) {
				strbuf_addf(err, "cannot create the folder '%s': %s", clean, strerror(errno));
				free(clean);
				goto cleanup;
			}
			close(fd);
			break;
		case AE_IFREG:
			if (extract_file(a, root, clean, &total, lim, err) < 0) {
				free(clean);
				goto cleanup;
			}
			break;
		case AE_IFLNK:
			break;
		default:
			strbuf_addf(err, "'%s' is a device or special file", clean);
			free(clean);
			goto cleanup;
		}
		free(clean);
	}
	if (r != ARCHIVE_EOF) {
		strbuf_addf(err, "cannot read the archive: %s", archive_error_string(a));
		goto cleanup;
	}
	ret = 0;
cleanup:
	archive_read_free(a);
	return ret;
}

int unpack_archive(const char *path, const char *dest, const struct unpack_limits *lim, struct strbuf *err)
{
	int root = -1, ret = -1;

	if (check_entries(path, lim, err) < 0)
		return -1;
	if (mkdir(dest, 0700) < 0) {
		strbuf_addf(err, "cannot create '%s': %s", dest, strerror(errno));
		return -1;
	}
	root = open(dest, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (root < 0) {
		strbuf_addf(err, "cannot open '%s': %s", dest, strerror(errno));
		goto cleanup;
	}
	if (extract_entries(path, root, lim, err) < 0)
		goto cleanup;
	ret = 0;
cleanup:
	if (root >= 0)
		close(root);
	if (ret)
		remove_tree(dest);
	return ret;
}
