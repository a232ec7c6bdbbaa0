/*
 * sandbox.c - see sandbox.h for the contract.
 *
 * The child side of sandbox_spawn() runs between clone() and execve(): it
 * only makes system calls (no malloc, no stdio), and reports a failure as
 * {errno, step} on a close-on-exec pipe that the parent reads; EOF on that
 * pipe means the exec succeeded.
 */
#define _GNU_SOURCE
#include "sandbox/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdint.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <limits.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/cgroup.h"
#include "runtime/protocol.h"

static struct sandbox_caps caps;
static int probed;

static const char *const step_names[] = {
	"setsid", "user namespace map", "mount namespace", "hide a directory", "mount /proc",
	"file descriptors", "rlimits", "chdir", "drop privileges", "exec", "join its cgroup", "restrict its view",
	"install the seccomp filter", "adopt its orphans",
};
enum spawn_step { STEP_SETSID, STEP_USERMAP, STEP_MOUNTNS, STEP_HIDE, STEP_PROC, STEP_FDS,
		  STEP_RLIMIT, STEP_CHDIR, STEP_DROP, STEP_EXEC, STEP_CGROUP, STEP_VIEW, STEP_FILTER, STEP_REAPER,
		  STEP_COUNT };

struct spawn_failure {
	int err;
	int step;
};

#define NS_FLAGS (CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS)

static long clone_fork(unsigned long flags)
{
	/* fork semantics (no new stack): the child continues here */
	return syscall(SYS_clone, flags | SIGCHLD, 0, 0, 0, 0);
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

/*
 * Who the processes of the sandbox are, as seen from outside.  The caller's
 * ids are read in the parent, before clone(): inside a new user namespace
 * getuid() answers the overflow id (65534) until the map is written.
 */
struct outer_ids {
	uid_t caller_uid, target_uid;
	gid_t caller_gid, target_gid;
};

/*
 * In a fresh user namespace: map the target ids onto themselves (a normal
 * user may map only its own ids, which are then the target; root may map
 * any), with setgroups denied as the kernel requires for an unprivileged
 * gid map.  Returns 0, or -1 with errno.
 */
static int map_user_namespace(const struct outer_ids *ids)
{
	char map[64];
	snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)ids->target_uid, (unsigned)ids->target_uid);
	if (write_proc("/proc/self/setgroups", "deny") < 0 && errno != ENOENT)
		return -1;
	if (write_proc("/proc/self/uid_map", map) < 0)
		return -1;
	snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)ids->target_gid, (unsigned)ids->target_gid);
	return write_proc("/proc/self/gid_map", map);
}

/*
 * The namespace part of a child's set-up, shared by the probe and by
 * sandbox_spawn(): user map, private mounts, hidden directories, a /proc of
 * the new PID namespace.  Returns 0, or the failed step (errno set).
 */
