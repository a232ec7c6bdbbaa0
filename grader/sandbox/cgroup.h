/*
 * cgroup.h - an accounting unit over a whole process tree (what isolate
 * calls a box's control group): a limit on the number of processes, a
 * memory limit, the CPU time of every process that ever ran in it, and a
 * way to kill them all, whatever they did to their parentage.
 *
 * Where: cgroup v2 when the machine's unified hierarchy has the pids and
 * memory controllers, else the v1 hierarchies of pids, memory and cpuacct
 * (freezer when there is one), else - a normal user's usual case - a
 * cgroup v2 subtree delegated to the user (the grader's own cgroup is the
 * user's to write: systemd's Delegate=yes, `systemd-run --user --scope -p
 * Delegate=yes`), with whatever controllers it hands down: every v2 unit
 * counts the CPU of every process that ever ran in it, lists and kills
 * them; pids and memory limit only where those controllers are enabled
 * (cgroup_caps).  Each grader process keeps its units below
 * a directory of its own, combgrader-<pid>-<random>, below its own cgroup
 * in each hierarchy.  A live grader touches its directory whenever it
 * makes a unit and at least once a minute while it runs tests; what a
 * killed grader left behind the next one removes: empty directories
 * untouched for five minutes (a live grader whose empty directory went
 * makes it again), anything untouched for an hour, its processes killed
 * first.  Cgroups need root or a delegated subtree:
 * without them cgroup_probe() says why, and every call below is a no-op
 * the callers can do without (see docs/isolation.md).
 *
 * Joining: the process to account writes "0" into each fd of
 * cgroup_join_fds() before it execs (sandbox_spawn does, in the child), so
 * nothing it runs escapes the unit.
 *
 * Ownership: a struct cgroup is the caller's, freed (its processes killed,
 * its directories removed) by cgroup_free().
 */
#ifndef GRADER_CGROUP_H
#define GRADER_CGROUP_H

#include <stdbool.h>
#include <sys/types.h>

#include "base/util.h"

#define CGROUP_MAX_FDS 4

struct cgroup_caps {
	int version;         /* 0: none, 1 or 2 */
	bool pids;           /* units limit their number of processes (cgroup_new's pids_max, cgroup_tasks) */
	bool memory;         /* units limit their memory (memory_max, cgroup_oom_kills) */
	bool delegated;      /* v2 below a cgroup delegated to this user, not root's */
	char why_not[512];   /* version 0: why */
};

/* Probe once (cheap afterwards). */
const struct cgroup_caps *cgroup_probe(void);

struct cgroup;

/*
 * A new unit called name (letters, digits, '-') with these limits:
 * pids_max processes at once, memory_max bytes (0: no memory limit), each
 * only where cgroup_caps says the units can limit it.
 * NULL with a message in err when it cannot be made (or cgroups are off).
 */
struct cgroup *cgroup_new(const char *name, unsigned pids_max, unsigned long long memory_max, struct strbuf *err);

/* Open, close-on-exec, the files a process writes "0" into to join; returns how many (fds[] filled), or -1. */
int cgroup_join_fds(const struct cgroup *cg, int fds[CGROUP_MAX_FDS]);

/* CPU time of every process that ran in the unit so far, in microseconds; -1 when unknown. */
long long cgroup_cpu_us(const struct cgroup *cg);

/*
 * How many processes are in the unit now, the first max of their pids in
 * pids[]; -1 when unknown.  On cgroup v1 each call opens the list afresh
 * (about 10 us): cgroup_tasks first where a count will do.
 */
int cgroup_procs(const struct cgroup *cg, pid_t *pids, int max);

/*
 * How many tasks the unit holds now by the pids controller's count - every
 * thread, a process that has ended until it is reaped, a fork in progress,
 * those of any cgroup below it - through a kept file (about 1 us); -1 when
 * unknown.
 */
long long cgroup_tasks(const struct cgroup *cg);

/* How many times the kernel killed a process of the unit at its memory limit; -1 when unknown. */
long long cgroup_oom_kills(const struct cgroup *cg);

/* Kill every process in the unit; returns once it is empty (or after a second).  0, or -1 when some remain. */
int cgroup_kill(struct cgroup *cg);

/* Kill what is left, remove the unit's directories, free it.  NULL is fine. */
void cgroup_free(struct cgroup *cg);

#endif
