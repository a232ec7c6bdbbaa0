/*
 * runtime.c - the fixed half of every runner; the generated stub is the other
 * half and the student's file the third.  Compiled and linked by the grader
 * (grader/build.c), never linked into the grader itself.
 *
 * Theory of operation
 * -------------------
 * The grader starts one runner per worker slot, inside the sandbox
 * (grader/sandbox.c: own session, PID/network namespaces where possible,
 * rlimits, uid nobody when root, empty working directory).  Before any code
 * of the submission can run - constructors run before main - the
 * .preinit_array hook below reads two seccomp programs from GR_FD_FILTER and
 * installs the first ("zygote" filter: no files, no exec, no sockets, no
 * signals beyond its own PID namespace, but fork and wait so it can start
 * cases).  Student code
 * linked into the runner can run before main only through constructors, which
 * come after .preinit_array; ifunc resolvers, which would come earlier, are
 * refused at build time.
 *
 * main() then says hello and loops: read one request from GR_FD_CONTROL,
 * fork a child, collect its answer and output, report on GR_FD_STATUS.
 * The child lowers its limits (CPU timer that sends SIGKILL, address space),
 * installs the second program on top of the zygote's filter (which takes
 * away what the zygote may do and a test may not: fork, wait, pipes,
 * limits, signals to others), calls the student's function through the
 * stub and writes the answer record to GR_FD_ANSWER.  The output and answer
 * pipes are made once and inherited by every child (gr_pipe_to).  Once a
 * test is reported, the next test's child is forked and sandboxed ahead
 * with the same limits (a spare, gr_spare_fork): it waits for its request
 * under its filter, so its fork, limits and filter cost the next test no
 * time between request and call; a request with other limits gets a child
 * forked for it, as the first test does.
 *
 * The zygote kills nothing but a case child past its output limit or one
 * that stopped itself (where its filter allows it, see gr_may_kill): a
 * stopped child is seen at once (SIGCHLD, blocked except inside ppoll(), and
 * waitid), since nothing could ever continue it; where the zygote
 * may not kill it, it reports the stop and the grader ends the whole runner.
 * The CPU limit is enforced by the kernel
 * in the child, and the grader enforces the wall-clock backstop by killing the
 * whole runner (and with it its PID namespace).  The grader trusts a report
 * only for what the student could have produced anyway: answers are compared
 * by the grader against values this process never sees.
 */
#define _GNU_SOURCE
#include "protocol.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/auxv.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#define GR_FILTER_MAX 65536

static uint32_t gr_filter_case_len;
static int gr_filtered;
static uint64_t gr_nonce; /* the runner's secret (protocol.h GR_NONCE_LEN): in every record to the grader */
/*
 * May the zygote signal its case child?  Unfiltered, yes; filtered, only
 * when it is the init of a PID namespace of its own, where the grader's
 * zygote filter allows signals to any pid (grader/sandbox.c
 * add_signal_rules); elsewhere it allows only signals to the zygote itself.
 */
static int gr_may_kill;
/*
 * The runtime's own memory a case child writes, kept on one page: after
 * fork() every page is shared copy-on-write, and each page the child (or
 * the zygote) writes first costs a page fault, a large part of a test's
 * cost on a virtual machine.  The outcome's detail runs onto the next
 * pages only when a call has some (a Python exception).
 */
static struct gr_case_state {
	int answer_fd;          /* GR_FD_ANSWER in a case child, -1 in the zygote */
	uintptr_t stack_top;    /* the case child's stack where the call begins */
	uint64_t stack_limit;
	unsigned char filter[GR_CASE_FILTER_MAX]; /* the case child's program; its pid is patched in */
	struct gr_result res;   /* the call's outcome */
} gr_case __attribute__((aligned(4096))) = { .answer_fd = -1 };
_Static_assert(offsetof(struct gr_case_state, res.detail) < 4096, "a case child's state begins on one page");
static struct gr_function *gr_table; /* the language part's functions (gr_stub_init) */
static int gr_ntable;
static int gr_report_fd = GR_FD_STATUS;
/*
 * The zygote's read ends of the pipes every case child writes to
 * (gr_pipe_to): at fixed fds no write end ever takes, or -1 until made and
 * after a close.  The runtime's fds are all at or below GR_FD_TOP.
 */
#define GR_FD_ANSWER_IN 7
#define GR_FD_OUTPUT_IN 8
static int gr_answer_in = -1, gr_output_in = -1;
/* SIGCHLD: blocked in the zygote for good and read from a signalfd at GR_FD_SIGNAL_IN (gr_watch_children) */
#define GR_FD_SIGNAL_IN 9
static int gr_signal_in = -1;
/* the pipe that hands a spare case child its request (gr_spare_fork): read end, write end */
#define GR_FD_GO_IN 10
#define GR_FD_GO_OUT 11
#define GR_FD_TOP GR_FD_GO_OUT /* the runtime's highest fd */
/* the largest request a spare takes (larger ones get a child forked for them): with its header it fits the
 * buffer the spare reads it into (gr_spare_request), and is one atomic write of at most PIPE_BUF, which
 * an empty pipe (a page at least, however short a user is of pipe buffers) always takes at once - the
 * zygote never blocks on a spare */
#define GR_SPARE_REQUEST_MAX (GR_DETAIL_MAX - sizeof(struct gr_request))
_Static_assert(GR_DETAIL_MAX <= PIPE_BUF, "a spare's request is one atomic write");
static int gr_go_in = -1;        /* the zygote's read end of that pipe (only to empty it) */
static pid_t gr_spare = -1;      /* the case child forked ahead, waiting for its request */
static uint32_t gr_spare_cpu_ms, gr_spare_memory_mb; /* the limits it took on */
static sigset_t gr_child_mask; /* the zygote's signal mask as it came, SIGCHLD unblocked: a case child's */

/*
 * Replace the pid placeholder in comparisons, then install the program.
 * In a case child no_new_privs is set already (the zygote's install set it,
 * and nothing can clear it), and only syscall() is called (see gr_limit).
 */
static int gr_install_filter(unsigned char *prog, uint32_t len)
{
	struct sock_filter *insns = (struct sock_filter *)prog;
	unsigned short count = (unsigned short)(len / sizeof(struct sock_filter));
	struct sock_fprog fprog = { count, insns };
	uint32_t self = (uint32_t)syscall(SYS_getpid);

	for (unsigned short i = 0; i < count; i++)
		if (insns[i].code == (BPF_JMP | BPF_JEQ | BPF_K) && insns[i].k == GR_PID_PLACEHOLDER)
			insns[i].k = self;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog);
}

/*
 * System calls made here, not through the C library: what the SIGSYS
 * handler does must not pass through a GOT slot or a library function,
 * which a test can rewrite (mprotect() of the RELRO pages is allowed) to
 * jump back into itself - the call unseen, the test judged on its answer.
 * No errno either (__errno_location is a library call).  A case child's
 * own records use them too (see gr_limit).  On other architectures,
 * syscall().
 */
#if defined(__x86_64__)
static inline __attribute__((always_inline)) long gr_raw_syscall4(long nr, long a, long b, long c, long d)
{
	register long r10 __asm__("r10") = d;
	long ret;
	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10) : "rcx", "r11", "memory");
	return ret;
}
#elif defined(__aarch64__)
static inline __attribute__((always_inline)) long gr_raw_syscall4(long nr, long a, long b, long c, long d)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;
	__asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
	return x0;
}
#else
#define gr_raw_syscall4(nr, a, b, c, d) syscall((nr), (a), (b), (c), (d))
#endif

/* sig to this thread (raise() without the library) */
static inline __attribute__((always_inline)) void gr_raw_raise(int sig)
{
	gr_raw_syscall4(SYS_tgkill, gr_raw_syscall4(SYS_getpid, 0, 0, 0, 0), gr_raw_syscall4(SYS_gettid, 0, 0, 0, 0),
			sig, 0);
}

/* write all of buf, retrying only an interrupted write (-EINTR): one raw call a try */
static inline __attribute__((always_inline)) void gr_raw_write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		long n = gr_raw_syscall4(SYS_write, fd, (long)p, (long)len, 0);
		if (n == -EINTR)
			continue;
		if (n <= 0)
			return;
		p += n;
		len -= (size_t)n;
	}
}

/*
 * SIGSYS from a trapped system call: say which call, then end the process
 * by SIGSYS.  In the zygote the record goes to the grader; in a case child
 * to the zygote.  Whichever branch gr_case chose (a test can rewrite its
 * own copy of it), the process dies of SIGSYS - the handler is
 * SA_RESETHAND, so sent to itself the signal takes the default action once
 * unblocked - never by a clean exit, which would let an answer record the
 * test wrote before the call stand, and hide the call.  A SIGSYS that was
 * sent, not trapped (a timer's, raise()), names no call: no record.  The
 * handler runs on the alternate stack (SA_ONSTACK, from main on), so a
 * call made with the stack pointer on an unmapped page still reaches it.
 * It calls no function (raw system calls, the records built in place), so
 * nothing a test can rewrite lies on its path: its own code is beyond
 * reach, since no page may be made executable again (filter.c), and data
 * a test changes can only change what the record says.
 */
