/*
 * filter.c - see filter.h.  The zygote's program and the case policy are
 * built with libseccomp: the architecture is checked (a foreign one kills
 * the process), the default action traps (SIGSYS, reported as forbidden by
 * the runtime's handler).  The case program a test loads on top of the
 * zygote's is written by hand (build_case_difference).
 *
 * Arguments.  libseccomp compares all 64 bits of an argument (its
 * SCMP_A0_32() macros only truncate the datum), while the kernel reads an
 * int argument (a signal, a pid, a flags word) from the low 32 bits of its
 * register and ignores the rest: 0xffffffff00000000 | SIGSYS is SIGSYS to
 * the kernel and "not SIGSYS" to a 64-bit comparison.  So every rule here
 * that looks at an argument compares it with SCMP_CMP_MASKED_EQ and a mask
 * with no upper half, which is what the kernel sees; a range becomes one
 * masked comparison per aligned block (allow_int_range).  Pointers are
 * never checked (seccomp cannot read the memory behind them).  One rule
 * for a call with no argument condition overrides every rule with one for
 * the same call (libseccomp keeps the unconditional one), so a call is
 * either filtered on its arguments or not at all.  tests/unit/test_filter.c
 * runs every argument rule against the kernel.
 */
#define _GNU_SOURCE
#include "sandbox/filter.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_SECCOMP
#include <endian.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#endif

#include "runtime/protocol.h"
#include "sandbox/sandbox.h"

#ifdef HAVE_SECCOMP
#define CLONE_NEW_FLAGS (CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | \
			 CLONE_NEWNET | CLONE_NEWCGROUP)

/* Where the low 32 bits of the first argument are in struct seccomp_data (a u64 per argument). */
#if __BYTE_ORDER == __LITTLE_ENDIAN
#define ARG0_LOW_OFFSET offsetof(struct seccomp_data, args[0])
#else
#define ARG0_LOW_OFFSET (offsetof(struct seccomp_data, args[0]) + 4)
#endif

/* The kernel's signal count (_NSIG) on the architectures the grader runs on. */
#define KERNEL_NSIG 64

/* "int argument arg equals v", on the low 32 bits as the kernel reads it */
#define ARG_INT_EQ(arg, v) SCMP_CMP((arg), SCMP_CMP_MASKED_EQ, 0xffffffffu, (uint32_t)(v))

/*
 * Allow nr when its int argument arg (low 32 bits) lies in [lo, hi]: one
 * masked comparison per aligned power-of-two block of the range, e.g.
 * [1, 30] is 1, 2-3, 4-7, 8-15, 16-23, 24-27, 28-29 and 30.
 */
static int allow_int_range(scmp_filter_ctx ctx, int nr, unsigned arg, uint32_t lo, uint32_t hi)
{
	for (uint64_t from = lo; from <= hi;) {
		uint64_t size = from ? from & -from : (uint64_t)1 << 32;
		while (from + size - 1 > hi)
			size >>= 1;
		if (seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 1,
				     SCMP_CMP(arg, SCMP_CMP_MASKED_EQ, (uint32_t)~(size - 1), from)) < 0)
			return -1;
		from += size;
	}
	return 0;
}

/* System calls a pure computation needs in the case child. */
static const int case_allowed[] = {
	SCMP_SYS(read), SCMP_SYS(write), SCMP_SYS(writev), SCMP_SYS(close), SCMP_SYS(lseek),
	SCMP_SYS(fstat),
	SCMP_SYS(brk), SCMP_SYS(munmap), SCMP_SYS(madvise), /* mmap, mprotect, mremap: add_fixed_rules */
	SCMP_SYS(rt_sigprocmask), SCMP_SYS(rt_sigreturn), SCMP_SYS(sigaltstack),
	SCMP_SYS(getpid), SCMP_SYS(gettid), SCMP_SYS(getppid),
	SCMP_SYS(getrandom), SCMP_SYS(rseq), SCMP_SYS(futex), SCMP_SYS(set_robust_list),
	SCMP_SYS(clock_gettime), SCMP_SYS(clock_getres), SCMP_SYS(gettimeofday), SCMP_SYS(time),
	SCMP_SYS(clock_nanosleep), SCMP_SYS(nanosleep), SCMP_SYS(pause), SCMP_SYS(sched_yield),
	SCMP_SYS(getrusage), SCMP_SYS(times),
	SCMP_SYS(exit), SCMP_SYS(exit_group),
};

