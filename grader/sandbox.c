/*
 * sandbox.c - see sandbox.h for the contract.
 *
 * The child side of sandbox_spawn() runs between clone() and execve(): it
 * only makes system calls (no malloc, no stdio), and reports a failure as
 * {errno, step} on a close-on-exec pipe that the parent reads; EOF on that
 * pipe means the exec succeeded.
 */
#define _GNU_SOURCE
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef HAVE_SECCOMP
#include <seccomp.h>
#include <sys/mman.h>
#endif

#include "runtime/protocol.h"

static struct sandbox_caps caps;
static int probed;

static const char *const step_names[] = {
	"setsid", "user namespace map", "mount namespace", "hide a directory",
	"file descriptors", "rlimits", "chdir", "drop privileges", "exec",
};
enum spawn_step { STEP_SETSID, STEP_USERMAP, STEP_MOUNTNS, STEP_HIDE, STEP_FDS,
		  STEP_RLIMIT, STEP_CHDIR, STEP_DROP, STEP_EXEC };

struct spawn_failure {
	int err;
	int step;
};

static long clone_fork(unsigned long flags)
{
	/* fork semantics (no new stack): the child continues here */
	return syscall(SYS_clone, flags | SIGCHLD, 0, 0, 0, 0);
}

static int try_clone(unsigned long flags)
{
	int status;
	long pid = clone_fork(flags);
	if (pid == 0)
		_exit(0);
	if (pid < 0)
		return 0;
	while (waitpid((pid_t)pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

const struct sandbox_caps *sandbox_probe(void)
{
	const unsigned long ns = CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS;
	struct passwd *pw;

	if (probed)
		return &caps;
	probed = 1;
	caps.uid = getuid();
	caps.gid = getgid();
	if (geteuid() == 0) {
		caps.drop_uid = true;
		pw = getpwnam("nobody");
		caps.uid = pw ? pw->pw_uid : 65534;
		caps.gid = pw ? pw->pw_gid : 65534;
	}
	if (!getenv("GRADER_NO_NAMESPACES")) {
		if (try_clone(ns | CLONE_NEWNS)) {
			caps.namespaces = caps.mount_ns = true;
		} else if (try_clone(CLONE_NEWUSER | ns | CLONE_NEWNS)) {
			caps.namespaces = caps.mount_ns = caps.user_ns = true;
			caps.drop_uid = false;
		}
	}
#ifdef HAVE_SECCOMP
	if (!getenv("GRADER_NO_SECCOMP") && prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0)
		caps.seccomp = true;
#endif
	return &caps;
}

const char *sandbox_describe(void)
{
	static char line[256];
	const struct sandbox_caps *c = sandbox_probe();
	snprintf(line, sizeof(line), "seccomp %s; namespaces %s; %s; rlimits and process groups",
		 c->seccomp ? "on" : "off",
		 c->namespaces ? (c->user_ns ? "on (user namespace)" : "on") : "off",
		 c->drop_uid ? "runs as nobody" : "runs as the invoking user");
	return line;
}

void sandbox_warn_once(void)
{
	static int warned;
	const struct sandbox_caps *c = sandbox_probe();
	if (warned || (c->seccomp && c->namespaces))
		return;
	warned = 1;
	warning("running without full isolation (%s): fine for checking your own code, "
		"not for grading code you do not trust", sandbox_describe());
}

static void fail_child(int errpipe, int step)
{
	struct spawn_failure f = { errno, step };
	if (write(errpipe, &f, sizeof(f)) < 0) {
		/* nothing more we can say */
	}
	_exit(127);
}

static int write_proc(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

static void set_limit(int resource, unsigned long long value)
{
	struct rlimit rl = { value, value };
	setrlimit(resource, &rl);
}

static void child_setup(const struct sandbox_spawn *s, int errpipe, unsigned long flags,
			uid_t outer_uid, gid_t outer_gid)
{
	static char *const empty_env[] = { NULL };
	int moved[8];

	/* keep the error pipe above every fd we are about to place */
	errpipe = fcntl(errpipe, F_DUPFD_CLOEXEC, 200);
	if (errpipe < 0)
		_exit(127);
	if (setsid() < 0)
		fail_child(errpipe, STEP_SETSID);
	if (flags & CLONE_NEWUSER) {
		char map[64];
		snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)outer_uid, (unsigned)outer_uid);
		if (write_proc("/proc/self/setgroups", "deny") < 0 ||
		    write_proc("/proc/self/uid_map", map) < 0)
			fail_child(errpipe, STEP_USERMAP);
		snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)outer_gid, (unsigned)outer_gid);
		if (write_proc("/proc/self/gid_map", map) < 0)
			fail_child(errpipe, STEP_USERMAP);
	}
	if (flags & CLONE_NEWNS) {
		if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
			fail_child(errpipe, STEP_MOUNTNS);
		for (int i = 0; s->hide_paths && s->hide_paths[i]; i++)
			if (mount("tmpfs", s->hide_paths[i], "tmpfs",
				  MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=0555") < 0 &&
			    errno != ENOENT)
				fail_child(errpipe, STEP_HIDE);
		/*
		 * A /proc of its own PID namespace: the machine's would hand it
		 * /proc/<pid>/cwd, root and exe of every process of the same uid -
		 * another submission's compiler or runner, and the files they
		 * see.  Best effort: a container may refuse a new proc mount.
		 */
		if (flags & CLONE_NEWPID)
			mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	}
	/* move the wanted fds out of the way, then into place */
	for (int i = 0; i < s->nfds; i++) {
		if (s->fds[i] < 0)
			moved[i] = open("/dev/null", O_RDWR);
		else
			moved[i] = fcntl(s->fds[i], F_DUPFD, 64);
		if (moved[i] < 0)
			fail_child(errpipe, STEP_FDS);
	}
	for (int i = 0; i < s->nfds; i++)
		if (dup2(moved[i], i) < 0)
			fail_child(errpipe, STEP_FDS);
	/* close everything else but the error pipe (close-on-exec) */
	if (syscall(SYS_close_range, (unsigned)s->nfds, (unsigned)errpipe - 1, 0) < 0) {
		for (int fd = s->nfds; fd < errpipe; fd++)
			close(fd);
	}
	if (syscall(SYS_close_range, (unsigned)errpipe + 1, ~0U, 0) < 0) {
		for (int fd = errpipe + 1; fd < 1024; fd++)
			close(fd);
	}
	if (s->limits.address_space)
		set_limit(RLIMIT_AS, s->limits.address_space);
	if (s->limits.stack)
		set_limit(RLIMIT_STACK, s->limits.stack);
	set_limit(RLIMIT_FSIZE, s->limits.file_size);
	set_limit(RLIMIT_CORE, 0);
	if (s->limits.cpu_seconds) {
		struct rlimit rl = { s->limits.cpu_seconds, s->limits.cpu_seconds + 1 };
		setrlimit(RLIMIT_CPU, &rl);
	}
	if (s->limits.nproc)
		set_limit(RLIMIT_NPROC, s->limits.nproc);
	if (s->workdir && chdir(s->workdir) < 0)
		fail_child(errpipe, STEP_CHDIR);
	if (caps.drop_uid && !(flags & CLONE_NEWUSER)) {
		if (setgroups(0, NULL) < 0 || setgid(caps.gid) < 0 || setuid(caps.uid) < 0)
			fail_child(errpipe, STEP_DROP);
	}
	/* after the uid change, which clears it: die with the grader */
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	execve(s->path, s->argv, s->envp ? s->envp : empty_env);
	fail_child(errpipe, STEP_EXEC);
}

pid_t sandbox_spawn(const struct sandbox_spawn *s, struct strbuf *err)
{
	const struct sandbox_caps *c = sandbox_probe();
	unsigned long flags = 0;
	int errpipe[2];
	struct spawn_failure f;
	ssize_t n;
	long pid;

	if (s->use_namespaces && c->namespaces)
		flags |= CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS;
	if (s->hide_paths && c->mount_ns)
		flags |= CLONE_NEWNS;
	if (flags && c->user_ns)
		flags |= CLONE_NEWUSER;
	if (pipe2(errpipe, O_CLOEXEC) < 0) {
		strbuf_addf(err, "cannot create a pipe: %s", strerror(errno));
		return -1;
	}
	pid = clone_fork(flags);
	if (pid == 0)
		child_setup(s, errpipe[1], flags, getuid(), getgid());
	close(errpipe[1]);
	if (pid < 0) {
		strbuf_addf(err, "cannot start '%s': %s", s->path, strerror(errno));
		close(errpipe[0]);
		return -1;
	}
	do
		n = read(errpipe[0], &f, sizeof(f));
	while (n < 0 && errno == EINTR);
	close(errpipe[0]);
	if (n == (ssize_t)sizeof(f)) {
		int status;
		while (waitpid((pid_t)pid, &status, 0) < 0 && errno == EINTR)
			;
		strbuf_addf(err, "cannot start '%s' (%s): %s", s->path,
			    step_names[f.step >= 0 && f.step <= STEP_EXEC ? f.step : STEP_EXEC],
			    strerror(f.err));
		errno = f.err;
		return -1;
	}
	return (pid_t)pid;
}

bool sandbox_can_enter(const char *dir)
{
	const struct sandbox_caps *c = sandbox_probe();
	char *path;
	bool ok = true;

	if (!c->drop_uid)
		return access(dir, X_OK) == 0;
	path = realpath(dir, NULL);
	if (!path)
		return false;
	for (char *end = path + strlen(path); ok && end > path; end = strrchr(path, '/')) {
		struct stat st;
		*end = '\0';
		if (stat(*path ? path : "/", &st) < 0)
			ok = false;
		else if (st.st_uid == c->uid)
			ok = (st.st_mode & S_IXUSR) != 0;
		else if (st.st_gid == c->gid)
			ok = (st.st_mode & S_IXGRP) != 0;
		else
			ok = (st.st_mode & S_IXOTH) != 0;
		if (end == path)
			break;
	}
	free(path);
	return ok;
}

void sandbox_kill(pid_t pid)
{
	if (pid <= 0)
		return;
	/* the namespace init (everything in it dies with it) or the process group */
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
}

#ifdef HAVE_SECCOMP
#define CLONE_NEW_FLAGS (CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | \
			 CLONE_NEWNET | CLONE_NEWCGROUP)

