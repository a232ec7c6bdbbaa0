/* runner.c - see runner.h for the theory of operation */
#define _GNU_SOURCE
#include "run/runner.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/cgroup.h"
#include "sandbox/filter.h"
#include "base/interrupt.h"
#include "sandbox/landlock.h"
#include "run/record.h"
#include "sandbox/sandbox.h"

#define MAX_SLOTS ((int)SANDBOX_BLOCK - 1) /* a uid each, and the block's last one is the compiler's (sandbox.h) */
/*
 * Tests that wait do not hold a core: a slot whose test has run WAIT_AFTER_MS
 * and then used under 1/WAIT_CPU_SHARE of a core over WAIT_AFTER_MS (asleep,
 * blocked, stopped) stops counting against -j, and another slot may start a
 * test - at most WAIT_SLOTS_FACTOR x -j runners alive.  It counts again as
 * soon as it uses CPU again.
 */
#define WAIT_AFTER_MS 100
#define WAIT_CPU_SHARE 20
#define WAIT_SLOTS_FACTOR 2
/*
 * The wall-clock backstop is charged only with time the test could have run:
 * the time its process spent runnable but waiting for a CPU (the kernel's
 * run delay, /proc/<pid>/schedstat) is given back, at its deadline, in steps
 * of at least CREDIT_MIN_US - up to RUN_STARVED_WALL_FACTOR x its wall-clock
 * limit in all.  A test still starved at that bound is not timed out by its
 * own doing: its facts say so (run_facts.starved).
 */
#define CREDIT_MIN_US 2000u
/*
 * A process's run delay grows only when it next gets a CPU (the kernel adds
 * the wait in progress then): one that has waited since before the first
 * read shows none of that wait.  So a runnable process is read again after
 * WAIT_PROBE_US, and the time between two reads in which it stayed runnable
 * and ran not at all (its on-CPU time unchanged: a process cannot go to
 * sleep without running) is counted as waiting.  The gap is longer than a
 * scheduler tick (10 ms at HZ 100), so a process that runs shows it.
 */
#define WAIT_PROBE_US 20000u
/* a runner is its zygote and one case child; a few more cannot hurt, a fork flood can */
#define RUNNER_MAX_PROCS 16
/*
 * ...and where the kernel counts the runner's processes apart from everyone
 * else's (a uid per slot, a user namespace of its own: sandbox.h), exactly
 * that: the zygote discards its spare before it forks a child for a request
 * (runtime.c), so it never has two.  A helper forked beside them fails
 * (EAGAIN), so no memory is held in processes the tests do not see.
 */
#define RUNNER_NPROC 2
/* processes of a runner's tree read without cgroups (slot_cpu_ms): more than the zygote and its one child is a
 * stray anyway, seen at the next request; the walk only has to count what they used until then */
#define TREE_WALK_MAX 64
/*
 * How often the grader looks at a runner's tree where the kernel does not count or limit it
 * (slot_watch_tree): often enough that helpers holding memory for a test's length, or a flood of forks,
 * are seen, and a read of the zygote's children list (about 2 us) each time costs nothing next to it.
 */
#define TREE_WATCH_MS 10
/* a runner that cannot be started for want of a process (EAGAIN) is tried again this often, this far apart */
#define START_RETRIES 10
#define START_RETRY_MS 20
/* how long past its deadline a slot's waiting report is still read rather than timed out (slot_report_waiting) */
#define REPORT_GRACE_MS 500
/*
 * The zygote's address space may exceed the largest memory limit of its tests
 * by this much (MiB) and no more (RLIMIT_AS, set before execve: nothing in
 * the runner can raise it, nor any process forked from it): room for the
 * runtime's own buffers - a request's payload and its arrays, copied once
 * each - which a case child does not inherit (runtime.c).  So whatever code
 * of the submission does in the zygote itself (a constructor that answers
 * the requests, or builds a table at start-up) gets no more memory than a
 * test; and at its hello it may hold no more than a test may (take_hello).
 */
#define ZYGOTE_ROOM_MB 8u
/* signals a runner may have queued at once: a test's CPU timer, SIGCHLD, what a test raises itself */
#define RUNNER_SIGPENDING 64
/*
 * File descriptors a runner may hold at once (soft and hard limit, set before execve: nothing in it can
 * raise them): its protocol's, a test's output pipe, the Python host's imports one at a time.  Pipe
 * buffers are memory that no RLIMIT_AS, VmSize or Pss counts (red team 41b, ctor-pipe-hoard: a constructor
 * held 120 MiB in the buffers of pipes it raised its limit of 20000 fds for); 32 fds hold at most 15
 * pipes, 1 MiB each at the most an unprivileged process may make one (fs.pipe-max-size).
 */
#define RUNNER_NOFILE 32
/* the files the zygote opens to start a test: its output pipe and its ready pipe, two ends each */
#define FDS_FOR_A_TEST 4

enum slot_state { SLOT_EMPTY, SLOT_STARTING, SLOT_READY, SLOT_RUNNING };

/* The zygote's /proc files read around every test, kept open (read_kept): a path walk in /proc and an
 * open and close per read cost more than the read itself (about 10 against 4 us).  Its stat is read only
 * without cgroups, its children list with and without */
enum kept_proc { KEPT_STAT, KEPT_CHILDREN, KEPT_COUNT };

struct slot {
	enum slot_state state;
	pid_t pid;
	int ctl_fd, status_fd;
	const char *runner;
	const char *const *runner_argv; /* with runner: which program this zygote is */
	const struct strbuf *filters; /* what the runner was given */
	unsigned memory_mb;
	uint64_t present;
	int task;              /* index of the task in progress, or -1 */
	uint64_t started_us, deadline_us;
	uint64_t bound_us;     /* the deadline may be put off for run delay until then (RUN_STARVED_WALL_FACTOR) */
	uint64_t due_us;       /* the limit put off by the run delay given back so far (deadline_us: when to look) */
	uint64_t credited_us;  /* run delay given back so far (0 and bound_us 0: none yet) */
	pid_t delay_pid;       /* the process whose run delay was read last (the case child, or the zygote) */
	uint64_t delay_seen_us;/*   and its wait (slot_waited_us) */
	uint64_t oncpu_seen_ns;/*   its on-CPU time then */
	uint64_t read_us;      /*   when */
	uint64_t pending_us;   /*   wait in progress, not yet in its run delay (WAIT_PROBE_US) */
	bool runnable_seen;    /*   it was runnable then */
	bool stuck;            /*   runnable, and not run at all since it was first read */
	unsigned stack_kb[2];  /* the case child's stack (VmStk), at the last two samples (sample_stack) */
	struct strbuf out;     /* request bytes not yet written */
	size_t out_pos;
	struct strbuf in;      /* report bytes received */
	char *startup;         /* what the runner printed before its hello, for its first task */
	unsigned long long startup_total;
	bool sandbox_failed;   /* the preinit hook said it could not install the filter, and the grader agrees */
	bool sandbox_refuted;  /* it said so, and the grader's own try installed it */
	bool outer_filtered;   /* sandbox_spawn installed the outer program (one filter more than inherited) */
	long long cpu_base_ms;  /* the runner's CPU (slot_cpu_ms) at its hello or last report */
	long long oom_base;     /* the cgroup's OOM kills then */
	unsigned startup_ms;   /* the start-up CPU limit of the runner being started */
	struct cgroup *cg;     /* the runner's process tree (cgroup.h), or NULL */
	int proc_fd[KEPT_COUNT]; /* the zygote's kept /proc files, -1 until first read */
	bool spare_possible;   /* its last report leaves the zygote a spare (slot_strays_at_request) */
	pid_t spare_seen;      /* the process besides the zygote seen at the last request, or 0 */
	bool waiting;          /* its test uses no CPU (WAIT_AFTER_MS): it does not count against -j */
	uint64_t sample_us;    /* when its CPU was last sampled for that (0: not yet) */
	long long sample_cpu_us;
	uint64_t watch_due_us; /* when its tree is to be looked at next (slot_watch_tree) */
	uid_t uid;             /* who its processes are (sandbox_ids) */
	gid_t gid;
	uint64_t nonce;        /* its runner's secret (protocol.h GR_NONCE_LEN): in every record it sends */
};

/*
 * A runner that fails before its hello - a constructor that loops, crashes
 * or makes a forbidden call - fails the same way every time it starts, so
 * the rest of its tests get the same facts at once instead of each waiting
 * for the same failure (STARTUP_MS per test for a looping one).
 */
struct start_failure {
	const char *runner;
	const char *const *runner_argv;
	struct run_facts facts;  /* output and error not kept */
	bool pending;            /* a first slow start: retried once (the machine may be busy) */
};

struct pool {
	int nslots;
	int cores;               /* -j: slots whose test uses CPU, at most */
	struct slot slots[MAX_SLOTS];
	char *workdir;
	const char *const *hide_paths; /* borrowed: directories the runners must not see */
	struct strbuf outer;     /* the outer seccomp program, "u32 len, bytes" (filter_outer_program) */
	struct start_failure *failed_starts;
	size_t nfailed_starts, failed_starts_alloc;
	/* during pool_run */
	struct run_task *tasks;
	const struct pool_client *client;
	unsigned id_block;       /* the sandbox uids of the slots */
	bool exhausted;          /* client->next() returned -1, and no task finished since */
	int in_flight;           /* handed out, not finished */
};

