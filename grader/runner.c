/* runner.c - see runner.h for the theory of operation */
#define _GNU_SOURCE
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "interrupt.h"
#include "runtime/protocol.h"
#include "sandbox.h"

/* how long a fresh runner may take to say hello */
#define STARTUP_MS 5000u
#define SKIPPED_MESSAGE "not run: an earlier test of this all-or-nothing group failed"
#define MAX_SLOTS 256

enum slot_state { SLOT_EMPTY, SLOT_STARTING, SLOT_READY, SLOT_RUNNING };

struct slot {
	enum slot_state state;
	pid_t pid;
	int ctl_fd, status_fd;
	const char *runner;
	unsigned memory_mb;
	uint64_t present;
	int task;              /* index of the task in progress, or -1 */
	uint64_t started_us, deadline_us;
	struct strbuf out;     /* request bytes not yet written */
	size_t out_pos;
	struct strbuf in;      /* report bytes received */
	bool sandbox_failed;   /* the preinit hook said it could not install the filter */
	long long cpu_base_ms;  /* the zygote's CPU (own + reaped children) after its last report */
	int slow_starts;       /* start-up timeouts so far (one retry before blaming the program) */
};

/*
 * A runner that fails before its hello - a constructor that loops, crashes
 * or makes a forbidden call - fails the same way every time it starts, so
 * the rest of its tests take the same verdict at once instead of each
 * waiting for the same failure (STARTUP_MS per test for a looping one).
 */
struct start_failure {
	const char *runner;
	enum verdict verdict;
	char *message;
	bool pending;          /* a first slow start: retried once (the machine may be busy) */
};

struct pool {
	int nslots;
	struct slot slots[MAX_SLOTS];
	const struct strbuf *filters;
	char *workdir;
	const char *const *hide_paths; /* borrowed: directories the runners must not see */
	struct start_failure *failed_starts;
	size_t nfailed_starts, failed_starts_alloc;
};

void run_task_release(struct run_task *t)
{
	strbuf_release(&t->args);
	free(t->message);
	free(t->output);
	t->message = t->output = NULL;
}

