/*
 * compile.h - build commands (compilers, syntax checks) run in the sandbox.
 *
 * A job runs one command in a directory of the scratch space with the
 * compiler's limits (CPU time of its whole process tree, address space,
 * file size; a cgroup of its own with a process and a memory limit where
 * the machine has cgroups), a view of the file system of the toolchain,
 * the `readable` directories and its own directory only (Landlock, see
 * landlock.h; where the kernel lacks it, the given directories hidden in a
 * mount namespace), its own PID namespace where the machine allows, a uid
 * of its own when the grader is root, and an environment of PATH, LC_ALL=C
 * and TMPDIR=.; its stdout and stderr are collected together (at most
 * COMPILE_OUTPUT_CAP bytes).  compile_wait() watches a
 * set of jobs at once and kills one at its wall-clock limit, or all on
 * Ctrl-C when asked to.
 *
 * Ownership: a job owns its output buffer; compile_job_release() frees it.
 */
#ifndef GRADER_COMPILE_H
#define GRADER_COMPILE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/util.h"

#define COMPILE_OUTPUT_CAP (64u << 10)

struct compile_limits {
	unsigned cpu_s, wall_ms;       /* CPU time of the whole process tree, wall clock */
	const char *const *hide_paths; /* NULL-terminated, borrowed */
	const char *const *readable;   /* NULL-terminated: what it may read besides the toolchain and its own directory */
	uid_t uid;                     /* who the command runs as when the grader is root (sandbox_ids) */
	gid_t gid;
};

struct compile_job {
	pid_t pid;
	int out_fd;
	struct strbuf output;   /* stdout and stderr, at most COMPILE_OUTPUT_CAP */
	struct cgroup *cg;      /* the command's process tree, where cgroups work (cgroup.h), or NULL */
	unsigned cpu_limit_ms;  /* of the tree */
	uint64_t started, deadline;
	int status;             /* wait status once finished */
	bool timed_out, interrupted, running;
};

/* Start argv[0] (a name found in /usr/local/bin, /usr/bin, /bin, or a path) in dir.  0, or -1 with err. */
int compile_start(struct compile_job *job, const struct compile_limits *lim, const char *dir, char *const *argv,
		  struct strbuf *err);

/* Wait for the running jobs; interruptible: Ctrl-C kills them. */
void compile_wait(struct compile_job *jobs, int n, bool interruptible);

/*
 * Run one command to completion (not interruptible: a short set-up compile
 * lets the engine start cleanly and stop where it cleans up).  0, or -1
 * with what it printed in err.
 */
int compile_run(const struct compile_limits *lim, const char *dir, char *const *argv, struct strbuf *err);

/* Did the job end with exit status 0 (not killed, not timed out)? */
bool compile_succeeded(const struct compile_job *job);

void compile_job_release(struct compile_job *job);

/*
 * The program a compile command's argv[0] runs: itself when it names a
 * path, else the first match in the sandbox's fixed PATH (/usr/local/bin,
 * /usr/bin, /bin; the sandbox execs without a PATH search), else cc as
 * given.  The caller frees it.
 */
char *compile_command_path(const char *cc);

/* Let the build commands (lim's uid, when we are root) write in dir.  0 or -1. */
int compile_give_dir(const struct compile_limits *lim, const char *dir);

#endif
