/*
 * sandbox.h - starting untrusted processes (the compiler and the runners)
 * with as much isolation as this machine allows.
 *
 * What is enforced where (see docs/isolation.md):
 *   - sandbox_spawn(): own session and process group; when possible new PID,
 *     network, IPC and UTS namespaces (as root directly, otherwise through a
 *     user namespace), so killing the returned pid kills everything it
 *     started; uid/gid nobody when the grader runs as root; rlimits from
 *     struct sandbox_limits; an empty environment; a working directory of its
 *     own; every inherited fd closed except those in spawn->fds.
 *   - for the compiler (hide_paths): a private mount namespace with an empty
 *     read-only tmpfs over each hidden directory (problems, reference, cache,
 *     reports), so `#include` cannot read them, and a /proc of its own PID
 *     namespace, so it cannot reach into other processes of its uid through
 *     /proc/<pid>/cwd, root or exe.
 *   - for runners, before execve (so before the dynamic loader runs any of
 *     the runner's code: IFUNC resolvers, initialisers): a Landlock view
 *     (landlock.h LANDLOCK_RUNNER: the libraries, the files it is given, and
 *     execve of the runner and the loader only) and the outer seccomp
 *     program (filter.h filter_outer_program: what the loader and the
 *     runtime need, execve included); then the runner installs the stricter
 *     programs from filter_programs() itself, before any student code that
 *     the ELF check knows of (see runtime/runtime.c).
 */
#ifndef GRADER_SANDBOX_H
#define GRADER_SANDBOX_H

#include <stdbool.h>
#include <sys/types.h>

#include "sandbox/landlock.h"
#include "base/util.h"

/*
 * What this machine allows, found by sandbox_probe() trying each step for
 * real (a kernel may allow a user namespace but not the mounts in it).
 * Levels, strongest first:
 *   root:        PID, network, IPC, UTS and mount namespaces directly;
 *                children run as nobody (drop_uid);
 *   normal user: the same namespaces inside a user namespace that maps the
 *                caller's own uid and gid (user_ns); children run as the
 *                caller;
 *   user namespace without mounts (mount_ns false): PID/network only;
 *   fallback:    no namespaces (refused, e.g. Docker's seccomp profile,
 *                Ubuntu's AppArmor restriction, user.max_user_namespaces=0):
 *                process groups, rlimits, timers and seccomp still apply.
 */
struct sandbox_caps {
	bool seccomp;       /* filters can be built and installed */
	bool namespaces;    /* PID/net namespaces can be made */
	bool user_ns;       /* ... only through a user namespace */
	bool mount_ns;      /* the compiler's view can hide directories */
	bool root;          /* the grader runs as root */
	bool drop_uid;      /* running as root: children become nobody */
	int landlock;       /* the Landlock ABI for the compiler's view (landlock.h), 0: none */
	bool ns_ucounts;    /* the kernel counts queued signals per user namespace too (5.14 on) */
	uid_t uid;          /* uid/gid children run as */
	gid_t gid;
	char no_namespaces[200]; /* why namespaces (or mounts) are off, "" when on */
	char no_seccomp[96];     /* why seccomp is off, "" when on */
};

/* Probe once (cheap after the first call).  Never fails: it reports what works. */
const struct sandbox_caps *sandbox_probe(void);
/* One line describing the isolation in force, e.g. for reports. */
const char *sandbox_describe(void);
enum sandbox_use {
	SANDBOX_OWN_CODE,   /* a student checking their own submission, selftest, pack */
	SANDBOX_CLASS,      /* batch: many submissions, some perhaps hostile */
};

/*
 * One line saying what this machine does not let the grader enforce for
 * this use, appended to out (nothing when everything is).  The command
 * layer prints it once.
 */
void sandbox_limitations(enum sandbox_use use, struct strbuf *out);

struct sandbox_limits {
	unsigned long long address_space; /* bytes; 0: unlimited */
	unsigned long long stack;         /* bytes; 0: unchanged */
	unsigned long long file_size;     /* bytes the process may write to files */
	unsigned cpu_seconds;             /* RLIMIT_CPU; 0: none */
	unsigned nproc;                   /* RLIMIT_NPROC where the count it bounds is the process tree's own
					   * (a uid of its own, or a user namespace on Linux 5.14 or later);
					   * 0: unchanged */
	unsigned sigpending;              /* RLIMIT_SIGPENDING where the count it bounds is the process's own
					   * (a user namespace or a uid of its own); 0: unchanged */
	unsigned nofile;                  /* RLIMIT_NOFILE, soft and hard; 0: unchanged */
};