struct pool *pool_new(int slots, const struct strbuf *filters, const char *workdir,
		      const char *const *hide_paths)
{
	struct pool *pool = xcalloc(1, sizeof(*pool));
	if (slots < 1)
		slots = 1;
	if (slots > MAX_SLOTS)
		slots = MAX_SLOTS;
	pool->nslots = slots;
	pool->filters = filters;
	pool->workdir = xstrdup(workdir);
	pool->hide_paths = hide_paths;
	for (int i = 0; i < slots; i++) {
		pool->slots[i].ctl_fd = pool->slots[i].status_fd = -1;
		pool->slots[i].task = -1;
		pool->slots[i].out = (struct strbuf)STRBUF_INIT;
		pool->slots[i].in = (struct strbuf)STRBUF_INIT;
	}
	return pool;
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
	s->pid = -1;
	s->ctl_fd = s->status_fd = -1;
	s->state = SLOT_EMPTY;
	s->runner = NULL;
	strbuf_reset(&s->out);
	strbuf_reset(&s->in);
	s->out_pos = 0;
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

static int slot_start(struct pool *pool, struct slot *s, const struct run_task *t, struct strbuf *err)
{
	int ctl[2] = { -1, -1 }, st[2] = { -1, -1 }, flt[2] = { -1, -1 };
	char *argv[] = { "runner", NULL };
	struct sandbox_spawn sp;
	unsigned long long mem = (unsigned long long)t->zygote_memory_mb << 20;
	int ret = -1;

	if (pipe2(ctl, O_CLOEXEC) < 0 || pipe2(st, O_CLOEXEC) < 0 || pipe2(flt, O_CLOEXEC) < 0) {
		strbuf_addf(err, "cannot create pipes: %s", strerror(errno));
		goto cleanup;
	}
	/* the filter programs fit in the pipe buffer: write them before the start */
	if (write_all(flt[1], pool->filters->buf, pool->filters->len) < 0) {
		strbuf_addf(err, "cannot pass the seccomp filters: %s", strerror(errno));
		goto cleanup;
	}
	close(flt[1]);
	flt[1] = -1;
	memset(&sp, 0, sizeof(sp));
	sp.path = t->runner;
	sp.argv = argv;
	sp.workdir = pool->workdir;
	sp.fds[0] = sp.fds[1] = sp.fds[2] = -1;
	sp.fds[GR_FD_CONTROL] = ctl[0];
	sp.fds[GR_FD_STATUS] = st[1];
	sp.fds[GR_FD_FILTER] = flt[0];
	sp.nfds = 6;
	sp.limits.address_space = mem + (64ull << 20);
	sp.limits.stack = mem;
	sp.limits.file_size = 0;
	sp.limits.nproc = 0;
	sp.use_namespaces = true;
	/* seccomp already forbids open; this covers the fallback without it */
	sp.hide_paths = pool->hide_paths;
	s->pid = sandbox_spawn(&sp, err);
	if (s->pid < 0)
		goto cleanup;
	s->ctl_fd = ctl[1];
	s->status_fd = st[0];
	ctl[1] = st[0] = -1;
	fcntl(s->ctl_fd, F_SETFL, O_NONBLOCK);
	fcntl(s->status_fd, F_SETFL, O_NONBLOCK);
	s->state = SLOT_STARTING;
	s->sandbox_failed = false;
	s->cpu_base_ms = 0; /* the first test pays for any work done before main */
	s->runner = t->runner;
	s->memory_mb = t->zygote_memory_mb;
	s->started_us = now_us();
	s->deadline_us = s->started_us + STARTUP_MS * 1000ull;
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
	return ret;
}

static void finish_task(struct run_task *t, enum verdict v, char *message)
{
	t->done = true;
	t->verdict = v;
	free(t->message);
	t->message = message;
}

/* slow: a start-up timeout, which counts only the second time */
static void remember_start_failure(struct pool *pool, const struct run_task *t, bool slow)
{
	struct start_failure *f;
	for (size_t i = 0; i < pool->nfailed_starts; i++)
		if (pool->failed_starts[i].runner == t->runner) {
			pool->failed_starts[i].pending = false;
			return;
		}
	ALLOC_GROW(pool->failed_starts, pool->nfailed_starts + 1, pool->failed_starts_alloc);
	f = &pool->failed_starts[pool->nfailed_starts++];
	f->runner = t->runner;
	f->verdict = t->verdict;
	f->message = xstrdup(t->message ? t->message : verdict_words(t->verdict));
	f->pending = slow;
}

static const struct start_failure *start_failure_of(const struct pool *pool, const char *runner)
{
	for (size_t i = 0; i < pool->nfailed_starts; i++)
		if (pool->failed_starts[i].runner == runner && !pool->failed_starts[i].pending)
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
 * From /proc/<pid>/stat: the state and CPU time (user + system, with or
 * without reaped children) in ms.  0, or -1 when unknown.
 */
static int proc_stat(long pid, char *state, bool with_children, unsigned long long *cpu_ms)
{
	char buf[1024], *p;
	unsigned long long utime, stime, cutime, cstime;
	long hz = sysconf(_SC_CLK_TCK);

	if (hz <= 0 || read_proc(pid, "stat", buf, sizeof(buf)) < 0)
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

/*
 * CPU time the runner and its reaped children have used, in ms, read by the
 * grader itself (the runner's own reports could be forged by code that runs
 * before main).  -1 when unknown.
 */
static long long proc_cpu_ms(pid_t pid)
{
	unsigned long long ms;
	char state;
	return proc_stat(pid, &state, true, &ms) < 0 ? -1 : (long long)ms;
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

/*
 * The case child of a zygote we are about to kill at the wall-clock limit:
 * its state and CPU time, so the message can say why it did not answer.
 * Reads /proc: the zygote's newest child (the last listed; constructors may
 * have left older ones).  Returns 0, or -1 when unknown.
 */
static int case_child_state(pid_t zygote, char *state, unsigned *cpu_ms)
{
	char name[64], buf[4096], *p, *end;
	long child = -1;
	unsigned long long ms;

	snprintf(name, sizeof(name), "task/%d/children", (int)zygote);
	if (read_proc(zygote, name, buf, sizeof(buf)) < 0)
		return -1;
	for (p = buf;; p = end) {
		long pid = strtol(p, &end, 10);
		if (end == p)
			break;
		child = pid;
	}
	if (child <= 0 || proc_stat(child, state, false, &ms) < 0)
		return -1;
	*cpu_ms = (unsigned)ms;
	return 0;
}

static char *wall_limit_message(const struct run_task *t, bool known, char state, unsigned cpu_ms)
{
	if (!known)
		return xasprintf("no answer within the wall-clock limit of %u ms: the program was sleeping, "
				 "waiting or stopped (or the machine too busy to run it)", t->wall_ms);
	if (state == 'T' || state == 't')
		return xasprintf("no answer within the wall-clock limit of %u ms: the program was stopped "
				 "(SIGSTOP on itself?) after %u ms of CPU time", t->wall_ms, cpu_ms);
	if (state == 'R')
		return xasprintf("no answer within the wall-clock limit of %u ms: the program was still running "
				 "after %u ms of CPU time (the machine was too busy to give it the CPU limit of %u ms)",
				 t->wall_ms, cpu_ms, t->cpu_ms);
	return xasprintf("no answer within the wall-clock limit of %u ms: the program was sleeping or waiting "
			 "(sleep(), pause()?) after %u ms of CPU time", t->wall_ms, cpu_ms);
}

static const char *signal_words(int sig)
{
	switch (sig) {
	case SIGSEGV:
		return "SIGSEGV: segmentation fault - an invalid memory access (a bad pointer, an index out of "
		       "bounds, or a stack overflow from too deep recursion)";
	case SIGBUS:
		return "SIGBUS: bus error - an invalid memory access";
	case SIGFPE:
		return "SIGFPE: arithmetic error - probably a division by zero";
	case SIGABRT:
		return "SIGABRT: aborted - abort() or a failed assert()";
	case SIGILL:
		return "SIGILL: illegal instruction";
	case SIGKILL:
		return "SIGKILL: killed";
	case SIGPIPE:
		return "SIGPIPE: wrote to a closed pipe";
	case SIGSYS:
		return "SIGSYS: a forbidden system call";
	default:
		return strsignal(sig);
	}
}

/* Turn a case report into a provisional verdict (correctness is judged later). */
static void judge_report(struct run_task *t, const struct gr_report *r, const char *output)
{
	unsigned long long mem_kb = (unsigned long long)t->memory_mb << 10;
	t->cpu_used_ms = (unsigned)(r->cpu_us / 1000);
	t->peak_kb = r->maxrss_kb;
	t->output_total = r->output_total;
	free(t->output);
	t->output = r->output_kept ? xstrndup(output, r->output_kept) : NULL;

	/* the runner holds the submission's code: what it reports about itself
	 * is the submission's doing (a constructor can forge these), so these are
	 * run errors of the submission, never judge errors */
	if (r->flags & GR_BAD_REQUEST) {
		finish_task(t, V_RUN_ERROR, xstrdup("the program could not read the test's arguments "
						    "(did code before main tamper with the runner?)"));
	} else if (r->flags & GR_SPAWN_FAILED) {
		finish_task(t, V_RUN_ERROR, xstrdup("the program could not start the test (fork failed: "
						    "did code before main use up processes or memory?)"));
	} else if (r->flags & GR_FORBIDDEN) {
		const char *name = sandbox_syscall_name(r->syscall_nr);
		/* without a PID namespace the zygote's filter cannot let a test signal itself (sandbox.c) */
		bool self_signal = !sandbox_probe()->namespaces &&
				   (!strcmp(name, "tgkill") || !strcmp(name, "kill") || !strcmp(name, "tkill"));
		finish_task(t, V_FORBIDDEN, xasprintf("your code made the system call '%s', which is not allowed "
						       "while grading (no files, processes, signals or network)%s",
						       name, self_signal ? "; abort(), assert() and raise() send "
						       "signals too, which this sandbox cannot allow" : ""));
	} else if (r->flags & GR_NOMEM) {
		finish_task(t, V_MEMORY_LIMIT, xasprintf("an allocation of %llu bytes failed: the memory limit is %u MiB",
							 (unsigned long long)r->nomem_bytes, t->memory_mb));
	} else if (r->flags & GR_OUTPUT_LIMIT) {
		finish_task(t, V_OUTPUT_LIMIT, xasprintf("printed more than %u KiB (stdout and stderr together); "
							 "remove debugging output", t->output_kb));
	} else if (WIFSIGNALED(r->wait_status)) {
		int sig = WTERMSIG(r->wait_status);
		if ((sig == SIGKILL && t->cpu_used_ms + 5 >= t->cpu_ms) || sig == SIGXCPU)
			finish_task(t, V_TIMELIMIT, xasprintf("used more than the CPU time limit of %u ms", t->cpu_ms));
		else if ((sig == SIGSEGV || sig == SIGBUS || sig == SIGABRT || sig == SIGKILL) &&
			 r->maxrss_kb * 10 >= mem_kb * 9)
			finish_task(t, V_MEMORY_LIMIT, xasprintf("crashed (%s) after using %llu MiB, at the memory limit of %u MiB",
								 strsignal(sig), (unsigned long long)r->maxrss_kb >> 10, t->memory_mb));
		else if (sig == SIGSYS)
			/* no report from the trap's handler: SIGSYS was blocked, or the filter killed a foreign ABI's call */
			finish_task(t, V_FORBIDDEN, xstrdup("your code made a system call that is not allowed while grading "
							    "(no files, processes, threads, signals or network); which one is "
							    "unknown: it came with signals blocked, as in system(), popen() "
							    "and pthread_create(), or through a 32-bit system call entry"));
		else
			finish_task(t, V_RUN_ERROR, xasprintf("crashed with %s", signal_words(sig)));
	} else if (WIFEXITED(r->wait_status) && WEXITSTATUS(r->wait_status) == 122 && !(r->flags & GR_CASE_READY)) {
		finish_task(t, V_JUDGE_ERROR, xstrdup("the sandbox could not be installed for this test"));
	} else if (!(r->flags & GR_ANSWERED)) {
		finish_task(t, V_NO_OUTPUT, xasprintf("%s ended the program (exit code %d) before returning an answer: "
						      "do not call exit() or close file descriptors",
						      t->function_name, WIFEXITED(r->wait_status) ? WEXITSTATUS(r->wait_status) : -1));
	} else {
		t->answered = true;
		t->answer = r->answer;
		finish_task(t, V_CORRECT, NULL);
	}
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
 * grader's channel) while running or starting task t.
 */
static void runner_lost(struct slot *s, struct run_task *t, bool starting, bool protocol_error)
{
	int status;
	const char *when = starting ? "while starting (before main: a constructor?)" : "outside the test";

	if (protocol_error) {
		slot_kill_status(s);
		finish_task(t, V_RUN_ERROR, xasprintf("the program wrote on the grader's channel %s: the runner could "
						      "not be trusted any more", when));
		return;
	}
	slot_wait_exit(s);
	status = slot_kill_status(s);
	/* exit codes alone prove nothing (a constructor can _exit(121)): only the
	 * record the preinit hook sends before any student code runs does */
	if (s->sandbox_failed)
		finish_task(t, V_JUDGE_ERROR, xstrdup("the sandbox could not be installed (seccomp refused the filter)"));
	else if (WIFSIGNALED(status))
		finish_task(t, V_RUN_ERROR, xasprintf("the program crashed %s with %s", when, signal_words(WTERMSIG(status))));
	else
		finish_task(t, V_RUN_ERROR, xasprintf("the program ended %s (exit code %d)", when,
						      WIFEXITED(status) ? WEXITSTATUS(status) : -1));
}

static void send_request(struct slot *s, struct run_task *t, int task_index)
{
	struct gr_request rq;
	memset(&rq, 0, sizeof(rq));
	rq.magic = GR_MAGIC_REQUEST;
	rq.size = (uint32_t)t->args.len;
	rq.case_id = (uint32_t)task_index;
	rq.function = (uint32_t)t->function;
	rq.cpu_ms = t->cpu_ms;
	rq.memory_mb = t->memory_mb;
	rq.output_kb = t->output_kb;
	strbuf_reset(&s->out);
	s->out_pos = 0;
	strbuf_add(&s->out, &rq, sizeof(rq));
	strbuf_add(&s->out, t->args.buf, t->args.len);
	s->state = SLOT_RUNNING;
	s->task = task_index;
	s->started_us = now_us();
	s->deadline_us = s->started_us + (uint64_t)t->wall_ms * 1000u;
}

/* Were seccomp filters handed to the runners (not the fallback)? */
static bool pool_filtered(const struct pool *pool)
{
	uint32_t len = 0;
	if (pool->filters->len >= sizeof(len))
		memcpy(&len, pool->filters->buf, sizeof(len));
	return len != 0;
}

/*
 * The CPU limit, checked from outside: everything the runner used since its
 * last report (the case child, reaped by it, included) must fit the limit.
 * This catches code before main that answers requests itself and reports a
 * made-up time.  Ticks are coarse (10 ms): allow some slack.
 */
static void check_cpu(struct slot *s, struct run_task *t)
{
	long long now = proc_cpu_ms(s->pid), used;
	if (now < 0)
		return;
	used = now - s->cpu_base_ms;
	s->cpu_base_ms = now;
	if (t->verdict == V_CORRECT && used > (long long)t->cpu_ms + 100) {
		t->cpu_used_ms = (unsigned)used;
		t->answered = false;
		finish_task(t, V_TIMELIMIT, xasprintf("used %lld ms of CPU by the grader's count, above the limit "
						      "of %u ms (work done before main counts too)", used, t->cpu_ms));
	}
}

/*
 * Handle bytes from the zygote.  Returns 0, or when the slot must be torn
 * down: -1 at EOF (the zygote ended or closed its channel), -2 when what
 * came is not our protocol, -3 when the task was finished here (the zygote
 * itself made a forbidden call).
 */
static int slot_input(const struct pool *pool, struct slot *s, struct run_task *tasks)
{
	bool eof = false;
	for (;;) {
		char buf[65536];
		ssize_t n = read(s->status_fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n <= 0) {
			eof = true; /* parse what came before the end */
			break;
		}
		strbuf_add(&s->in, buf, (size_t)n);
		if (s->in.len > (1u << 20))
			return -2; /* a runner does not send that much: protocol broken */
	}
	for (;;) {
		uint32_t magic;
		if (s->in.len < sizeof(magic))
			return eof ? -1 : 0;
		memcpy(&magic, s->in.buf, sizeof(magic));
		if (s->state == SLOT_STARTING && magic == GR_MAGIC_SANDBOX) {
			s->sandbox_failed = true;
			return -1;
		}
		if (s->state == SLOT_STARTING && magic == GR_MAGIC_HELLO) {
			struct gr_hello h;
			if (s->in.len < sizeof(h))
				return eof ? -1 : 0;
			memcpy(&h, s->in.buf, sizeof(h));
			/* check from outside that the filter is really in place: code that
			 * runs before main could have defined prctl() or syscall() */
			if (pool_filtered(pool) && proc_seccomp_mode(s->pid) != 2) {
				if (s->task >= 0)
					finish_task(&tasks[s->task], V_FORBIDDEN,
						    xstrdup("your program switched the sandbox off before main (it defines "
							    "functions the runner needs, such as prctl or syscall)"));
				return -3;
			}
			s->present = h.present;
			s->state = SLOT_READY;
			memmove(s->in.buf, s->in.buf + sizeof(h), s->in.len - sizeof(h));
			s->in.len -= sizeof(h);
			continue;
		}
		if (magic == GR_MAGIC_FORBID || (s->state == SLOT_RUNNING && magic == GR_MAGIC_REPORT)) {
			struct gr_report r;
			if (s->in.len < sizeof(r))
				return eof ? -1 : 0;
			memcpy(&r, s->in.buf, sizeof(r));
			if (magic == GR_MAGIC_FORBID) {
				/* the zygote itself (a constructor) made a forbidden call */
				if (s->task >= 0)
					finish_task(&tasks[s->task], V_FORBIDDEN,
						    xasprintf("your program made the system call '%s' %s, which is not allowed",
							      sandbox_syscall_name(r.syscall_nr),
							      s->state == SLOT_STARTING ? "while starting (before main: a constructor?)"
							      : "outside the test (in a process a constructor started?)"));
				return -3;
			}
			if (r.output_kept > GR_OUTPUT_KEEP || r.case_id != (uint32_t)s->task)
				return -2;
			if (s->in.len < sizeof(r) + r.output_kept)
				return eof ? -1 : 0;
			tasks[s->task].wall_used_ms = (unsigned)((now_us() - s->started_us) / 1000);
			judge_report(&tasks[s->task], &r, s->in.buf + sizeof(r));
			check_cpu(s, &tasks[s->task]);
			memmove(s->in.buf, s->in.buf + sizeof(r) + r.output_kept, s->in.len - sizeof(r) - r.output_kept);
			s->in.len -= sizeof(r) + r.output_kept;
			s->task = -1;
			s->state = SLOT_READY;
			continue;
		}
		return -2; /* anything else: the runner is not speaking our protocol */
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

/* What pool_run tracks across its loop. */
struct run_state {
	int done;
	bool *failed_group;    /* by group_key: an all-or-nothing group that failed */
	bool stop_group_on_failure;
	bool (*judge)(const struct run_task *t, void *ctx);
	void *ctx;
};

/* Count a finished task; a failure stops the rest of its all-or-nothing group. */
static void task_done(struct run_state *st, const struct run_task *t)
{
	st->done++;
	if (st->stop_group_on_failure && t->group_key >= 0 &&
	    (t->verdict != V_CORRECT || (st->judge && !st->judge(t, st->ctx))))
		st->failed_group[t->group_key] = true;
}

/*
 * With several slots, tests of an all-or-nothing group after its first
 * failure may already have run when the failure came in.  Make the verdicts
 * independent of -j and timing: in file order, everything after a group's
 * first failure is skipped, whatever it did.
 */
static void settle_groups(struct run_task *tasks, int ntasks, struct run_state *st, int max_key)
{
	memset(st->failed_group, 0, (size_t)max_key + 2);
	for (int i = 0; i < ntasks; i++) {
		struct run_task *t = &tasks[i];
		if (t->group_key < 0 || !t->done)
			continue;
		if (st->failed_group[t->group_key]) {
			if (t->verdict != V_SKIPPED) {
				finish_task(t, V_SKIPPED, xstrdup(SKIPPED_MESSAGE));
				t->answered = false;
				free(t->output);
				t->output = NULL;
				t->output_total = 0;
				t->cpu_used_ms = t->wall_used_ms = 0;
				t->peak_kb = 0;
			}
			continue;
		}
		if (t->verdict != V_CORRECT || (st->judge && !st->judge(t, st->ctx)))
			st->failed_group[t->group_key] = true;
	}
}

int pool_run(struct pool *pool, struct run_task *tasks, int ntasks, bool stop_group_on_failure,
	     bool (*judge)(const struct run_task *t, void *ctx), void *ctx)
{
	struct run_state st = { 0, NULL, stop_group_on_failure, judge, ctx };
	bool loop_failed = false;
	int next = 0;
	int max_key = -1;

	for (int i = 0; i < ntasks; i++)
		if (tasks[i].group_key > max_key)
			max_key = tasks[i].group_key;
	st.failed_group = xcalloc((size_t)max_key + 2, sizeof(bool));

	while (st.done < ntasks) {
		struct pollfd p[2 * MAX_SLOTS];
		int owner[2 * MAX_SLOTS], np = 0;
		uint64_t now, nearest = UINT64_MAX;
		int timeout;

		if (grader_interrupted)
			break;
		/* give idle slots work */
		for (int k = 0; k < pool->nslots; k++) {
			struct slot *s = &pool->slots[k];
			const struct start_failure *failed;
			struct run_task *t;
			if (s->task >= 0 || s->state == SLOT_STARTING)
				continue;
			while (next < ntasks && stop_group_on_failure && tasks[next].group_key >= 0 &&
			       st.failed_group[tasks[next].group_key]) {
				finish_task(&tasks[next], V_SKIPPED,
					    xstrdup(SKIPPED_MESSAGE));
				task_done(&st, &tasks[next]);
				next++;
			}
			if (next >= ntasks)
				break;
			t = &tasks[next];
			failed = start_failure_of(pool, t->runner);
			if (failed) {
				finish_task(t, failed->verdict, xasprintf("%s (not started again: the program failed "
									  "the same way for an earlier test)", failed->message));
				task_done(&st, t);
				next++;
				k--; /* try this slot again with the next task */
				continue;
			}
			if (s->state != SLOT_EMPTY && (s->runner != t->runner || s->memory_mb != t->zygote_memory_mb))
				slot_stop(s);
			if (s->state == SLOT_EMPTY) {
				struct strbuf err = STRBUF_INIT;
				if (slot_start(pool, s, t, &err) < 0) {
					finish_task(t, V_JUDGE_ERROR, strbuf_detach(&err));
					task_done(&st, t);
					next++;
					k--; /* try this slot again with the next task */
					continue;
				}
			}
			s->task = next++; /* sent below once the runner is ready */
		}
		/* a slot that finished starting may need its request */
		bool progressed = false; /* a task ended without I/O: do not sleep in poll */
		for (int k = 0; k < pool->nslots; k++) {
			struct slot *s = &pool->slots[k];
			if (s->state == SLOT_READY && s->task >= 0) {
				struct run_task *t = &tasks[s->task];
				if (t->function < 64 && !(s->present & (1ull << t->function))) {
					finish_task(t, V_MISSING, xasprintf("your file does not define the function '%s'",
									   t->function_name));
					s->task = -1;
					task_done(&st, t);
					progressed = true;
					continue;
				}
				send_request(s, t, s->task);
				/* usually fits the pipe at once; the rest goes out on POLLOUT */
				if (slot_output(s) < 0) {
					runner_lost(s, t, false, false);
					s->task = -1;
					task_done(&st, t);
				}
			}
		}
		now = now_us();
		for (int k = 0; k < pool->nslots; k++) {
			struct slot *s = &pool->slots[k];
			if (s->state == SLOT_EMPTY)
				continue;
			if (s->task >= 0 && now >= s->deadline_us) {
				struct run_task *t = &tasks[s->task];
				bool starting = s->state == SLOT_STARTING;
				unsigned cpu_ms = 0;
				char state = '?';
				bool known = !starting && case_child_state(s->pid, &state, &cpu_ms) == 0;
				slot_kill_status(s);
				if (starting) {
					finish_task(t, V_TIMELIMIT, xasprintf("the program did not start within %u ms "
									      "(something runs forever before main?)", STARTUP_MS));
					remember_start_failure(pool, t, true);
				} else {
					finish_task(t, V_TIMELIMIT, wall_limit_message(t, known, state, cpu_ms));
					if (known)
						t->cpu_used_ms = cpu_ms;
				}
				t->wall_used_ms = (unsigned)((now - s->started_us) / 1000);
				s->task = -1;
				task_done(&st, t);
				continue;
			}
			if (s->deadline_us < nearest && s->task >= 0)
				nearest = s->deadline_us;
			p[np] = (struct pollfd){ s->status_fd, POLLIN, 0 };
			owner[np++] = k;
			if (s->out_pos < s->out.len) {
				p[np] = (struct pollfd){ s->ctl_fd, POLLOUT, 0 };
				owner[np++] = k;
			}
		}
		if (st.done >= ntasks)
			break;
		timeout = nearest == UINT64_MAX ? 100 : (int)((nearest - now) / 1000 + 1);
		if (timeout > 100)
			timeout = 100;
		if (progressed)
			timeout = 0;
		if (poll(p, (nfds_t)np, timeout) < 0 && errno != EINTR) {
			loop_failed = true;
			break;
		}
		for (int i = 0; i < np; i++) {
			struct slot *s = &pool->slots[owner[i]];
			int task = s->task;
			bool starting = s->state == SLOT_STARTING;
			int rc = 0;
			if (!p[i].revents || s->state == SLOT_EMPTY)
				continue;
			if (p[i].events == POLLOUT)
				rc = slot_output(s);
			else
				rc = slot_input(pool, s, tasks);
			if (task >= 0 && tasks[task].done && s->task != task)
				task_done(&st, &tasks[task]); /* a report completed the task */
			if (rc < 0) {
				if (s->task >= 0) {
					struct run_task *t = &tasks[s->task];
					if (!t->done)
						runner_lost(s, t, starting, rc == -2);
					else
						slot_stop(s);
					if (starting)
						remember_start_failure(pool, t, false);
					s->task = -1;
					task_done(&st, t);
				} else {
					slot_stop(s);
				}
			}
		}
	}
	/* a task never finished must not keep its initial (correct) verdict */
	for (int i = 0; i < ntasks; i++)
		if (!tasks[i].done)
			finish_task(&tasks[i], V_JUDGE_ERROR, xstrdup("not run: the grader stopped early"));
	if (stop_group_on_failure && !grader_interrupted)
		settle_groups(tasks, ntasks, &st, max_key);
	free(st.failed_group);
	return grader_interrupted || loop_failed ? -1 : 0;
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
		free(pool->failed_starts[i].message);
	free(pool->failed_starts);
	free(pool->workdir);
	free(pool);
}