void run_task_release(struct run_task *t)
{
	strbuf_release(&t->args);
	free(t->facts.output);
	free(t->facts.error);
	free(t->facts.detail);
	free(t->facts.startup_output);
	t->facts.output = t->facts.error = t->facts.detail = t->facts.startup_output = NULL;
}

struct pool *pool_new(int slots, const char *workdir, const char *const *hide_paths, unsigned id_block)
{
	struct pool *pool = xcalloc(1, sizeof(*pool));
	if (slots < 1)
		slots = 1;
	if (slots > MAX_SLOTS)
		slots = MAX_SLOTS;
	pool->cores = slots;
	pool->nslots = slots * WAIT_SLOTS_FACTOR > MAX_SLOTS ? MAX_SLOTS : slots * WAIT_SLOTS_FACTOR;
	slots = pool->nslots;
	pool->workdir = xstrdup(workdir);
	pool->hide_paths = hide_paths;
	pool->id_block = id_block;
	pool->outer = (struct strbuf)STRBUF_INIT;
	for (int i = 0; i < slots; i++) {
		sandbox_ids(id_block, (unsigned)i, &pool->slots[i].uid, &pool->slots[i].gid);
		pool->slots[i].ctl_fd = pool->slots[i].status_fd = -1;
		for (int k = 0; k < KEPT_COUNT; k++)
			pool->slots[i].proc_fd[k] = -1;
		pool->slots[i].task = -1;
		pool->slots[i].out = (struct strbuf)STRBUF_INIT;
		pool->slots[i].in = (struct strbuf)STRBUF_INIT;
	}
	return pool;
}

/* No run delay given back yet, no stack seen: for a runner being started, or a test being sent. */
static void slot_reset_clock(struct slot *s)
{
	s->bound_us = 0;
	s->credited_us = 0;
	s->delay_pid = 0;
	s->delay_seen_us = 0;
	s->oncpu_seen_ns = 0;
	s->read_us = 0;
	s->pending_us = 0;
	s->runnable_seen = false;
	s->stuck = false;
	s->stack_kb[0] = s->stack_kb[1] = 0;
}

static void slot_stop(struct slot *s)
{
	int status;
	if (s->pid > 0) {
		sandbox_kill(s->pid);
		while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	if (s->ctl_fd >= 0)
		close(s->ctl_fd);
	if (s->status_fd >= 0)
		close(s->status_fd);
	cgroup_free(s->cg); /* whatever the runner left behind dies with it */
	s->cg = NULL;
	for (int k = 0; k < KEPT_COUNT; k++) {
		if (s->proc_fd[k] >= 0)
			close(s->proc_fd[k]);
		s->proc_fd[k] = -1;
	}
	s->pid = -1;
	s->ctl_fd = s->status_fd = -1;
	s->state = SLOT_EMPTY;
	slot_reset_clock(s);
	s->runner = NULL;
	s->runner_argv = NULL;
	strbuf_reset(&s->out);
	strbuf_reset(&s->in);
	s->out_pos = 0;
	free(s->startup);
	s->startup = NULL;
	s->startup_total = 0;
}

/* Kill the zygote and return how it ended (for messages), reaping it. */
static int slot_kill_status(struct slot *s)
{
	int status = 0;
	if (s->pid > 0) {
		sandbox_kill(s->pid);
		while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
			;
		s->pid = -1;
	}
	slot_stop(s);
	return status;
}

/*
 * The slot's cgroup, fresh for each runner (its memory limit follows the
 * runner's): process limit, memory over the tree - the zygote and a case
 * child, each within its own limit, so this only stops what should not be
 * there - and the files the child joins by.  Without cgroups: nothing,
 * 0.  -1 when cgroups work but this one could not be made.
 */
static int runner_cgroup(struct slot *s, int index, unsigned long long zygote_bytes, struct sandbox_spawn *sp)
{
	struct strbuf err = STRBUF_INIT;
	char name[32];
	int ret = 0;

	sp->njoin = 0;
	if (!cgroup_probe()->version)
		return 0;
	snprintf(name, sizeof(name), "slot-%d", index);
	s->cg = cgroup_new(name, RUNNER_MAX_PROCS, 2 * zygote_bytes + (64ull << 20), &err);
	if (!s->cg || (sp->njoin = cgroup_join_fds(s->cg, sp->join_fds)) < 0) {
		sp->njoin = 0;
		cgroup_free(s->cg);
		s->cg = NULL;
		ret = -1;
	}
	strbuf_release(&err);
	return ret;
}

/*
 * What the runner may see and run from its execve on (landlock.h
 * LANDLOCK_RUNNER): the libraries, its own build's directory read-only,
 * execve of itself (and the loader) only; the hidden directories cut out.
 */
static int runner_view(const struct pool *pool, const struct run_task *t, struct landlock_plan *plan,
		       struct strbuf *err)
{
	const char *readable[] = { t->runner_dir, NULL };
	const char *executable[] = { t->runner, NULL };
	struct landlock_view view = { LANDLOCK_RUNNER, readable, executable, NULL, pool->hide_paths };
	return landlock_plan_build(plan, &view, err);
}

/* The outer seccomp program's bytes (without its length), built once per pool; NULL when there is none. */
static const unsigned char *outer_program(struct pool *pool, size_t *len, struct strbuf *err)
{
	uint32_t n = 0;
	if (!pool->outer.len && filter_outer_program(&pool->outer, err) < 0) {
		strbuf_reset(&pool->outer);
		return NULL;
	}
	memcpy(&n, pool->outer.buf, sizeof(n));
	*len = n;
	return n ? (const unsigned char *)pool->outer.buf + sizeof(n) : NULL;
}

/*
 * Start a runner for task t in the empty slot s.  0; -1 with a message in
 * err (exec_errno set when execve failed); -2 when no process could be made
 * (EAGAIN: the user's process limit, shared - see start_runner).
 */
static int slot_start(struct pool *pool, struct slot *s, const struct run_task *t, int *exec_errno,
		      struct strbuf *err)
{
	struct landlock_plan plan = LANDLOCK_PLAN_INIT;
	int ctl[2] = { -1, -1 }, st[2] = { -1, -1 }, flt[2] = { -1, -1 };
	char *default_argv[] = { "runner", NULL };
	struct sandbox_spawn sp;
	unsigned long long mem = (unsigned long long)t->zygote_memory_mb << 20;
	int ret = -1;

	if (pipe2(ctl, O_CLOEXEC) < 0 || pipe2(st, O_CLOEXEC) < 0 || pipe2(flt, O_CLOEXEC) < 0) {
		strbuf_addf(err, "cannot create pipes: %s", strerror(errno));
		goto cleanup;
	}
	memset(&sp, 0, sizeof(sp));
	sp.seccomp_program = outer_program(pool, &sp.seccomp_len, err);
	if (!pool->outer.len || (sandbox_probe()->landlock && runner_view(pool, t, &plan, err) < 0))
		goto cleanup;
	/* a fresh secret for each runner: what one runner might have learnt is worth nothing to the next */
	if (getrandom(&s->nonce, sizeof(s->nonce), 0) != (ssize_t)sizeof(s->nonce)) {
		strbuf_addf(err, "cannot draw the runner's secret: %s", strerror(errno));
		goto cleanup;
	}
	/* the secret and the filter programs fit in the pipe buffer: write them before the start */
	if (write_all(flt[1], &s->nonce, sizeof(s->nonce)) < 0 || write_all(flt[1], t->filters->buf, t->filters->len) < 0) {
		strbuf_addf(err, "cannot pass the seccomp filters: %s", strerror(errno));
		goto cleanup;
	}
	close(flt[1]);
	flt[1] = -1;
	sp.path = t->runner;
	sp.argv = t->runner_argv ? (char *const *)t->runner_argv : default_argv;
	sp.workdir = pool->workdir;
	sp.fds[0] = sp.fds[1] = sp.fds[2] = -1;
	sp.fds[GR_FD_CONTROL] = ctl[0];
	sp.fds[GR_FD_STATUS] = st[1];
	sp.fds[GR_FD_FILTER] = flt[0];
	sp.nfds = 6;
	sp.limits.address_space = mem + ((unsigned long long)ZYGOTE_ROOM_MB << 20);
	sp.limits.stack = mem;
	sp.limits.file_size = 0;
	sp.limits.nproc = RUNNER_NPROC;
	sp.reaper = true; /* no process of the runner's leaves its tree, with or without a PID namespace */
	sp.limits.sigpending = RUNNER_SIGPENDING;
	sp.limits.nofile = RUNNER_NOFILE;
	sp.use_namespaces = true;
	/* seccomp already forbids open; this covers the fallback without it */
	sp.hide_paths = pool->hide_paths;
	sp.view = sandbox_probe()->landlock ? &plan : NULL;
	sp.uid = s->uid;
	sp.gid = s->gid;
	sp.exec_errno = exec_errno;
	if (runner_cgroup(s, (int)(s - pool->slots), mem, &sp) < 0) {
		strbuf_addstr(err, "cannot set up the runner's cgroup");
		goto cleanup;
	}
	s->pid = sandbox_spawn(&sp, err);
	for (int i = 0; i < sp.njoin; i++)
		close(sp.join_fds[i]);
	if (s->pid < 0) {
		if (errno == EAGAIN)
			ret = -2;
		cgroup_free(s->cg);
		s->cg = NULL;
		goto cleanup;
	}
	s->ctl_fd = ctl[1];
	s->status_fd = st[0];
	ctl[1] = st[0] = -1;
	fcntl(s->ctl_fd, F_SETFL, O_NONBLOCK);
	fcntl(s->status_fd, F_SETFL, O_NONBLOCK);
	s->state = SLOT_STARTING;
	s->sandbox_failed = s->sandbox_refuted = false;
	s->outer_filtered = sp.seccomp_len != 0;
	s->cpu_base_ms = 0;
	s->oom_base = cgroup_oom_kills(s->cg);
	s->startup_ms = t->startup_ms;
	s->runner = t->runner;
	s->runner_argv = t->runner_argv;
	s->filters = t->filters;
	s->memory_mb = t->zygote_memory_mb;
	s->started_us = now_us();
	s->watch_due_us = s->started_us + TREE_WATCH_MS * 1000ull;
	/* the wall-clock backstop of the start-up, as for a test: twice its CPU limit and a second */
	s->deadline_us = s->started_us + (2ull * t->startup_ms + 1000u) * 1000ull;
	ret = 0;
cleanup:
	for (int i = 0; i < 2; i++) {
		if (ctl[i] >= 0)
			close(ctl[i]);
		if (st[i] >= 0)
			close(st[i]);
		if (flt[i] >= 0)
			close(flt[i]);
	}
	landlock_plan_release(&plan);
	return ret;
}


/* Is (runner, argv) the program task t runs?  (The Python host runs every Python problem, by its argv.) */
static bool same_runner(const char *runner, const char *const *argv, const struct run_task *t)
{
	return runner == t->runner && argv == t->runner_argv;
}

/* The task's facts are in: tell the client. */
static void finish_task(struct pool *pool, int task, enum run_outcome outcome)
{
	struct run_task *t = &pool->tasks[task];
	t->facts.outcome = outcome;
	t->done = true;
	pool->in_flight--;
	pool->client->finished(pool->client->ctx, task);
	pool->exhausted = false; /* finished() may have made more work (a test to run again) */
}

/* The facts of a failed start, with their outcome; slow: a start-up timeout, which counts only the second time. */
static void remember_start_failure(struct pool *pool, const struct run_task *t, enum run_outcome outcome, bool slow)
{
	struct start_failure *f;
	for (size_t i = 0; i < pool->nfailed_starts; i++)
		if (same_runner(pool->failed_starts[i].runner, pool->failed_starts[i].runner_argv, t)) {
			pool->failed_starts[i].pending = false;
			return;
		}
	ALLOC_GROW(pool->failed_starts, pool->nfailed_starts + 1, pool->failed_starts_alloc);
	f = &pool->failed_starts[pool->nfailed_starts++];
	f->runner = t->runner;
	f->runner_argv = t->runner_argv;
	f->facts = t->facts;
	f->facts.outcome = outcome;
	f->facts.output = f->facts.error = f->facts.startup_output = NULL;
	f->facts.detail = t->facts.detail ? xstrdup(t->facts.detail) : NULL;
	f->pending = slow;
}

static const struct start_failure *start_failure_of(const struct pool *pool, const struct run_task *t)
{
	for (size_t i = 0; i < pool->nfailed_starts; i++)
		if (same_runner(pool->failed_starts[i].runner, pool->failed_starts[i].runner_argv, t) &&
		    !pool->failed_starts[i].pending)
			return &pool->failed_starts[i];
	return NULL;
}

/* Read /proc/<pid>/<name> into buf (NUL-terminated).  0, or -1 when it cannot. */
static int read_proc(long pid, const char *name, char *buf, size_t size)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/%s", pid, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

/*
 * From the text of /proc/<pid>/stat: the state and CPU time (user + system,
 * with or without reaped children) in ms.  0, or -1 when unknown.
 */
static int parse_stat(const char *buf, char *state, bool with_children, unsigned long long *cpu_ms)
{
	const char *p;
	unsigned long long utime, stime, cutime, cstime;
	long hz = sysconf(_SC_CLK_TCK);

	if (hz <= 0)
		return -1;
	/* "pid (comm) state ..." - comm may hold spaces and parentheses: skip to the last ')';
	 * then state(3) ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime(14)... */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu",
			 state, &utime, &stime, &cutime, &cstime) != 5)
		return -1;
	*cpu_ms = (utime + stime + (with_children ? cutime + cstime : 0)) * 1000ull / (unsigned long long)hz;
	return 0;
}