/* System calls a pure computation needs in the case child. */
static const int case_allowed[] = {
	SCMP_SYS(read), SCMP_SYS(write), SCMP_SYS(writev), SCMP_SYS(close), SCMP_SYS(lseek),
	SCMP_SYS(fstat),
	SCMP_SYS(brk), SCMP_SYS(mmap), SCMP_SYS(munmap), SCMP_SYS(mremap), SCMP_SYS(mprotect),
	SCMP_SYS(madvise),
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
	SCMP_SYS(prlimit64), SCMP_SYS(setrlimit), SCMP_SYS(getrlimit),
	SCMP_SYS(timer_create), SCMP_SYS(timer_settime), SCMP_SYS(timer_delete),
	SCMP_SYS(prctl), SCMP_SYS(seccomp), SCMP_SYS(set_tid_address),
};

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
 * namespace the zygote keeps the self-only rule: raise() in a test is then
 * reported as a forbidden call (see runner.c), the price of not letting a
 * constructor signal every process of its uid.
 */
static int add_signal_rules(scmp_filter_ctx ctx, bool zygote)
{
	if (zygote && sandbox_probe()->namespaces)
		return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 0) < 0 ||
		       seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(kill), 0) < 0 ? -1 : 0;
	return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1,
				SCMP_A0(SCMP_CMP_EQ, GR_PID_PLACEHOLDER)) < 0 ||
	       seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(kill), 1,
				SCMP_A0(SCMP_CMP_EQ, GR_PID_PLACEHOLDER)) < 0 ? -1 : 0;
}