#define GR_SI_SECCOMP 1 /* SIGSYS's si_code from a seccomp trap (the kernel's SYS_SECCOMP) */

/*
 * A trapped call that was a signal the test sent itself (raise(), abort(),
 * a failed assert(): tgkill(its pid, its tid, sig); kill(its pid, sig)),
 * with a signal whose default action would have ended it: that signal,
 * else 0.  Without a PID namespace the zygote's filter, which stays in
 * force in every case child, lets signals go to the zygote's pid only
 * (filter.c add_signal_rules), so such a call traps there; with one the
 * call runs and the test dies of the signal.  The handler cannot send the
 * signal (the same filters hold), but it can say so, and the zygote
 * reports the end the call would have had (gr_self_signal_end), so the
 * verdict is the same at every isolation level.  Nothing is sent to
 * anyone: a test gains no way to signal another process.  A signal that
 * would not have ended it - one it handles, ignores or blocks (its
 * disposition read, its mask from the trap's context), one ignored by
 * default, SIGSYS - stays a forbidden call: the handler could not play
 * what it does.  Raw calls and plain reads only, like the handler.
 */
static inline __attribute__((always_inline)) int gr_self_signal(int nr, const void *ctx)
{
	const ucontext_t *uc = ctx;
	const unsigned long *mask = (const unsigned long *)&uc->uc_sigmask;
	unsigned long act[4] = { 1, 0, 0, 0 }; /* the kernel's struct sigaction: the handler first */
	unsigned long bits = 8 * sizeof(unsigned long);
	long pid = gr_raw_syscall4(SYS_getpid, 0, 0, 0, 0), a0, a1, a2;
	int sig;

#if defined(__x86_64__)
	a0 = uc->uc_mcontext.gregs[REG_RDI];
	a1 = uc->uc_mcontext.gregs[REG_RSI];
	a2 = uc->uc_mcontext.gregs[REG_RDX];
#elif defined(__aarch64__)
	a0 = (long)uc->uc_mcontext.regs[0];
	a1 = (long)uc->uc_mcontext.regs[1];
	a2 = (long)uc->uc_mcontext.regs[2];
#else
	return 0;
#endif
	/* ints to the kernel: their low 32 bits */
	if (nr == SYS_kill && (int)a0 == (int)pid)
		sig = (int)a1;
	else if (nr == SYS_tgkill && (int)a0 == (int)pid && (int)a1 == (int)gr_raw_syscall4(SYS_gettid, 0, 0, 0, 0))
		sig = (int)a2;
	else
		return 0;
	if (sig == SIGKILL || sig == SIGSTOP)
		return sig; /* neither handled, ignored nor blocked */
	if (sig < 1 || sig > 64 || sig == SIGSYS || sig == SIGCHLD || sig == SIGCONT || sig == SIGURG ||
	    sig == SIGWINCH || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU)
		return 0; /* the last three: discarded by the kernel in the runner's orphaned process group */
	if ((mask[(unsigned)(sig - 1) / bits] >> ((unsigned)(sig - 1) % bits)) & 1)
		return 0;
	if (gr_raw_syscall4(SYS_rt_sigaction, sig, 0, (long)act, 8) != 0 || act[0] != (unsigned long)SIG_DFL)
		return 0;
	return sig;
}

static void gr_on_sigsys(int sig, siginfo_t *info, void *ctx)
{
	uint64_t sigsys = 1ull << (SIGSYS - 1);

	(void)sig;
	if (info->si_code == GR_SI_SECCOMP && gr_case.answer_fd >= 0) {
		int self = gr_self_signal(info->si_syscall, ctx);
		struct gr_answer a = { self ? GR_MAGIC_SIGNAL : GR_MAGIC_FORBID, info->si_syscall, self, 0, 0 };
		gr_raw_write_full(gr_case.answer_fd, &a, sizeof(a));
	} else if (info->si_code == GR_SI_SECCOMP) {
		/* initialised in place, not by memset() (tests/unit/handler_calls.sh checks the compiler agrees) */
		struct gr_report r = { .magic = GR_MAGIC_FORBID, .syscall_nr = info->si_syscall, .nonce = gr_nonce };
		gr_raw_write_full(gr_report_fd, &r, sizeof(r));
	}
	gr_raw_raise(SIGSYS);
	gr_raw_syscall4(SYS_rt_sigprocmask, SIG_UNBLOCK, (long)&sigsys, 0, 8);
	gr_raw_syscall4(SYS_exit_group, 128 + SIGSYS, 0, 0, 0); /* not reached; were it, still no clean end */
	__builtin_trap();
}

static void gr_on_fault(int sig, siginfo_t *info, void *ctx);

/*
 * Read the runner's secret and the two seccomp programs from GR_FD_FILTER
 * and install the zygote's.
 * Runs before any code of the submission: from .preinit_array in a runner
 * that links student C code, from main() in the Python host (which links
 * none, and must read its standard library first).
 */
static void gr_setup_filters(void)
{
	static unsigned char zygote_filter[GR_FILTER_MAX];
	uint32_t len = 0;
	struct sigaction sa;

	/* the handlers the filter then keeps anyone from changing (add_fixed_rules): SIGSYS names a trapped
	 * call, SIGSEGV and SIGBUS name a stack overflow or an index out of bounds - and a SIGSEGV the
	 * kernel forces because it could not write a SIGSYS frame reaches the runtime, not a handler of
	 * the test's that would jump back into it.  Every signal is blocked while they run, so a fault
	 * inside one is forced to its default action: death.  On the alternate stack once main made it. */
	memset(&sa, 0, sizeof(sa));
	sigfillset(&sa.sa_mask);
	sa.sa_sigaction = gr_on_sigsys;
	sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_ONSTACK;
	sigaction(SIGSYS, &sa, NULL);
	sa.sa_sigaction = gr_on_fault;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	_Static_assert(sizeof(gr_nonce) == GR_NONCE_LEN, "the secret fills its field");
	if (gr_read_full(GR_FD_FILTER, &gr_nonce, sizeof(gr_nonce)) < 0 ||
	    gr_read_full(GR_FD_FILTER, &len, sizeof(len)) < 0 || len > GR_FILTER_MAX ||
	    (len && gr_read_full(GR_FD_FILTER, zygote_filter, len) < 0) ||
	    gr_read_full(GR_FD_FILTER, &gr_filter_case_len, sizeof(gr_filter_case_len)) < 0 ||
	    gr_filter_case_len > GR_CASE_FILTER_MAX ||
	    (gr_filter_case_len && gr_read_full(GR_FD_FILTER, gr_case.filter, gr_filter_case_len) < 0)) {
		/* no filters offered (or a broken pipe): run unfiltered, the hello says so */
		len = 0;
		gr_filter_case_len = 0;
	}
	close(GR_FD_FILTER);
	if (len && gr_filter_case_len) {
		/* before Linux 5.8 an executable stack (a nested function's trampoline, or one line of asm) gave
		 * READ_IMPLIES_EXEC: every readable mapping executable too, PROT_EXEC or not, so the filter's
		 * "nothing made executable" would not hold.  Off for every later mapping (personality is
		 * refused once the filter is in) */
		int persona = personality(0xffffffff);
		if (persona != -1 && (persona & READ_IMPLIES_EXEC))
			personality((unsigned long)persona & ~(unsigned long)READ_IMPLIES_EXEC);
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || gr_install_filter(zygote_filter, len) < 0) {
			/* said before any student code runs, so a student cannot fake it:
			 * the grader reports a sandbox failure, not the student's */
			struct gr_report r;
			memset(&r, 0, sizeof(r));
			r.magic = GR_MAGIC_SANDBOX;
			gr_write_full(gr_report_fd, &r, sizeof(r));
			_exit(121);
		}
		gr_filtered = 1;
	}
}

#ifndef GR_FILTER_IN_MAIN
static void gr_preinit(int argc, char **argv, char **envp)
{
	(void)argc;
	(void)argv;
	(void)envp;
	gr_setup_filters();
}

__attribute__((section(".preinit_array"), used))
static void (*const gr_preinit_entry)(int, char **, char **) = gr_preinit;
#endif

/* ---- arrays: the element after the last is a guard page ---- */

/*
 * Each array argument ends where a page ends, and the next page is made
 * inaccessible in the case child (gr_guard_arrays): reading or writing one
 * element past the end - the off-by-one of a loop bound, or L[0] of an empty
 * array - faults at once, where it would otherwise read whatever follows
 * (zeros, usually) and pass unnoticed.  gr_on_fault names the array and the
 * index.  Reads before the start are not caught: an array cannot both start
 * and end at a page boundary.
 */
#define GR_PAGE 4096u
#define GR_MAX_GUARDS 64

struct gr_guard {
	uintptr_t page;       /* the inaccessible page right after the array */
	const void *arr;
	uint32_t len;
	uint32_t esize;       /* the size of an element: int or long long */
	uint32_t arg;         /* the argument's position among the decoded arguments */
};