/* As parse_stat, of process pid's /proc/<pid>/stat. */
static int proc_stat(long pid, char *state, bool with_children, unsigned long long *cpu_ms)
{
	char buf[1024];
	return read_proc(pid, "stat", buf, sizeof(buf)) < 0 ? -1 : parse_stat(buf, state, with_children, cpu_ms);
}

/*
 * The zygote's /proc file which (stat, or its children list) into buf, as
 * read_proc, through the slot's kept file (opened on first use, closed
 * with the runner in slot_stop).  A kept file is bound to this zygote,
 * whoever has its pid later: once the zygote is reaped its stat fails to
 * read and its children list reads empty - and the grader reaps a zygote
 * only in slot_stop and slot_kill_status, which close the files first
 * thing after.  0, or -1 when it cannot.
 */
static int read_kept(struct slot *s, enum kept_proc which, char *buf, size_t size)
{
	char path[64];

	if (s->proc_fd[which] < 0) {
		if (which == KEPT_STAT)
			snprintf(path, sizeof(path), "/proc/%ld/stat", (long)s->pid);
		else
			snprintf(path, sizeof(path), "/proc/%ld/task/%ld/children", (long)s->pid, (long)s->pid);
		s->proc_fd[which] = open(path, O_RDONLY | O_CLOEXEC);
		if (s->proc_fd[which] < 0)
			return -1;
	}
	return pread_text(s->proc_fd[which], buf, size) < 0 ? -1 : 0;
}