static int enter_namespaces(unsigned long flags, const struct outer_ids *ids, const char *const *hide)
{
	if ((flags & CLONE_NEWUSER) && map_user_namespace(ids) < 0)
		return STEP_USERMAP;
	if (!(flags & CLONE_NEWNS))
		return 0;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return STEP_MOUNTNS;
	for (int i = 0; hide && hide[i]; i++)
		if (mount("tmpfs", hide[i], "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
			  "size=4k,mode=0555") < 0 && errno != ENOENT)
			return STEP_HIDE;
	/*
	 * A /proc of its own PID namespace: the machine's would hand it
	 * /proc/<pid>/cwd, root and exe of every process of the same uid -
	 * another submission's compiler or runner, and the files they see.
	 */
	if ((flags & CLONE_NEWPID) && mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		return STEP_PROC;
	return 0;
}

/*
 * Can this process make a sandbox with these flags - all of it, maps and
 * mounts included?  A kernel may allow the clone() but not what follows
 * (Ubuntu's AppArmor restriction leaves an unprivileged user namespace
 * without capabilities), so the child goes through the same steps as a
 * real spawn, hiding /tmp of its private mount namespace.  Returns 0, or
 * the step that failed with *err its errno (STEP_COUNT: the clone itself).
 */
static int try_namespaces(unsigned long flags, const struct outer_ids *ids, int *err)
{
	static const char *const probe_hide[] = { "/tmp", NULL };
	int status, pipefd[2];
	struct spawn_failure f = { 0, 0 };
	long pid;

	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		*err = errno;
		return STEP_COUNT;
	}
	pid = clone_fork(flags);
	if (pid == 0) {
		int step = enter_namespaces(flags, ids, probe_hide);
		if (step) {
			f.err = errno;
			f.step = step;
			if (write(pipefd[1], &f, sizeof(f)) < 0)
				_exit(2);
			_exit(1);
		}
		_exit(0);
	}
	close(pipefd[1]);
	if (pid < 0) {
		*err = errno;
		close(pipefd[0]);
		return STEP_COUNT;
	}
	while (read(pipefd[0], &f, sizeof(f)) < 0 && errno == EINTR)
		;
	close(pipefd[0]);
	while (waitpid((pid_t)pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	*err = f.step ? f.err : EINVAL;
	return f.step ? f.step : STEP_MOUNTNS;
}

static void describe_refusal(char *buf, size_t size, const char *what, int step, int err)
{
	if (step == STEP_COUNT)
		snprintf(buf, size, "%s refused (%s)", what, strerror(err));
	else
		snprintf(buf, size, "%s allowed but crippled (%s: %s)", what, step_names[step], strerror(err));
}

static void probe_namespaces(struct outer_ids *ids)
{
	const unsigned long ns = NS_FLAGS;
	char direct[96] = "", viauser[96] = "";
	int err = 0, step;

	if (getenv("GRADER_NO_NAMESPACES")) {
		snprintf(caps.no_namespaces, sizeof(caps.no_namespaces), "namespaces switched off (GRADER_NO_NAMESPACES)");
		return;
	}
	/* as root: directly; and always worth a try (a container may grant CAP_SYS_ADMIN) */
	if (geteuid() == 0) {
		step = try_namespaces(ns | CLONE_NEWNS, ids, &err);
		if (!step) {
			caps.namespaces = caps.mount_ns = true;
			return;
		}
		describe_refusal(direct, sizeof(direct), "namespaces", step, err);
	}
	step = try_namespaces(CLONE_NEWUSER | ns | CLONE_NEWNS, ids, &err);
	if (!step) {
		caps.namespaces = caps.mount_ns = caps.user_ns = true;
		return;
	}
	describe_refusal(viauser, sizeof(viauser), "user namespaces", step, err);
	/* a user namespace whose mounts fail still gives PID and network namespaces */
	if (step == STEP_MOUNTNS || step == STEP_HIDE || step == STEP_PROC) {
		if (!try_namespaces(CLONE_NEWUSER | ns, ids, &err)) {
			caps.namespaces = caps.user_ns = true;
			snprintf(caps.no_namespaces, sizeof(caps.no_namespaces), "%s", viauser);
			return;
		}
	}
	snprintf(caps.no_namespaces, sizeof(caps.no_namespaces), "%s%s%s", direct, *direct ? "; " : "", viauser);
}

/* Is the running kernel major.minor or later? */
static bool kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;
	if (uname(&u) < 0 || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma > major || (ma == major && mi >= minor);
}

const struct sandbox_caps *sandbox_probe(void)
{
	struct outer_ids ids;
	struct passwd *pw;

	if (probed)
		return &caps;
	probed = 1;
	/* the effective ids: what a user namespace may map */
	caps.uid = geteuid();
	caps.gid = getegid();
	caps.root = caps.uid == 0;
	if (caps.root) {
		caps.drop_uid = true;
		pw = getpwnam("nobody");
		caps.uid = pw ? pw->pw_uid : 65534;
		caps.gid = pw ? pw->pw_gid : 65534;
	}
	ids.caller_uid = geteuid();
	ids.caller_gid = getegid();
	ids.target_uid = caps.uid;
	ids.target_gid = caps.gid;
	probe_namespaces(&ids);
	caps.landlock = landlock_abi();
	caps.ns_ucounts = kernel_at_least(5, 14);
#ifdef HAVE_SECCOMP
	if (getenv("GRADER_NO_SECCOMP"))
		snprintf(caps.no_seccomp, sizeof(caps.no_seccomp), "seccomp switched off (GRADER_NO_SECCOMP)");
	else if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) < 0)
		snprintf(caps.no_seccomp, sizeof(caps.no_seccomp), "seccomp not available (%s)", strerror(errno));
	else
		caps.seccomp = true;
#else
	snprintf(caps.no_seccomp, sizeof(caps.no_seccomp), "built without seccomp");
#endif
	return &caps;
}

