/*
 * util.h - small helpers shared by every module of the grader.
 *
 * Ownership: every function that returns a pointer returns memory the caller
 * owns and frees with free(), unless its comment says otherwise.  The x*
 * allocators never return NULL: running out of memory in the grader itself is
 * an internal error and exits with GRADER_EXIT_INTERNAL (3).
 */
#ifndef GRADER_UTIL_H
#define GRADER_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* Exit codes of bin/grader, documented in --help and README.md. */
enum grader_exit {
	GRADER_EXIT_OK = 0,        /* every test correct */
	GRADER_EXIT_FAILED = 1,    /* some test not correct */
	GRADER_EXIT_USAGE = 2,     /* usage error or bad problem file */
	GRADER_EXIT_INTERNAL = 3,  /* the grader itself failed */
};

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* printf into a new string */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grow *array (of *alloc elements of elem_size) so index `need - 1` fits. */
#define ALLOC_GROW(array, need, alloc)                                         \
	do {                                                                   \
		if ((size_t)(need) > (size_t)(alloc)) {                        \
			size_t new_alloc_ = (size_t)(alloc) * 2 + 8;           \
			if (new_alloc_ < (size_t)(need))                       \
				new_alloc_ = (size_t)(need);                   \
			(array) = xrealloc((array),                            \
					   new_alloc_ * sizeof(*(array)));     \
			(alloc) = new_alloc_;                                  \
		}                                                              \
	} while (0)

/*
 * A growable string.  buf is never NULL and always NUL-terminated (it may
 * hold NUL bytes inside when used for binary data; len counts them).
 * strbuf_release() frees the contents; strbuf_detach() hands them over.
 */
struct strbuf {
	size_t len, alloc;
	char *buf;
};
extern char strbuf_empty_[];
#define STRBUF_INIT { 0, 0, strbuf_empty_ }

void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
void strbuf_reset(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
char *strbuf_detach(struct strbuf *sb);

/*
 * A NULL-terminated array of strings it owns (argv for a command), git's
 * strvec: v is NULL while empty, else always NULL-terminated.
 * strvec_detach() hands v over (free each string, then v); strvec_clear()
 * frees everything.
 */
struct strvec {
	char **v;
	size_t n, alloc;
};
#define STRVEC_INIT { NULL, 0, 0 }
void strvec_push(struct strvec *sv, const char *s);
void strvec_pushf(struct strvec *sv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char **strvec_detach(struct strvec *sv);
void strvec_clear(struct strvec *sv);
/* Free a detached vector. */
void strvec_free(char **v);

/* Read a whole file into sb (appending).  Returns 0, or -1 with errno set. */
int read_file(struct strbuf *sb, const char *path);
/* Write data to path atomically (temporary file in the same directory, fsync, rename). */
int write_file_atomic(const char *path, const void *data, size_t len);
/* Write all of len bytes, retrying on EINTR and short writes.  0 or -1. */
int write_all(int fd, const void *data, size_t len);
/* mkdir -p; 0 or -1 with errno */
int mkdir_p(const char *path, unsigned mode);
/* rm -rf that never follows symbolic links; 0 or -1 */
int remove_tree(const char *path);

/* Monotonic clock in microseconds. */
uint64_t now_us(void);

/* Number of online processors, at least 1. */
int cpu_count(void);

/*
 * The numbers in a whitespace-separated list of pids (cgroup.procs, one a
 * line; /proc/<pid>/task/<tid>/children, one a space): how many there are,
 * the first max of them in pids[].
 */
int pid_list(const char *text, pid_t *pids, int max);

/*
 * The text of a kernel-made file (a cgroup control file, a /proc file of a
 * process) through fd, kept open: read afresh from offset 0 with pread
 * (kernfs and proc's seq_files make their text again at offset 0 - but see
 * cgroup_procs for v1's cgroup.procs), into buf, NUL-terminated, truncated
 * to size - 1.  Such a file's text comes in one read: a short one is the
 * end (one call, not two).  Bytes read, or -1 with errno set.
 */
ssize_t pread_text(int fd, char *buf, size_t size);

/* Print "grader: <message>" to stderr; returns -1 so callers can `return error(...)`. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print and exit with GRADER_EXIT_INTERNAL. Only the top level and allocators call this. */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
