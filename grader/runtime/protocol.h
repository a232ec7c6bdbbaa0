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
 *   GR_FD_FILTER     the run's secret (GR_NONCE_LEN bytes), then the two
 *                    seccomp programs, read once before any student code
 *                    runs, then closed
 * Once the zygote is ready for tests it keeps two pipes for all of them:
 * 1 and 2 become the output pipe's write end and GR_FD_ANSWER the answer
 * pipe's; each case child inherits them (and closes the rest), so GR_FD_ANSWER
 * carries its answer record (never stdout: printing cannot forge answers).
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
#define GR_FD_ANSWER 6 /* the answer pipe's write end, in the zygote and every case child */

/*
 * The secret (nonce) of one runner: random, drawn by the grader for each
 * runner it starts, read from GR_FD_FILTER before any code of the
 * submission runs and kept only in the runtime's memory; every hello,
 * report and forbidden-call record carries it, and the grader takes no
 * record without it (grader/run/record.c).  Code of the submission that
 * speaks the protocol itself - a Python module's top-level code writing on
 * GR_FD_STATUS - cannot make a record the grader takes.  It never travels
 * anywhere the submission can read: not in a request, argv, the
 * environment or a file.  Against Python code it holds as far as Python
 * code cannot read the process's memory (ctypes, hand-built code objects,
 * files such as /proc/self/mem are all refused); native code in the
 * runner's own process (a C constructor) can read it, so for C it is no
 * boundary (docs/isolation.md).
 */
#define GR_NONCE_LEN 8u

#define GR_MAGIC_HELLO 0x4f4c4548u   /* "HELO" */
#define GR_MAGIC_REQUEST 0x51455247u /* "GREQ" */
#define GR_MAGIC_REPORT 0x50455247u  /* "GREP" */
#define GR_MAGIC_ANSWER 0x57534e41u  /* "ANSW" */
#define GR_MAGIC_FORBID 0x44494246u  /* "FBID": a forbidden system call */
#define GR_MAGIC_NOMEM 0x4d454d4eu   /* "NMEM": an allocation failed at the limit */
#define GR_MAGIC_READY 0x59444552u   /* "REDY": the case child's filter is in place */
#define GR_MAGIC_SANDBOX 0x584f4253u /* "SBOX": the preinit hook could not install the filter */
#define GR_MAGIC_STACK 0x4b435453u   /* "STCK": a fault at the stack pointer, near the stack's end */
#define GR_MAGIC_BOUNDS 0x444e4242u  /* "BBND": a fault on the guard page after an array argument */
#define GR_BOUNDS_WRITE 0x10000u     /* in GR_MAGIC_BOUNDS's syscall_nr: the access was a write */
#define GR_MAGIC_SIGNAL 0x4c464c53u  /* "SLFL": a trapped kill/tgkill the test aimed at itself (value: the signal) */

/*
 * The zygote's own fork passes this as clone's parent_tid argument, which
 * the kernel reads only with CLONE_PARENT_SETTID (never set here).  The
 * Python zygote's filter lets clone through with it only: glibc's fork(),
 * and so os.fork() from a module's top-level code, passes NULL there
 * (filter.c add_process_rules).  Defence in depth, not a boundary: Python
 * code that corrupts memory can make a raw call with the token.
 */
#define GR_CLONE_TOKEN 0x4e4f4c43u /* "CLON" */

/* Stands for "this process's pid" in seccomp programs; patched at install. */
#define GR_PID_PLACEHOLDER 0x7ffffff1u
#define GR_CASE_FILTER_MAX 512u /* bytes of the case child's program (filter.c's difference: ~30 instructions) */

#define GR_OUTPUT_KEEP 4096u          /* captured bytes sent back per case */
#define GR_MAX_REQUEST (64u << 20)

/* kinds of encoded values (same numbers as the grader's enum value_type) */
enum { GR_BOOL = 0, GR_INT = 1, GR_LONG = 2, GR_INT_ARRAY = 3, GR_LONG_ARRAY = 4 };

/* How the code that runs before the tests ended (the hello's load_kind). */
enum gr_load_kind {
	GR_LOAD_OK = 0,
	GR_LOAD_EXCEPTION = 1,  /* an exception while importing (detail: the traceback) */
	GR_LOAD_FORBIDDEN = 2,  /* a forbidden operation while importing (detail: which) */
	GR_LOAD_EXIT = 3,       /* sys.exit() while importing */
	GR_LOAD_HOST = 4,       /* the language runtime itself could not start (the grader's fault) */
};

/*
 * Followed by startup_len bytes of what the code before the tests printed
 * (Python: the module's import) and detail_len bytes saying why loading
 * failed, each at most GR_OUTPUT_KEEP and GR_DETAIL_MAX.
 */