/* The cgroups in sandbox_describe's words: which version, and which limits the units lack. */
static const char *cgroups_in_a_word(const struct cgroup_caps *cg)
{
	if (cg->version == 1)
		return "cgroups v1";
	if (cg->version != 2)
		return "no cgroups";
	if (cg->pids && cg->memory)
		return cg->delegated ? "cgroups v2 (delegated)" : "cgroups v2";
	if (cg->memory)
		return cg->delegated ? "cgroups v2 (delegated, no pids controller)" : "cgroups v2 (no pids controller)";
	if (cg->pids)
		return cg->delegated ? "cgroups v2 (delegated, no memory controller)"
				     : "cgroups v2 (no memory controller)";
	return cg->delegated ? "cgroups v2 (delegated, CPU and processes only)" : "cgroups v2 (CPU and processes only)";
}

const char *sandbox_describe(void)
{
	static char line[320];
	const struct sandbox_caps *c = sandbox_probe();
	const struct cgroup_caps *cg = cgroup_probe();
	snprintf(line, sizeof(line), "seccomp %s; namespaces %s; %s; %s; compiler view %s; rlimits and process groups",
		 c->seccomp ? "on" : "off",
		 c->namespaces ? (c->user_ns ? (c->mount_ns ? "on (user namespace)" : "on (user namespace, no mount namespace)")
					     : "on")
			       : "off",
		 c->drop_uid ? "a uid per slot" : "runs as the invoking user",
		 cgroups_in_a_word(cg),
		 c->landlock ? "landlock" : c->mount_ns ? "hidden directories only" : "off");
	return line;
}

/*
 * What this machine does not let the grader enforce, in one line (empty
 * when everything is): namespaces refused or crippled, no seccomp.
 */
static void not_enforced(struct strbuf *sb)
{
	const struct sandbox_caps *c = sandbox_probe();
	if (!c->namespaces)
		strbuf_addf(sb, "%s: no PID, network or mount namespaces, so %sa test can see your other processes",
			    c->no_namespaces, c->landlock ? "" : "the compiler can read any file you can and ");
	else if (!c->mount_ns && !c->landlock)
		strbuf_addf(sb, "%s: no mount namespace and no Landlock, so the compiler can read any file you can",
			    c->no_namespaces);
	if (!c->seccomp)
		strbuf_addf(sb, "%s%s: tests may open files, start processes and use the network", sb->len ? "; " : "",
			    c->no_seccomp);
}

bool sandbox_counts_processes_apart(void)
{
	const struct sandbox_caps *c = sandbox_probe();
	return c->drop_uid || (c->namespaces && c->user_ns && c->ns_ucounts);
}

/* Grading code one does not trust: what keeps one submission from another, where it is missing. */
static void class_limitations(struct strbuf *out)
{
	const struct sandbox_caps *c = sandbox_probe();
	const struct cgroup_caps *cg = cgroup_probe();
	if (!c->root)
		strbuf_addstr(out, "grading a class as a normal user: every submission runs as your own uid, in "
			      "namespaces of its own; a separate uid per submission needs root");
	/* docs/accounting.md: without a cgroup, CPU is counted from /proc in full; how many processes a runner
	 * holds at once is bounded only where the kernel counts them apart from the user's others */
	bool counted_apart = sandbox_counts_processes_apart();
	if (!cg->version)
		strbuf_addf(out, "%s%s: the processes a submission starts are counted one by one%s",
			    out->len ? "; " : "grading a class: ", cg->why_not,
			    counted_apart ? ""
					  : ", and their memory together is only sampled by the grader (every 10 ms), "
					    "not limited by the kernel");
	else if (!cg->memory && !counted_apart)
		strbuf_addf(out, "%scgroup v2 without the memory controller: the memory of the processes a "
			    "submission starts together is only sampled by the grader (every 10 ms), not limited "
			    "by the kernel",
			    out->len ? "; " : "grading a class: ");
	if (!c->landlock)
		strbuf_addf(out, "%sno Landlock in this kernel: the compiler can read files outside the hidden "
			    "directories", out->len ? "; " : "grading a class: ");
}

void sandbox_limitations(enum sandbox_use use, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	not_enforced(&sb);
	if (sb.len)
		strbuf_addf(out, "running without full isolation (%s): fine for checking your own code, "
			    "not for grading code you do not trust", sb.buf);
	else if (use == SANDBOX_CLASS)
		class_limitations(out);
	strbuf_release(&sb);
}

static void fail_child(int errpipe, int step)
{
	struct spawn_failure f = { errno, step };
	if (write(errpipe, &f, sizeof(f)) < 0) {
		/* nothing more we can say */
	}
	_exit(127);
}

static void set_limit(int resource, unsigned long long value)
{
	struct rlimit rl = { value, value };
	setrlimit(resource, &rl);
}