struct sandbox_spawn {
	const char *path;       /* program to exec */
	uid_t uid;              /* who it runs as when the grader is root (sandbox_ids); ignored otherwise */
	gid_t gid;
	int join_fds[4];        /* cgroup files the child writes "0" into before anything else (cgroup.h) */
	int njoin;
	char *const *argv;
	const char *workdir;    /* chdir here before exec */
	int fds[8];             /* fds[i] becomes fd i in the child; -1: /dev/null */
	int nfds;               /* how many of fds[] (at least 3) */
	struct sandbox_limits limits;
	const char *const *hide_paths; /* NULL-terminated; directories to hide (compiler) */
	const struct landlock_plan *view; /* what it may see of the file system, where Landlock works */
	const void *seccomp_program;  /* a classic BPF program (struct sock_filter[]) installed right before execve, */
	size_t seccomp_len;           /* its length in bytes (0: none); needs sandbox_probe()->seccomp */
	bool use_namespaces;    /* PID/net/IPC namespaces if the machine allows */
	bool reaper;            /* it adopts the orphans of its tree (PR_SET_CHILD_SUBREAPER; the init of a PID
				 * namespace does anyway), so no process it starts leaves its tree before it ends */
	char *const *envp;      /* environment; NULL: empty */
	int *exec_errno;        /* out, when not NULL: errno of a failed execve itself (the program's image
				 * could not be loaded), 0 when it started or failed at another step */
};

/*
 * The ids a sandboxed process runs as (isolate's uid per box): as root,
 * SANDBOX_FIRST_UID + block * SANDBOX_BLOCK + slot, so that no two slots of
 * any grader process (batch workers take blocks 1, 2, ...) share a uid or
 * the limits the kernel keeps per uid; otherwise the caller's own.
 */
#define SANDBOX_FIRST_UID 100000u
#define SANDBOX_BLOCK 64u
void sandbox_ids(unsigned block, unsigned slot, uid_t *uid, gid_t *gid);

/*
 * A block of those uids for this process alone, as root: two graders
 * started at once (two terminals, two CI jobs, two batches) would otherwise
 * both take block 0, and one's submission could then fill what the kernel
 * counts per uid (queued signals, processes) under the other's tests.  The
 * lease is an flock() on SANDBOX_LEASE_DIR/<block> (root's alone), tried
 * from `preferred` on; *block is the block leased.  Returns the lock's fd
 * (close-on-exec; closing it ends the lease), or -1 when there is nothing
 * to lease (not root: every process is the caller's own uid) or no lease
 * could be had (no /run, or the directory is not root's alone), *block then
 * `preferred` as before.  The lock files stay.
 */
#define SANDBOX_LEASE_DIR "/run/combgrader-uids"
int sandbox_lease_block(unsigned preferred, unsigned *block);

/*
 * Does RLIMIT_NPROC (sandbox_limits.nproc) count a sandboxed tree's
 * processes apart from every other process of the user - a uid of its own,
 * or a user namespace on Linux 5.14 or later?  Where it does not (a normal
 * user without user namespaces), every runner's processes, the grader's
 * and the user's others share one count: a runner that forks without end
 * can make another's fork fail (EAGAIN), and no rlimit can stop it.
 */
bool sandbox_counts_processes_apart(void);

/*
 * Start the process.  Returns its pid (>0), or -1 with a message in err
 * and errno saying why when it could not start (EAGAIN: no process to
 * spare; exec failure is reported through a close-on-exec pipe, git
 * run-command style).  Kill it with sandbox_kill().
 */
pid_t sandbox_spawn(const struct sandbox_spawn *spawn, struct strbuf *err);

/*
 * Does seccomp here refuse the first program of `programs` (filter.h's
 * format: u32 len, bytes, ...)?  Tried from outside the runner, in a child
 * of the grader that installs it with no_new_privs and exits: the fact a
 * runner's "the filter could not be installed" is checked against.  true
 * when the install failed, the program is malformed or too long, or the
 * child could not be made (the grader's trouble: the claim stands); false
 * when it worked, or when there is no program (the fallback without
 * seccomp: the runtime tried none).
 */
bool sandbox_seccomp_refuses(const struct strbuf *programs);

/*
 * Can the sandboxed processes (nobody, when we are root) reach a path below
 * dir?  Every directory from / to dir must be searchable by them.
 */
bool sandbox_can_enter(const char *dir);

/* SIGKILL the process and everything it started (namespace init or process group). */
void sandbox_kill(pid_t pid);

#endif
