/*
 * fuzz.h - what the file-reading harnesses share: the input as a file that
 * leaves nothing behind.
 *
 * fuzz_memfd() puts the bytes in an anonymous memory file (memfd_create)
 * and names it /proc/self/fd/N: nothing on disk, gone at close.
 * fuzz_tmpdir() makes a private directory (mkdtemp under $TMPDIR or /tmp,
 * mode 0700) that fuzz_tmpdir_remove() deletes with everything in it, in
 * the same run.  A harness calls them once per input, so a campaign of ten
 * million inputs leaves no file and holds no descriptor.  Any failure here
 * is the harness's, not the code's under test: it aborts with a message.
 */
#ifndef FUZZ_H
#define FUZZ_H

#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/util.h"

struct fuzz_file {
	int fd;
	char path[32];  /* /proc/self/fd/N */
};

static inline void fuzz_die(const char *what)
{
	perror(what);
	abort();
}

static inline void fuzz_memfd(struct fuzz_file *f, const void *data, size_t size)
{
	f->fd = memfd_create("fuzz-input", MFD_CLOEXEC);
	if (f->fd < 0)
		fuzz_die("memfd_create");
	if (size && write_all(f->fd, data, size) < 0)
		fuzz_die("write to the memfd");
	snprintf(f->path, sizeof(f->path), "/proc/self/fd/%d", f->fd);
}

static inline void fuzz_memfd_close(struct fuzz_file *f)
{
	close(f->fd);
	f->fd = -1;
}

/* A fresh private directory; the caller frees the returned path after fuzz_tmpdir_remove(). */
static inline char *fuzz_tmpdir(void)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = xasprintf("%s/grader-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		fuzz_die("mkdtemp");
	return dir;
}

static inline void fuzz_tmpdir_remove(char *dir)
{
	if (remove_tree(dir) < 0)
		fuzz_die("removing the temporary directory");
	free(dir);
}

/* Write size bytes to dir/name (a new file). */
static inline void fuzz_write(const char *dir, const char *name, const void *data, size_t size)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "wbx");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f))
		fuzz_die(path);
	free(path);
}

#endif
