/*
 * test_filter.c - cmocka tests for grader/sandbox/filter.c against the kernel: one
 * test per rule that looks at a system call's arguments.
 *
 * Every check forks a child that builds the real programs with
 * filter_programs(), loads one of them as the runtime does (the pid
 * placeholder patched with its own pid, no_new_privs, seccomp), makes one
 * raw syscall() and sends back what it returned.  The parent sees one of:
 * allowed (the call succeeded), refused with an errno, or trapped (the
 * child killed by SIGSYS: its handler is reset, so the filter's trap is
 * the signal's default action).  The crafted arguments are what the
 * kernel reads one way and a 64-bit comparison another: high bits above an
 * int, a path where AT_EMPTY_PATH allows none, a pid of another process.
 * Where it matters a check without any filter shows the crafted argument
 * really does what it says (installs a SIGSYS handler, finds /etc/passwd).
 *
 * The zygote's filter is loaded alone; a case child's as the runtime has
 * it, the case program on top of the zygote's (the kernel takes the
 * stricter answer of the two), and for the signal rules also as a real case
 * child has them: the case program loaded in a process forked after the
 * zygote's (FORKED_NO_NS).  test_every_call checks that pair against
 * the case policy (filter_case_policy, also on the zygote's) on every
 * system call number, as the kernel answers.
 * Without seccomp every test is reported SKIPPED, never passed.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#undef malloc
#undef calloc
#undef realloc
#undef free

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/filter.h"
#include "runtime/protocol.h"
#include "sandbox/sandbox.h"
#include "unit.h"

/* Which programs the child loads. */
enum program {
	UNFILTERED,
	ZYGOTE,        /* the zygote's, with the machine's namespaces (kill and tgkill unfiltered when it has them) */
	ZYGOTE_NO_NS,  /* the zygote's as GRADER_NO_NAMESPACES=1 builds it: signals to itself only */
	CASE,          /* a case child's: the zygote's, then the case program on top, as the runtime loads them */
	CASE_NO_NS,    /* the same with the zygote's as GRADER_NO_NAMESPACES=1 builds it */
	POLICY,        /* the zygote's, then the whole case policy (filter_case_policy): what CASE must equal */
	POLICY_NO_NS,
	FORKED_NO_NS,  /* as a case child really is: the zygote's (no namespaces) loaded, a fork, the case program
			* loaded in the new process - whose pid is not the one patched into the zygote's */
	OUTER,         /* the outer program alone (filter_outer_program), as sandbox_spawn() has it before execve */
	OUTER_ZYGOTE,  /* the outer program, then the zygote's: what ZYGOTE must equal */
	OUTER_CASE,    /* the outer program, then the zygote's and the case program: what CASE must equal */
	OUTER_ZYGOTE_NO_NS,
	OUTER_CASE_NO_NS,
};

enum outcome { ALLOWED, REFUSED, TRAPPED, OTHER };

static const char *const outcome_names[] = { "allowed", "refused", "trapped", "other" };
static const char *const program_names[] = { "no filter", "zygote filter", "zygote filter (no namespaces)",
					     "case filters", "case filters (no namespaces)", "case policy",
					     "case policy (no namespaces)", "case filters in a forked child (no namespaces)",
					     "outer program", "outer and zygote filters", "outer and case filters",
					     "outer and zygote filters (no namespaces)", "outer and case filters (no namespaces)" };
static const char *const flavour_names[] = { "C", "Python" };

/*
 * Arguments whose low 32 bits are one of these tokens get, in the child,
 * the child's pid, its parent's pid or its thread id in their place (the
 * upper 32 bits are kept: that is the point).
 */
#define TOKEN_SELF 0x7ffffff2ul
#define TOKEN_PARENT 0x7ffffff3ul
#define TOKEN_TID 0x7ffffff4ul
#define HIGH 0xffffffff00000000ul /* bits the kernel never reads of an int argument */

/* rt_sigaction's struct as the kernel takes it on x86-64 and arm64 */
struct k_sigaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	uint64_t mask;
};

static struct k_sigaction ignore_it = { SIG_IGN, 0, NULL, 0 };
static struct k_sigaction old_action;
static struct stat st;
static struct rlimit rl;

static unsigned long fill(unsigned long a)
{
	switch (a & 0xffffffffu) {
	case TOKEN_SELF:
		return (a & HIGH) | (uint32_t)getpid();
	case TOKEN_PARENT:
		return (a & HIGH) | (uint32_t)getppid();
	case TOKEN_TID:
		return (a & HIGH) | (uint32_t)gettid();
	default:
		return a;
	}
}

/* Install one "u32 len, bytes" program at prog as runtime.c's gr_install_filter does: the pid placeholder patched
 * with the caller's pid, no_new_privs, seccomp.  Exits 92 when len is 0 (no seccomp here), 93 when refused. */
static void install(const char *prog)
{
	uint32_t len, self = (uint32_t)getpid();
	struct sock_fprog fprog;

	memcpy(&len, prog, sizeof(len));
	if (!len)
		_exit(92);
	fprog.len = (unsigned short)(len / sizeof(struct sock_filter));
	fprog.filter = (struct sock_filter *)(prog + sizeof(len));
	for (unsigned short i = 0; i < fprog.len; i++)
		if (fprog.filter[i].code == (BPF_JMP | BPF_JEQ | BPF_K) && fprog.filter[i].k == GR_PID_PLACEHOLDER)
			fprog.filter[i].k = self;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog) < 0)
		_exit(93);
}

/* The programs of kind p, "u32 len, bytes" each, in the order they are loaded, into progs; exits 91 on failure. */
static void build(enum filter_flavour flavour, enum program p, struct strbuf *progs)
{
	struct strbuf err = STRBUF_INIT;
	uint32_t len;

	size_t outer = 0;

	if (p == ZYGOTE_NO_NS || p == CASE_NO_NS || p == POLICY_NO_NS || p == FORKED_NO_NS || p == OUTER_ZYGOTE_NO_NS ||
	    p == OUTER_CASE_NO_NS)
		setenv("GRADER_NO_NAMESPACES", "1", 1); /* before the first sandbox_probe() of this child */
	if (p >= OUTER) {
		if (filter_outer_program(progs, &err) < 0)
			_exit(91);
		outer = progs->len;
		if (p == OUTER)
			return;
	}
	if (filter_programs(flavour, progs, &err) < 0)
		_exit(91);
	memcpy(&len, progs->buf + outer, sizeof(len));
	if (p == ZYGOTE || p == ZYGOTE_NO_NS || p == OUTER_ZYGOTE || p == OUTER_ZYGOTE_NO_NS)
		progs->len = outer + sizeof(len) + len; /* the zygote's alone (after the outer program) */
	if (p == POLICY || p == POLICY_NO_NS) {
		progs->len = sizeof(len) + len; /* the zygote's, then the policy in place of the case program */
		if (filter_case_policy(flavour, progs, &err) < 0)
			_exit(91);
	}
	strbuf_release(&err);
}

