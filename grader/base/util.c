/* util.c - see util.h */
#define _GNU_SOURCE
#include "base/util.h"

#include "runtime/protocol.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

char strbuf_empty_[1];

void die(const char *fmt, ...)
{
	va_list ap;
	fputs("grader: fatal: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(GRADER_EXIT_INTERNAL);
}

int error(const char *fmt, ...)
{
	va_list ap;
	fputs("grader: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;
	fputs("grader: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		die("out of memory allocating %zu bytes", size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		die("out of memory allocating %zu elements", nmemb);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);
	if (!p)
		die("out of memory reallocating %zu bytes", size);
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb);
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	int fresh = sb->alloc == 0;
	if (sb->len + extra + 1 <= sb->alloc)
		return;
	if (fresh)
		sb->buf = NULL;
	ALLOC_GROW(sb->buf, sb->len + extra + 1, sb->alloc);
	if (fresh)
		sb->buf[0] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	char ch = (char)c;
	strbuf_add(sb, &ch, 1);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;
	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	strbuf_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->alloc)
		sb->buf[0] = '\0';
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	sb->len = sb->alloc = 0;
	sb->buf = strbuf_empty_;
}

char *strbuf_detach(struct strbuf *sb)
{
	char *r = sb->alloc ? sb->buf : xstrdup("");
	sb->len = sb->alloc = 0;
	sb->buf = strbuf_empty_;
	return r;
}

int read_file(struct strbuf *sb, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	for (;;) {
		ssize_t n;
		strbuf_grow(sb, 65536);
		n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int saved = errno;
			close(fd);
			errno = saved;
			return -1;
		}
		if (n == 0)
			break;
		sb->len += (size_t)n;
		sb->buf[sb->len] = '\0';
	}
	close(fd);
	return 0;
}

void strvec_push(struct strvec *sv, const char *s)
{
	ALLOC_GROW(sv->v, sv->n + 2, sv->alloc);
	sv->v[sv->n++] = xstrdup(s);
	sv->v[sv->n] = NULL;
}

void strvec_pushf(struct strvec *sv, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ALLOC_GROW(sv->v, sv->n + 2, sv->alloc);
	sv->v[sv->n++] = strbuf_detach(&sb);
	sv->v[sv->n] = NULL;
}

char **strvec_detach(struct strvec *sv)
{
	char **v = sv->v;
	sv->v = NULL;
	sv->n = sv->alloc = 0;
	return v;
}

void strvec_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

void strvec_clear(struct strvec *sv)
{
	strvec_free(strvec_detach(sv));
}

int write_all(int fd, const void *data, size_t len)
{
	return gr_write_full(fd, data, len);
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	int fd = -1, ret = -1, saved = 0;

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		goto cleanup;
	if (write_all(fd, data, len) < 0 || fsync(fd) < 0)
		goto cleanup;
	if (close(fd) < 0) {
		fd = -1;
		goto cleanup;
	}
	fd = -1;
	if (rename(tmp, path) < 0)
		goto cleanup;
	ret = 0;
cleanup:
	saved = errno;
	if (fd >= 0)
		close(fd);
	if (ret)
		unlink(tmp);
	free(tmp);
	errno = saved;
	return ret;
}

int mkdir_p(const char *path, unsigned mode)
{
	char *copy = xstrdup(path);
	int ret = 0;
	for (char *p = copy + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(copy, mode) < 0 && errno != EEXIST)
			ret = -1;
		*p = '/';
	}
	if (!ret && mkdir(copy, mode) < 0 && errno != EEXIST)
		ret = -1;
	free(copy);
	return ret;
}

static int remove_tree_at(int parent_fd, const char *name)
{
	struct stat st;
	int fd, ret = 0;
	DIR *dir;
	struct dirent *de;

	if (fstatat(parent_fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(parent_fd, name, 0);
	fd = openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return -1;
	}
	while ((de = readdir(dir))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (remove_tree_at(dirfd(dir), de->d_name) < 0)
			ret = -1;
	}
	closedir(dir);
	if (unlinkat(parent_fd, name, AT_REMOVEDIR) < 0)
		ret = -1;
	return ret;
}

int remove_tree(const char *path)
{
	return remove_tree_at(AT_FDCWD, path);
}

uint64_t now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

int cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : (int)n;
}

ssize_t pread_text(int fd, char *buf, size_t size)
{
	ssize_t n = 0, r = 0;

	while ((size_t)n < size - 1 && (r = pread(fd, buf + n, size - 1 - (size_t)n, n)) > 0) {
		n += r;
		if ((size_t)r < size - 1 - (size_t)(n - r))
			break;
	}
	if (r < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

int pid_list(const char *text, pid_t *pids, int max)
{
	int n = 0;
	for (const char *p = text;; n++) {
		char *end;
		long pid = strtol(p, &end, 10);
		if (end == p)
			return n;
		if (n < max)
			pids[n] = (pid_t)pid;
		p = end;
	}
}