static struct gr_guard gr_guards[GR_MAX_GUARDS];
static int gr_nguards;

/* In the case child, under its filter (which allows mprotect without PROT_EXEC): the pages after the arrays
 * inaccessible. */
static void gr_guard_arrays(void)
{
	for (int i = 0; i < gr_nguards; i++)
		syscall(SYS_mprotect, gr_guards[i].page, GR_PAGE, PROT_NONE); /* see gr_limit */
}

/* Was the access a write?  Where the fault's context says; otherwise taken as a read. */
static int gr_fault_was_write(const void *ctx)
{
#if defined(__x86_64__)
	const ucontext_t *uc = ctx;
	return (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0; /* the page-fault error code's W bit */
#else
	(void)ctx;
	return 0;
#endif
}

/* A fault on a guard page: tell the zygote which array, which element, read or written.  0 if not one. */
static int gr_report_bounds(uintptr_t addr, const void *ctx)
{
	for (int i = 0; i < gr_nguards; i++) {
		const struct gr_guard *g = &gr_guards[i];
		if (addr >= g->page && addr < g->page + GR_PAGE) {
			struct gr_answer a = { GR_MAGIC_BOUNDS,
					       (int32_t)(g->arg | (gr_fault_was_write(ctx) ? GR_BOUNDS_WRITE : 0u)),
					       (int64_t)((addr - (uintptr_t)g->arr) / g->esize), g->len, 0 };
			gr_raw_write_full(gr_case.answer_fd, &a, sizeof(a));
			return 1;
		}
	}
	return 0;
}

/* ---- stack overflow: named, not a bare SIGSEGV ---- */

/*
 * A recursion without a base case (or too deep for its input) ends with a
 * fault just below the stack pointer once the stack reaches RLIMIT_STACK (the
 * memory limit) or the address space runs out.  The case child catches
 * SIGSEGV and SIGBUS on an alternate stack, and when the faulting address is
 * at the stack pointer, inside the stack's range, tells the zygote how much
 * stack the recursion used and about how deep it went, then lets the fault
 * end the process as before (SA_RESETHAND: returning re-runs the access).
 * The record is the student's process speaking, so it only ever changes the
 * wording of a run error the process really died of.
 */
#define GR_FAULT_NEAR (64u << 10)       /* a fault this close to the stack pointer is the stack's */
#define GR_SCAN_WORDS 8192u             /* 64 KiB of the newest frames are searched for a period */
#define GR_MAX_PERIOD 2048u             /* frames up to 16 KiB */

static unsigned char gr_alt_stack[64u << 10];

static uintptr_t gr_fault_sp(const void *ctx, uintptr_t fallback)
{
	const ucontext_t *uc = ctx;
#if defined(__x86_64__)
	return (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
	return (uintptr_t)uc->uc_mcontext.sp;
#else
	(void)uc;
	return fallback;
#endif
}

/*
 * The length of a recursive frame in words: the smallest shift at which the
 * stack's words repeat about as often as at the best shift (each frame holds
 * at least its return address, the same in every frame of the recursion).
 * 0 when nothing repeats once per frame.
 */
static uint64_t gr_frame_period(const uintptr_t *w, uint64_t n)
{
	static uint32_t matches[GR_MAX_PERIOD + 1];
	uint32_t best = 0;
	uint64_t maxp = n / 4 < GR_MAX_PERIOD ? n / 4 : GR_MAX_PERIOD;

	for (uint64_t p = 1; p <= maxp; p++) {
		uint32_t m = 0;
		for (uint64_t i = 0; i + p < n; i++)
			m += w[i] != 0 && w[i] == w[i + p];
		matches[p] = m;
		if (m > best)
			best = m;
	}
	for (uint64_t p = 1; p <= maxp; p++)
		if (matches[p] * 10u >= best * 8u && matches[p] >= (n - p) / p)
			return p;
	return 0;
}

/*
 * Mutual recursion (AcanWin calls BcanWin calls AcanWin) repeats every two
 * calls: count the return addresses into the runner's own code in one period.
 * At least 1 (the Python host's frames are in libpython, not counted here).
 */
static uintptr_t gr_code_start, gr_code_end;

static uint64_t gr_calls_per_period(const uintptr_t *w, uint64_t period)
{
	uint64_t calls = 0;
	for (uint64_t i = 0; i < period; i++)
		calls += w[i] >= gr_code_start && w[i] < gr_code_end;
	return calls ? calls : 1;
}

/* The executable's code: its executable PT_LOAD segments, from the program headers the kernel mapped. */
static void gr_find_code(void)
{
	const ElfW(Phdr) *ph = (const ElfW(Phdr) *)getauxval(AT_PHDR);
	unsigned long n = getauxval(AT_PHNUM);
	uintptr_t base = 0;

	if (!ph)
		return;
	for (unsigned long i = 0; i < n; i++)
		if (ph[i].p_type == PT_PHDR)
			base = (uintptr_t)ph - ph[i].p_vaddr;
	for (unsigned long i = 0; i < n; i++)
		if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_X)) {
			gr_code_start = base + ph[i].p_vaddr;
			gr_code_end = gr_code_start + ph[i].p_memsz;
		}
}

static void gr_on_fault(int sig, siginfo_t *info, void *ctx)
{
	uintptr_t addr = (uintptr_t)info->si_addr;
	uintptr_t sp = gr_fault_sp(ctx, addr);
	uintptr_t low = addr > sp ? addr : sp;

	if (info->si_code <= 0) {
		gr_raw_raise(sig); /* sent, not a fault: delivered (by default now) once the handler returns */
		return;
	}
	/* forced by the kernel (SI_KERNEL): a general protection fault, or a signal whose frame could not
	 * be written - a SIGSYS with the stack pointer on an unmapped page, say - after which returning
	 * would carry on past the call.  Fault again, with every signal blocked: the kernel kills by
	 * SIGSEGV (no raise(): its tgkill may be refused without a PID namespace) */
	if (info->si_code == SI_KERNEL) {
		*(volatile char *)0 = 0;
		/* never carry on past it, whatever page 0 holds */
		__builtin_trap();
	}
	if (gr_case.answer_fd >= 0 && gr_report_bounds(addr, ctx))
		return;
	if (gr_case.answer_fd < 0 || !gr_case.stack_top || addr >= gr_case.stack_top || sp >= gr_case.stack_top ||
	    gr_case.stack_top - addr > gr_case.stack_limit + GR_FAULT_NEAR || addr + GR_FAULT_NEAR < sp || addr > sp + GR_FAULT_NEAR)
		return;
	/* from the page after both the fault and the stack pointer: mapped, the recursion's newest frames */
	low = (low | 4095u) + 1;
	{
		uint64_t words = low < gr_case.stack_top ? (gr_case.stack_top - low) / sizeof(uintptr_t) : 0;
		uint64_t period = gr_frame_period((const uintptr_t *)low, words < GR_SCAN_WORDS ? words : GR_SCAN_WORDS);
		uint64_t used = gr_case.stack_top - sp;
		uint64_t calls = period ? used / (period * sizeof(uintptr_t)) * gr_calls_per_period((const uintptr_t *)low, period) : 0;
		struct gr_answer a = { GR_MAGIC_STACK, 0, (int64_t)calls, (uint32_t)(used >> 10), 0 };
		gr_raw_write_full(gr_case.answer_fd, &a, sizeof(a));
	}
}

/*
 * In the zygote, once: the code's range for gr_on_fault, and the stack of its
 * own it and gr_on_sigsys run on (installed before any code of the
 * submission, gr_setup_filters), which every case child inherits with
 * fork().  gr_on_fault acts only in a case child (where gr_case.answer_fd is
 * set); in the zygote it returns and, reset by then, the fault ends the
 * process as it always did.
 */
static void gr_install_fault_handler(void)
{
	stack_t ss;

	gr_find_code();
	memset(&ss, 0, sizeof(ss));
	ss.ss_sp = gr_alt_stack;
	ss.ss_size = sizeof(gr_alt_stack);
	sigaltstack(&ss, NULL);
}

/* In the case child: where its stack begins and how far it may grow, for gr_on_fault. */
static void gr_watch_stack(uintptr_t top, unsigned memory_mb)
{
	gr_case.stack_top = top;
	gr_case.stack_limit = (uint64_t)memory_mb << 20;
}

/* ---- allocation failures: reported as memory-limit, not as a crash ---- */

void *__real_malloc(size_t size);
void *__real_calloc(size_t nmemb, size_t size);
void *__real_realloc(void *ptr, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t nmemb, size_t size);
void *__wrap_realloc(void *ptr, size_t size);

static void gr_out_of_memory(size_t bytes)
{
	if (gr_case.answer_fd >= 0) {
		struct gr_answer a = { GR_MAGIC_NOMEM, 0, (int64_t)bytes, 0, 0 };
		gr_write_full(gr_case.answer_fd, &a, sizeof(a));
		_exit(0);
	}
}

void *__wrap_malloc(size_t size)
{
	void *p = __real_malloc(size);
	if (!p)
		gr_out_of_memory(size);
	return p;
}