/* Load the programs build() made, in order. */
static void load_built(const struct strbuf *progs)
{
	size_t off = 0;
	uint32_t len;

	while (off + sizeof(len) <= progs->len) {
		install(progs->buf + off);
		memcpy(&len, progs->buf + off, sizeof(len));
		off += sizeof(len) + len;
	}
	/* progs stays: the kernel has its own copy, and the child ends soon */
}

static void load(enum filter_flavour flavour, enum program p)
{
	struct strbuf progs = STRBUF_INIT;
	build(flavour, p, &progs);
	load_built(&progs);
}

struct answer {
	long ret;
	int err;
	int extra; /* rt_sigaction: is SIGSYS's handler SIG_IGN after the call (unfiltered checks only) */
};

/*
 * FORKED_NO_NS: load the zygote's program, fork, and in the new process the
 * case program (returns there); this process dies as that one did, of the
 * same signal (sent to itself, which the zygote's program allows) or with
 * its exit code.  It forks as the runtime does, with GR_CLONE_TOKEN (the
 * Python zygote's program traps any other fork: test_clone_flags).
 */
static void load_forked(enum filter_flavour flavour)
{
	struct strbuf progs = STRBUF_INIT;
	uint32_t len;
	int status;
	pid_t pid;

	build(flavour, FORKED_NO_NS, &progs);
	memcpy(&len, progs.buf, sizeof(len));
	install(progs.buf);
	pid = (pid_t)syscall(SYS_clone, (unsigned long)SIGCHLD, 0UL, (unsigned long)GR_CLONE_TOKEN, 0UL, 0UL);
	if (pid == 0) {
		install(progs.buf + sizeof(len) + len);
		return;
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		_exit(95);
	if (WIFSIGNALED(status))
		kill(getpid(), WTERMSIG(status));
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 95);
}

/* In the child: load the program, make the call, report.  Never returns. */
static void child(int fd, enum filter_flavour flavour, enum program p, long nr, const unsigned long a[6])
{
	struct answer ans = { 0, 0, 0 };
	unsigned long v[6];

	/* the trap's signal kills: cmocka catches SIGSYS in its tests (and would go on with them in this child) */
	signal(SIGSYS, SIG_DFL);
	if (p == FORKED_NO_NS)
		load_forked(flavour); /* from here on in the forked process: "itself" is that one */
	else if (p != UNFILTERED)
		load(flavour, p);
	for (int i = 0; i < 6; i++)
		v[i] = fill(a[i]);
	ans.ret = syscall(nr, v[0], v[1], v[2], v[3], v[4], v[5]);
	ans.err = errno;
	if (nr == SYS_clone && ans.ret == 0)
		syscall(SYS_exit_group, 0); /* the new process: gone at once */
	if (nr == SYS_clone && ans.ret > 0)
		syscall(SYS_wait4, ans.ret, NULL, 0, NULL);
	if (p == UNFILTERED && nr == SYS_rt_sigaction) {
		struct k_sigaction now;
		ans.extra = syscall(SYS_rt_sigaction, SIGSYS, NULL, &now, sizeof(now.mask)) == 0 &&
			    now.handler == SIG_IGN;
	}
	if (write(fd, &ans, sizeof(ans)) != sizeof(ans))
		_exit(94);
	_exit(0);
}

/* What the kernel did with the call: from the bytes of the answer read (n) and the child's wait status. */
static enum outcome classify(ssize_t n, const struct answer *ans, int status)
{
	if (n == (ssize_t)sizeof(*ans) && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return ans->ret >= 0 ? ALLOWED : REFUSED;
	if (n == 0 && WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS)
		return TRAPPED;
	return OTHER;
}

struct result {
	enum outcome outcome;
	struct answer ans;
	int status;
};

static struct result run(enum filter_flavour flavour, enum program p, long nr, unsigned long a0, unsigned long a1,
			 unsigned long a2, unsigned long a3, unsigned long a4)
{
	const unsigned long a[6] = { a0, a1, a2, a3, a4, 0 };
	struct result r = { OTHER, { 0, 0, 0 }, 0 };
	int fds[2];
	ssize_t n;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		child(fds[1], flavour, p, nr, a);
	}
	close(fds[1]);
	n = read(fds[0], &r.ans, sizeof(r.ans));
	close(fds[0]);
	assert_int_equal(waitpid(pid, &r.status, 0), pid);
	if (WIFEXITED(r.status) && WEXITSTATUS(r.status) == 92)
		skip(); /* no seccomp on this machine: nothing was checked */
	r.outcome = classify(n, &r.ans, r.status);
	return r;
}

/* Does the machine give runners a PID namespace?  Asked in a child: the answer is cached, and the children that
 * build a filter with GRADER_NO_NAMESPACES=1 must probe for themselves. */