/* ...and what the zygote needs on top, to start and watch cases. */
static const int zygote_allowed[] = {
	SCMP_SYS(wait4), SCMP_SYS(waitid), SCMP_SYS(pipe), SCMP_SYS(pipe2),
	SCMP_SYS(dup), SCMP_SYS(dup2), SCMP_SYS(dup3), SCMP_SYS(poll), SCMP_SYS(ppoll),
	SCMP_SYS(setrlimit), SCMP_SYS(getrlimit), /* prlimit64: add_fixed_rules */
	SCMP_SYS(timer_create), SCMP_SYS(timer_settime), SCMP_SYS(timer_delete),
	SCMP_SYS(seccomp), SCMP_SYS(set_tid_address), /* prctl: add_prctl_rules */
	SCMP_SYS(signalfd4), /* how the zygote hears SIGCHLD (runtime.c gr_watch_children) */
};

/* ...and what it may call on some arguments only (add_process_rules, add_fixed_rules), a case child never. */
static const int zygote_conditional[] = { SCMP_SYS(clone), SCMP_SYS(prlimit64), SCMP_SYS(prctl) };

static int add_rules(scmp_filter_ctx ctx, const int *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (seccomp_rule_add(ctx, SCMP_ACT_ALLOW, list[i], 0) < 0)
			return -1;
	return 0;
}

/*
 * abort() and raise() send a signal to the process itself (tgkill or kill
 * with its own pid, patched in at install).  Filters stack: the zygote's
 * stays in force in every case child, where the zygote's pid is not the
 * child's, so a self-only zygote rule would turn abort() in a test into a
 * "forbidden tgkill".  When the runner has a PID namespace of its own, the
 * zygote's rule can allow any target - from inside, a signal reaches only
 * the runner's own processes (and its init ignores SIGKILL and SIGSTOP) -
 * and the case filter alone keeps the test to itself.  Without a PID
 * namespace the zygote keeps the self-only rule, the price of not letting a
 * constructor signal every process of its uid: raise() in a test then
 * traps, and the runtime's SIGSYS handler reports the end the signal would
 * have had when it was one to the test itself that ends it (abort(), a
 * failed assert(): runtime.c gr_self_signal), else a forbidden call.  No
 * rule can do better: the zygote's program cannot know its children's pids.
 */
static int add_signal_rules(scmp_filter_ctx ctx, bool any_target)
{
	if (any_target)
		return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 0) < 0 ||
		       seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(kill), 0) < 0 ? -1 : 0;
	/* kill(pid_t pid, int sig), tgkill(pid_t tgid, pid_t tid, int sig): the
	 * runtime patches the placeholder (the JEQ of the low half) with its pid;
	 * tgkill's tid must be a thread of tgid, the kernel sees to that */
	return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1, ARG_INT_EQ(0, GR_PID_PLACEHOLDER)) < 0 ||
	       seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(kill), 1, ARG_INT_EQ(0, GR_PID_PLACEHOLDER)) < 0 ? -1 : 0;
}

/* Path-based system calls: what a runner never needs once its filter is in place. */
static const int path_calls[] = {
	SCMP_SYS(open), SCMP_SYS(openat), SCMP_SYS(openat2), SCMP_SYS(stat), SCMP_SYS(lstat), SCMP_SYS(access),
	SCMP_SYS(faccessat), SCMP_SYS(faccessat2), SCMP_SYS(readlink), SCMP_SYS(readlinkat), SCMP_SYS(statx),
	SCMP_SYS(getcwd), SCMP_SYS(newfstatat),
};