void *__wrap_calloc(size_t nmemb, size_t size)
{
	void *p = __real_calloc(nmemb, size);
	if (!p && nmemb && size)
		gr_out_of_memory(nmemb * size);
	return p;
}

void *__wrap_realloc(void *ptr, size_t size)
{
	void *p = __real_realloc(ptr, size);
	if (!p && size)
		gr_out_of_memory(size);
	return p;
}

/* ---- one case ---- */

/*
 * A buffer of whole pages, mmap'd (not malloc'd: the allocator is the
 * student's business), grown when a request needs more and otherwise
 * reused: the request's payload, and the pages its arrays are copied to.
 */
struct gr_pages {
	unsigned char *base;
	size_t cap;
	int zygote_only;  /* never read by a case child (the request, once decoded): MADV_DONTFORK, see gr_zygote_buffers */
};

/* bytes rounded up to whole pages */
static size_t gr_page_round(size_t bytes)
{
	return (bytes + GR_PAGE - 1) & ~(size_t)(GR_PAGE - 1);
}

/* At least need bytes (one page for none) of p.  NULL when they cannot be had. */
static unsigned char *gr_pages_reserve(struct gr_pages *p, size_t need)
{
	need = gr_page_round(need ? need : 1);
	if (need > p->cap) {
		if (p->base)
			munmap(p->base, p->cap);
		p->cap = need;
		p->base = mmap(NULL, p->cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p->base == MAP_FAILED) {
			p->base = NULL;
			p->cap = 0;
		} else if (p->zygote_only) {
			madvise(p->base, p->cap, MADV_DONTFORK); /* only faster when it works */
		}
	}
	return p->base;
}

/* An array of len elements of esize bytes: the pages it fills, plus its guard page. */
static size_t gr_array_span(uint32_t len, size_t esize)
{
	return gr_page_round((size_t)len * esize) + GR_PAGE;
}

/*
 * Decode arguments.  Each array is copied to pages of its own so that it
 * ends where a page ends and is followed by its guard page (gr_guards, made
 * inaccessible in the case child); the copy is properly aligned for int
 * whatever precedes the array in the request.  A first pass checks the
 * request and sizes the pages, the second decodes - not when check_only
 * is given, where the bytes of array pages needed go instead: the zygote
 * checks a request it passes to a spare, which decodes it itself (so the
 * zygote writes no page it shares with the spare).  Returns the number of
 * arguments, or -1.
 */
static struct gr_pages gr_array_pages; /* where a case's arrays go: sized in the zygote (see gr_spare_take) */

static int gr_decode(const unsigned char *buf, size_t size, struct gr_arg *args, int max, size_t *check_only)
{
	unsigned char *pages = NULL;
	size_t need = 0;

	if (gr_nguards && !check_only) /* a page a case child shares: written only when it changes (gr_zygote_buffers) */
		gr_nguards = 0;
	for (int pass = 0; pass < 2; pass++) {
		size_t pos = 0, used = 0;
		int n = 0;
		while (pos < size && n < max) {
			unsigned char kind = buf[pos++];
			if (kind == GR_INT_ARRAY || kind == GR_LONG_ARRAY) {
				size_t esize = kind == GR_INT_ARRAY ? sizeof(int) : sizeof(long long);
				uint32_t len;
				if (pos + 4 > size)
					return -1;
				memcpy(&len, buf + pos, 4);
				pos += 4;
				if ((size - pos) / esize < len)
					return -1;
				if (pass == 0)
					need += gr_array_span(len, esize);
				else {
					/* page-aligned guard: the copy is aligned for either element type */
					size_t bytes = (size_t)len * esize;
					unsigned char *guard = pages + used + gr_array_span(len, esize) - GR_PAGE;
					memcpy(guard - bytes, buf + pos, bytes);
					args[n].arr = guard - bytes;
					args[n].len = (int)len;
					args[n].i = len;
					if (gr_nguards < GR_MAX_GUARDS)
						gr_guards[gr_nguards++] = (struct gr_guard){ (uintptr_t)guard, args[n].arr, len,
											(uint32_t)esize, (uint32_t)n };
					used += gr_array_span(len, esize);
				}
				pos += (size_t)len * esize;
			} else {
				int64_t v;
				if (pos + 8 > size)
					return -1;
				memcpy(&v, buf + pos, 8);
				pos += 8;
				if (pass == 1) {
					args[n].i = v;
					args[n].arr = NULL;
					args[n].len = 0;
				}
			}
			n++;
		}
		if (pos != size)
			return -1;
		if (check_only)
			*check_only = need;
		if (pass == 1 || check_only)
			return n;
		if (need && !(pages = gr_pages_reserve(&gr_array_pages, need)))
			return -1;
	}
	return -1;
}

/*
 * glibc sizes a new thread's stack by RLIMIT_STACK as it was when the
 * runner started (the memory limit): a whole address space's worth, which
 * RLIMIT_AS, exactly the limit, can never map.  pthread_create() would then
 * fail with EAGAIN before it asks the kernel for a thread, and the student
 * would see a puzzling error instead of the verdict that threads are not
 * allowed.  A default of 8 MiB (a quarter of a small limit) lets it get as
 * far as clone(), which the filter refuses.
 */
static void gr_thread_stacks(unsigned memory_mb)
{
	pthread_attr_t attr;
	size_t size = (size_t)memory_mb << 18; /* a quarter */
	if (size > (8u << 20))
		size = 8u << 20;
	if (size < (1u << 16))
		size = 1u << 16;
	if (pthread_attr_init(&attr) != 0)
		return;
	if (pthread_attr_setstacksize(&attr, size) == 0)
		pthread_setattr_default_np(&attr);
	pthread_attr_destroy(&attr);
}

static unsigned gr_thread_stack_mb; /* what gr_thread_stacks last set in the zygote */

/*
 * A case child's own system calls, up to the student's call, go through
 * syscall() alone: fork() copies no page-table entries of code (file
 * mappings), so the child faults in each 64 KiB window of libc's code it
 * runs, and glibc's wrappers (prctl, sigprocmask, setrlimit, timer_create,
 * close...) lie in as many windows - a fault each, in every test.
 */
static void gr_limit(int resource, rlim_t value)
{
	struct rlimit rl = { value, value };
	syscall(SYS_prlimit64, 0, resource, &rl, NULL);
}


/*
 * Has the student's code left output in a stdio buffer?  For a byte stream
 * (wprintf makes a wide one) looked at as glibc's __fpending() does, without
 * calling it (see gr_limit).
 */
static int gr_pending(FILE *f)
{
#ifdef __GLIBC__
	if (f->_mode <= 0)
		return f->_IO_write_ptr > f->_IO_write_base;
#endif
	return __fpending(f) > 0;
}

/*
 * In a case child, before its request is known or looked at: the zygote's
 * fds closed but the pipes' write ends (1, 2, GR_FD_ANSWER, already in
 * place) and, for a spare, GR_FD_GO_IN; signals as the zygote came; its
 * CPU timer and limits; its filter.  Returns whether the CPU timer is
 * armed.
 */
static int gr_child_sandbox(uint32_t cpu_ms, uint32_t memory_mb, int spare)
{
	struct sigevent ev;
	struct itimerspec its;
	uint64_t default_action[4] = { 0 }; /* the kernel's struct sigaction for SIG_DFL: all zero (on the stack:
					     * the kernel reading a constant would fault in a page of it) */
	int timer, timed;

	syscall(SYS_close, GR_FD_CONTROL);
	syscall(SYS_close, GR_FD_STATUS);
	syscall(SYS_close, gr_answer_in);
	syscall(SYS_close, gr_output_in);
	syscall(SYS_close, gr_signal_in);
	syscall(SYS_close, GR_FD_GO_OUT);
	if (!spare)
		syscall(SYS_close, GR_FD_GO_IN);
	/* SIGCHLD's action is the default already, and the filters allow no other (filter.c) */
	syscall(SYS_rt_sigaction, SIGPIPE, default_action, NULL, 8);
	syscall(SYS_rt_sigprocmask, SIG_SETMASK, &gr_child_mask, NULL, 8);
	gr_case.answer_fd = GR_FD_ANSWER;

	/* CPU: a POSIX CPU-time timer delivering SIGKILL at the limit (the kernel's timer id, as glibc's
	 * timer_create makes for SIGEV_SIGNAL), and the coarse RLIMIT_CPU as a second line; the grader's
	 * wall clock is the third.  A spare waiting for its request uses no CPU, so arming it ahead
	 * changes nothing the test is charged */
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = SIGKILL;
	memset(&its, 0, sizeof(its));
	its.it_value.tv_sec = cpu_ms / 1000;
	its.it_value.tv_nsec = (long)(cpu_ms % 1000) * 1000000L;
	timed = syscall(SYS_timer_create, CLOCK_PROCESS_CPUTIME_ID, &ev, &timer) == 0 &&
		syscall(SYS_timer_settime, timer, 0, &its, NULL) == 0;
	gr_limit(RLIMIT_CPU, cpu_ms / 1000 + 2);
	gr_limit(RLIMIT_AS, (rlim_t)memory_mb << 20); /* the limit the report states, no headroom */
	gr_limit(RLIMIT_STACK, (rlim_t)memory_mb << 20);
	/* RLIMIT_FSIZE and RLIMIT_CORE are 0 already, soft and hard, from the runner's start (sandbox.c),
	 * and nothing in the runner can raise a hard limit */
	if (gr_filter_case_len && gr_install_filter(gr_case.filter, gr_filter_case_len) < 0)
		_exit(122); /* without the READY record: the grader's fault, not the student's */
	return timed;
}