/* Become the target ids.  In a user namespace setgroups() is denied (and there are none to drop). */
static int drop_privileges(unsigned long flags, const struct outer_ids *ids)
{
	if (!(flags & CLONE_NEWUSER) && setgroups(0, NULL) < 0)
		return -1;
	if (setgid(ids->target_gid) < 0 || setuid(ids->target_uid) < 0)
		return -1;
	return 0;
}

/*
 * Install a classic BPF program as a seccomp filter on this process, its
 * pid placeholder (filter.h) replaced with the process's own pid; no
 * allocation (a copy on the stack).  no_new_privs first, as an unprivileged
 * caller must.  0, or -1 with errno.
 */
#define SPAWN_FILTER_MAX 1024 /* instructions; the outer program has about 150 */
static int install_seccomp(const void *program, size_t len)
{
	struct sock_filter insns[SPAWN_FILTER_MAX];
	size_t count = len / sizeof(struct sock_filter);
	struct sock_fprog prog = { (unsigned short)count, insns };
	uint32_t self = (uint32_t)getpid();

	if (len % sizeof(struct sock_filter) || count > SPAWN_FILTER_MAX) {
		errno = EINVAL;
		return -1;
	}
	memcpy(insns, program, len);
	for (size_t i = 0; i < count; i++)
		if (insns[i].code == (BPF_JMP | BPF_JEQ | BPF_K) && insns[i].k == GR_PID_PLACEHOLDER)
			insns[i].k = self;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

static void child_setup(const struct sandbox_spawn *s, int errpipe, unsigned long flags,
			const struct outer_ids *ids)
{
	static char *const empty_env[] = { NULL };
	int moved[8], step;

	/* keep the error pipe above every fd we are about to place */
	errpipe = fcntl(errpipe, F_DUPFD_CLOEXEC, 200);
	if (errpipe < 0)
		_exit(127);
	/* into its cgroup first: everything it does from here on is accounted */
	for (int i = 0; i < s->njoin; i++)
		if (write(s->join_fds[i], "0", 1) != 1)
			fail_child(errpipe, STEP_CGROUP);
	if (setsid() < 0)
		fail_child(errpipe, STEP_SETSID);
	step = enter_namespaces(flags, ids, s->hide_paths);
	if (step == STEP_PROC)
		step = 0; /* best effort: a container may refuse a new proc mount (the probe said it works) */
	if (step)
		fail_child(errpipe, step);
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
	if (s->limits.nofile)
		set_limit(RLIMIT_NOFILE, s->limits.nofile);
	if (s->limits.cpu_seconds) {
		struct rlimit rl = { s->limits.cpu_seconds, s->limits.cpu_seconds + 1 };
		setrlimit(RLIMIT_CPU, &rl);
	}
	/* the kernel counts queued signals and processes per user, and from 5.14 on per user namespace too,
	 * each level charged: where the count the limit is checked against is this process's alone (a uid
	 * per slot, or a user namespace of its own on 5.14 or later), a low limit bounds its share of the
	 * queue others draw on, so it cannot keep their tests' CPU timers from being made, and bounds how
	 * many processes its tree holds at once; where the count is the user's (a normal user without user
	 * namespaces, an older kernel) a low limit would only make another's fork fail */
	if (caps.drop_uid || ((flags & CLONE_NEWUSER) && caps.ns_ucounts)) {
		if (s->limits.sigpending)
			set_limit(RLIMIT_SIGPENDING, s->limits.sigpending);
		if (s->limits.nproc)
			set_limit(RLIMIT_NPROC, s->limits.nproc);
	}
	/* SIGCHLD as the default: execve keeps an ignored signal ignored, and an ignored SIGCHLD has the
	 * kernel reap children unseen (the runner's filters then keep the default, filter.c) */
	signal(SIGCHLD, SIG_DFL);
	if (s->reaper && prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
		fail_child(errpipe, STEP_REAPER);
	if (s->workdir && chdir(s->workdir) < 0)
		fail_child(errpipe, STEP_CHDIR);
	if (caps.drop_uid && drop_privileges(flags, ids) < 0)
		fail_child(errpipe, STEP_DROP);
	/* after the uid change, which clears it: die with the grader */
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (s->view && caps.landlock && landlock_restrict(s->view, caps.landlock) < 0)
		fail_child(errpipe, STEP_VIEW);
	/* last: the program allows execve, and whatever runs after it - the loader, IFUNC resolvers,
	 * initialisers - runs under it */
	if (s->seccomp_len && install_seccomp(s->seccomp_program, s->seccomp_len) < 0)
		fail_child(errpipe, STEP_FILTER);
	execve(s->path, s->argv, s->envp ? s->envp : empty_env);
	fail_child(errpipe, STEP_EXEC);
}

void sandbox_ids(unsigned block, unsigned slot, uid_t *uid, gid_t *gid)
{
	const struct sandbox_caps *c = sandbox_probe();
	if (!c->drop_uid) {
		*uid = c->uid;
		*gid = c->gid;
		return;
	}
	*uid = *gid = SANDBOX_FIRST_UID + block * SANDBOX_BLOCK + slot % SANDBOX_BLOCK;
}

/* more than any machine runs graders at once; the uids stay below 100000 + 1024 x 64 */
#define SANDBOX_MAX_BLOCKS 1024u

int sandbox_lease_block(unsigned preferred, unsigned *block)
{
	struct stat st;

	*block = preferred;
	if (!sandbox_probe()->drop_uid)
		return -1;
	if (mkdir(SANDBOX_LEASE_DIR, 0700) < 0 && errno != EEXIST)
		return -1;
	/* locks another user could hold or remove would lease nothing */
	if (lstat(SANDBOX_LEASE_DIR, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != 0 || (st.st_mode & 077))
		return -1;
	for (unsigned i = 0; i < SANDBOX_MAX_BLOCKS; i++) {
		unsigned b = (preferred + i) % SANDBOX_MAX_BLOCKS;
		char path[sizeof(SANDBOX_LEASE_DIR) + 16];
		int fd;

		snprintf(path, sizeof(path), "%s/%u", SANDBOX_LEASE_DIR, b);
		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (fd < 0)
			return -1;
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			*block = b;
			return fd;
		}
		close(fd);
	}
	return -1;
}

pid_t sandbox_spawn(const struct sandbox_spawn *s, struct strbuf *err)
{
	const struct sandbox_caps *c = sandbox_probe();
	struct outer_ids ids = { geteuid(), c->drop_uid && s->uid ? s->uid : c->uid, getegid(),
				 c->drop_uid && s->gid ? s->gid : c->gid };
	unsigned long flags = 0;
	int errpipe[2];
	struct spawn_failure f;
	ssize_t n;
	long pid;

	if (s->use_namespaces && c->namespaces)
		flags |= NS_FLAGS;
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
		child_setup(s, errpipe[1], flags, &ids);
	close(errpipe[1]);
	if (pid < 0) {
		int clone_errno = errno;
		strbuf_addf(err, "cannot start '%s': %s", s->path, strerror(clone_errno));
		close(errpipe[0]);
		errno = clone_errno;
		return -1;
	}
	do
		n = read(errpipe[0], &f, sizeof(f));
	while (n < 0 && errno == EINTR);
	close(errpipe[0]);
	if (s->exec_errno)
		*s->exec_errno = n == (ssize_t)sizeof(f) && f.step == STEP_EXEC ? f.err : 0;
	if (n == (ssize_t)sizeof(f)) {
		int status;
		while (waitpid((pid_t)pid, &status, 0) < 0 && errno == EINTR)
			;
		strbuf_addf(err, "cannot start '%s' (%s): %s", s->path,
			    step_names[f.step >= 0 && f.step < STEP_COUNT ? f.step : STEP_EXEC],
			    strerror(f.err));
		errno = f.err;
		return -1;
	}
	return (pid_t)pid;
}

bool sandbox_seccomp_refuses(const struct strbuf *programs)
{
#ifdef HAVE_SECCOMP
	struct sock_fprog prog;
	uint32_t len = 0;
	int status;
	pid_t pid;

	if (programs->len >= sizeof(len))
		memcpy(&len, programs->buf, sizeof(len));
	if (!len) /* no filter was handed over (the fallback): the runtime tried none, so none failed */
		return false;
	if (len % sizeof(struct sock_filter) || len > programs->len - sizeof(len) ||
	    len / sizeof(struct sock_filter) > USHRT_MAX)
		return true;
	prog.len = (unsigned short)(len / sizeof(struct sock_filter));
	prog.filter = (struct sock_filter *)(void *)(programs->buf + sizeof(len));
	pid = fork();
	if (pid < 0) /* the grader's own trouble: the claim stands, and with it the grader's error */
		return true;
	if (pid == 0) {
		/* the program read where it lies: the child's copy is its own; the pid placeholder
		 * (GR_PID_PLACEHOLDER) the runtime fills in changes no instruction's validity */
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
			_exit(1);
		_exit(0); /* the filter may kill exit_group: a signal death says it was installed too */
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return true;
	return WIFEXITED(status) && WEXITSTATUS(status) == 1;
#else
	(void)programs;
	return false;
#endif
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