/*
 * The Python interpreter looks things up now and then (a source line for a
 * traceback, a locale file): such lookups fail with EACCES, which it
 * handles, instead of killing the test.  Its audit hook (runtime/pyhost.c)
 * reports the program's own attempts as forbidden; C programs trap on the
 * first one.
 *
 * newfstatat(int dfd, const char *path, struct stat *buf, int flags) is
 * also how glibc (2.33 and later) does fstat(fd): path "" and AT_EMPTY_PATH.
 * But AT_EMPTY_PATH only permits an empty path, it does not require one:
 * with a non-empty path the call is an ordinary lookup anywhere (it found
 * /etc/passwd), and seccomp cannot read the path to tell the two apart.
 * So newfstatat never runs under either filter: with AT_EMPTY_PATH (any
 * fstat) it fails with EACCES, which stdio copes with (it only wants a
 * buffer size; it takes BUFSIZ); without it (stat, lstat) it traps for C.
 * The fd-only fstat system call stays allowed (case_allowed).
 */
static int add_path_rules(scmp_filter_ctx ctx, enum filter_flavour flavour)
{
	if (flavour != FILTER_PYTHON)
		return seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(newfstatat), 1,
					SCMP_A3(SCMP_CMP_MASKED_EQ, AT_EMPTY_PATH, AT_EMPTY_PATH)) < 0 ? -1 : 0;
	for (size_t i = 0; i < sizeof(path_calls) / sizeof(path_calls[0]); i++)
		if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), path_calls[i], 0) < 0)
			return -1;
	return 0;
}

/*
 * What starting processes may look like: in the zygote, fork - no new
 * namespaces (a constructor would be root in a user namespace of its own),
 * no threads (a thread of the zygote would run beside the tests, and make
 * fork() unsafe for the Python host) and no CLONE_PARENT (a child of the
 * runner's parent, outside the processes counted as the runner's); in a
 * case child, nothing.  clone's flags are an unsigned long of which the
 * kernel reads the low 32 bits (lower_32_bits(clone_flags)); the mask has
 * no upper half, so those bits play no part here either.
 *
 * token: the fork must also carry GR_CLONE_TOKEN as its parent_tid (all 64
 * bits), as the runtime's own does (runtime.c gr_fork).  The Python
 * zygote's program has it: a module's top-level code runs in the zygote,
 * and its os.fork() - were the audit hook ever bypassed - goes through
 * glibc, which passes NULL there.  Defence in depth only: a red-team pass
 * made a raw clone with the token from pure Python through a hand-built
 * code object (which the hook now refuses, pyhost.c "code.__new__"); the
 * boundary is the grader's count of the runner's processes, seen from
 * outside.  The C zygote's has not: C code before the tests could pass the
 * token itself, so there the rule would promise nothing (its forks are
 * counted and their helpers ended: docs/accounting.md).
 */
static int add_process_rules(scmp_filter_ctx ctx, bool zygote, bool token)
{
	struct scmp_arg_cmp no_new_process_kind = SCMP_A0(SCMP_CMP_MASKED_EQ,
							   CLONE_NEW_FLAGS | CLONE_THREAD | CLONE_VM | CLONE_PARENT, 0);
	struct scmp_arg_cmp runtime_token = SCMP_A2(SCMP_CMP_EQ, GR_CLONE_TOKEN);

	if (zygote && (token ? seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 2, no_new_process_kind,
						runtime_token)
			     : seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1, no_new_process_kind)) < 0)
		return -1;
	/* glibc tries clone3 first and falls back to clone on ENOSYS */
	return seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
}

