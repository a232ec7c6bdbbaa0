/*
 * protocol.h - the wire between the grader and a runner ("zygote").
 *
 * Shared by the grader (grader/runner.c) and the runtime compiled into every
 * runner (grader/runtime/runtime.c); the grader embeds this file and writes
 * it next to the generated stub, so both sides always agree.  Both ends run
 * on the same machine: integers travel in host byte order.
 *
 * File descriptors of a freshly exec'd runner:
 *   0, 1, 2          /dev/null (the zygote itself never talks on them)
 *   GR_FD_CONTROL    requests from the grader (one case at a time)
 *   GR_FD_STATUS     hello, then one report per request, to the grader
 *   GR_FD_FILTER     the two seccomp programs, read once before any
 *                    student code runs, then closed
 * In the per-case child: 1 and 2 go to the output pipe, GR_FD_ANSWER
 * carries the answer record (never stdout: printing cannot forge answers).
 */
#ifndef GRADER_PROTOCOL_H
#define GRADER_PROTOCOL_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#define GR_FD_CONTROL 3
#define GR_FD_STATUS 4
#define GR_FD_FILTER 5
#define GR_FD_ANSWER 3 /* in the case child, after the zygote's fds are closed */

#define GR_MAGIC_HELLO 0x4f4c4548u   /* "HELO" */
#define GR_MAGIC_REQUEST 0x51455247u /* "GREQ" */
#define GR_MAGIC_REPORT 0x50455247u  /* "GREP" */
#define GR_MAGIC_ANSWER 0x57534e41u  /* "ANSW" */
#define GR_MAGIC_FORBID 0x44494246u  /* "FBID": a forbidden system call */
#define GR_MAGIC_NOMEM 0x4d454d4eu   /* "NMEM": an allocation failed at the limit */
#define GR_MAGIC_READY 0x59444552u   /* "REDY": the case child's filter is in place */
#define GR_MAGIC_SANDBOX 0x584f4253u /* "SBOX": the preinit hook could not install the filter */

/* Stands for "this process's pid" in seccomp programs; patched at install. */
#define GR_PID_PLACEHOLDER 0x7ffffff1u

#define GR_OUTPUT_KEEP 4096u          /* captured bytes sent back per case */
#define GR_MAX_REQUEST (64u << 20)

/* kinds of encoded values (same numbers as the grader's enum value_type) */
enum { GR_BOOL = 0, GR_INT = 1, GR_LONG = 2, GR_INT_ARRAY = 3 };

struct gr_hello {
	uint32_t magic;
	uint32_t nfunctions;
	uint64_t present;      /* bit i: function i is defined by the submission */
	uint32_t filtered;     /* 1 when the seccomp programs are installed */
	uint32_t pid;          /* the zygote's pid as it sees itself */
};

/* followed by `size` bytes of encoded arguments (kind byte, then value) */
struct gr_request {
	uint32_t magic;
	uint32_t size;
	uint32_t case_id;
	uint32_t function;
	uint32_t cpu_ms;
	uint32_t memory_mb;
	uint32_t output_kb;
	uint32_t pad;
};

enum gr_report_flags {
	GR_ANSWERED = 1,        /* an answer record arrived */
	GR_FORBIDDEN = 2,       /* the child made a forbidden system call (syscall_nr) */
	GR_NOMEM = 4,           /* an allocation failed at the memory limit (nomem_bytes) */
	GR_OUTPUT_LIMIT = 8,    /* the output cap was reached; the pipe was closed */
	GR_SPAWN_FAILED = 16,   /* the zygote could not fork the case */
	GR_BAD_REQUEST = 32,    /* the zygote could not decode the request */
	GR_CASE_READY = 64,     /* the child said its sandbox was in place before student code ran */
};

/* followed by output_kept bytes of captured stdout+stderr */
struct gr_report {
	uint32_t magic;
	uint32_t case_id;
	int32_t wait_status;
	uint32_t flags;
	int64_t answer;
	uint64_t cpu_us;
	uint64_t maxrss_kb;
	uint64_t output_total;
	uint64_t nomem_bytes;
	int32_t syscall_nr;
	uint32_t output_kept;
};

/* in the case child: what the answer pipe carries */
struct gr_answer {
	uint32_t magic;
	int32_t syscall_nr;
	int64_t value;
};

/* one decoded argument */
struct gr_arg {
	long long i;
	const int *arr;
	int len;
};

/*
 * Move exactly len bytes, retrying on EINTR and short transfers (both ends:
 * the runtime has no library of its own, and the grader's write_all is
 * this).  0, or -1 at end of file or on an error.
 */
static inline int gr_read_full(int fd, void *buf, size_t len)
{
	char *p = buf;
	while (len) {
		ssize_t n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static inline int gr_write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* the generated stub provides these */
struct gr_function {
	const char *name;
	long long (*call)(const struct gr_arg *args);
	int present;  /* filled in at start-up from the weak symbol */
	int nargs;
};
extern struct gr_function gr_functions[];
extern const int gr_nfunctions;
void gr_stub_init(void);

#endif
