/*
 * batch_archive.h - unpacking one student's .zip or .tar.gz, refusing
 * anything that could write outside the target folder or fill the disk.
 *
 * Two passes over the archive: the first reads only the headers and
 * rejects the archive as a whole (nothing is written) when an entry
 *   - has an absolute name, a ".." component or no usable name,
 *   - is a symbolic or hard link whose target leaves the archive's tree,
 *   - is a device, FIFO or socket,
 *   - or when there are more than max_entries entries or the declared
 *     sizes add up to more than max_bytes;
 * the second extracts regular files and directories with O_NOFOLLOW and
 * O_EXCL below a fresh directory, counting the bytes actually inflated
 * (declared sizes can lie), and removes everything again when a limit is
 * crossed.  Links that stay inside the tree are not extracted (grading
 * never follows links anyway).
 *
 * Named batch_archive.h, not archive.h: -Igrader would shadow libarchive's.
 */
#ifndef GRADER_BATCH_ARCHIVE_H
#define GRADER_BATCH_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"

struct unpack_limits {
	unsigned long long max_bytes;   /* all files together, after decompression */
	unsigned max_entries;
};
#define UNPACK_LIMITS_INIT { 64ull << 20, 10000 }

/*
 * Is name a submission archive (.zip, .tar.gz, .tgz, .tar)?  When it is,
 * *stem_len is the length of the student id (the name without extension).
 */
bool unpack_is_archive(const char *name, size_t *stem_len);

/*
 * Is name an archive of a kind the grader does not unpack (.rar, .7z,
 * .tar.xz, .gz, ...)?  A student handed one in: a row saying why, not a
 * note.  *stem_len: the name without the extension.
 */
bool unpack_other_archive(const char *name, size_t *stem_len);

/*
 * Unpack the archive at path into dest, which must not exist (it is
 * created with mode 0700).  Returns 0, or -1 with the reason in err (in
 * words for the gradebook); dest does not exist after a failure.
 */
int unpack_archive(const char *path, const char *dest, const struct unpack_limits *lim, struct strbuf *err);

#endif