/*
 * prctl(int option, ...): anything but PR_SET_CHILD_SUBREAPER.  A runner is
 * made a subreaper before its execve (sandbox.c, struct sandbox_spawn
 * reaper), so that a process whose parent ends comes back to the zygote -
 * seen, and its CPU counted when the zygote reaps it - instead of going to
 * a process outside the runner (without a PID namespace); no code of the
 * runner may switch that off.  Every other option as before.
 */
static int add_prctl_rules(scmp_filter_ctx ctx)
{
	return allow_int_range(ctx, SCMP_SYS(prctl), 0, 0, PR_SET_CHILD_SUBREAPER - 1) < 0 ||
	       allow_int_range(ctx, SCMP_SYS(prctl), 0, PR_SET_CHILD_SUBREAPER + 1, 0xffffffffu) < 0 ? -1 : 0;
}

/*
 * rt_sigaction(int sig, act, ...): signal handlers, but never for SIGSYS,
 * which reports violations, nor for SIGSEGV and SIGBUS, whose handlers are
 * the runtime's (runtime.c gr_setup_filters): a SIGSEGV the kernel forces
 * when it cannot write a SIGSYS frame must not reach a handler of the
 * test's that jumps back into it.  Nor for SIGCHLD, whose action stays the
 * default the runner started with: ignored, or with SA_NOCLDWAIT, it would
 * have the kernel reap a child at its end, and that child's CPU would
 * reach no parent's count of its children's time (the count the grader
 * charges without cgroups, runner.c slot_cpu_ms); a handler would run
 * code of the submission in the zygote between tests.  The actions of
 * SIGSEGV, SIGBUS and SIGCHLD may be read (act NULL).  the_rest: any other
 * number (the outer program, which refuses nothing else) or only the
 * kernel's signals (the runtime's filters).
 */
static int add_sigaction_rules(scmp_filter_ctx ctx, bool outer)
{
	static const uint32_t runtime_fixed[] = { SIGBUS, SIGSEGV, SIGCHLD, SIGSYS }; /* ascending */
	static const uint32_t outer_fixed[] = { SIGCHLD };
	const uint32_t *fixed = outer ? outer_fixed : runtime_fixed;
	size_t n = outer ? 1 : sizeof(runtime_fixed) / sizeof(runtime_fixed[0]);
	uint32_t from = outer ? 0 : 1;

	for (size_t i = 0; i < n; i++) {
		if (allow_int_range(ctx, SCMP_SYS(rt_sigaction), 0, from, fixed[i] - 1) < 0 ||
		    (fixed[i] != SIGSYS && seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(rt_sigaction), 2,
							    ARG_INT_EQ(0, fixed[i]), SCMP_A1(SCMP_CMP_EQ, 0)) < 0))
			return -1;
		from = fixed[i] + 1;
	}
	return allow_int_range(ctx, SCMP_SYS(rt_sigaction), 0, from, outer ? 0xffffffffu : KERNEL_NSIG);
}

static int add_fixed_rules(scmp_filter_ctx ctx, bool zygote)
{
	/* isatty() on stdout: "not a terminal" rather than a violation */
	if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOTTY), SCMP_SYS(ioctl), 0) < 0 || add_sigaction_rules(ctx, false) < 0)
		return -1;
	/* mmap(addr, len, int prot, ...), mprotect(addr, len, int prot), mremap(old, size, size, int flags, new):
	 * nothing made executable once a filter is in place (every piece of code is loaded by then), and no
	 * mapping moved to an address of the caller's choosing - else a test could rewrite code, or put a page
	 * of its own code where the runtime's SIGSYS handler is, and survive its own trapped call
	 * (runtime.c gr_on_sigsys).  The masks have no upper half: the kernel reads these ints from the low 32
	 * bits, and PROT_EXEC and MREMAP_FIXED lie there either way. */
	if (seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mmap), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0)) < 0 ||
	    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mprotect), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0)) < 0 ||
	    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mremap), 1,
			     SCMP_A3(SCMP_CMP_MASKED_EQ, MREMAP_FIXED, 0)) < 0)
		return -1;
	/* prlimit64(pid_t pid, ...): its own limits only (pid 0, what setrlimit and getrlimit pass); without
	 * a PID namespace another pid could be a runner of another student of the same uid */
	if (zygote && (seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prlimit64), 1, ARG_INT_EQ(0, 0)) < 0 ||
		       add_prctl_rules(ctx) < 0))
		return -1;
	return 0;
}