/*
 * In a spare, sandboxed already: wait for the request the zygote passes on
 * (gr_spare_take) and decode it.  A record that is not a request tells it
 * to leave; so does the zygote's end.  Returns the number of arguments.
 */
static int gr_spare_request(struct gr_request *rq, struct gr_arg *args)
{
	/* read into the outcome's detail: on the page of the runtime's a child writes anyway (gr_case), and
	 * decoded before the call can write an outcome there */
	unsigned char *got = (unsigned char *)gr_case.res.detail;
	long n;
	int nargs;

	/* the zygote wrote header and payload at once, in one atomic write: one read takes both (through
	 * syscall(), see gr_limit) */
	do
		n = syscall(SYS_read, GR_FD_GO_IN, got, sizeof(gr_case.res.detail));
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		_exit(0); /* the zygote is gone */
	if (n < (long)sizeof(*rq))
		_exit(122); /* not what the zygote writes; no READY record: see gr_run_case */
	memcpy(rq, got, sizeof(*rq));
	if (rq->magic == 0 && n == (long)sizeof(*rq))
		_exit(0); /* told to leave (gr_spare_discard) */
	if (rq->magic != GR_MAGIC_REQUEST || rq->size != (size_t)n - sizeof(*rq))
		_exit(122);
	syscall(SYS_close, GR_FD_GO_IN); /* a test has the fds a forked child has, no more */
	/* checked by the zygote, and its arrays fit the pages the spare inherited (gr_spare_take): nothing to
	 * map under the test's memory limit */
	nargs = gr_decode(got + sizeof(*rq), rq->size, args, 64, NULL);
	if (nargs < 0)
		_exit(122); /* no READY record: the zygote runs the request on a child of its own */
	return nargs;
}

/* In the child, sandboxed: the call and its answer.  Never returns. */
static void gr_child_call(const struct gr_request *rq, const struct gr_arg *args, int timed)
{
	struct gr_result *res = &gr_case.res; /* not on the stack: the detail is large, the stack the student's */
	const struct gr_function *fn = &gr_table[rq->function];
	struct gr_answer a;

	gr_watch_stack((uintptr_t)&a, rq->memory_mb);
	gr_guard_arrays();
	memset(&a, 0, sizeof(a));
	a.magic = GR_MAGIC_READY;
	a.value = rq->case_id; /* which request it took: a spare's is checked (gr_parse_answer) */
	a.kind = timed ? 0 : GR_READY_NO_TIMER; /* then the grader holds it to the limit without tolerance */
	gr_raw_write_full(GR_FD_ANSWER, &a, sizeof(a)); /* not through the C library: see gr_limit */

	fn->call(fn, args, res);
	/* only what is pending: an untouched FILE stays untouched (no copy-on-write fault per test) */
	if (gr_pending(stdout))
		fflush(stdout);
	if (gr_pending(stderr))
		fflush(stderr);
	a.magic = GR_MAGIC_ANSWER;
	a.value = res->value;
	a.kind = res->kind;
	a.detail_len = res->detail_len > GR_DETAIL_MAX ? GR_DETAIL_MAX : res->detail_len;
	gr_raw_write_full(GR_FD_ANSWER, &a, sizeof(a));
	gr_raw_write_full(GR_FD_ANSWER, res->detail, a.detail_len);
	_exit(0);
}

static void gr_report_case(struct gr_report *r, const char *output, const char *detail)
{
	r->nonce = gr_nonce;
	if (gr_write_full(gr_report_fd, r, sizeof(*r)) < 0 ||
	    gr_write_full(gr_report_fd, output, r->output_kept) < 0 ||
	    gr_write_full(gr_report_fd, detail, r->detail_len) < 0)
		_exit(0); /* the grader went away */
}

/* A case that could not run: a report with only the flag saying why. */
static void gr_report_failure(uint32_t case_id, uint32_t flag)
{
	struct gr_report r;
	memset(&r, 0, sizeof(r));
	r.magic = GR_MAGIC_REPORT;
	r.case_id = case_id;
	r.flags = flag;
	gr_report_case(&r, "", "");
}

/* What the case child sent on its answer pipe: READY, then an outcome and its detail. */
struct gr_answer_buf {
	unsigned char bytes[2 * sizeof(struct gr_answer) + GR_DETAIL_MAX];
	size_t len;
};

/*
 * What only the zygote writes, test after test: what it reads from the
 * pipes and the signalfd.  Kept where a case child does not get it
 * (MADV_DONTFORK, gr_zygote_buffers_init): after a fork the zygote then
 * writes pages of its own, not pages it shares copy-on-write with the
 * child (a page fault each, in every test).  The static copy serves when
 * such memory cannot be had.
 */
struct gr_zygote_buffers {
	char read[65536];
	char kept[GR_OUTPUT_KEEP];
	struct gr_answer_buf answer;
	struct signalfd_siginfo signals[4];
};
static struct gr_zygote_buffers gr_zygote_static, *gr_zy = &gr_zygote_static;

static void gr_zygote_buffers_init(void)
{
	void *p = mmap(NULL, sizeof(*gr_zy), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return;
	if (madvise(p, sizeof(*gr_zy), MADV_DONTFORK) < 0) {
		munmap(p, sizeof(*gr_zy));
		return;
	}
	gr_zy = p;
}

/*
 * In the zygote, before the first case: SIGCHLD blocked for good and read
 * from a signalfd that gr_drain polls with the pipes, so that no end or
 * stop of a child is missed.  No handler runs in the zygote: a signal
 * frame and the EINTR it leaves in errno were two more pages written after
 * every fork.  The signalfd sits at GR_FD_SIGNAL_IN, above every fd a pipe
 * end goes to.  Without it (fds used up by code of the submission) gr_drain
 * still looks at the child every GR_END_CHECK_MS.
 */
static void gr_watch_children(void)
{
	sigset_t chld;
	int fd;

	/* SIGCHLD's action is the default the runner started with (sandbox.c sets it before execve), and the
	 * filters keep it so: ignored, a child's end would be neither reported nor kept to wait for */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &gr_child_mask);
	sigdelset(&gr_child_mask, SIGCHLD);
	fd = signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC);
	if (fd >= 0 && fd != GR_FD_SIGNAL_IN) {
		int placed = dup2(fd, GR_FD_SIGNAL_IN);
		close(fd);
		fd = placed;
	}
	gr_signal_in = fd;
}

/*
 * From just before the hello on, no handler of the submission's runs in the
 * zygote: every signal is blocked there but SIGSYS (a case child gets the
 * mask the zygote came with, gr_child_mask).  Code before main can set timers, or
 * fds that signal (F_SETSIG), whose handlers would otherwise run between
 * and during tests, in the process that watches them - closing or moving
 * its fds, ignoring SIGCHLD, reading its pipes, or doing a test's work
 * under the runner's limits instead of the test's.  The faults too: a
 * constructor can install a SIGFPE, SIGILL or SIGTRAP handler and send
 * those signals by timer; a real fault of the zygote's is forced by the
 * kernel whatever the mask (the default action: it dies).  SIGSYS stays
 * deliverable, to the runtime's own handler (installed before any code of
 * the submission, which its filter then keeps from changing it): it names
 * a trapped call of the zygote's.
 */
static void gr_block_signals(void)
{
	sigset_t all;

	sigfillset(&all);
	sigdelset(&all, SIGSYS);
	sigprocmask(SIG_BLOCK, &all, NULL);
}

/*
 * Take what the signalfd holds (SIGCHLD, at most one pending).  1 when
 * something came.  A signalfd that fails, or gives what a signalfd does not
 * (code of the submission put something else at its fd: a pipe whose bytes
 * are not SIGCHLD records), is given up.
 */
static int gr_signal_take(void)
{
	ssize_t n = read(gr_signal_in, gr_zy->signals, sizeof(gr_zy->signals));
	int records = n > 0 && n % (ssize_t)sizeof(gr_zy->signals[0]) == 0 ? (int)(n / (ssize_t)sizeof(gr_zy->signals[0])) : 0;

	for (int i = 0; i < records; i++)
		if (gr_zy->signals[i].ssi_signo != SIGCHLD)
			records = 0;
	if (records)
		return 1;
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	close(gr_signal_in);
	gr_signal_in = -1;
	return 0;
}