/* The seccomp mode of a process (0 none, 2 filter), or -1 when unknown. */
static int proc_seccomp_mode(pid_t pid)
{
	char buf[4096], *p;
	int mode = -1;

	if (read_proc(pid, "status", buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, "\nSeccomp:");
	if (p && sscanf(p + 9, " %d", &mode) != 1)
		mode = -1;
	return mode;
}

/* A number field of /proc/<pid>/status ("Seccomp_filters"), or -1 when unknown. */
static long proc_status_field(pid_t pid, const char *field)
{
	char buf[4096], key[64], *p;
	long value = -1;
	if (read_proc(pid, "status", buf, sizeof(buf)) < 0)
		return -1;
	snprintf(key, sizeof(key), "\n%s:", field);
	p = strstr(buf, key);
	if (p && sscanf(p + strlen(key), " %ld", &value) != 1)
		value = -1;
	return value;
}

/*
 * The seccomp filters every process of ours inherits before the runner adds
 * its own: none usually, one or more when the grader itself runs under a
 * container runtime's profile (Docker's) or a wrapper that refuses user
 * namespaces.  A runner's filters are counted against this.
 */
static long inherited_filters(void)
{
	static long n = -2;
	if (n == -2) {
		n = proc_status_field(getpid(), "Seccomp_filters");
		if (n < 0)
			n = 0;
	}
	return n;
}

/* The CPU (ms) of process pid, with what it reaped; 0 when it cannot be read (it was reaped meanwhile). */
static unsigned long long cpu_with_reaped_ms(pid_t pid)
{
	char state;
	unsigned long long own;
	return proc_stat(pid, &state, true, &own) == 0 ? own : 0;
}

/*
 * The memory of process pid in kB: its proportional set size (Pss, from
 * smaps_rollup), each page it shares - with the zygote it was forked from,
 * with its siblings - split among the processes that share it, so that a
 * tree's sum is what the tree holds; its resident set where that cannot be
 * read; 0 when neither can (it ended).
 */
static unsigned long long pss_kb(pid_t pid)
{
	char buf[2048];
	const char *p;
	unsigned long long pages;
	long page_kb = sysconf(_SC_PAGESIZE) / 1024;

	if (read_proc(pid, "smaps_rollup", buf, sizeof(buf)) == 0 && (p = strstr(buf, "\nPss:")))
		return strtoull(p + 5, NULL, 10);
	/* smaps_rollup needs ptrace access, which a process that made itself not dumpable refuses its own
	 * user (red team 41b, hijack-helpers-nodump): then its resident set, shared pages whole (statm, which
	 * anyone may read) - more than its share, never less */
	if (read_proc(pid, "statm", buf, sizeof(buf)) < 0 || sscanf(buf, "%*u %llu", &pages) != 1)
		return 0;
	return pages * (unsigned long long)(page_kb > 0 ? page_kb : 4);
}

/*
 * amount() of every process below the process whose children list is
 * `children` (text of /proc/<pid>/task/<pid>/children), added to *sum:
 * every child's own children before itself, so that for CPU a process
 * reaped while the tree is read is counted twice (in its stat, and in its
 * parent's count of reaped children read after it), never not at all.  At
 * most *budget processes are read.
 */
static void descendants_sum(const char *children, unsigned long long (*amount)(pid_t), unsigned long long *sum,
			    int *budget)
{
	pid_t pids[TREE_WALK_MAX];
	int n = pid_list(children, pids, TREE_WALK_MAX);

	for (int i = 0; i < n && i < TREE_WALK_MAX && *budget > 0; i++) {
		char buf[1024], name[48];

		(*budget)--;
		snprintf(name, sizeof(name), "task/%ld/children", (long)pids[i]);
		if (read_proc(pids[i], name, buf, sizeof(buf)) == 0)
			descendants_sum(buf, amount, sum, budget);
		*sum += amount(pids[i]);
	}
}

/*
 * CPU time of the slot's runner so far, in ms: its whole tree by its
 * cgroup, else by /proc: the zygote, everything it reaped, and every
 * process still alive (or not yet reaped) below it, with what they reaped
 * - read by the grader itself (the runner's own reports could be forged by
 * code that runs before main).  Without cgroups that is the whole tree:
 * no process can leave it (the zygote adopts orphans: the init of its PID
 * namespace, else a subreaper, sandbox.c) and none can end unseen (the
 * filters keep SIGCHLD's default action, filter.c add_sigaction_rules: an
 * ignored SIGCHLD had the kernel reap a child without counting it in its
 * parent's children's time).  -1 unknown.
 */
static long long slot_cpu_ms(struct slot *s)
{
	long long us = cgroup_cpu_us(s->cg);
	unsigned long long ms = 0, own;
	char buf[1024], state;
	int budget = TREE_WALK_MAX;

	if (us >= 0)
		return us / 1000;
	/* the children first, the zygote's own stat last (see descendants_sum) */
	if (read_kept(s, KEPT_CHILDREN, buf, sizeof(buf)) == 0)
		descendants_sum(buf, cpu_with_reaped_ms, &ms, &budget);
	if (read_kept(s, KEPT_STAT, buf, sizeof(buf)) < 0 || parse_stat(buf, &state, true, &own) < 0)
		return -1;
	return (long long)(ms + own);
}

/* The zygote's children, as pid_list does: how many, the first max in pids[]; -1 when it cannot tell. */
static int zygote_children(struct slot *s, pid_t *pids, int max)
{
	char buf[256];
	return read_kept(s, KEPT_CHILDREN, buf, sizeof(buf)) < 0 ? -1 : pid_list(buf, pids, max);
}

/*
 * slot_others from the cgroup's count of tasks, where the count settles it
 * (cheap: kept files; cgroup_procs opens v1's list afresh, about 10 us).
 * One task: the zygote alone.  Two, with the same one child of the zygote
 * listed before and after the count: the zygote and that child, nothing
 * else - a child listed before and after was not yet reaped in between,
 * and each process holds a task until then.  (The kernel uncharges a child
 * a moment before it leaves its parent's list, while the zygote reaps it;
 * a process hiding in that moment needs a living parent besides the
 * zygote, which counts, or - without a PID namespace - to have left the
 * zygote's tree and to win that moment at every request.)  -1 when the
 * count does not settle it.
 */
static int slot_others_counted(struct slot *s, pid_t *others, int max)
{
	pid_t before = 0, after = 0;
	int listed = zygote_children(s, &before, 1);
	long long tasks = cgroup_tasks(s->cg);

	if (tasks == 1)
		return 0;
	if (tasks != 2 || listed != 1 || zygote_children(s, &after, 1) != 1 || after != before)
		return -1;
	if (max > 0)
		others[0] = before;
	return 1;
}

/*
 * The runner's processes besides the zygote (pids as the grader sees them):
 * how many, the first max of them in others[]; -1 when it cannot tell.  By
 * its cgroup; else by the zygote's children - all of them in a PID
 * namespace of its own (orphans come back to it, the namespace's init),
 * without one those that did not detach themselves.
 */
static int slot_others(struct slot *s, pid_t *others, int max)
{
	pid_t listed[8];
	int n, k = 0;

	if (!s->cg)
		return zygote_children(s, others, max);
	if ((n = slot_others_counted(s, others, max)) >= 0)
		return n;
	if ((n = cgroup_procs(s->cg, listed, 8)) < 0)
		return zygote_children(s, others, max);
	for (int i = 0; i < n && i < 8; i++)
		if (listed[i] != s->pid && k < max)
			others[k++] = listed[i];
	return n > 0 ? n - 1 : 0;
}

/* Is anything but the zygote alive in the slot's runner?  1, or 0 (also when it cannot tell). */
static int slot_strays(struct slot *s)
{
	return slot_others(s, NULL, 0) > 0;
}

/*
 * Before a request: is anything alive in the runner but the zygote and the
 * spare it made for this test?  The spare is the next test's child, forked
 * and sandboxed once the zygote has reported a test (runtime.c
 * gr_spare_fork); it may or may not be there yet.  One is allowed only
 * after a report the zygote makes one after (spare_possible: not at the
 * hello, nor after a child that stopped itself), and never a process seen
 * at the request before: that one was this runner's spare then, and has
 * since run its test and been waited for, or been sent away - still there,
 * it is no spare but a helper kept alive.  (A pid is used again only once
 * the kernel's pids have gone round.)  1, or 0 (also when it cannot tell).
 */
static int slot_strays_at_request(struct slot *s)
{
	pid_t other = 0, seen = s->spare_seen;
	int n = slot_others(s, &other, 1);

	s->spare_seen = 0;
	if (n <= 0)
		return 0;
	if (n > 1 || !s->spare_possible || other == seen)
		return 1;
	s->spare_seen = other;
	return 0;
}

/* The zygote's newest child (the last listed; constructors may have left older ones): its case child.  -1 unknown. */
static long case_child_pid(struct slot *s)
{
	char buf[4096], *p, *end;
	long child = -1;

	if (read_kept(s, KEPT_CHILDREN, buf, sizeof(buf)) < 0)
		return -1;
	for (p = buf;; p = end) {
		long pid = strtol(p, &end, 10);
		if (end == p)
			break;
		child = pid;
	}
	return child > 0 ? child : -1;
}

/*
 * The case child of the slot's zygote - one we are about to kill at the
 * wall-clock limit, or one sampled while its test waits: its state and CPU
 * time, so the message can say why it did not answer.  Reads /proc (the
 * zygote's children through its kept file).  Returns 0, or -1 when unknown.
 */
static int case_child_state(struct slot *s, char *state, unsigned *cpu_ms)
{
	long child = case_child_pid(s);
	unsigned long long ms;

	if (child <= 0 || proc_stat(child, state, false, &ms) < 0)
		return -1;
	*cpu_ms = (unsigned)ms;
	return 0;
}

/*
 * How long process pid has been on a CPU (*on_cpu_ns) and runnable but
 * waiting for a CPU (*delay_us): the first two fields of
 * /proc/<pid>/schedstat (ns, since it started; the kernel's sched_info,
 * there wherever /proc/<pid>/schedstat is).  A process that sleeps, blocks
 * or is stopped gains no delay; the wait in progress is added only when it
 * next runs (WAIT_PROBE_US).  0, or -1 unknown.
 */
static int proc_schedstat(long pid, unsigned long long *on_cpu_ns, unsigned long long *delay_us)
{
	char buf[128];
	unsigned long long delay;

	if (read_proc(pid, "schedstat", buf, sizeof(buf)) < 0 || sscanf(buf, "%llu %llu", on_cpu_ns, &delay) != 2)
		return -1;
	*delay_us = delay / 1000;
	return 0;
}

/* The process whose run delay the slot's deadline is charged with: the zygote while it starts, else the case child. */
static long slot_clock_pid(struct slot *s)
{
	return s->state == SLOT_STARTING ? (long)s->pid : case_child_pid(s);
}

/*
 * How long process pid has waited for a CPU, in us, as far as can be told
 * now: its run delay, and the wait in progress that the kernel has not
 * added to it yet - the time since the last read of the same process, when
 * it was runnable then and is now, and its on-CPU time has not moved since
 * (WAIT_PROBE_US).
 * Once it runs, its run delay holds all of that wait, and the count starts
 * again.  What it waited before it was first read stays unknown while it
 * does not run: stuck says so.  Remembers this read (delay_pid,
 * oncpu_seen_ns, read_us); *runnable (may be NULL) says whether it is.  -1
 * unknown.
 */
static long long slot_waited_us(struct slot *s, long pid, uint64_t now, bool *runnable)
{
	unsigned long long on_cpu, delay, ms;
	char state = '?';

	if (proc_schedstat(pid, &on_cpu, &delay) < 0)
		return -1;
	if (proc_stat(pid, &state, false, &ms) < 0)
		state = '?';
	s->stuck = state == 'R' && (pid != s->delay_pid || (s->stuck && on_cpu == s->oncpu_seen_ns));
	if (pid != s->delay_pid || on_cpu != s->oncpu_seen_ns)
		s->pending_us = 0;
	else if (s->runnable_seen && state == 'R' && now >= s->read_us + WAIT_PROBE_US)
		s->pending_us += now - s->read_us;
	if (pid != s->delay_pid || on_cpu != s->oncpu_seen_ns || now >= s->read_us + WAIT_PROBE_US) {
		s->read_us = now;
		s->runnable_seen = state == 'R';
	}
	s->delay_pid = (pid_t)pid;
	s->oncpu_seen_ns = on_cpu;
	if (runnable)
		*runnable = state == 'R';
	return (long long)(delay + s->pending_us);
}

/*
 * At the slot's deadline: put it off by the wait not given back yet (at
 * least CREDIT_MIN_US of it), up to its bound (due_us).  While its process
 * is runnable it is read again every WAIT_PROBE_US (slot_waited_us), past
 * that deadline too: a wait it is in is seen within a probe, and one that
 * runs instead is given back nothing.  A spare case child forked ahead of
 * its request brings the little delay of its own set-up.  true when the
 * slot has a later deadline (deadline_us: when to look next).
 */
static bool slot_put_off(struct slot *s, uint64_t now)
{
	long pid = slot_clock_pid(s);
	bool first = pid != s->delay_pid, runnable = false;
	long long waited = pid > 0 ? slot_waited_us(s, pid, now, &runnable) : -1;
	long long base = first ? 0 : (long long)s->delay_seen_us, extra = waited - base;
	uint64_t probe;

	if (waited < 0)
		return false;
	if (!s->bound_us) {
		s->bound_us = s->started_us + RUN_STARVED_WALL_FACTOR * (s->deadline_us - s->started_us);
		s->due_us = s->deadline_us;
	}
	s->delay_seen_us = (uint64_t)base; /* a wait too small to give back is given with the next */
	if (extra >= (long long)CREDIT_MIN_US && s->due_us < s->bound_us) {
		s->credited_us += (uint64_t)extra;
		s->delay_seen_us = (uint64_t)waited;
		s->due_us = s->due_us + (uint64_t)extra > s->bound_us ? s->bound_us : s->due_us + (uint64_t)extra;
	}
	probe = s->read_us + WAIT_PROBE_US > s->bound_us ? s->bound_us : s->read_us + WAIT_PROBE_US;
	if (now < s->due_us)
		s->deadline_us = runnable && probe < s->due_us ? probe : s->due_us;
	else if (runnable && s->due_us < s->bound_us)
		s->deadline_us = probe;
	else
		return false;
	return now < s->deadline_us;
}

/*
 * At the slot's last deadline: the run delay of its test (or start) in ms,
 * and whether the test was starved - it had less time to run than its limit
 * (limit_ms) by the end, because it waited for a CPU beyond the bound; or
 * it has waited, runnable, since it was first read at its limit, and what
 * it waited before that is unknown (slot_waited_us): a program cannot make
 * itself wait for a CPU, so the doubt is the machine's, not the student's.
 */
static bool slot_starved(struct slot *s, uint64_t now, unsigned limit_ms, unsigned *delay_ms)
{
	long pid = slot_clock_pid(s);
	bool first = pid != s->delay_pid;
	long long delay = pid > 0 ? slot_waited_us(s, pid, now, NULL) : -1;
	uint64_t waited = delay < 0 ? s->credited_us : (uint64_t)delay, elapsed = now - s->started_us;

	if (first && delay >= 0)
		waited += s->credited_us; /* an earlier process's delay (not expected: one case child per test) */
	*delay_ms = (unsigned)(waited / 1000);
	return (delay >= 0 && s->stuck) || waited >= elapsed || elapsed - waited + CREDIT_MIN_US < (uint64_t)limit_ms * 1000u;
}

/*
 * The case child's stack (VmStk, in KiB: the extent its stack grew to, which
 * never shrinks), sampled while a test runs (sample_stack): what the test was
 * doing when a limit ended it.  0 unknown.
 */
static unsigned proc_stack_kb(long pid)
{
	char buf[4096], *p;
	unsigned kb = 0;

	if (read_proc(pid, "status", buf, sizeof(buf)) < 0 || !(p = strstr(buf, "\nVmStk:")))
		return 0;
	if (sscanf(p + 7, " %u", &kb) != 1)
		kb = 0;
	return kb;
}

/*
 * After EOF from a zygote, give it a moment to finish exiting (without
 * reaping it, so its pid and process group stay ours to kill), so that the
 * message says how it ended rather than "killed".
 */
static void slot_wait_exit(struct slot *s)
{
	for (int i = 0; i < 20 && s->pid > 0; i++) {
		siginfo_t si;
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)s->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid)
			return;
		poll(NULL, 0, 10);
	}
}