static int build_filter(struct strbuf *out, bool zygote, struct strbuf *err)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_TRAP);
	int fd = -1, ret = -1;
	uint32_t len;
	off_t size;

	if (!ctx) {
		strbuf_addstr(err, "seccomp_init failed");
		return -1;
	}
	if (seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS) < 0 ||
	    seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0) < 0 ||
	    add_rules(ctx, case_allowed, sizeof(case_allowed) / sizeof(case_allowed[0])) < 0 ||
	    (zygote && add_rules(ctx, zygote_allowed, sizeof(zygote_allowed) / sizeof(zygote_allowed[0])) < 0) ||
	    /* fork, not new namespaces: a constructor would be root in a user namespace of its own */
	    (zygote && seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
					SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEW_FLAGS, 0)) < 0) ||
	    /* glibc tries clone3 first and falls back to clone on ENOSYS */
	    seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0) < 0 ||
	    /* isatty() on stdout: "not a terminal" rather than a violation */
	    seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOTTY), SCMP_SYS(ioctl), 0) < 0 ||
	    /* fstat() is newfstatat(fd, "", buf, AT_EMPTY_PATH): no path lookups */
	    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(newfstatat), 1,
			     SCMP_A3(SCMP_CMP_MASKED_EQ, AT_EMPTY_PATH, AT_EMPTY_PATH)) < 0 ||
	    /* signal handlers, but never for SIGSYS: that one reports violations */
	    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(rt_sigaction), 1,
			     SCMP_A0(SCMP_CMP_NE, SIGSYS)) < 0 ||
	    add_signal_rules(ctx, zygote) < 0) {
		strbuf_addstr(err, "cannot build the seccomp filter");
		goto cleanup;
	}
	fd = memfd_create("grader-filter", MFD_CLOEXEC);
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
	seccomp_release(ctx);
	return ret;
}
#endif

int sandbox_filters(struct strbuf *out, struct strbuf *err)
{
	uint32_t zero = 0;
#ifdef HAVE_SECCOMP
	if (sandbox_probe()->seccomp)
		return build_filter(out, true, err) < 0 || build_filter(out, false, err) < 0 ? -1 : 0;
#else
	(void)err;
#endif
	strbuf_add(out, &zero, sizeof(zero));
	strbuf_add(out, &zero, sizeof(zero));
	return 0;
}

const char *sandbox_syscall_name(int nr)
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