/*
 * The pipes the case children write to, made once for all tests instead of
 * twice per test (each pipe is an inode and two open files to make and, at
 * the last close, to free: a tenth of what a test cost).  The read end goes
 * to read_at, the write end to w1 and w2 (which may be -1), where a case
 * child wants it; the zygote keeps it open, so a pipe never reaches end of
 * file: gr_drain sees a test end by its child's SIGCHLD instead.  pipe()
 * takes the lowest free fds, which may be any target (a constructor may
 * have closed 1 or 2), so both ends first move above every fd of the
 * runtime's (the signalfd too) and both of them (to scratch, scratch + 1),
 * then into place.  flags: pipe2()'s (O_NONBLOCK).
 * Returns read_at, or -1.
 */
static int gr_pipe_to(int read_at, int w1, int w2, int flags)
{
	int fds[2], scratch, placed;

	if (pipe2(fds, flags) < 0)
		return -1;
	scratch = (fds[0] > fds[1] ? fds[0] : fds[1]);
	scratch = (scratch > GR_FD_TOP ? scratch : GR_FD_TOP) + 1;
	placed = dup2(fds[0], scratch) >= 0 && dup2(fds[1], scratch + 1) >= 0;
	close(fds[0]);
	close(fds[1]);
	placed = placed && dup2(scratch, read_at) >= 0 && dup2(scratch + 1, w1) >= 0 &&
		 (w2 < 0 || dup2(scratch + 1, w2) >= 0);
	close(scratch);
	close(scratch + 1);
	return placed ? read_at : -1;
}

/* Give up a pipe (at the output limit, or when it broke): the next test gets a new one. */
static void gr_pipe_drop(int *read_end)
{
	if (*read_end >= 0)
		close(*read_end);
	*read_end = -1;
}

/* Give up both: whatever this test left in them must not reach the next. */
static void gr_pipes_drop(void)
{
	gr_pipe_drop(&gr_answer_in);
	gr_pipe_drop(&gr_output_in);
}

enum gr_child_state { GR_CHILD_RUNS, GR_CHILD_STOPPED, GR_CHILD_ENDED };

/* How often a running child is looked at without a SIGCHLD (gr_child_event): a test that runs longer wakes the
 * zygote this often, one waitid each time */
#define GR_END_CHECK_MS 100

/*
 * After a SIGCHLD: has the case child ended, or stopped itself (SIGSTOP,
 * SIGTSTP...)?  A stopped child is ended now (where the zygote may) rather
 * than at the wall-clock limit: nothing in its sandbox could ever continue
 * it.  An end is only looked at (WNOWAIT): gr_collect's wait4 takes it
 * with its rusage once the pipes are drained.  Also called without a
 * SIGCHLD now and then (GR_END_CHECK_MS): the signalfd may be gone (fds used
 * up before main, or code of the submission's that rewrote the runtime),
 * and a test must still end.
 */
static enum gr_child_state gr_child_event(pid_t pid, struct gr_report *r)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WSTOPPED | WNOHANG | WNOWAIT) < 0) {
		if (errno != ECHILD)
			return GR_CHILD_RUNS;
		r->flags |= GR_END_UNSEEN; /* reaped already: SIGCHLD was set to be ignored */
		return GR_CHILD_ENDED;
	}
	if (si.si_pid != pid)
		return GR_CHILD_RUNS;
	if (si.si_code != CLD_STOPPED)
		return GR_CHILD_ENDED;
	r->flags |= GR_STOPPED;
	r->stop_signal = (uint32_t)si.si_status;
	if (gr_may_kill)
		kill(pid, SIGKILL);
	return GR_CHILD_STOPPED;
}

/*
 * Take what one read gives from a ready pipe (*pipe_in: gr_answer_in or
 * gr_output_in) into the answer or the output kept; at the output limit,
 * give the output pipe up.
 */
static void gr_take(pid_t pid, int *pipe_in, const struct gr_request *rq, struct gr_report *r, char *kept,
		    struct gr_answer_buf *ab)
{
	char *buf = gr_zy->read;
	uint64_t limit = (uint64_t)rq->output_kb * 1024u;
	ssize_t n = read(*pipe_in, buf, sizeof(gr_zy->read));

	if (n < 0 && errno == EINTR)
		return;
	if (n <= 0) {
		/* the zygote holds the write ends, so no end of file, and a pipe does not fail: code of the
		 * submission's that ran in the zygote put something else there; do not read it again */
		gr_pipe_drop(pipe_in);
		return;
	}
	if (pipe_in == &gr_answer_in) {
		for (ssize_t k = 0; k < n && ab->len < sizeof(ab->bytes); k++)
			ab->bytes[ab->len++] = (unsigned char)buf[k];
		return;
	}
	for (ssize_t k = 0; k < n && r->output_kept < GR_OUTPUT_KEEP; k++)
		kept[r->output_kept++] = buf[k];
	r->output_total += (uint64_t)n;
	if (r->output_total > limit) {
		/* stop reading: the child's next write fails with EPIPE/SIGPIPE (the next test gets a new pipe) */
		r->flags |= GR_OUTPUT_LIMIT;
		gr_pipe_drop(&gr_output_in);
		/* ...and one that ignores SIGPIPE must not write on until the
		 * CPU or wall-clock limit turns the verdict into a time limit */
		if (gr_may_kill)
			kill(pid, SIGKILL);
	}
}

/*
 * Read the child's output while it runs, and once it has ended what is left
 * of its output and its answer.  The answer pipe is not watched while the
 * child runs: what an honest child writes there (READY, the outcome, at
 * most GR_DETAIL_MAX of detail) fits in a pipe, and waking up for each
 * record cost two wake-ups of the zygote per test.  (It does not block a
 * writer: a child that fills it only loses what it writes next, its answer
 * record too.)  Output is
 * counted, its first GR_OUTPUT_KEEP bytes kept; past the output limit the
 * pipe is closed and the child killed where the zygote may.
 */
static void gr_drain(pid_t pid, const struct gr_request *rq, struct gr_report *r, char *kept, struct gr_answer_buf *ab)
{
	int ended = 0;

	for (;;) {
		int after_end = ended; /* this round looks at both pipes, the child being gone */
		struct pollfd p[3];
		int np = 0, changed = 0, watching = !ended && gr_signal_in >= 0; /* the signalfd at p[0] */
		if (watching)
			p[np++] = (struct pollfd){ gr_signal_in, POLLIN, 0 };
		if (ended && gr_answer_in >= 0)
			p[np++] = (struct pollfd){ gr_answer_in, POLLIN, 0 };
		if (gr_output_in >= 0)
			p[np++] = (struct pollfd){ gr_output_in, POLLIN, 0 };
		/* while the child runs, wait (its SIGCHLD wakes us); once it has ended, take what is left */
		int ready = poll(p, (nfds_t)np, ended ? 0 : GR_END_CHECK_MS);
		int poll_errno = errno; /* before gr_child_event's waitid */
		if (watching && p[0].revents)
			changed = gr_signal_take();
		/* after a SIGCHLD, and after a timeout: without the signalfd (gr_child_event) the timeout is
		 * all there is */
		if (!ended && (changed || ready <= 0)) {
			enum gr_child_state state = gr_child_event(pid, r);
			if (state == GR_CHILD_STOPPED && !gr_may_kill) {
				/* it stays stopped, holding the pipes with whatever it wrote: report now (the grader
				 * ends the runner), and should a test follow all the same, it gets new pipes */
				gr_pipes_drop();
				return;
			}
			ended = state == GR_CHILD_ENDED;
		}
		if (ready < 0 && poll_errno == EINTR)
			continue;
		if (ready < 0) {
			/* cannot happen with these fds unless code in the zygote changed them or its limits: the
			 * report says what arrived, and the next test gets new pipes (nothing of this one in them) */
			gr_pipes_drop();
			return;
		}
		if (ready == 0 && after_end)
			return; /* all taken */
		for (int i = watching; i < np; i++) { /* the pipes */
			int *pipe_in = p[i].fd == gr_answer_in ? &gr_answer_in : &gr_output_in;
			if (p[i].revents & POLLIN)
				gr_take(pid, pipe_in, rq, r, kept, ab);
			else if (p[i].revents) /* an error or a hang-up and nothing to read: that pipe is done */
				gr_pipe_drop(pipe_in);
		}
	}
}