/*
 * The zygote died (protocol_error false: EOF on its channel) or broke the
 * protocol (something - a constructor or what it started - wrote on the
 * grader's channel) while running or starting its task.
 */
static void runner_lost(struct pool *pool, struct slot *s, bool protocol_error)
{
	int task = s->task;
	struct run_task *t = &pool->tasks[task];

	t->facts.starting = s->state == SLOT_STARTING;
	if (!protocol_error)
		slot_wait_exit(s);
	/* exit codes alone prove nothing (a constructor can _exit(121)): only the
	 * record the preinit hook sends before any student code runs does */
	t->facts.sandbox_failed = s->sandbox_failed;
	t->facts.sandbox_refuted = s->sandbox_refuted;
	t->facts.tree_oom = cgroup_oom_kills(s->cg) > s->oom_base;
	t->facts.exit_status = slot_kill_status(s);
	t->facts.wall_ms = (unsigned)((now_us() - s->started_us) / 1000);
	if (t->facts.starting)
		remember_start_failure(pool, t, protocol_error ? RUN_PROTOCOL : RUN_LOST, false);
	s->task = -1;
	finish_task(pool, task, protocol_error ? RUN_PROTOCOL : RUN_LOST);
}

/* The CPU time at which the test is stopped: its limit, or the cap above it (runner.h) */
static unsigned cpu_stop_ms(const struct run_task *t)
{
	return t->cpu_cap_ms > t->cpu_ms ? t->cpu_cap_ms : t->cpu_ms;
}

static void send_request(struct slot *s, struct run_task *t, int task_index)
{
	struct gr_request rq;
	memset(&rq, 0, sizeof(rq));
	rq.magic = GR_MAGIC_REQUEST;
	rq.size = (uint32_t)t->args.len;
	rq.case_id = (uint32_t)task_index;
	rq.function = (uint32_t)t->function;
	rq.cpu_ms = cpu_stop_ms(t);
	rq.memory_mb = t->memory_mb;
	rq.output_kb = t->output_kb;
	strbuf_reset(&s->out);
	s->out_pos = 0;
	strbuf_add(&s->out, &rq, sizeof(rq));
	strbuf_add(&s->out, t->args.buf, t->args.len);
	s->state = SLOT_RUNNING;
	s->task = task_index;
	s->waiting = false;
	s->sample_us = 0;
	s->started_us = now_us();
	s->watch_due_us = s->started_us + TREE_WATCH_MS * 1000ull;
	s->deadline_us = s->started_us + (uint64_t)t->wall_ms * 1000u;
	slot_reset_clock(s);
}


/* Were seccomp filters handed to the slot's runner (not the fallback)? */
static bool slot_filtered(const struct slot *s)
{
	uint32_t len = 0;
	if (s->filters->len >= sizeof(len))
		memcpy(&len, s->filters->buf, sizeof(len));
	return len != 0;
}

/* The filters the runner has before its runtime installs its own: the grader's and the outer program. */
static long slot_base_filters(const struct slot *s)
{
	return inherited_filters() + (s->outer_filtered ? 1 : 0);
}

/* Does the runner have filters of its own beyond the one it was given (code of the submission stacked some)? */
static bool slot_filters_stacked(const struct slot *s)
{
	return slot_filtered(s) && proc_status_field(s->pid, "Seccomp_filters") > slot_base_filters(s) + 1;
}

/* Hand the runner's start-up output to the first task it reports on. */
static void pass_startup(struct slot *s, struct run_task *t)
{
	t->facts.startup_output = s->startup;
	t->facts.startup_total = s->startup_total;
	s->startup = NULL;
	s->startup_total = 0;
}

/*
 * The runner failed for good, while starting or between tests, through
 * what its own code did: its task and every later one of this runner get
 * these facts, without starting it again.
 */
static void runner_failed(struct pool *pool, struct slot *s, enum run_outcome outcome, bool starting)
{
	int task = s->task;
	pool->tasks[task].facts.starting = starting;
	slot_kill_status(s);
	remember_start_failure(pool, &pool->tasks[task], outcome, false);
	s->task = -1;
	finish_task(pool, task, outcome);
}

/* The case child's stack as last sampled, and whether it grew between the last two samples. */
static void slot_stack_facts(const struct slot *s, struct run_task *t)
{
	t->facts.stack_kb = s->stack_kb[1];
	t->facts.stack_growing = s->stack_kb[0] && s->stack_kb[1] > s->stack_kb[0];
}

/*
 * Does process pid hold few enough files that a test's pipes could still be
 * made (RUNNER_NOFILE, FDS_FOR_A_TEST)?  false also when they cannot be
 * counted.
 */
static bool fds_room(pid_t pid)
{
	char path[64];
	DIR *d;
	struct dirent *e;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%ld/fd", (long)pid);
	if (!(d = opendir(path)))
		return false;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n + FDS_FOR_A_TEST <= RUNNER_NOFILE;
}

/* A report on the slot's task: its facts, with the CPU the grader counted itself. */
static void take_report(struct pool *pool, struct slot *s, const struct gr_report *r, const char *output)
{
	int task = s->task;
	struct run_task *t = &pool->tasks[task];
	long long now = slot_cpu_ms(s), oom = cgroup_oom_kills(s->cg);

	t->facts.report = *r;
	t->facts.tree_oom = oom > s->oom_base;
	/* the zygote could not fork the test: where the user's processes are one count, another runner's
	 * flood may have used it up for a moment - the run says nothing about the program (remeasure.h) -
	 * unless the zygote holds so many files that the test's pipes could not be made (red team 41c,
	 * py-fd-exhaust-rerun: top-level code that used up its fds was run three times for nothing) */
	t->facts.procs_short = (r->flags & GR_SPAWN_FAILED) && !sandbox_counts_processes_apart() &&
			       fds_room(s->pid);
	s->oom_base = oom;
	/* a case child that could not install its filter: the grader's failure, unless code in the
	 * zygote stacked a filter of its own after the hello (from a signal handler, say) */
	if (!(r->flags & GR_CASE_READY) && slot_filters_stacked(s)) {
		runner_failed(pool, s, RUN_FILTER_CHANGED, false);
		return;
	}
	t->facts.output = r->output_kept ? xstrndup(output, r->output_kept) : NULL;
	t->facts.detail = r->detail_len ? xstrndup(output + r->output_kept, r->detail_len) : NULL;
	pass_startup(s, t);
	t->facts.wall_ms = (unsigned)((now_us() - s->started_us) / 1000);
	t->facts.run_delay_ms = (unsigned)(s->credited_us / 1000);
	slot_stack_facts(s, t);
	/* everything the runner's tree used since its hello or last report: catches code before
	 * main that answers requests itself, or has a helper do the work, and reports a made-up time */
	t->facts.grader_cpu_ms = now < 0 ? -1 : now - s->cpu_base_ms;
	if (now >= 0)
		s->cpu_base_ms = now;
	s->task = -1;
	s->state = SLOT_READY;
	/* what the zygote does after this report (runtime.c gr_run_case, main) */
	s->spare_possible = !(r->flags & (GR_STOPPED | GR_END_UNSEEN | GR_BAD_REQUEST | GR_SPAWN_FAILED));
	/* a case child that stopped itself where its zygote may not kill it is still there: end the runner */
	if ((r->flags & GR_STOPPED) && slot_strays(s))
		slot_stop(s);
	finish_task(pool, task, RUN_REPORTED);
}