struct gr_hello {
	uint32_t magic;
	uint32_t nfunctions;
	uint64_t present;      /* bit i: function i is defined by the submission */
	uint32_t filtered;     /* 1 when the seccomp programs are installed */
	uint32_t pid;          /* the zygote's pid as it sees itself */
	uint32_t load_kind;    /* enum gr_load_kind */
	uint32_t startup_len;
	uint64_t startup_total;/* bytes printed before the tests in all */
	uint32_t detail_len;
	uint32_t pad;
	uint64_t nonce;        /* the runner's secret (GR_NONCE_LEN) */
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
	GR_ANSWERED = 1,        /* an answer record arrived (value_kind says what it holds) */
	GR_FORBIDDEN = 2,       /* the child made a forbidden system call (syscall_nr) */
	GR_NOMEM = 4,           /* an allocation failed at the memory limit (nomem_bytes) */
	GR_OUTPUT_LIMIT = 8,    /* the output cap was reached; the pipe was closed */
	GR_SPAWN_FAILED = 16,   /* the zygote could not fork the case */
	GR_BAD_REQUEST = 32,    /* the zygote could not decode the request */
	GR_CASE_READY = 64,     /* the child said its sandbox was in place before student code ran */
	GR_STACK_OVERFLOW = 128,/* the child faulted at its stack's end (answer: the estimated depth, 0 when
				 * unknown; nomem_bytes: the stack it used) */
	GR_STOPPED = 256,       /* the child stopped itself (stop_signal); killed at once where the zygote may,
				 * else left stopped for the grader to end with the runner */
	GR_OUT_OF_BOUNDS = 512, /* the child faulted just past the end of an array argument (answer: the
				 * element's index; nomem_bytes: the array's length; syscall_nr: the
				 * argument's position, | GR_BOUNDS_WRITE for a write) */
	GR_END_UNSEEN = 1024,   /* the child was gone without the zygote seeing how it ended (SIGCHLD ignored
				 * by code in the runner, so the kernel reaped it): no wait status, no CPU time */
	GR_NO_CPU_TIMER = 2048, /* the child could not arm its CPU-time timer (code before main used up the
				 * signal queue or lowered its limits): it was not stopped at the CPU limit */
};

/* in a case child's READY record (its kind field) */
#define GR_READY_NO_TIMER 1u

/*
 * What a call gave back.  A C function always returns a value; a Python one
 * may return another type, raise, exit or try something forbidden - the
 * language part says which, and the grader decides what it means.
 */
enum gr_value_kind {
	GR_VALUE_OK = 0,         /* value holds the answer */
	GR_VALUE_NONE = 1,       /* returned None */
	GR_VALUE_TYPE = 2,       /* returned something that is not an int or bool (detail: its type) */
	GR_VALUE_RANGE = 3,      /* an int beyond 64 bits (detail: its digits) */
	GR_VALUE_EXCEPTION = 4,  /* raised (detail: type, message, the student's frames) */
	GR_VALUE_RECURSION = 5,  /* RecursionError (value: the depth reached; detail as for an exception) */
	GR_VALUE_MEMORY = 6,     /* MemoryError */
	GR_VALUE_EXIT = 7,       /* sys.exit() or SystemExit */
	GR_VALUE_FORBIDDEN = 8,  /* tried a forbidden operation (detail: which) */
};

#define GR_DETAIL_MAX 3072u   /* bytes of detail a call or a load may send */

/* followed by output_kept bytes of captured stdout+stderr, then detail_len bytes of detail */
struct gr_report {
	uint32_t magic;
	uint32_t case_id;
	int32_t wait_status;
	uint32_t flags;
	int64_t answer;
	uint64_t cpu_us;
	uint64_t maxrss_kb;
	uint64_t output_total;
	uint64_t nomem_bytes;  /* GR_NOMEM: the allocation's size; GR_STACK_OVERFLOW: the stack used */
	int32_t syscall_nr;
	uint32_t output_kept;
	uint32_t value_kind;   /* enum gr_value_kind, with GR_ANSWERED */
	uint32_t detail_len;
	uint32_t stop_signal;  /* GR_STOPPED: the signal that stopped it (SIGSTOP, SIGTSTP...) */
	uint32_t pad;
	uint64_t nonce;        /* the runner's secret (GR_NONCE_LEN); in a GR_MAGIC_FORBID record too */
};

/*
 * in the case child: what the answer pipe carries (followed by detail_len bytes).
 * GR_MAGIC_STACK: value is the estimated recursion depth (0: unknown), kind
 * the stack used in KiB.  GR_MAGIC_BOUNDS: syscall_nr the argument's position
 * (| GR_BOUNDS_WRITE), value the element's index, kind the array's length.
 */
struct gr_answer {
	uint32_t magic;
	int32_t syscall_nr;
	int64_t value;
	uint32_t kind;         /* enum gr_value_kind */
	uint32_t detail_len;
};

/* one decoded argument */
struct gr_arg {
	long long i;
	const void *arr;      /* GR_INT_ARRAY: ints, GR_LONG_ARRAY: long longs */
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

/*
 * The language part of a runner - the generated C stub, or the Python
 * host - provides these; runtime.c is the same for every language.
 */
struct gr_result {
	int64_t value;
	uint32_t kind;                 /* enum gr_value_kind */
	uint32_t detail_len;
	char detail[GR_DETAIL_MAX];
};

struct gr_function {
	const char *name;
	void (*call)(const struct gr_function *self, const struct gr_arg *args, struct gr_result *res);
	int present;  /* the submission defines it (filled in by gr_stub_init/gr_stub_load) */
	int nargs;
	int index;
};

/* What loading the submission's code before the tests gave. */
struct gr_load {
	uint32_t kind;                 /* enum gr_load_kind */
	char output[GR_OUTPUT_KEEP];   /* what it printed (the first GR_OUTPUT_KEEP bytes) */
	uint32_t output_len;
	uint64_t output_total;
	char detail[GR_DETAIL_MAX];
	uint32_t detail_len;
};

/*
 * Start-up, in order:
 *   gr_stub_init   set up the language (before the zygote's filter when the
 *                  runtime is built with GR_FILTER_IN_MAIN, which only a
 *                  runner without student native code may be: the Python
 *                  host reads its standard library here); returns the table
 *   gr_stub_load   run the submission's code that comes before the tests
 *                  (Python: import the module), under the zygote's filter
 * Each case child is a plain fork() of the zygote, which has no threads
 * (the zygote's filter refuses them), and calls a function of the table.
 * gr_stub_init returns 0, or -1 with load->kind GR_LOAD_HOST.
 */
int gr_stub_init(int argc, char **argv, struct gr_function **functions, int *nfunctions, struct gr_load *load);
void gr_stub_load(struct gr_load *load);

#endif