/* Append the program, as "u32 length, bytes", to out. */
static int export_filter(scmp_filter_ctx ctx, struct strbuf *out, struct strbuf *err)
{
	int fd = memfd_create("grader-filter", MFD_CLOEXEC), ret = -1;
	uint32_t len;
	off_t size;

	if (fd < 0 || seccomp_export_bpf(ctx, fd) < 0) {
		strbuf_addf(err, "cannot export the seccomp filter: %s", strerror(errno));
		goto cleanup;
	}
	size = lseek(fd, 0, SEEK_END);
	if (size <= 0 || size > 65536) {
		strbuf_addstr(err, "the seccomp filter has an unexpected size");
		goto cleanup;
	}
	len = (uint32_t)size;
	strbuf_add(out, &len, sizeof(len));
	strbuf_grow(out, len);
	if (pread(fd, out->buf + out->len, len, 0) != (ssize_t)len) {
		strbuf_addstr(err, "cannot read back the seccomp filter");
		goto cleanup;
	}
	out->len += len;
	out->buf[out->len] = '\0';
	ret = 0;
cleanup:
	if (fd >= 0)
		close(fd);
	return ret;
}

/*
 * A program's start, shared by every program here: the default action, the
 * architecture checked (a foreign one kills the process), no_new_privs left
 * to the installer, and what a pure computation needs (case_allowed).  NULL
 * with a message in err.
 */
static scmp_filter_ctx start_program(uint32_t default_action, struct strbuf *err)
{
	scmp_filter_ctx ctx = seccomp_init(default_action);

	if (!ctx) {
		strbuf_addstr(err, "seccomp_init failed");
		return NULL;
	}
	if (seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS) < 0 ||
	    seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0) < 0 ||
	    add_rules(ctx, case_allowed, sizeof(case_allowed) / sizeof(case_allowed[0])) < 0) {
		strbuf_addstr(err, "cannot start the seccomp filter");
		seccomp_release(ctx);
		return NULL;
	}
	return ctx;
}

static int build_filter(struct strbuf *out, enum filter_flavour flavour, bool zygote, struct strbuf *err)
{
	scmp_filter_ctx ctx = start_program(SCMP_ACT_TRAP, err);
	int ret = -1;

	if (!ctx)
		return -1;
	if ((zygote && add_rules(ctx, zygote_allowed, sizeof(zygote_allowed) / sizeof(zygote_allowed[0])) < 0) ||
	    add_process_rules(ctx, zygote, zygote && flavour == FILTER_PYTHON) < 0 ||
	    add_fixed_rules(ctx, zygote) < 0 || add_path_rules(ctx, flavour) < 0 ||
	    add_signal_rules(ctx, zygote && sandbox_probe()->namespaces) < 0) {
		strbuf_addstr(err, "cannot build the seccomp filter");
		goto cleanup;
	}
	ret = export_filter(ctx, out, err);
cleanup:
	seccomp_release(ctx);
	return ret;
}

/*
 * What the dynamic loader and the runtime's start-up ask of the kernel
 * before the runtime's own filter is in place, on top of everything the
 * zygote's program allows (the outer program stays in force under it, so
 * it must allow at least that).  Found by tracing the C runner and the
 * Python host from execve to their seccomp() call; what a newer C library
 * or interpreter asks besides fails with EPERM (or ENOSYS, as clone3)
 * instead of killing an honest runner.
 */