/* The zygote itself made a forbidden call (its report is a FORBID record). */
static void runner_forbidden(struct pool *pool, struct slot *s, int syscall_nr)
{
	int task = s->task;
	struct run_task *t = &pool->tasks[task];
	t->facts.starting = s->state == SLOT_STARTING;
	t->facts.syscall_nr = syscall_nr;
	slot_kill_status(s);
	if (t->facts.starting)
		remember_start_failure(pool, t, RUN_FORBIDDEN_RUNNER, false);
	s->task = -1;
	finish_task(pool, task, RUN_FORBIDDEN_RUNNER);
}

/*
 * A hello (complete, with its start-up output and detail): check from
 * outside that the filter is really in place (code before main could define
 * prctl()), whether it holds more memory than a test may use (ZYGOTE_ROOM_MB),
 * and whether loading the submission failed.  0, or -1 when the slot's task
 * was finished here.
 */
static int take_hello(struct pool *pool, struct slot *s, const struct gr_hello *h)
{
	const char *payload = s->in.buf + sizeof(*h);
	long long startup = slot_cpu_ms(s);
	/* facts from outside, which no code in the runner can forge: exactly one filter more than
	 * it inherited (a mode of 2 alone could be a container's filter, inherited, and ours missing) */
	long filters = proc_status_field(s->pid, "Seccomp_filters"), vm_kb;
	if (slot_filtered(s) && (proc_seccomp_mode(s->pid) != 2 || (filters >= 0 && filters <= slot_base_filters(s)))) {
		runner_failed(pool, s, RUN_UNFILTERED, true);
		return -1;
	}
	if (slot_filters_stacked(s)) {
		runner_failed(pool, s, RUN_FILTER_CHANGED, true);
		return -1;
	}
	if (slot_strays(s)) {
		runner_failed(pool, s, RUN_STRAY_PROCESSES, true);
		return -1;
	}
	if (startup > (long long)s->startup_ms) {
		pool->tasks[s->task].facts.startup_cpu_ms = startup;
		runner_failed(pool, s, RUN_STARTUP_LIMIT, true);
		return -1;
	}
	/* a fact from outside: every test's address space would start with this (ZYGOTE_ROOM_MB) */
	vm_kb = proc_status_field(s->pid, "VmSize");
	if (h->load_kind == GR_LOAD_OK && vm_kb > (long)s->memory_mb << 10) {
		pool->tasks[s->task].facts.startup_vm_kb = vm_kb;
		runner_failed(pool, s, RUN_STARTUP_MEMORY, true);
		return -1;
	}
	if (h->load_kind != GR_LOAD_OK) {
		struct run_task *t = &pool->tasks[s->task];
		t->facts.load_kind = h->load_kind;
		t->facts.detail = xstrndup(payload + h->startup_len, h->detail_len);
		t->facts.startup_output = h->startup_len ? xstrndup(payload, h->startup_len) : NULL;
		t->facts.startup_total = h->startup_total;
		runner_failed(pool, s, RUN_LOAD_FAILED, true);
		return -1;
	}
	s->startup = h->startup_len ? xstrndup(payload, h->startup_len) : NULL;
	s->startup_total = h->startup_total;
	s->present = h->present;
	s->state = SLOT_READY;
	s->spare_possible = false; /* no spare before the first test */
	s->spare_seen = 0;
	s->cpu_base_ms = startup; /* start-up has its own limit: no test pays for it */
	return 0;
}

/* Drop n bytes from the front of the slot's input (at most what it holds). */
static void consume(struct slot *s, size_t n)
{
	if (n > s->in.len)
		n = s->in.len;
	memmove(s->in.buf, s->in.buf + n, s->in.len - n);
	s->in.len -= n;
}

/* Read what the zygote sent.  1 at end of file, 0 otherwise, -1 when it sent too much. */
static int slot_read(struct slot *s)
{
	for (;;) {
		char buf[65536];
		ssize_t n = read(s->status_fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n <= 0)
			return 1; /* parse what came before the end */
		strbuf_add(&s->in, buf, (size_t)n);
		if (s->in.len > (1u << 20))
			return -1; /* a runner does not send that much: protocol broken */
	}
}

/*
 * Handle bytes from the zygote.  Returns 0, or when the slot is done for:
 * -1 at EOF (the zygote ended or closed its channel), -2 when what came is
 * not our protocol, -3 when its task was finished here already.
 */
static int slot_input(struct pool *pool, struct slot *s)
{
	int eof = slot_read(s);
	if (eof < 0)
		return -2;
	for (;;) {
		struct record_expect x = { s->state == SLOT_STARTING, s->state == SLOT_RUNNING,
					   (uint32_t)s->task, s->nonce };
		struct record rec;
		record_next(s->in.buf, s->in.len, &x, &rec);
		switch (rec.kind) {
		case RECORD_INCOMPLETE:
			return eof ? -1 : 0;
		case RECORD_INVALID:
			return -2;
		case RECORD_SANDBOX:
			/* true only from a runner without a filter of its own: one with a filter in place (ours,
			 * or one code of the submission installed) wrote it itself, which breaks the protocol */
			if (proc_status_field(s->pid, "Seccomp_filters") != slot_base_filters(s))
				return -2;
			/* and true only when seccomp here refuses that filter, tried by the grader itself: code of
			 * the submission that ran before the hook (an ifunc resolver) can write the record too */
			if (sandbox_seccomp_refuses(s->filters))
				s->sandbox_failed = true;
			else
				s->sandbox_refuted = true;
			return -1;
		case RECORD_HELLO:
			if (take_hello(pool, s, &rec.hello) < 0)
				return -3;
			break;
		case RECORD_FORBID:
			if (s->task >= 0)
				runner_forbidden(pool, s, rec.report.syscall_nr);
			return -3;
		case RECORD_REPORT:
			take_report(pool, s, &rec.report, rec.payload);
			break;
		}
		/* a record can end the runner (slot_stop): its input went with it */
		if (s->state == SLOT_EMPTY)
			return -3;
		consume(s, rec.size);
	}
}

static int slot_output(struct slot *s)
{
	while (s->out_pos < s->out.len) {
		ssize_t n = write(s->ctl_fd, s->out.buf + s->out_pos, s->out.len - s->out_pos);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n <= 0)
			return -1;
		s->out_pos += (size_t)n;
	}
	return 0;
}


/* ---- pool_run's phases ---- */

/* CPU of the slot's test so far, in µs: its runner's tree by the cgroup, else the case child by /proc.  -1 unknown. */
static long long slot_test_cpu_us(struct slot *s)
{
	long long us = cgroup_cpu_us(s->cg);
	char state;
	unsigned ms;

	if (us >= 0)
		return us;
	return case_child_state(s, &state, &ms) == 0 ? (long long)ms * 1000 : -1;
}

/* The case child's stack now, beside the last sample's (what a test killed at a limit was doing). */
static void sample_stack(struct slot *s)
{
	long child = case_child_pid(s);
	unsigned kb = child > 0 ? proc_stack_kb(child) : 0;

	if (kb) {
		s->stack_kb[0] = s->stack_kb[1];
		s->stack_kb[1] = kb;
	}
}

/*
 * Is the slot's test waiting (asleep, blocked, stopped) rather than
 * computing?  Sampled only once it has run WAIT_AFTER_MS, so quick tests
 * cost nothing; decided over each following WAIT_AFTER_MS.
 */
static void sample_waiting(struct slot *s, uint64_t now)
{
	long long cpu;

	if (s->state != SLOT_RUNNING || s->task < 0 || now < s->started_us + WAIT_AFTER_MS * 1000ull)
		return;
	if (s->sample_us && now < s->sample_us + WAIT_AFTER_MS * 1000ull)
		return;
	sample_stack(s);
	cpu = slot_test_cpu_us(s);
	if (cpu < 0) {
		s->waiting = false; /* unknown: it keeps its core */
		return;
	}
	if (s->sample_us) {
		char state = 'S';
		unsigned ms;
		s->waiting = (cpu - s->sample_cpu_us) * WAIT_CPU_SHARE < (long long)(now - s->sample_us);
		/* runnable but starved by a busy machine is not waiting: it wants its core */
		if (s->waiting && case_child_state(s, &state, &ms) == 0 && state == 'R')
			s->waiting = false;
	}
	s->sample_us = now;
	s->sample_cpu_us = cpu;
}

