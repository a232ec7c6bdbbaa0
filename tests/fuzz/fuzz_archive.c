/*
 * fuzz_archive.c - libFuzzer harness for unpack_archive()
 * (grader/batch/batch_archive.c): a student's .zip / .tar.gz / .tar, read by
 * libarchive, checked and extracted under the grader's rules.
 *
 * Input: the archive, as an anonymous memory file (/proc/self/fd/N).  It is
 * unpacked into T/box/out, T a private directory made for this input
 * (mkdtemp) and removed with everything in it before the next one; the
 * limits are small (UNPACK_LIMITS below) so that the fuzzer can reach them.
 * Checked, besides what ASan/UBSan/LeakSanitizer see:
 *   - on failure: a reason is given and out does not exist;
 *   - on success: out holds only directories and regular files (no link,
 *     device or FIFO), at most max_entries files, at most max_bytes in all;
 *   - either way nothing appeared beside out (T holds only box, box only
 *     out): no entry got out of the target through '..', a link or an
 *     absolute name relative to it.
 */
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "batch/batch_archive.h"

static const struct unpack_limits limits = { 256u << 10, 32 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct tally {
	unsigned long long bytes;
	unsigned files;  /* one archive entry each (directories may be implied by a path) */
};

/* Walk dir (an open directory fd, taken over): only files and directories, counted. */
static void walk(int dirfd, struct tally *t, int depth)
{
	DIR *d = fdopendir(dirfd);
	struct dirent *de;

	if (!d)
		fuzz_die("fdopendir");
	if (depth > 4096)
		__builtin_trap();
	while ((de = readdir(d))) {
		struct stat st;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			fuzz_die("fstatat");
		if (S_ISREG(st.st_mode)) {
			t->files++;
			t->bytes += (unsigned long long)st.st_size;
		} else if (S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub < 0)
				fuzz_die("openat");
			walk(sub, t, depth + 1);
		} else {
			__builtin_trap(); /* a link, device, FIFO or socket was extracted */
		}
	}
	closedir(d);
}

/* Does dir hold exactly one entry, named name? */
static bool holds_only(const char *dir, const char *name, bool may_be_empty)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0, other = 0;

	if (!d)
		fuzz_die(dir);
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		n++;
		other += strcmp(de->d_name, name) != 0;
	}
	closedir(d);
	return !other && (n == 1 || (may_be_empty && n == 0));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT;
	struct fuzz_file f;
	char *top = fuzz_tmpdir(), *box = xasprintf("%s/box", top), *out = xasprintf("%s/out", box);
	int r;

	if (mkdir(box, 0700) < 0)
		fuzz_die("mkdir");
	fuzz_memfd(&f, data, size);
	r = unpack_archive(f.path, out, &limits, &err);
	fuzz_memfd_close(&f);
	if (r == 0) {
		struct tally t = { 0, 0 };
		int fd = open(out, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			__builtin_trap(); /* success, but no directory */
		walk(fd, &t, 0);
		if (t.files > limits.max_entries || t.bytes > limits.max_bytes)
			__builtin_trap();
	} else if (r != -1 || !err.len || access(out, F_OK) == 0 || errno != ENOENT) {
		__builtin_trap(); /* failed without a reason, or left the target behind */
	}
	if (!holds_only(top, "box", false) || !holds_only(box, "out", r != 0))
		__builtin_trap(); /* something was written beside the target */
	strbuf_release(&err);
	free(out);
	free(box);
	fuzz_tmpdir_remove(top);
	return 0;
}