/* The child's records into the report; *detail points at the outcome's detail bytes. */
static void gr_parse_answer(const struct gr_answer_buf *ab, struct gr_report *r, const char **detail)
{
	struct gr_answer a;

	*detail = "";
	if (ab->len < sizeof(a))
		return;
	memcpy(&a, ab->bytes, sizeof(a));
	if (a.magic != GR_MAGIC_READY || a.detail_len || a.value != (int64_t)r->case_id)
		return; /* the child wrote before its sandbox was in place, or took another request: impossible */
	r->flags |= GR_CASE_READY | (a.kind & GR_READY_NO_TIMER ? GR_NO_CPU_TIMER : 0);
	if (ab->len < 2 * sizeof(a))
		return;
	memcpy(&a, ab->bytes + sizeof(a), sizeof(a));
	if (a.magic == GR_MAGIC_ANSWER) {
		r->flags |= GR_ANSWERED;
		r->answer = a.value;
		r->value_kind = a.kind;
		if (a.detail_len <= GR_DETAIL_MAX && a.detail_len <= ab->len - 2 * sizeof(a)) {
			r->detail_len = a.detail_len;
			*detail = (const char *)ab->bytes + 2 * sizeof(a);
		}
	} else if (a.magic == GR_MAGIC_FORBID) {
		r->flags |= GR_FORBIDDEN;
		r->syscall_nr = a.syscall_nr;
	} else if (a.magic == GR_MAGIC_NOMEM) {
		r->flags |= GR_NOMEM;
		r->nomem_bytes = (uint64_t)a.value;
	} else if (a.magic == GR_MAGIC_STACK) {
		r->flags |= GR_STACK_OVERFLOW;
		r->answer = a.value;
		r->nomem_bytes = (uint64_t)a.kind << 10;
	} else if (a.magic == GR_MAGIC_BOUNDS) {
		r->flags |= GR_OUT_OF_BOUNDS;
		r->answer = a.value;
		r->nomem_bytes = a.kind;
		r->syscall_nr = a.syscall_nr;
	}
}

/*
 * A trapped signal to itself (gr_self_signal): the end the call would have
 * had where it runs - death by the signal (no core: the runner's core
 * limit is 0), or for SIGSTOP a stop, which the zygote ends at once where
 * it may (gr_child_event).  The record is the test's to forge, and says
 * only what the test could have done with a PID namespace.
 */
static void gr_self_signal_end(struct gr_report *r, int sig)
{
	if (sig == SIGSTOP) {
		r->flags |= GR_STOPPED;
		r->stop_signal = (uint32_t)sig;
		sig = SIGKILL;
	}
	r->wait_status = sig;
}

/*
 * A child that died of SIGSYS without a forbidden-call record as its
 * outcome wrote records of its own before the call (gr_on_sigsys): the
 * trap's record is the last thing it wrote, so the last one in what came
 * names the call (a record the test forged itself could only name a wrong
 * one), or the signal it sent itself, and no answer stands.
 */
static void gr_find_forbid(const struct gr_answer_buf *ab, struct gr_report *r)
{
	size_t at = ab->len >= sizeof(struct gr_answer) ? ab->len - sizeof(struct gr_answer) + 1 : 0;

	r->flags &= ~(uint32_t)GR_ANSWERED;
	r->detail_len = 0;
	while (at-- > 0) {
		struct gr_answer a;
		memcpy(&a, ab->bytes + at, sizeof(a));
		if (a.magic == GR_MAGIC_FORBID) {
			r->flags |= GR_FORBIDDEN;
			r->syscall_nr = a.syscall_nr;
			return;
		}
		if (a.magic == GR_MAGIC_SIGNAL && a.value > 0 && a.value <= 64 && a.value != SIGSYS) {
			gr_self_signal_end(r, (int)a.value);
			return;
		}
	}
	/* not found (a flood filled the buffer): the grader's verdict for a death by SIGSYS says "unknown" */
}

/* Collect the case child pid: its report in *r, the outcome's detail in *detail (its output in gr_zy->kept). */
static void gr_collect(pid_t pid, const struct gr_request *rq, struct gr_report *r, const char **detail)
{
	struct gr_answer_buf *ab = &gr_zy->answer;
	struct rusage ru;
	int status = 0;

	memset(&ru, 0, sizeof(ru));
	memset(r, 0, sizeof(*r));
	ab->len = 0;
	r->magic = GR_MAGIC_REPORT;
	r->case_id = rq->case_id;
	gr_drain(pid, rq, r, gr_zy->kept, ab);
	if ((r->flags & GR_STOPPED) && !gr_may_kill)
		status = (int)(r->stop_signal << 8 | 0x7f); /* still stopped: no rusage (the grader counts its CPU) */
	else if (!(r->flags & GR_END_UNSEEN)) /* reaped by the kernel: nothing to wait for */
		while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
			;
	r->wait_status = status;
	r->cpu_us = (uint64_t)ru.ru_utime.tv_sec * 1000000u + (uint64_t)ru.ru_utime.tv_usec +
		    (uint64_t)ru.ru_stime.tv_sec * 1000000u + (uint64_t)ru.ru_stime.tv_usec;
	r->maxrss_kb = (uint64_t)ru.ru_maxrss;
	gr_parse_answer(ab, r, detail);
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS && !(r->flags & GR_FORBIDDEN)) {
		gr_find_forbid(ab, r);
		*detail = "";
	}
}

/* Read one request.  The payload goes to *payload (pages reused from request to request). */
static int gr_read_request(struct gr_request *rq, unsigned char **payload)
{
	static struct gr_pages request_pages = { .zygote_only = 1 };
	if (gr_read_full(GR_FD_CONTROL, rq, sizeof(*rq)) < 0)
		return -1;
	if (rq->magic != GR_MAGIC_REQUEST || rq->size > GR_MAX_REQUEST)
		return -1;
	if (!gr_pages_reserve(&request_pages, rq->size) || gr_read_full(GR_FD_CONTROL, request_pages.base, rq->size) < 0)
		return -1;
	*payload = request_pages.base;
	return 0;
}

/*
 * The zygote has one thread and forks from its main loop, never from a
 * handler: no lock can be held, so glibc's fork() locking and unlocking
 * of malloc, stdio and the loader around the fork (pages written in both
 * processes: a copy-on-write fault each, every test) is not needed.
 *
 * The plain system call, as glibc's _Fork() makes it, with one argument
 * more: GR_CLONE_TOKEN as parent_tid, which the kernel ignores without
 * CLONE_PARENT_SETTID, and without which the Python zygote's filter
 * refuses the fork (filter.c add_process_rules: a module's top-level code
 * cannot fork through glibc; defence in depth, not a boundary).  As
 * _Fork() does, the child's thread id is written where
 * glibc keeps it (CLONE_CHILD_SETTID at the address glibc gave
 * set_tid_address at start, which PR_GET_TID_ADDRESS reads back), so
 * that glibc's mutexes and pthread calls in the child see its own id.
 * Where the kernel cannot say that address, the child keeps the zygote's
 * id there: raise() and abort() ask the kernel (gettid) and still signal
 * the child itself.  Unlike _Fork(), no robust-mutex list is registered in
 * the child: a case child has one thread and no robust mutex.
 */
static pid_t gr_fork(void)
{
	static int probed;
	static int *tid_address;
	unsigned long flags = SIGCHLD;

	if (!probed) {
		probed = 1;
		if (prctl(PR_GET_TID_ADDRESS, &tid_address, 0, 0, 0) < 0)
			tid_address = NULL;
	}
	if (tid_address)
		flags |= CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID;
#if defined(__x86_64__)
	return (pid_t)syscall(SYS_clone, flags, 0UL, (unsigned long)GR_CLONE_TOKEN, tid_address, 0UL);
#else /* arm64 and the others that take (flags, stack, parent_tid, tls, child_tid) */
	return (pid_t)syscall(SYS_clone, flags, 0UL, (unsigned long)GR_CLONE_TOKEN, 0UL, tid_address);
#endif
}

/* The output and answer pipes, made again if a test gave them up.  0, or -1. */
static int gr_case_pipes(void)
{
	/* the answer pipe never blocks a writer: what an honest test writes there fits, and a test that
	 * filled it first must not keep the SIGSYS handler's record from ending it at once (its write fails,
	 * it dies of SIGSYS all the same); the output pipe does block, while the zygote drains it */
	if ((gr_answer_in < 0 && (gr_answer_in = gr_pipe_to(GR_FD_ANSWER_IN, GR_FD_ANSWER, -1, O_NONBLOCK)) < 0) ||
	    (gr_output_in < 0 && (gr_output_in = gr_pipe_to(GR_FD_OUTPUT_IN, 1, 2, 0)) < 0))
		return -1;
	return 0;
}

/*
 * Fork a case child, its default thread stack set for memory_mb first (in
 * the zygote, once per memory limit: every child inherits it).  In the
 * child: the death signal, so that a test never outlives its zygote
 * (without a PID namespace - a normal user where user namespaces are
 * refused - nothing else would stop one that sleeps once the grader is
 * gone), and its sandbox.  Returns the pid in the zygote, 0 in the child
 * (*timed: its CPU timer armed), or -1.
 */
static pid_t gr_case_fork(uint32_t cpu_ms, uint32_t memory_mb, int spare, int *timed)
{
	pid_t pid, zygote = getpid();

	if (memory_mb != gr_thread_stack_mb) {
		gr_thread_stacks(memory_mb);
		gr_thread_stack_mb = memory_mb;
	}
	pid = gr_fork();
	if (pid == 0) {
		if (syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || syscall(SYS_getppid) != zygote)
			_exit(122);
		*timed = gr_child_sandbox(cpu_ms, memory_mb, spare);
	}
	return pid;
}