/* the open flags that write, create or truncate: none of them before the runtime's filter either
 * (O_TMPFILE needs O_WRONLY or O_RDWR; its own bits hold O_DIRECTORY, which reading a directory uses) */
#define OPEN_WRITING ((uint32_t)(O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND))

static const int loader_allowed[] = {
	SCMP_SYS(execve), SCMP_SYS(arch_prctl), SCMP_SYS(pread64),
	SCMP_SYS(newfstatat), SCMP_SYS(stat), SCMP_SYS(lstat), SCMP_SYS(statx), SCMP_SYS(access),
	SCMP_SYS(faccessat), SCMP_SYS(faccessat2), SCMP_SYS(readlink), SCMP_SYS(readlinkat), SCMP_SYS(getcwd),
	SCMP_SYS(getdents64), SCMP_SYS(sysinfo), SCMP_SYS(uname),
	SCMP_SYS(getuid), SCMP_SYS(geteuid), SCMP_SYS(getgid), SCMP_SYS(getegid), SCMP_SYS(sched_getaffinity),
};

/*
 * Memory before the runtime's filter: the loader maps libraries executable
 * (the runtime's filters forbid it afterwards), but never a page writable
 * and executable at once (runners are linked with -z now, and have no text
 * relocations), and nothing makes every readable page executable: the
 * personality may be asked (0xffffffff) or set to plain PER_LINUX only, so
 * READ_IMPLIES_EXEC cannot be switched on ahead of the runtime's filter.
 */
static int add_outer_memory_rules(scmp_filter_ctx ctx)
{
	static const uint32_t prots[] = { 0, PROT_WRITE, PROT_EXEC };
	for (size_t i = 0; i < sizeof(prots) / sizeof(prots[0]); i++)
		if (seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mmap), 1,
				     SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_WRITE | PROT_EXEC, prots[i])) < 0 ||
		    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mprotect), 1,
				     SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_WRITE | PROT_EXEC, prots[i])) < 0)
			return -1;
	return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mremap), 1, SCMP_A3(SCMP_CMP_MASKED_EQ, MREMAP_FIXED, 0)) < 0 ||
	       seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(personality), 1, ARG_INT_EQ(0, 0xffffffffu)) < 0 ||
	       seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(personality), 1, ARG_INT_EQ(0, PER_LINUX)) < 0 ? -1 : 0;
}

/*
 * fcntl(int fd, int cmd, arg) before the runtime's filter: what the loader
 * and the interpreter ask (descriptor flags, status flags, duplicates) and
 * nothing that makes an inherited descriptor signal someone: F_SETOWN,
 * F_SETSIG, F_SETLEASE, F_NOTIFY - or O_ASYNC set through F_SETFL - would
 * have the kernel signal the grader on every request it writes (Landlock's
 * signal scope, from ABI 6, does not cover signals sent by the kernel for
 * a descriptor's owner on every kernel).
 */
static int add_outer_fcntl_rules(scmp_filter_ctx ctx)
{
	static const uint32_t cmds[] = { F_GETFD, F_SETFD, F_GETFL, F_DUPFD, F_DUPFD_CLOEXEC };
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(fcntl), 1, ARG_INT_EQ(1, cmds[i])) < 0)
			return -1;
	return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(fcntl), 2, ARG_INT_EQ(1, F_SETFL),
				SCMP_A2(SCMP_CMP_MASKED_EQ, O_ASYNC, 0)) < 0 ? -1 : 0;
}

/*
 * The outer program (filter_outer_program): installed by sandbox_spawn()
 * right before execve, so the loader, IFUNC resolvers and any initialiser
 * the ELF check does not see run under it.  Files are opened read-only
 * only (what Landlock lets it read), nothing is made executable that the
 * loader does not map, no process starts but a plain fork, no socket, no
 * signal beyond the runner's own processes; what it refuses fails with
 * EPERM.  The runtime's filters on top trap, and a trap outranks an error:
 * what both refuse is still reported as forbidden.
 */