/* Slots that hold a core: starting, or running a test that is not waiting. */
static int busy_slots(struct pool *pool)
{
	uint64_t now = now_us();
	int busy = 0;

	for (int k = 0; k < pool->nslots; k++) {
		struct slot *s = &pool->slots[k];
		if (s->task < 0)
			continue;
		sample_waiting(s, now);
		busy += !s->waiting;
	}
	return busy;
}

/*
 * slot_start, tried again while no process can be made (EAGAIN): where the
 * runners' processes count against the user's one limit
 * (sandbox_counts_processes_apart), a runner that forks without end uses
 * it up for every other.  This pool's own such runners are ended first
 * (slot_watch_tree, looked at now); another grader's end within its own
 * TREE_WATCH_MS.  Up to START_RETRIES more tries, START_RETRY_MS apart; the
 * pool's other slots wait meanwhile (a moment, and only then).
 */
static bool slot_watch_tree(struct pool *pool, struct slot *s, uint64_t now);

/* slot_watch_tree at once, whenever it was due, for every slot with a runner but skip (NULL: all). */
static void watch_every_slot_now(struct pool *pool, const struct slot *skip)
{
	for (int k = 0; k < pool->nslots; k++) {
		struct slot *s = &pool->slots[k];
		if (s != skip && s->state != SLOT_EMPTY) {
			s->watch_due_us = 0;
			slot_watch_tree(pool, s, now_us());
		}
	}
}

static int start_runner(struct pool *pool, struct slot *s, const struct run_task *t, int *exec_errno,
			struct strbuf *err)
{
	int rc = slot_start(pool, s, t, exec_errno, err);

	for (int tries = 0; rc == -2 && tries < START_RETRIES; tries++) {
		watch_every_slot_now(pool, s);
		poll(NULL, 0, START_RETRY_MS);
		strbuf_reset(err);
		rc = slot_start(pool, s, t, exec_errno, err);
	}
	return rc;
}

/* Give an idle slot the client's next task, starting a runner for it when needed.  false: none left. */
static bool fill_slot(struct pool *pool, struct slot *s)
{
	for (;;) {
		const struct start_failure *failed;
		struct strbuf err = STRBUF_INIT;
		struct run_task *t;
		int task, exec_errno = 0;

		if (pool->exhausted || (task = pool->client->next(pool->client->ctx)) < 0) {
			pool->exhausted = true;
			return false;
		}
		pool->in_flight++;
		t = &pool->tasks[task];
		failed = start_failure_of(pool, t);
		if (failed) {
			t->facts = failed->facts;
			t->facts.detail = failed->facts.detail ? xstrdup(failed->facts.detail) : NULL;
			t->facts.repeated = true;
			finish_task(pool, task, failed->facts.outcome);
			continue;
		}
		if (s->state != SLOT_EMPTY && (!same_runner(s->runner, s->runner_argv, t) || s->memory_mb != t->zygote_memory_mb ||
					       t->fresh_runner))
			slot_stop(s);
		if (s->state == SLOT_EMPTY && start_runner(pool, s, t, &exec_errno, &err) < 0) {
			enum run_outcome outcome = exec_errno ? RUN_EXEC_FAILED : RUN_NOT_STARTED;
			t->facts.error = strbuf_detach(&err);
			if (exec_errno) {
				/* the image is the build's (a submission's runner): a fact the grader reads itself */
				struct stat st;
				t->facts.exec_errno = exec_errno;
				t->facts.image_present = stat(t->runner, &st) == 0 && S_ISREG(st.st_mode);
				t->facts.starting = true;
				remember_start_failure(pool, t, outcome, false);
			}
			finish_task(pool, task, outcome);
			continue;
		}
		strbuf_release(&err);
		s->task = task; /* sent once the runner is ready */
		s->waiting = false;
		return true;
	}
}

/* Send the requests of slots whose runner is ready; a missing function ends its task at once. */
static bool send_requests(struct pool *pool)
{
	bool progressed = false;
	for (int k = 0; k < pool->nslots; k++) {
		struct slot *s = &pool->slots[k];
		struct run_task *t;
		if (s->state != SLOT_READY || s->task < 0)
			continue;
		t = &pool->tasks[s->task];
		if (t->function < 64 && !(s->present & (1ull << t->function))) {
			int task = s->task;
			s->task = -1;
			finish_task(pool, task, RUN_MISSING_FUNCTION);
			progressed = true;
			continue;
		}
		/* only the runner itself (and the spare it made for this test) may be alive when a test starts */
		if (slot_strays_at_request(s)) {
			runner_failed(pool, s, RUN_STRAY_PROCESSES, false);
			progressed = true;
			continue;
		}
		send_request(s, t, s->task);
		/* usually fits the pipe at once; the rest goes out on POLLOUT */
		if (slot_output(s) < 0)
			runner_lost(pool, s, false);
	}
	return progressed;
}

/* A slot past its deadline: a wedged runner, or one that never said hello. */
static void slot_timed_out(struct pool *pool, struct slot *s, uint64_t now)
{
	int task = s->task;
	struct run_task *t = &pool->tasks[task];
	bool starting = s->state == SLOT_STARTING;

	if (!starting) {
		t->facts.child_known = case_child_state(s, &t->facts.child_state, &t->facts.child_cpu_ms) == 0;
		sample_stack(s);
		slot_stack_facts(s, t);
	}
	t->facts.starting = starting;
	t->facts.wall_ms = (unsigned)((now - s->started_us) / 1000);
	t->facts.starved = slot_starved(s, now, starting ? 2 * t->startup_ms + 1000u : t->wall_ms, &t->facts.run_delay_ms);
	/* a runner with more processes than the zygote and its test's child can keep itself waiting for a CPU
	 * behind its own helpers (red team 41, ctor-self-starve): that is no machine's doing */
	if (t->facts.starved && slot_others(s, NULL, 0) > (starting ? 0 : 1))
		t->facts.starved = false;
	if (starting) {
		/* a start that used more than its CPU limit was not kept from it: a constructor's loop, not the machine */
		t->facts.startup_cpu_ms = slot_cpu_ms(s);
		if (t->facts.startup_cpu_ms > (long long)s->startup_ms)
			t->facts.starved = false;
	} else if (t->facts.child_known && t->cpu_ms && t->facts.child_cpu_ms > cpu_stop_ms(t)) {
		/*
		 * Nor was a test that used more than its CPU limit: its own CPU timer
		 * should have ended it, and did not (a constructor that made
		 * timer_create fail, RLIMIT_SIGPENDING 0: only RLIMIT_CPU's whole
		 * seconds are left).  Its time limit, never the machine's judge-error
		 * (found by a review of 623d634: judge-error at load 9.5, exit 3).
		 */
		t->facts.starved = false;
	}
	slot_kill_status(s);
	/* a start the machine starved is not the program's failure: the next task starts it again */
	if (starting && !t->facts.starved)
		remember_start_failure(pool, t, RUN_START_TIMEOUT, true);
	s->task = -1;
	finish_task(pool, task, starting ? RUN_START_TIMEOUT : RUN_WALL_TIMEOUT);
}

/* What the grader watches in a runner's tree itself (slot_watch_tree). */
enum { WATCH_PROCESSES = 1, WATCH_MEMORY = 2, WATCH_STARTUP_CPU = 4 };

/*
 * Which of them the slot's runner needs now: the CPU of its start-up while
 * it starts; the number of its processes while it starts or runs a test,
 * where neither a pids cgroup nor RLIMIT_NPROC counts them apart from the
 * user's others (a normal user without user namespaces); the memory of its
 * tree while it runs a test, where no memory cgroup limits it together (a
 * normal user).
 */
static int slot_watched(const struct slot *s)
{
	int watched = 0;
	bool idle = s->state == SLOT_READY && s->pid > 0;

	if (!idle && (s->task < 0 || (s->state != SLOT_STARTING && s->state != SLOT_RUNNING)))
		return 0;
	if (s->state == SLOT_STARTING)
		watched |= WATCH_STARTUP_CPU;
	/* an idle runner too: between two tests it may hold its spare and nothing else (red team 41b,
	 * hijack-idle-flood: a runner that took over its zygote forked until EAGAIN while it waited) */
	if (!(s->cg && cgroup_probe()->pids) && !sandbox_counts_processes_apart())
		watched |= WATCH_PROCESSES;
	if (s->state == SLOT_RUNNING && !(s->cg && cgroup_probe()->memory))
		watched |= WATCH_MEMORY;
	return watched;
}

/*
 * The processes below the slot's zygote, as far as slot_watch_tree needs
 * them: how many children it has (their list in children, -1 when it
 * cannot be read), and in *deeper whether one of the first two has
 * children of its own.
 */
static int slot_tree_census(struct slot *s, char *children, size_t size, bool *deeper)
{
	pid_t first[2];
	int n;

	*deeper = false;
	if (read_kept(s, KEPT_CHILDREN, children, size) < 0)
		return -1;
	n = pid_list(children, first, 2);
	for (int i = 0; i < n && i < 2 && !*deeper; i++) {
		char name[48], below[64];
		snprintf(name, sizeof(name), "task/%ld/children", (long)first[i]);
		*deeper = read_proc(first[i], name, below, sizeof(below)) == 0 && pid_list(below, NULL, 0) > 0;
	}
	return n;
}

/*
 * slot_watch_tree for a runner between two tests: more than its spare below
 * the zygote, or a process below that, and the runner is ended, its later
 * tests RUN_STRAY_PROCESSES at once ("between the tests").  Always false:
 * no task ended.
 */