/*
 * A spare: the next test's child, forked and sandboxed as soon as a test
 * has been reported - with that test's limits, which the next one almost
 * always shares - so that its fork, limits and filter are made while the
 * grader judges the test before, not between its request and the call.
 * It waits for its request on GR_FD_GO_IN (gr_spare_request), under its
 * filter already, and decodes it itself.  The grader counts it as the
 * runner's one allowed process besides the zygote between tests
 * (runner.c); while a test runs it is that test's child, and the next
 * spare is made only once the test has been reported.
 */
static void gr_spare_fork(const struct gr_request *rq)
{
	int timed;
	pid_t pid;

	if (gr_go_in < 0 && (gr_go_in = gr_pipe_to(GR_FD_GO_IN, GR_FD_GO_OUT, -1, 0)) < 0)
		return; /* no fds left (code before main lowered the limit): every test gets a child of its own */
	if (gr_case_pipes() < 0)
		return;
	pid = gr_case_fork(rq->cpu_ms, rq->memory_mb, 1, &timed);
	if (pid == 0) {
		struct gr_request own;
		struct gr_arg args[64];
		gr_spare_request(&own, args);
		gr_child_call(&own, args, timed);
	}
	if (pid < 0)
		return;
	gr_spare = pid;
	gr_spare_cpu_ms = rq->cpu_ms;
	gr_spare_memory_mb = rq->memory_mb;
}

/* Take out whatever is left in the spare's pipe (a request or a leave record no spare read). */
static void gr_go_drain(void)
{
	struct pollfd p = { gr_go_in, POLLIN, 0 };
	char buf[PIPE_BUF];

	while (poll(&p, 1, 0) > 0 && (p.revents & POLLIN) && read(gr_go_in, buf, sizeof(buf)) > 0)
		;
}

/*
 * Send the spare away (a request with other limits, or too large for it):
 * a record that is not a request ends it; it is waited for, and what it
 * left unread is taken out of its pipe (it may have been gone already), so
 * that the next spare reads only its own request.
 */
static void gr_spare_discard(void)
{
	struct gr_request leave;

	memset(&leave, 0, sizeof(leave));
	if (gr_write_full(GR_FD_GO_OUT, &leave, sizeof(leave)) < 0 && gr_may_kill)
		kill(gr_spare, SIGKILL);
	while (waitpid(gr_spare, NULL, 0) < 0 && errno == EINTR)
		;
	gr_spare = -1;
	gr_go_drain();
}

/*
 * The spare, given this request (array_bytes: what its arrays need); or -1
 * when a child must be forked for it: when the spare took on other limits,
 * or the request is larger than one write into its pipe, or its arrays need
 * more pages than the spare inherited - a spare maps nothing to decode, so
 * that the test's memory limit (in force in the spare already) never
 * refuses what the zygote would have mapped under its own.
 */
static pid_t gr_spare_take(const struct gr_request *rq, const unsigned char *payload, size_t array_bytes)
{
	pid_t pid = gr_spare;
	struct iovec iov[2] = { { (void *)rq, sizeof(*rq) }, { (void *)payload, rq->size } };

	if (pid < 0)
		return -1;
	if (rq->cpu_ms != gr_spare_cpu_ms || rq->memory_mb != gr_spare_memory_mb || rq->size > GR_SPARE_REQUEST_MAX ||
	    array_bytes > gr_array_pages.cap) {
		gr_spare_discard();
		return -1;
	}
	gr_spare = -1;
	/* one write of at most PIPE_BUF into an empty pipe: whole, at once (a spare that is gone leaves it
	 * unread: see gr_run_case) */
	if (writev(GR_FD_GO_OUT, iov, 2) != (ssize_t)(sizeof(*rq) + rq->size)) {
		gr_spare = pid;
		gr_spare_discard();
		return -1;
	}
	return pid;
}

/* Fork a child for this request, as for the first test.  Its pid, or -1. */
static pid_t gr_case_start(const struct gr_request *rq, const unsigned char *payload)
{
	struct gr_arg args[64];
	int timed;
	pid_t pid;

	if (gr_decode(payload, rq->size, args, 64, NULL) < 0 || gr_case_pipes() < 0)
		return -1;
	pid = gr_case_fork(rq->cpu_ms, rq->memory_mb, 0, &timed);
	if (pid == 0)
		gr_child_call(rq, args, timed);
	return pid;
}

/*
 * Run one case - on the spare, or on a child forked for it - collect it,
 * report; then make the next spare.  A spare that ended without its READY
 * record (not stopped: ended) never reached the student's code (READY comes
 * right before the call): it was gone before it read the request (killed
 * from outside, the OOM killer say) or could not take it.  Then its
 * request is taken out of the pipe and the case runs on a child of its
 * own, as if there had been no spare.
 */
static void gr_run_case(const struct gr_request *rq, const unsigned char *payload, size_t array_bytes)
{
	struct gr_report r;
	const char *detail;
	pid_t pid = gr_spare_take(rq, payload, array_bytes);

	if (pid >= 0) {
		gr_collect(pid, rq, &r, &detail);
		/* a spare stopped from outside has not ended (where it may not be killed, its READY record was
		 * not even read): reported as it is, like any stopped child */
		if (r.flags & (GR_CASE_READY | GR_STOPPED | GR_END_UNSEEN))
			goto report;
		gr_go_drain();
	}
	pid = gr_case_start(rq, payload);
	if (pid < 0) {
		gr_report_failure(rq->case_id, GR_SPAWN_FAILED);
		return;
	}
	gr_collect(pid, rq, &r, &detail);
report:
	gr_report_case(&r, gr_zy->kept, detail);
	/* a test that ended in any but the usual ways gets no spare after it: a child stopped where the
	 * zygote may not kill it is still there (the grader ends the runner), and one whose end was not
	 * seen leaves the zygote unable to see a spare's (runner.c expects none then either) */
	if (!(r.flags & (GR_STOPPED | GR_END_UNSEEN)))
		gr_spare_fork(rq);
}

/* Hello: the functions present, the filter, how loading went and what it printed. */
static int gr_say_hello(const struct gr_load *load)
{
	struct gr_hello hello;
	memset(&hello, 0, sizeof(hello));
	hello.magic = GR_MAGIC_HELLO;
	hello.nfunctions = (uint32_t)gr_ntable;
	for (int i = 0; i < gr_ntable && i < 64; i++)
		if (gr_table[i].present)
			hello.present |= 1ull << i;
	hello.filtered = (uint32_t)gr_filtered;
	hello.pid = (uint32_t)getpid();
	hello.load_kind = load->kind;
	hello.startup_len = load->output_len > GR_OUTPUT_KEEP ? GR_OUTPUT_KEEP : load->output_len;
	hello.startup_total = load->output_total;
	hello.detail_len = load->detail_len > GR_DETAIL_MAX ? GR_DETAIL_MAX : load->detail_len;
	hello.nonce = gr_nonce;
	gr_may_kill = !gr_filtered || hello.pid == 1;
	if (gr_write_full(GR_FD_STATUS, &hello, sizeof(hello)) < 0 ||
	    gr_write_full(GR_FD_STATUS, load->output, hello.startup_len) < 0 ||
	    gr_write_full(GR_FD_STATUS, load->detail, hello.detail_len) < 0)
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	static struct gr_load load;
	int started;

	signal(SIGPIPE, SIG_IGN); /* a vanished grader is seen as a write error */
	started = gr_stub_init(argc, argv, &gr_table, &gr_ntable, &load) == 0;
#ifdef GR_FILTER_IN_MAIN
	/* whether or not the host started (its interpreter; the module's compile, under the runner's memory
	 * limit): an unfiltered runner means a submission switched the filter off (runner.c), and a host's
	 * own failure must read as the load's, not as that */
	gr_setup_filters();
#endif
	if (started)
		gr_stub_load(&load);
	/* before the hello: from here on no handler of the submission's runs in the zygote (the child mask
	 * is taken first, gr_watch_children) */
	gr_watch_children();
	gr_block_signals();
	if (gr_say_hello(&load) < 0)
		return 0;
	gr_zygote_buffers_init();
	gr_install_fault_handler();
	if (load.kind != GR_LOAD_OK) {
		/* a failed load: the grader gives every test its verdict; wait to be let go */
		char c;
		while (read(GR_FD_CONTROL, &c, 1) > 0 || errno == EINTR)
			;
		return 0;
	}

	for (;;) {
		struct gr_request rq;
		unsigned char *payload;
		size_t array_bytes;
		int nargs;

		if (gr_read_request(&rq, &payload) < 0) {
			if (gr_spare >= 0)
				gr_spare_discard();
			return 0; /* the grader closed the control pipe: done */
		}
		/* only checked here: the spare decodes it, or gr_case_start for a child of its own */
		nargs = gr_decode(payload, rq.size, NULL, 64, &array_bytes);
		if (nargs < 0 || rq.function >= (uint32_t)gr_ntable || nargs != gr_table[rq.function].nargs) {
			if (gr_spare >= 0)
				gr_spare_discard(); /* runner.c expects none after this report */
			gr_report_failure(rq.case_id, GR_BAD_REQUEST);
			continue;
		}
		gr_run_case(&rq, payload, array_bytes);
	}
}