static bool machine_has_namespaces(void)
{
	int status;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(sandbox_probe()->namespaces ? 0 : 1);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* expect(flavour, program, outcome, errno (REFUSED only), "what", nr, args...) */
#define expect(fl, p, want, want_errno, what, nr, ...) \
	expect_(fl, p, want, want_errno, what, nr, __VA_ARGS__, 0ul, 0ul, 0ul, 0ul, 0ul)
#define expect_(fl, p, want, want_errno, what, nr, a0, a1, a2, a3, a4, ...) \
	check(fl, p, want, want_errno, what, nr, (unsigned long)(a0), (unsigned long)(a1), (unsigned long)(a2), \
	      (unsigned long)(a3), (unsigned long)(a4))

static struct result check(enum filter_flavour fl, enum program p, enum outcome want, int want_errno,
			   const char *what, long nr, unsigned long a0, unsigned long a1, unsigned long a2,
			   unsigned long a3, unsigned long a4)
{
	struct result r = run(fl, p, nr, a0, a1, a2, a3, a4);
	if (r.outcome != want || (want == REFUSED && r.ans.err != want_errno))
		fail_msg("%s, %s, %s: %s (ret %ld, errno %d '%s', wait status 0x%x), expected %s%s%s", what,
			 flavour_names[fl], program_names[p], outcome_names[r.outcome], r.ans.ret, r.ans.err,
			 strerror(r.ans.err), (unsigned)r.status, outcome_names[want], want == REFUSED ? " with " : "",
			 want == REFUSED ? strerror(want_errno) : "");
	return r;
}

static const enum filter_flavour flavours[] = { FILTER_NATIVE, FILTER_PYTHON };
static const enum program filtered[] = { ZYGOTE, CASE };

#define EACH(arr, var) for (size_t var##_i = 0; var##_i < sizeof(arr) / sizeof(arr[0]) && ((var = arr[var##_i]), 1); var##_i++)

/*
 * rt_sigaction(int sig, ...): any signal but SIGSYS (the filters' trap
 * reports through it).  The rule used to compare all 64 bits with "!=
 * SIGSYS", so HIGH | SIGSYS passed it and installed a SIGSYS handler.
 */
static void test_rt_sigaction_sigsys(void **state)
{
	enum filter_flavour fl;
	enum program p;
	struct result r;
	(void)state;

	r = expect(FILTER_NATIVE, UNFILTERED, ALLOWED, 0, "unfiltered, HIGH | SIGSYS", SYS_rt_sigaction,
		   HIGH | SIGSYS, &ignore_it, NULL, 8);
	if (!r.ans.extra)
		fail_msg("unfiltered rt_sigaction(HIGH | SIGSYS) did not install a handler for SIGSYS: the check means nothing");
	EACH(flavours, fl)
	EACH(filtered, p) {
		expect(fl, p, ALLOWED, 0, "SIGUSR1", SYS_rt_sigaction, SIGUSR1, &ignore_it, NULL, 8);
		expect(fl, p, ALLOWED, 0, "HIGH | SIGUSR1 (SIGUSR1 to the kernel)", SYS_rt_sigaction, HIGH | SIGUSR1,
		       &ignore_it, NULL, 8);
		expect(fl, p, ALLOWED, 0, "signal 1", SYS_rt_sigaction, 1, NULL, &old_action, 8);
		expect(fl, p, ALLOWED, 0, "signal 30", SYS_rt_sigaction, SIGSYS - 1, NULL, &old_action, 8);
		expect(fl, p, ALLOWED, 0, "signal 32", SYS_rt_sigaction, SIGSYS + 1, NULL, &old_action, 8);
		expect(fl, p, ALLOWED, 0, "signal 64", SYS_rt_sigaction, 64, NULL, &old_action, 8);
		expect(fl, p, TRAPPED, 0, "SIGSYS", SYS_rt_sigaction, SIGSYS, &ignore_it, NULL, 8);
		expect(fl, p, TRAPPED, 0, "HIGH | SIGSYS", SYS_rt_sigaction, HIGH | SIGSYS, &ignore_it, NULL, 8);
		expect(fl, p, TRAPPED, 0, "1 << 32 | SIGSYS", SYS_rt_sigaction, 1ul << 32 | SIGSYS, &ignore_it,
		       NULL, 8);
		expect(fl, p, TRAPPED, 0, "SIGSYS, only reading", SYS_rt_sigaction, SIGSYS, NULL, &old_action, 8);
		expect(fl, p, TRAPPED, 0, "signal 65 (no such signal)", SYS_rt_sigaction, 65, NULL, &old_action, 8);
		/* SIGSEGV and SIGBUS: the runtime's handlers stay (a forced SIGSEGV must reach them); read only */
		expect(fl, p, TRAPPED, 0, "SIGSEGV", SYS_rt_sigaction, SIGSEGV, &ignore_it, NULL, 8);
		expect(fl, p, TRAPPED, 0, "SIGBUS", SYS_rt_sigaction, SIGBUS, &ignore_it, NULL, 8);
		expect(fl, p, TRAPPED, 0, "HIGH | SIGSEGV", SYS_rt_sigaction, HIGH | SIGSEGV, &ignore_it, NULL, 8);
		expect(fl, p, ALLOWED, 0, "SIGSEGV, only reading", SYS_rt_sigaction, SIGSEGV, NULL, &old_action, 8);
		expect(fl, p, ALLOWED, 0, "SIGBUS, only reading", SYS_rt_sigaction, SIGBUS, NULL, &old_action, 8);
		expect(fl, p, ALLOWED, 0, "signal 10", SYS_rt_sigaction, SIGSEGV - 1, NULL, &old_action, 8);
		expect(fl, p, ALLOWED, 0, "signal 12", SYS_rt_sigaction, SIGSEGV + 1, NULL, &old_action, 8);
		expect(fl, p, ALLOWED, 0, "signal 8", SYS_rt_sigaction, SIGBUS + 1, NULL, &old_action, 8);
	}
}

/*
 * What keeps every process of a runner in the count its CPU is charged by
 * without cgroups (runner.c slot_cpu_ms): SIGCHLD's action cannot change
 * (ignored, or SA_NOCLDWAIT, a child is reaped by the kernel unseen and its
 * CPU reaches no parent's count), and PR_SET_CHILD_SUBREAPER cannot be
 * switched off (orphans would leave the runner's tree) - in any program,
 * the outer one included, and on the low 32 bits of the argument.
 */
static void test_sigchld_and_reaper(void **state)
{
	enum program p;
	(void)state;

	EACH(filtered, p) {
		expect(FILTER_NATIVE, p, TRAPPED, 0, "SIGCHLD ignored", SYS_rt_sigaction, SIGCHLD, &ignore_it, NULL, 8);
		expect(FILTER_NATIVE, p, TRAPPED, 0, "HIGH | SIGCHLD", SYS_rt_sigaction, HIGH | SIGCHLD, &ignore_it, NULL,
		       8);
		expect(FILTER_NATIVE, p, ALLOWED, 0, "SIGCHLD, only reading", SYS_rt_sigaction, SIGCHLD, NULL,
		       &old_action, 8);
		expect(FILTER_NATIVE, p, ALLOWED, 0, "signal 16", SYS_rt_sigaction, SIGCHLD - 1, &ignore_it, NULL, 8);
		expect(FILTER_NATIVE, p, ALLOWED, 0, "signal 18", SYS_rt_sigaction, SIGCHLD + 1, NULL, &old_action, 8);
	}
	expect(FILTER_NATIVE, ZYGOTE, TRAPPED, 0, "PR_SET_CHILD_SUBREAPER off", SYS_prctl, PR_SET_CHILD_SUBREAPER, 0);
	expect(FILTER_NATIVE, ZYGOTE, TRAPPED, 0, "HIGH | PR_SET_CHILD_SUBREAPER", SYS_prctl,
	       HIGH | PR_SET_CHILD_SUBREAPER, 0);
	expect(FILTER_NATIVE, ZYGOTE, ALLOWED, 0, "PR_GET_DUMPABLE", SYS_prctl, PR_GET_DUMPABLE);
	expect(FILTER_NATIVE, ZYGOTE, ALLOWED, 0, "PR_SET_NO_NEW_PRIVS", SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	expect(FILTER_NATIVE, CASE, TRAPPED, 0, "PR_GET_DUMPABLE", SYS_prctl, PR_GET_DUMPABLE);
	expect(FILTER_NATIVE, OUTER, REFUSED, EPERM, "SIGCHLD ignored", SYS_rt_sigaction, SIGCHLD, &ignore_it, NULL, 8);
	expect(FILTER_NATIVE, OUTER, REFUSED, EPERM, "HIGH | SIGCHLD", SYS_rt_sigaction, HIGH | SIGCHLD, &ignore_it,
	       NULL, 8);
	expect(FILTER_NATIVE, OUTER, ALLOWED, 0, "SIGCHLD, only reading", SYS_rt_sigaction, SIGCHLD, NULL, &old_action, 8);
	expect(FILTER_NATIVE, OUTER, ALLOWED, 0, "a SIGSYS handler (the runtime's)", SYS_rt_sigaction, SIGSYS,
	       &ignore_it, NULL, 8);
	expect(FILTER_NATIVE, OUTER, REFUSED, EPERM, "PR_SET_CHILD_SUBREAPER off", SYS_prctl, PR_SET_CHILD_SUBREAPER, 0);
	expect(FILTER_NATIVE, OUTER, REFUSED, EPERM, "HIGH | PR_SET_CHILD_SUBREAPER", SYS_prctl,
	       HIGH | PR_SET_CHILD_SUBREAPER, 0);
	expect(FILTER_NATIVE, OUTER, ALLOWED, 0, "PR_SET_NO_NEW_PRIVS", SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
}

/*
 * newfstatat(int dfd, const char *path, struct stat *buf, int flags):
 * AT_EMPTY_PATH lets the path be empty, it does not make it so; seccomp
 * cannot read the path, so the call never runs (EACCES with AT_EMPTY_PATH,
 * which is how glibc does fstat(); a trap without it, for C).  The
 * fd-only fstat system call runs.
 */
static void test_newfstatat_path(void **state)
{
	enum filter_flavour fl;
	enum program p;
	(void)state;

	expect(FILTER_NATIVE, UNFILTERED, ALLOWED, 0, "unfiltered, /etc/passwd with AT_EMPTY_PATH", SYS_newfstatat,
	       AT_FDCWD, "/etc/passwd", &st, AT_EMPTY_PATH);
	EACH(flavours, fl)
	EACH(filtered, p) {
		expect(fl, p, ALLOWED, 0, "fstat(1)", SYS_fstat, 1, &st);
		expect(fl, p, REFUSED, EACCES, "fd 1, \"\", AT_EMPTY_PATH", SYS_newfstatat, 1, "", &st, AT_EMPTY_PATH);
		expect(fl, p, REFUSED, EACCES, "/etc/passwd, AT_EMPTY_PATH", SYS_newfstatat, AT_FDCWD, "/etc/passwd",
		       &st, AT_EMPTY_PATH);
		expect(fl, p, REFUSED, EACCES, "/etc/passwd, HIGH | AT_EMPTY_PATH", SYS_newfstatat, AT_FDCWD,
		       "/etc/passwd", &st, HIGH | AT_EMPTY_PATH);
		expect(fl, p, REFUSED, EACCES, "/etc/passwd, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW", SYS_newfstatat,
		       AT_FDCWD, "/etc/passwd", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW);
		if (fl == FILTER_PYTHON) {
			expect(fl, p, REFUSED, EACCES, "/etc/passwd, 0", SYS_newfstatat, AT_FDCWD, "/etc/passwd", &st, 0);
			expect(fl, p, REFUSED, EACCES, "/etc/passwd, 1 << 32", SYS_newfstatat, AT_FDCWD, "/etc/passwd",
			       &st, 1ul << 32);
		} else {
			expect(fl, p, TRAPPED, 0, "/etc/passwd, 0", SYS_newfstatat, AT_FDCWD, "/etc/passwd", &st, 0);
			expect(fl, p, TRAPPED, 0, "/etc/passwd, 1 << 32 (0 to the kernel)", SYS_newfstatat, AT_FDCWD,
			       "/etc/passwd", &st, 1ul << 32);
		}
	}
}

/*
 * clone(unsigned long flags, ...), of which the kernel reads the low 32
 * bits: the zygote may fork, but not into new namespaces, not a thread or
 * a process sharing its memory, not as a child of its own parent; a case
 * child may not at all.  clone3 says ENOSYS (glibc falls back to clone).
 * The Python zygote only with the runtime's token as parent_tid
 * (GR_CLONE_TOKEN, all 64 bits): glibc's fork() - os.fork() from a
 * module's top-level code - passes NULL there and is trapped.
 */
static void test_clone_flags(void **state)
{
	enum filter_flavour fl;
	(void)state;

	EACH(flavours, fl) {
		/* what the C zygote allows with or without the token, the Python one without it traps */
		enum outcome plain = fl == FILTER_PYTHON ? TRAPPED : ALLOWED;
		unsigned long token = GR_CLONE_TOKEN;
		expect(fl, ZYGOTE, plain, 0, "fork", SYS_clone, SIGCHLD, 0, 0, 0, 0);
		expect(fl, ZYGOTE, plain, 0, "fork as glibc does it", SYS_clone,
		       CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | SIGCHLD, 0, 0, &st, 0);
		expect(fl, ZYGOTE, plain, 0, "HIGH | SIGCHLD (a fork to the kernel)", SYS_clone, HIGH | SIGCHLD, 0,
		       0, 0, 0);
		expect(fl, ZYGOTE, ALLOWED, 0, "fork with the token, as the runtime does it", SYS_clone,
		       CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | SIGCHLD, 0, token, &st, 0);
		expect(fl, ZYGOTE, ALLOWED, 0, "HIGH | SIGCHLD with the token", SYS_clone, HIGH | SIGCHLD, 0, token,
		       0, 0);
		expect(fl, ZYGOTE, plain, 0, "the token with high bits (a different pointer to the kernel)", SYS_clone,
		       SIGCHLD, 0, HIGH | token, 0, 0);
		expect(fl, ZYGOTE, plain, 0, "the token in child_tid's place", SYS_clone, SIGCHLD, 0, 0, token, 0);
		expect(fl, ZYGOTE, TRAPPED, 0, "CLONE_NEWUSER with the token", SYS_clone, CLONE_NEWUSER | SIGCHLD, 0,
		       token, 0, 0);
		expect(fl, ZYGOTE, TRAPPED, 0, "CLONE_THREAD with the token", SYS_clone,
		       CLONE_THREAD | CLONE_SIGHAND | CLONE_VM | CLONE_VFORK, 0, token, 0, 0);
		expect(fl, ZYGOTE, TRAPPED, 0, "CLONE_NEWUSER", SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
		expect(fl, ZYGOTE, TRAPPED, 0, "HIGH | CLONE_NEWUSER", SYS_clone, HIGH | CLONE_NEWUSER | SIGCHLD, 0,
		       0, 0, 0);
		expect(fl, ZYGOTE, TRAPPED, 0, "CLONE_NEWPID", SYS_clone, CLONE_NEWPID | SIGCHLD, 0, 0, 0, 0);
		expect(fl, ZYGOTE, TRAPPED, 0, "CLONE_NEWNET", SYS_clone, CLONE_NEWNET | SIGCHLD, 0, 0, 0, 0);
		expect(fl, ZYGOTE, TRAPPED, 0, "CLONE_NEWNS", SYS_clone, CLONE_NEWNS | SIGCHLD, 0, 0, 0, 0);
		expect(fl, ZYGOTE, TRAPPED, 0, "CLONE_PARENT", SYS_clone, CLONE_PARENT | SIGCHLD, 0, 0, 0, 0);
		/* with CLONE_VFORK: were it let through, the parent would wait while the child leaves */
		expect(fl, ZYGOTE, TRAPPED, 0, "CLONE_VM", SYS_clone, CLONE_VM | CLONE_VFORK | SIGCHLD, 0, 0, 0, 0);
		expect(fl, ZYGOTE, TRAPPED, 0, "CLONE_THREAD", SYS_clone,
		       CLONE_THREAD | CLONE_SIGHAND | CLONE_VM | CLONE_VFORK, 0, 0, 0, 0);
		expect(fl, ZYGOTE, REFUSED, ENOSYS, "clone3", SYS_clone3, 0, 0);
		expect(fl, CASE, TRAPPED, 0, "fork", SYS_clone, SIGCHLD, 0, 0, 0, 0);
		expect(fl, CASE, REFUSED, ENOSYS, "clone3", SYS_clone3, 0, 0);
	}
}

/*
 * kill(pid_t pid, int sig): to itself only in a case child, and in the
 * zygote when the runner has no PID namespace of its own (with one, the
 * zygote's rule has no condition).  Signal 0: nothing is sent even if a
 * check fails.
 */
static void test_kill_self(void **state)
{
	static const enum program self_only[] = { ZYGOTE_NO_NS, CASE };
	enum filter_flavour fl;
	enum program p;
	(void)state;

	EACH(flavours, fl)
	EACH(self_only, p) {
		expect(fl, p, ALLOWED, 0, "itself", SYS_kill, TOKEN_SELF, 0);
		expect(fl, p, ALLOWED, 0, "HIGH | itself (itself to the kernel)", SYS_kill, HIGH | TOKEN_SELF, 0);
		expect(fl, p, TRAPPED, 0, "its parent", SYS_kill, TOKEN_PARENT, 0);
		expect(fl, p, TRAPPED, 0, "1 << 32 | its parent", SYS_kill, 1ul << 32 | TOKEN_PARENT, 0);
		expect(fl, p, TRAPPED, 0, "its process group (0)", SYS_kill, 0, 0);
		expect(fl, p, TRAPPED, 0, "every process (-1)", SYS_kill, -1L, 0);
		expect(fl, p, TRAPPED, 0, "every process, 32 bits (0xffffffff)", SYS_kill, 0xffffffffu, 0);
	}
	EACH(flavours, fl)
		expect(fl, ZYGOTE, machine_has_namespaces() ? ALLOWED : TRAPPED, 0,
		       "its parent (no condition with a PID namespace)", SYS_kill, TOKEN_PARENT, 0);
	/* a case child without a PID namespace: the zygote's rule (the zygote's pid only) stays in force, so even
	 * a signal to itself traps - the runtime's SIGSYS handler makes of it the end the signal would have had
	 * (runtime.c gr_self_signal; hostile fixtures abort-early, assert-fail, raise-term) - and the zygote and
	 * every other target trap too */
	EACH(flavours, fl) {
		expect(fl, FORKED_NO_NS, TRAPPED, 0, "itself", SYS_kill, TOKEN_SELF, 0);
		expect(fl, FORKED_NO_NS, TRAPPED, 0, "HIGH | itself", SYS_kill, HIGH | TOKEN_SELF, 0);
		expect(fl, FORKED_NO_NS, TRAPPED, 0, "its zygote (its parent)", SYS_kill, TOKEN_PARENT, 0);
		expect(fl, FORKED_NO_NS, TRAPPED, 0, "every process (-1)", SYS_kill, -1L, 0);
		expect(fl, FORKED_NO_NS, ALLOWED, 0, "getpid (the forked process runs under both)", SYS_getpid, 0);
	}
}

/* tgkill(pid_t tgid, pid_t tid, int sig): the same rule on tgid (the kernel requires tid to be of tgid). */
static void test_tgkill_self(void **state)
{
	static const enum program self_only[] = { ZYGOTE_NO_NS, CASE };
	enum filter_flavour fl;
	enum program p;
	(void)state;

	EACH(flavours, fl)
	EACH(self_only, p) {
		expect(fl, p, ALLOWED, 0, "itself", SYS_tgkill, TOKEN_SELF, TOKEN_TID, 0);
		expect(fl, p, ALLOWED, 0, "HIGH | itself", SYS_tgkill, HIGH | TOKEN_SELF, TOKEN_TID, 0);
		expect(fl, p, TRAPPED, 0, "its parent", SYS_tgkill, TOKEN_PARENT, TOKEN_PARENT, 0);
		expect(fl, p, TRAPPED, 0, "1 << 32 | its parent", SYS_tgkill, 1ul << 32 | TOKEN_PARENT, TOKEN_PARENT, 0);
	}
	/* see test_kill_self: without a PID namespace a case child's raise() traps, to itself or not */
	EACH(flavours, fl) {
		expect(fl, FORKED_NO_NS, TRAPPED, 0, "itself", SYS_tgkill, TOKEN_SELF, TOKEN_TID, 0);
		expect(fl, FORKED_NO_NS, TRAPPED, 0, "its zygote (its parent)", SYS_tgkill, TOKEN_PARENT, TOKEN_PARENT, 0);
	}
}

/*
 * prlimit64(pid_t pid, ...): in the zygote its own limits only (pid 0, as
 * setrlimit and getrlimit call it); without a PID namespace another pid of
 * the same uid could be another student's runner.  A case child: never.
 */
static void test_prlimit64_self(void **state)
{
	static const enum program zygotes[] = { ZYGOTE, ZYGOTE_NO_NS };
	enum filter_flavour fl;
	enum program p;
	(void)state;

	expect(FILTER_NATIVE, UNFILTERED, ALLOWED, 0, "unfiltered, its parent's limits", SYS_prlimit64, TOKEN_PARENT,
	       RLIMIT_NOFILE, NULL, &rl);
	EACH(flavours, fl) {
		EACH(zygotes, p) {
			expect(fl, p, ALLOWED, 0, "pid 0", SYS_prlimit64, 0, RLIMIT_NOFILE, NULL, &rl);
			expect(fl, p, ALLOWED, 0, "HIGH (pid 0 to the kernel)", SYS_prlimit64, HIGH, RLIMIT_NOFILE, NULL,
			       &rl);
			expect(fl, p, TRAPPED, 0, "its parent", SYS_prlimit64, TOKEN_PARENT, RLIMIT_NOFILE, NULL, &rl);
			expect(fl, p, TRAPPED, 0, "1 << 32 | its parent", SYS_prlimit64, 1ul << 32 | TOKEN_PARENT,
			       RLIMIT_NOFILE, NULL, &rl);
		}
		expect(fl, CASE, TRAPPED, 0, "pid 0", SYS_prlimit64, 0, RLIMIT_NOFILE, NULL, &rl);
	}
}

/*
 * mmap(addr, len, int prot, ...) and mprotect(addr, len, int prot): never
 * PROT_EXEC under a filter; mremap(old, size, size, int flags, new): never
 * MREMAP_FIXED.  Else a test could rewrite code, or move a page of its own
 * code onto the runtime's SIGSYS handler, and survive its own trapped call
 * (hostile fixtures forbid-got-write, forbid-text-patch).
 */
static char exec_page[4096] __attribute__((aligned(4096)));

static void test_exec_memory(void **state)
{
	static const enum program all[] = { ZYGOTE, ZYGOTE_NO_NS, CASE, CASE_NO_NS, POLICY, POLICY_NO_NS };
	const unsigned long anon = MAP_PRIVATE | MAP_ANONYMOUS;
	char *from = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *to = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	enum filter_flavour fl;
	enum program p;
	(void)state;

	assert_true(from != MAP_FAILED && to != MAP_FAILED);
	expect(FILTER_NATIVE, UNFILTERED, ALLOWED, 0, "unfiltered, mmap PROT_EXEC", SYS_mmap, NULL, 4096,
	       PROT_READ | PROT_EXEC, anon, -1);
	expect(FILTER_NATIVE, UNFILTERED, ALLOWED, 0, "unfiltered, mprotect PROT_EXEC", SYS_mprotect, exec_page, 4096,
	       PROT_READ | PROT_EXEC);
	expect(FILTER_NATIVE, UNFILTERED, ALLOWED, 0, "unfiltered, mremap MREMAP_FIXED", SYS_mremap, from, 4096, 4096,
	       MREMAP_MAYMOVE | MREMAP_FIXED, to);
	EACH(flavours, fl)
	EACH(all, p) {
		expect(fl, p, ALLOWED, 0, "mmap read-write", SYS_mmap, NULL, 4096, PROT_READ | PROT_WRITE, anon, -1);
		expect(fl, p, TRAPPED, 0, "mmap PROT_EXEC", SYS_mmap, NULL, 4096, PROT_READ | PROT_EXEC, anon, -1);
		expect(fl, p, TRAPPED, 0, "mmap HIGH | PROT_EXEC", SYS_mmap, NULL, 4096, HIGH | PROT_EXEC, anon, -1);
		expect(fl, p, TRAPPED, 0, "mmap read-write-execute", SYS_mmap, NULL, 4096,
		       PROT_READ | PROT_WRITE | PROT_EXEC, anon, -1);
		expect(fl, p, ALLOWED, 0, "mprotect read-write", SYS_mprotect, exec_page, 4096, PROT_READ | PROT_WRITE);
		expect(fl, p, ALLOWED, 0, "mprotect none", SYS_mprotect, exec_page, 4096, PROT_NONE);
		expect(fl, p, TRAPPED, 0, "mprotect PROT_EXEC", SYS_mprotect, exec_page, 4096, PROT_READ | PROT_EXEC);
		expect(fl, p, TRAPPED, 0, "mprotect HIGH | PROT_EXEC", SYS_mprotect, exec_page, 4096, HIGH | PROT_EXEC);
		expect(fl, p, ALLOWED, 0, "mremap MREMAP_MAYMOVE", SYS_mremap, from, 4096, 8192, MREMAP_MAYMOVE, 0);
		expect(fl, p, ALLOWED, 0, "mremap MREMAP_DONTUNMAP", SYS_mremap, from, 4096, 4096,
		       MREMAP_MAYMOVE | MREMAP_DONTUNMAP, 0);
		expect(fl, p, TRAPPED, 0, "mremap MREMAP_FIXED", SYS_mremap, from, 4096, 4096,
		       MREMAP_MAYMOVE | MREMAP_FIXED, to);
		expect(fl, p, TRAPPED, 0, "mremap HIGH | MREMAP_FIXED", SYS_mremap, from, 4096, 4096,
		       HIGH | MREMAP_MAYMOVE | MREMAP_FIXED, to);
	}
	munmap(from, 4096);
	munmap(to, 4096);
}

/*
 * Every system call number under a case child's two programs and under the
 * case policy (each on the zygote's, of the same flavour and namespaces):
 * the same answer from the kernel.  Zero arguments (the rules on arguments
 * have their own tests above); numbers past the architecture's table, -1,
 * and x86-64's x32 numbers (bit 30) too.  A call that blocks (pause) is
 * ended by SIGALRM under both; exit and a bad rt_sigreturn end the child
 * the same way under both.  Return values of allowed calls are not
 * compared (getpid differs from child to child), only that they ran.
 */
#define SWEEP_TABLE_END 600
#define X32_BIT 0x40000000L

struct sweep_answer {
	enum outcome outcome;
	int err;
	int status;
};

/* In a grandchild: load, make the call with zero arguments, answer.  Never returns. */
static void sweep_call(int fd, const struct strbuf *progs, long nr)
{
	struct answer ans = { 0, 0, 0 };
	struct itimerval stop = { { 0, 0 }, { 0, 100000 } };

	signal(SIGSYS, SIG_DFL);
	signal(SIGALRM, SIG_DFL);
	setitimer(ITIMER_REAL, &stop, NULL); /* before the filters: pause() must end */
	load_built(progs);
	ans.ret = syscall(nr, 0, 0, 0, 0, 0, 0);
	ans.err = errno;
	if (ans.ret == 0 && (nr == SYS_clone || nr == SYS_fork || nr == SYS_vfork))
		syscall(SYS_exit_group, 0);
	if (write(fd, &ans, sizeof(ans)) != sizeof(ans))
		_exit(94);
	_exit(0);
}

/* The answers for nrs[0..count) under program p, each in a grandchild of a child that built the programs. */
static void sweep(enum filter_flavour fl, enum program p, const long *nrs, size_t count, struct sweep_answer *out)
{
	size_t want = count * sizeof(*out), got = 0;
	int fds[2], status;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct strbuf progs = STRBUF_INIT;
		close(fds[0]);
		build(fl, p, &progs);
		for (size_t i = 0; i < count; i++) {
			struct sweep_answer a = { OTHER, 0, 0 };
			struct answer ans;
			int call[2];
			ssize_t n;
			pid_t g;
			if (pipe(call) < 0 || (g = fork()) < 0)
				_exit(95);
			if (g == 0) {
				close(call[0]);
				sweep_call(call[1], &progs, nrs[i]);
			}
			close(call[1]);
			n = read(call[0], &ans, sizeof(ans));
			close(call[0]);
			if (waitpid(g, &a.status, 0) != g)
				_exit(96);
			a.outcome = classify(n, &ans, a.status);
			if (a.outcome == REFUSED)
				a.err = ans.err;
			if (write(fds[1], &a, sizeof(a)) != sizeof(a))
				_exit(97);
		}
		_exit(0);
	}
	close(fds[1]);
	while (got < want) {
		ssize_t n = read(fds[0], (char *)out + got, want - got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 92)
		skip(); /* no seccomp on this machine: nothing was checked */
	if (got != want || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("%s, %s: the sweep stopped after %zu of %zu calls (wait status 0x%x)", flavour_names[fl],
			 program_names[p], got / sizeof(*out), count, (unsigned)status);
}

static void test_every_call(void **state)
{
	static const enum program pairs[][2] = { { CASE, POLICY }, { CASE_NO_NS, POLICY_NO_NS } };
	static long nrs[SWEEP_TABLE_END + 2 + SWEEP_TABLE_END];
	static struct sweep_answer got[sizeof(nrs) / sizeof(nrs[0])], want[sizeof(nrs) / sizeof(nrs[0])];
	enum filter_flavour fl;
	size_t count = 0, trapped = 0, allowed = 0;
	(void)state;

	for (long nr = 0; nr < SWEEP_TABLE_END; nr++)
		nrs[count++] = nr;
	nrs[count++] = -1;
	nrs[count++] = 0x7fffffffL;
#ifdef __x86_64__
	for (long nr = 0; nr < SWEEP_TABLE_END; nr++)
		nrs[count++] = X32_BIT | nr;
#endif
	EACH(flavours, fl)
	for (size_t k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++) {
		sweep(fl, pairs[k][0], nrs, count, got);
		sweep(fl, pairs[k][1], nrs, count, want);
		for (size_t i = 0; i < count; i++) {
			if (got[i].outcome != want[i].outcome || got[i].err != want[i].err ||
			    (got[i].outcome == OTHER && got[i].status != want[i].status))
				fail_msg("%s, system call %ld (%s): %s (errno %d, wait status 0x%x) under the %s, %s "
					 "(errno %d, wait status 0x%x) under the %s",
					 flavour_names[fl], nrs[i], filter_syscall_name((int)nrs[i]),
					 outcome_names[got[i].outcome], got[i].err, (unsigned)got[i].status,
					 program_names[pairs[k][0]], outcome_names[want[i].outcome], want[i].err,
					 (unsigned)want[i].status, program_names[pairs[k][1]]);
			trapped += got[i].outcome == TRAPPED;
			allowed += got[i].outcome == ALLOWED;
		}
	}
	/* the sweep means something only if both kinds of answer occurred */
	if (!trapped || !allowed)
		fail_msg("the sweep saw %zu trapped and %zu allowed calls: it checked nothing", trapped, allowed);
	print_message("every call: %zu numbers, 2 flavours x 2 zygotes, the same answers (%zu trapped, %zu allowed)\n", count, trapped,
		      allowed);
}

/*
 * The outer program stays in force under the runtime's filters: with it
 * below them, every call must get the answer the runtime's filters alone
 * give (it may refuse nothing they allow; where both refuse, their trap
 * outranks its error), for every call number, zygote and case child, both
 * flavours, with and without namespaces.
 */
static void test_outer_changes_nothing_below(void **state)
{
	static const enum program pairs[][2] = { { OUTER_ZYGOTE, ZYGOTE }, { OUTER_CASE, CASE },
						 { OUTER_ZYGOTE_NO_NS, ZYGOTE_NO_NS }, { OUTER_CASE_NO_NS, CASE_NO_NS } };
	static long nrs[SWEEP_TABLE_END + 2];
	static struct sweep_answer got[sizeof(nrs) / sizeof(nrs[0])], want[sizeof(nrs) / sizeof(nrs[0])];
	enum filter_flavour fl;
	size_t count = 0, allowed = 0;
	(void)state;

	for (long nr = 0; nr < SWEEP_TABLE_END; nr++)
		nrs[count++] = nr;
	nrs[count++] = -1;
	nrs[count++] = 0x7fffffffL;
	EACH(flavours, fl)
	for (size_t k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++) {
		sweep(fl, pairs[k][0], nrs, count, got);
		sweep(fl, pairs[k][1], nrs, count, want);
		for (size_t i = 0; i < count; i++) {
			if (got[i].outcome != want[i].outcome || got[i].err != want[i].err ||
			    (got[i].outcome == OTHER && got[i].status != want[i].status))
				fail_msg("%s, system call %ld (%s): %s (errno %d) under the %s, %s (errno %d) under the %s",
					 flavour_names[fl], nrs[i], filter_syscall_name((int)nrs[i]),
					 outcome_names[got[i].outcome], got[i].err, program_names[pairs[k][0]],
					 outcome_names[want[i].outcome], want[i].err, program_names[pairs[k][1]]);
			allowed += got[i].outcome == ALLOWED;
		}
	}
	if (!allowed)
		fail_msg("no call was allowed under any pair: the sweep checked nothing");
}

/*
 * What code that runs before the runtime's filter (the loader, an IFUNC
 * resolver, an initialiser the ELF check missed) may do under the outer
 * program alone: read files (Landlock decides which), map libraries
 * executable, fork - but not open a file for writing, make a socket, start
 * a process in new namespaces or a thread.
 */
static void test_outer_alone(void **state)
{
	static char path[] = "/tmp/grader-outer-XXXXXX";
	int fd;
	(void)state;

	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	expect(FILTER_NATIVE, OUTER, ALLOWED, 0, "open for reading", SYS_openat, AT_FDCWD, path, O_RDONLY);
	expect(FILTER_NATIVE, OUTER, ALLOWED, 0, "open a directory", SYS_openat, AT_FDCWD, "/tmp",
	       O_RDONLY | O_DIRECTORY | O_NONBLOCK);
	expect(FILTER_NATIVE, OUTER, REFUSED, EPERM, "open for writing", SYS_openat, AT_FDCWD, path, O_WRONLY);
	expect(FILTER_NATIVE, OUTER, REFUSED, EPERM, "open to append", SYS_openat, AT_FDCWD, path, O_RDONLY | O_APPEND);
	expect(FILTER_NATIVE, OUTER, REFUSED, EPERM, "create", SYS_openat, AT_FDCWD, "/tmp/grader-outer-new",
	       O_RDONLY | O_CREAT, 0600);
	expect(FILTER_NATIVE, OUTER, REFUSED, EPERM, "truncate", SYS_openat, AT_FDCWD, path, O_RDONLY | O_TRUNC);
	expect(FILTER_NATIVE, OUTER, REFUSED, EPERM, "HIGH | O_WRONLY (still writing to the kernel)", SYS_openat,
	       AT_FDCWD, path, HIGH | O_WRONLY);
	expect(FILTER_NATIVE, OUTER, REFUSED, EPERM, "openat2", SYS_openat2, AT_FDCWD, path, 0, 0);
	expect(FILTER_NATIVE, OUTER, REFUSED, EPERM, "unlink", SYS_unlink, path);
	expect(FILTER_NATIVE, OUTER, REFUSED, EPERM, "socket", SYS_socket, AF_INET, SOCK_STREAM, 0);
	expect(FILTER_NATIVE, OUTER, REFUSED, EPERM, "ptrace", SYS_ptrace, 0, 0, 0, 0);
	expect(FILTER_NATIVE, OUTER, ALLOWED, 0, "fork", SYS_clone, SIGCHLD, 0, 0, 0, 0);
	expect(FILTER_NATIVE, OUTER, REFUSED, EPERM, "CLONE_NEWUSER", SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
	expect(FILTER_NATIVE, OUTER, REFUSED, EPERM, "CLONE_THREAD", SYS_clone,
	       CLONE_THREAD | CLONE_SIGHAND | CLONE_VM | CLONE_VFORK, 0, 0, 0, 0);
	expect(FILTER_NATIVE, OUTER, REFUSED, ENOSYS, "clone3", SYS_clone3, 0, 0);
	expect(FILTER_NATIVE, OUTER, ALLOWED, 0, "mmap executable (the loader)", SYS_mmap, 0, 4096,
	       PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	/* from a red-team pass: what code before the runtime's filter used to get away with */
	expect(FILTER_NATIVE, OUTER, REFUSED, EPERM, "mmap writable and executable", SYS_mmap, 0, 4096,
	       PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	expect(FILTER_NATIVE, OUTER, REFUSED, EPERM, "mprotect writable and executable", SYS_mprotect, exec_page,
	       4096, PROT_READ | PROT_WRITE | PROT_EXEC);
	expect(FILTER_NATIVE, OUTER, ALLOWED, 0, "personality asked", SYS_personality, 0xffffffffUL);
	expect(FILTER_NATIVE, OUTER, REFUSED, EPERM, "personality READ_IMPLIES_EXEC", SYS_personality,
	       READ_IMPLIES_EXEC);
	expect(FILTER_NATIVE, OUTER, ALLOWED, 0, "fcntl F_GETFL", SYS_fcntl, 1, F_GETFL);
	expect(FILTER_NATIVE, OUTER, REFUSED, EPERM, "fcntl F_SETOWN (signals to the owner)", SYS_fcntl, 1,
	       F_SETOWN, TOKEN_PARENT);
	expect(FILTER_NATIVE, OUTER, REFUSED, EPERM, "fcntl F_SETSIG", SYS_fcntl, 1, F_SETSIG, SIGKILL);
	expect(FILTER_NATIVE, OUTER, REFUSED, EPERM, "fcntl F_SETFL O_ASYNC", SYS_fcntl, 1, F_SETFL, O_ASYNC);
	expect(FILTER_NATIVE, OUTER, ALLOWED, 0, "fcntl F_SETFL O_NONBLOCK", SYS_fcntl, 1, F_SETFL, O_NONBLOCK);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rt_sigaction_sigsys),
		cmocka_unit_test(test_sigchld_and_reaper),
		cmocka_unit_test(test_newfstatat_path),
		cmocka_unit_test(test_clone_flags),
		cmocka_unit_test(test_kill_self),
		cmocka_unit_test(test_tgkill_self),
		cmocka_unit_test(test_prlimit64_self),
		cmocka_unit_test(test_exec_memory),
		cmocka_unit_test(test_every_call),
		cmocka_unit_test(test_outer_changes_nothing_below),
		cmocka_unit_test(test_outer_alone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