static int build_outer(struct strbuf *out, bool signals_anywhere, struct strbuf *err)
{
	scmp_filter_ctx ctx = start_program(SCMP_ACT_ERRNO(EPERM), err);
	int ret = -1;

	if (!ctx)
		return -1;
	if (add_rules(ctx, zygote_allowed, sizeof(zygote_allowed) / sizeof(zygote_allowed[0])) < 0 ||
	    add_rules(ctx, loader_allowed, sizeof(loader_allowed) / sizeof(loader_allowed[0])) < 0 ||
	    add_process_rules(ctx, true, false) < 0 ||
	    add_outer_memory_rules(ctx) < 0 || add_outer_fcntl_rules(ctx) < 0 ||
	    add_sigaction_rules(ctx, true) < 0 || add_prctl_rules(ctx) < 0 ||
	    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prlimit64), 1, ARG_INT_EQ(0, 0)) < 0 ||
	    seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOTTY), SCMP_SYS(ioctl), 0) < 0 ||
	    /* open(path, int flags, ...), openat(dfd, path, int flags, ...): for reading only, even where
	     * Landlock is missing; openat2's flags are behind a pointer: refused */
	    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(open), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, OPEN_WRITING, 0)) < 0 ||
	    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(openat), 1,
			     SCMP_A2(SCMP_CMP_MASKED_EQ, OPEN_WRITING, 0)) < 0 ||
	    add_signal_rules(ctx, signals_anywhere) < 0) {
		strbuf_addstr(err, "cannot build the outer seccomp filter");
		goto cleanup;
	}
	ret = export_filter(ctx, out, err);
cleanup:
	seccomp_release(ctx);
	return ret;
}

/*
 * The case child's own program: the difference between the zygote's filter,
 * which stays in force in the child, and the case policy (build_filter with
 * zygote false).  Classic seccomp cannot load a program once and attach it
 * later: every seccomp() call converts the program and JIT-compiles it
 * anew, and fills its action cache by running the program for every call
 * the filters below it allow: a cost that grows with its length (about
 * 10 us for 4 instructions, 19 for these 31, in a case child on the
 * project's VM), and a case child pays it once per test.  The zygote's
 * filter already allows everything the case policy does plus the
 * zygote's own calls, and the kernel takes the stricter
 * answer of the two programs, so the child's program only takes those
 * extra calls away: 31 instructions on x86-64 instead of the policy's 86.
 *
 * Written by hand because its one argument rule, "kill and tgkill only to
 * itself", is a not-equal on the low 32 bits of the pid (a trap for every
 * other pid, the default being to allow), which libseccomp cannot express:
 * its not-equal compares all 64 bits.  The pid placeholder is patched by the
 * runtime, as in the policy's rule.  Without a PID namespace the zygote's
 * rule allows only the zygote's own pid, so a case child's raise() traps
 * under the pair (see add_signal_rules for what the runtime makes of it).
 * tests/unit/test_filter.c checks
 * that the pair answers as the zygote's filter with the whole case policy
 * on top would, for every system call number of the architecture.
 */
/* the runtime keeps the program on the page a case child writes anyway (runtime.c gr_case) */
#define CASE_PROGRAM_MAX (GR_CASE_FILTER_MAX / sizeof(struct sock_filter))

static void emit(struct sock_filter *prog, size_t *n, struct sock_filter insn)
{
	if (*n < CASE_PROGRAM_MAX)
		prog[*n] = insn;
	(*n)++;
}