static bool slot_watch_idle(struct pool *pool, struct slot *s)
{
	char children[1024];
	bool deeper;
	struct run_task stray;

	if (slot_tree_census(s, children, sizeof(children), &deeper) <= 1 && !deeper)
		return false;
	memset(&stray, 0, sizeof(stray));
	stray.runner = s->runner;
	stray.runner_argv = s->runner_argv;
	remember_start_failure(pool, &stray, RUN_STRAY_PROCESSES, false);
	slot_stop(s);
	return false;
}

/*
 * The grader watches a runner's tree itself, every TREE_WATCH_MS while the
 * runner starts, runs a test or waits between two (slot_watched):
 *   - the CPU of its start-up, against its limit (startup_ms): over it, the
 *     start is RUN_STARTUP_LIMIT at once, as at its hello, instead of at the
 *     start's wall-clock backstop (twice the limit and a second: a
 *     constructor that spins cost each start 3 s for a 1 s limit);
 *   - where the kernel does not count them, its processes: none below the zygote while it starts (the hello's
 *     check, sooner), and during a test the case child (and for a moment a
 *     spare being sent away) with no process of its own - its filter
 *     refuses fork.  Anything more is RUN_STRAY_PROCESSES at once: code that
 *     forks without end would otherwise use up the user's process limit,
 *     which every runner, the grader and the user's other programs share
 *     there, and make their forks fail (red team 41: a constructor's flood
 *     gave an honest peer in a batch run-error on every test, and the grader
 *     judge-error), or hide its CPU past the tree walk's TREE_WALK_MAX;
 *   - where no cgroup limits it, the memory of its tree during a test: the case child alone is held by
 *     its own RLIMIT_AS; with anything more below the zygote, the
 *     proportional set size of every process there is added up (pss_kb),
 *     and over the test's limit the test is RUN_TREE_MEMORY, what the
 *     kernel's OOM kill in the cgroup does as root: code that took over the
 *     runner could otherwise have helpers hold memory together, each within
 *     the runner's address-space limit (docs/accounting.md).
 *   - between two tests, where the kernel does not count them, its
 *     processes: the spare and nothing else (slot_watch_idle).
 * A sample, not a limit: what lasts less than TREE_WATCH_MS can go unseen.
 * true when the task ended so.
 */
static bool slot_watch_tree(struct pool *pool, struct slot *s, uint64_t now)
{
	char children[1024];
	bool deeper, starting = s->state == SLOT_STARTING;
	int watched = slot_watched(s), task = s->task, n;
	struct run_task *t;
	unsigned long long kb = 0;
	int budget = TREE_WALK_MAX;

	if (!watched || now < s->watch_due_us)
		return false;
	s->watch_due_us = now + TREE_WATCH_MS * 1000ull;
	if (task < 0)
		return slot_watch_idle(pool, s);
	t = &pool->tasks[task];
	if (watched & WATCH_STARTUP_CPU) {
		long long used = slot_cpu_ms(s);
		if (used > (long long)s->startup_ms) {
			t->facts.startup_cpu_ms = used;
			runner_failed(pool, s, RUN_STARTUP_LIMIT, true);
			return true;
		}
	}
	if (!(watched & (WATCH_PROCESSES | WATCH_MEMORY)) ||
	    (n = slot_tree_census(s, children, sizeof(children), &deeper)) <= 0)
		return false;
	if ((watched & WATCH_PROCESSES) && (starting || n > 2 || deeper)) {
		t->facts.strays_seen = n;
		runner_failed(pool, s, RUN_STRAY_PROCESSES, starting);
		return true;
	}
	if (!(watched & WATCH_MEMORY) || !t->memory_mb || (n == 1 && !deeper))
		return false;
	descendants_sum(children, pss_kb, &kb, &budget);
	if (kb <= (unsigned long long)t->memory_mb * 1024)
		return false;
	t->facts.tree_memory_kb = kb;
	t->facts.wall_ms = (unsigned)((now - s->started_us) / 1000);
	slot_kill_status(s);
	s->task = -1;
	finish_task(pool, task, RUN_TREE_MEMORY);
	return true;
}

/*
 * Past the slot's deadline, is its report (or hello) already waiting to be
 * read?  The grader's loop may have been kept from reading it in time - the
 * grader itself waiting for a CPU, start_runner's retries - and a test that
 * ended in time is no time limit.  Within REPORT_GRACE_MS of the deadline
 * only, so that a runner that keeps writing a byte now and then cannot put
 * its deadline off.
 */
static bool slot_report_waiting(const struct slot *s, uint64_t now)
{
	struct pollfd p = { s->status_fd, POLLIN, 0 };
	return now < s->deadline_us + REPORT_GRACE_MS * 1000ull && poll(&p, 1, 0) > 0 && (p.revents & POLLIN);
}

struct poll_set {
	struct pollfd p[2 * MAX_SLOTS];
	int owner[2 * MAX_SLOTS];
	int n;
	uint64_t nearest;
};

/* Enforce the deadlines, and gather what to wait for. */
static void watch_slots(struct pool *pool, struct poll_set *ps)
{
	uint64_t now = now_us();
	ps->n = 0;
	ps->nearest = UINT64_MAX;
	for (int k = 0; k < pool->nslots; k++) {
		struct slot *s = &pool->slots[k];
		if (s->state == SLOT_EMPTY)
			continue;
		if (s->task >= 0 && now >= s->deadline_us && !slot_report_waiting(s, now) && !slot_put_off(s, now)) {
			slot_timed_out(pool, s, now);
			continue;
		}
		if (slot_watch_tree(pool, s, now))
			continue;
		if (s->task >= 0 && s->deadline_us < ps->nearest)
			ps->nearest = s->deadline_us;
		if (s->state == SLOT_EMPTY)
			continue; /* ended by its watch */
		if (slot_watched(s) && s->watch_due_us < ps->nearest)
			ps->nearest = s->watch_due_us;
		ps->p[ps->n] = (struct pollfd){ s->status_fd, POLLIN, 0 };
		ps->owner[ps->n++] = k;
		if (s->out_pos < s->out.len) {
			ps->p[ps->n] = (struct pollfd){ s->ctl_fd, POLLOUT, 0 };
			ps->owner[ps->n++] = k;
		}
	}
}

/* Handle what poll() found. */
static void handle_events(struct pool *pool, struct poll_set *ps)
{
	for (int i = 0; i < ps->n; i++) {
		struct slot *s = &pool->slots[ps->owner[i]];
		int rc;
		if (!ps->p[i].revents || s->state == SLOT_EMPTY)
			continue;
		rc = ps->p[i].events == POLLOUT ? slot_output(s) : slot_input(pool, s);
		if (rc == 0 || rc == -3)
			continue;
		if (s->task >= 0)
			runner_lost(pool, s, rc == -2);
		else
			slot_stop(s);
	}
}

/* Tasks handed out but not finished (interrupted): they did not run. */
static void stop_in_flight(struct pool *pool)
{
	for (int k = 0; k < pool->nslots; k++) {
		struct slot *s = &pool->slots[k];
		if (s->task >= 0) {
			int task = s->task;
			s->task = -1;
			slot_stop(s);
			finish_task(pool, task, RUN_STOPPED);
		}
	}
}

int pool_run(struct pool *pool, struct run_task *tasks, const struct pool_client *client)
{
	bool loop_failed = false;

	pool->tasks = tasks;
	pool->client = client;
	pool->exhausted = false;
	pool->in_flight = 0;
	/* what the warm runners did while no pool_run watched them (the engine between two calls: a
	 * moment, as shrinking and growth call it run after run - stopping them instead would start a
	 * runner for every call): a flood is ended now, and a runner's later tests are forbidden */
	watch_every_slot_now(pool, NULL);
	while (!grader_interrupted) {
		struct poll_set ps;
		bool progressed;
		int timeout;

		for (int k = 0, busy = busy_slots(pool); k < pool->nslots && busy < pool->cores; k++) {
			struct slot *s = &pool->slots[k];
			if (s->task >= 0 || s->state == SLOT_STARTING)
				continue;
			if (!fill_slot(pool, s))
				break;
			busy += s->task >= 0;
		}
		progressed = send_requests(pool);
		watch_slots(pool, &ps);
		if (pool->exhausted && pool->in_flight == 0)
			break;
		timeout = ps.nearest == UINT64_MAX ? 100 : (int)((ps.nearest - now_us()) / 1000 + 1);
		if (timeout > 100 || timeout < 0)
			timeout = 100;
		if (poll(ps.p, (nfds_t)ps.n, progressed ? 0 : timeout) < 0 && errno != EINTR) {
			loop_failed = true;
			break;
		}
		handle_events(pool, &ps);
	}
	stop_in_flight(pool);
	pool->tasks = NULL;
	pool->client = NULL;
	return grader_interrupted || loop_failed ? -1 : 0;
}

void pool_stop_runners(struct pool *pool)
{
	for (int k = 0; k < pool->nslots; k++)
		slot_stop(&pool->slots[k]);
}

void pool_free(struct pool *pool)
{
	if (!pool)
		return;
	for (int k = 0; k < pool->nslots; k++) {
		slot_stop(&pool->slots[k]);
		strbuf_release(&pool->slots[k].out);
		strbuf_release(&pool->slots[k].in);
	}
	for (size_t i = 0; i < pool->nfailed_starts; i++)
		free(pool->failed_starts[i].facts.detail);
	free(pool->failed_starts);
	free(pool->workdir);
	strbuf_release(&pool->outer);
	free(pool);
}