static int build_case_difference(struct strbuf *out, struct strbuf *err)
{
	struct sock_filter prog[CASE_PROGRAM_MAX];
	int denied[sizeof(zygote_allowed) / sizeof(zygote_allowed[0]) +
		   sizeof(zygote_conditional) / sizeof(zygote_conditional[0])];
	size_t ndenied = 0, n = 0, trap_at, signal_at;
	uint32_t len, arch = seccomp_arch_native();

	for (size_t i = 0; i < sizeof(zygote_allowed) / sizeof(zygote_allowed[0]); i++)
		if (zygote_allowed[i] >= 0) /* a pseudo-number: no such call on this architecture */
			denied[ndenied++] = zygote_allowed[i];
	for (size_t i = 0; i < sizeof(zygote_conditional) / sizeof(zygote_conditional[0]); i++)
		if (zygote_conditional[i] >= 0)
			denied[ndenied++] = zygote_conditional[i];
	/* the layout, so jumps can be counted: 4 + ndenied + 3 instructions, the signal check (3), the trap */
	signal_at = 4 + ndenied + 3;
	trap_at = signal_at + 3;
	emit(prog, &n, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)));
	emit(prog, &n, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, arch, 1, 0));
	emit(prog, &n, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
	emit(prog, &n, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)));
	for (size_t i = 0; i < ndenied; i++)
		emit(prog, &n, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)denied[i],
							   (uint8_t)(trap_at - n - 1), 0));
	emit(prog, &n, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)SCMP_SYS(kill),
						   (uint8_t)(signal_at - n - 1), 0));
	emit(prog, &n, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)SCMP_SYS(tgkill),
						   (uint8_t)(signal_at - n - 1), 0));
	emit(prog, &n, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
	/* signal_at: the target pid's low 32 bits, as the kernel reads it */
	emit(prog, &n, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG0_LOW_OFFSET));
	emit(prog, &n, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, GR_PID_PLACEHOLDER, 0, 1));
	emit(prog, &n, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
	/* trap_at */
	emit(prog, &n, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP));
	if (n > CASE_PROGRAM_MAX || n != trap_at + 1) {
		strbuf_addstr(err, "cannot build the case child's seccomp program");
		return -1;
	}
	len = (uint32_t)(n * sizeof(prog[0]));
	strbuf_add(out, &len, sizeof(len));
	strbuf_add(out, prog, len);
	return 0;
}
#endif

int filter_programs(enum filter_flavour flavour, struct strbuf *out, struct strbuf *err)
{
	uint32_t zero = 0;
#ifdef HAVE_SECCOMP
	if (sandbox_probe()->seccomp)
		return build_filter(out, flavour, true, err) < 0 || build_case_difference(out, err) < 0 ? -1 : 0;
#else
	(void)flavour;
	(void)err;
#endif
	strbuf_add(out, &zero, sizeof(zero));
	strbuf_add(out, &zero, sizeof(zero));
	return 0;
}

int filter_outer_program(struct strbuf *out, struct strbuf *err)
{
	uint32_t zero = 0;
#ifdef HAVE_SECCOMP
	const struct sandbox_caps *c = sandbox_probe();
	/* in a PID namespace of its own, or in a Landlock domain that scopes signals (landlock.c, ABI 6),
	 * a runner can reach only its own processes; elsewhere only itself (the pid patched at install) */
	if (c->seccomp)
		return build_outer(out, c->namespaces || c->landlock >= 6, err);
#else
	(void)err;
#endif
	strbuf_add(out, &zero, sizeof(zero));
	return 0;
}

int filter_case_policy(enum filter_flavour flavour, struct strbuf *out, struct strbuf *err)
{
	uint32_t zero = 0;
#ifdef HAVE_SECCOMP
	if (sandbox_probe()->seccomp)
		return build_filter(out, flavour, false, err);
#else
	(void)flavour;
	(void)err;
#endif
	strbuf_add(out, &zero, sizeof(zero));
	return 0;
}

const char *filter_syscall_name(int nr)
{
	static char buf[64];
#ifdef HAVE_SECCOMP
	char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
	if (name) {
		snprintf(buf, sizeof(buf), "%s", name);
		free(name);
		return buf;
	}
#endif
	snprintf(buf, sizeof(buf), "system call %d", nr);
	return buf;
}
