/* workers.c - see workers.h for the processes and the wire */
#define _GNU_SOURCE
#include "base/workers.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/interrupt.h"
#include "base/util.h"

#define STOP_GRACE_MS 5000
#define TICK_MS 200
#define MAX_WORKERS 256

enum worker_state { W_NONE, W_STARTING, W_IDLE, W_BUSY, W_STOPPING };

struct worker {
	enum worker_state state;
	pid_t pid;
	int req, resp;             /* the parent's ends */
	int task;                  /* in progress, or -1 */
	uint64_t deadline;
	struct strbuf in;          /* a partial line from the worker */
	char *failure;             /* why it could not start */
};

struct pool_state {
	const struct workers_client *c;
	struct worker *ws;
	const int *tasks;
	int ntasks, next, done;
	int start_failures;
	pid_t parent;
};

/* ---- inside a worker ---- */

static void say(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(int fd, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	write_all(fd, sb.buf, sb.len);
	strbuf_release(&sb);
}

/* One line (blocking).  1: a line, 0: end of file or interrupted. */
static int read_line(int fd, struct strbuf *line)
{
	strbuf_reset(line);
	for (;;) {
		char c;
		ssize_t n = read(fd, &c, 1);
		if (n < 0 && errno == EINTR && !grader_interrupted)
			continue;
		if (n <= 0)
			return 0;
		if (c == '\n')
			return 1;
		strbuf_addch(line, c);
	}
}

static void __attribute__((noreturn)) worker_main(const struct pool_state *ps, int k, int req, int resp)
{
	const struct workers_client *c = ps->c;
	struct strbuf err = STRBUF_INIT, line = STRBUF_INIT;
	void *state = NULL;

	/* die with the parent, even when it is SIGKILLed (sandboxed children die with us in turn) */
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (getppid() != ps->parent)
		_exit(3);
	if (c->start(c->ctx, k, &state, &err) < 0) {
		for (size_t i = 0; i < err.len; i++)
			if (err.buf[i] == '\n')
				err.buf[i] = ' ';
		say(resp, "fail %s\n", err.buf);
		_exit(3);
	}
	say(resp, "ready\n");
	while (!grader_interrupted && read_line(req, &line) > 0) {
		char *end;
		long task = strtol(line.buf, &end, 10);
		if (*end || task < 0 || c->work(c->ctx, state, (int)task) < 0)
			break;
		say(resp, "done %ld\n", task);
	}
	c->stop(c->ctx, state);
	strbuf_release(&err);
	strbuf_release(&line);
	/* no exit(): the parent's atexit handlers and buffers are not ours */
	_exit(grader_interrupted ? 130 : 0);
}

/* ---- the parent's side ---- */

static int spawn_worker(struct pool_state *ps, int k, struct strbuf *err)
{
	struct worker *w = &ps->ws[k];
	int req[2], resp[2];
	pid_t pid;

	if (pipe2(req, O_CLOEXEC) < 0) {
		strbuf_addf(err, "cannot create a pipe: %s", strerror(errno));
		return -1;
	}
	if (pipe2(resp, O_CLOEXEC) < 0) {
		strbuf_addf(err, "cannot create a pipe: %s", strerror(errno));
		close(req[0]);
		close(req[1]);
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		strbuf_addf(err, "cannot start a worker: %s", strerror(errno));
		close(req[0]);
		close(req[1]);
		close(resp[0]);
		close(resp[1]);
		return -1;
	}
	if (pid == 0) {
		for (int j = 0; j < ps->c->nworkers; j++)
			if (ps->ws[j].state != W_NONE) {
				close(ps->ws[j].req);
				close(ps->ws[j].resp);
			}
		close(req[1]);
		close(resp[0]);
		worker_main(ps, k, req[0], resp[1]);
	}
	close(req[0]);
	close(resp[1]);
	fcntl(resp[0], F_SETFL, fcntl(resp[0], F_GETFL) | O_NONBLOCK);
	w->state = W_STARTING;
	w->pid = pid;
	w->req = req[1];
	w->resp = resp[0];
	w->task = -1;
	w->deadline = now_us() + (uint64_t)(ps->c->start_deadline_s * 1e6);
	strbuf_reset(&w->in);
	return 0;
}

static void describe_status(char *buf, size_t size, int status)
{
	if (WIFSIGNALED(status))
		snprintf(buf, size, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status))
		snprintf(buf, size, "exit status %d", WEXITSTATUS(status));
	else
		snprintf(buf, size, "status %d", status);
}

static void task_finished(struct pool_state *ps, int task, const struct workers_loss *lost)
{
	ps->done++;
	ps->c->finished(ps->c->ctx, task, lost);
}

/*
 * The worker is gone or must go: kill it (our own child; harmless when it
 * already exited), collect it, and finish its task.  loss: why we kill it,
 * NULL when it ended on its own (then it died, as far as its task goes).
 */
static void reap_worker(struct pool_state *ps, struct worker *w, const struct workers_loss *loss)
{
	struct workers_loss died = { WORKER_DIED, 0, 0 };
	char how[128];

	kill(w->pid, SIGKILL);
	while (waitpid(w->pid, &died.status, 0) < 0 && errno == EINTR)
		;
	if (w->req >= 0)
		close(w->req);
	close(w->resp);
	describe_status(how, sizeof(how), died.status);
	if (w->state == W_BUSY && !grader_interrupted) {
		task_finished(ps, w->task, loss ? loss : &died);
	} else if (w->state == W_STARTING && !grader_interrupted) {
		ps->start_failures++;
		if (!w->failure && loss)
			w->failure = xasprintf("a worker did not start within %.0f s", ps->c->start_deadline_s);
		else if (!w->failure)
			w->failure = xasprintf("a worker could not start (%s)", how);
	}
	w->state = W_NONE;
	w->pid = 0;
	w->req = -1;
	w->task = -1;
	strbuf_reset(&w->in);
}

/* Handle the complete lines a worker sent. */
static void worker_lines(struct pool_state *ps, struct worker *w)
{
	char *nl;
	while ((nl = memchr(w->in.buf, '\n', w->in.len))) {
		size_t len = (size_t)(nl - w->in.buf) + 1;
		*nl = '\0';
		if (!strcmp(w->in.buf, "ready") && w->state == W_STARTING) {
			w->state = W_IDLE;
		} else if (!strncmp(w->in.buf, "fail ", 5)) {
			free(w->failure);
			w->failure = xstrdup(w->in.buf + 5);
		} else if (!strncmp(w->in.buf, "done ", 5) && w->state == W_BUSY && atoi(w->in.buf + 5) == w->task) {
			int task = w->task;
			w->state = W_IDLE;
			w->task = -1;
			task_finished(ps, task, NULL);
		}
		memmove(w->in.buf, w->in.buf + len, w->in.len - len);
		w->in.len -= len;
		w->in.buf[w->in.len] = '\0';
	}
}

static void assign(struct pool_state *ps, struct worker *w, int task)
{
	char line[32];
	int n = snprintf(line, sizeof(line), "%d\n", task);
	w->state = W_BUSY;
	w->task = task;
	w->deadline = now_us() + (uint64_t)(ps->c->task_deadline_s * 1e6);
	/* a dead worker makes this fail (EPIPE); its end of file arrives next */
	write_all(w->req, line, (size_t)n);
}

/* Poll the live workers for at most timeout ms and take in what they said. */
static int poll_workers(struct pool_state *ps, int timeout, struct strbuf *err)
{
	struct pollfd pfd[MAX_WORKERS];
	int map[MAX_WORKERS], n = 0;

	for (int k = 0; k < ps->c->nworkers; k++)
		if (ps->ws[k].state != W_NONE) {
			pfd[n] = (struct pollfd){ ps->ws[k].resp, POLLIN, 0 };
			map[n++] = k;
		}
	if (poll(pfd, (nfds_t)n, timeout) < 0 && errno != EINTR) {
		strbuf_addf(err, "poll: %s", strerror(errno));
		return -1;
	}
	for (int x = 0; x < n; x++) {
		struct worker *w = &ps->ws[map[x]];
		char buf[512];
		ssize_t r;
		if (!pfd[x].revents)
			continue;
		r = read(w->resp, buf, sizeof(buf));
		if (r > 0) {
			strbuf_add(&w->in, buf, (size_t)r);
			worker_lines(ps, w);
		} else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
			reap_worker(ps, w, NULL);
		}
	}
	return 0;
}

/* Start workers up to what the remaining tasks need; give idle ones work or let them go. */
static int staff(struct pool_state *ps, struct strbuf *err)
{
	int live = 0, busy = 0, want;

	for (int k = 0; k < ps->c->nworkers; k++) {
		live += ps->ws[k].state != W_NONE;
		busy += ps->ws[k].state == W_BUSY;
	}
	want = ps->ntasks - ps->next + busy;
	if (want > ps->c->nworkers)
		want = ps->c->nworkers;
	for (int k = 0; k < ps->c->nworkers && live < want; k++)
		if (ps->ws[k].state == W_NONE) {
			if (spawn_worker(ps, k, err) < 0)
				return -1;
			live++;
		}
	for (int k = 0; k < ps->c->nworkers; k++) {
		struct worker *w = &ps->ws[k];
		if (w->state != W_IDLE)
			continue;
		if (ps->next < ps->ntasks) {
			assign(ps, w, ps->tasks[ps->next++]);
		} else {
			close(w->req); /* nothing left: the worker exits */
			w->req = -1;
			w->state = W_STOPPING;
		}
	}
	return 0;
}

/* Kill workers past their deadline (a hung task, a worker that never got ready). */
static void enforce_deadlines(struct pool_state *ps)
{
	struct workers_loss late = { WORKER_OVER_DEADLINE, 0, ps->c->task_deadline_s };
	uint64_t now = now_us();
	for (int k = 0; k < ps->c->nworkers; k++) {
		struct worker *w = &ps->ws[k];
		if ((w->state == W_BUSY || w->state == W_STARTING) && now >= w->deadline)
			reap_worker(ps, w, &late);
	}
}

/* The nearest deadline, as a poll() timeout of at most TICK_MS. */
static int next_timeout(const struct pool_state *ps)
{
	uint64_t now = now_us();
	int timeout = TICK_MS;
	for (int k = 0; k < ps->c->nworkers; k++) {
		const struct worker *w = &ps->ws[k];
		if (w->state != W_NONE && w->deadline > now && (w->deadline - now) / 1000 < (uint64_t)timeout)
			timeout = (int)((w->deadline - now) / 1000) + 1;
	}
	return timeout;
}

/* Ask every worker to finish, give them a moment, then kill what is left. */
static void stop_workers(struct pool_state *ps)
{
	uint64_t until = now_us() + STOP_GRACE_MS * 1000ull;
	struct workers_loss stopped = { WORKER_STOPPED, 0, 0 };
	struct strbuf ignored = STRBUF_INIT;
	bool live = true;

	for (int k = 0; k < ps->c->nworkers; k++) {
		struct worker *w = &ps->ws[k];
		if (w->state == W_NONE)
			continue;
		if (grader_interrupted)
			kill(w->pid, SIGTERM);
		if (w->req >= 0)
			close(w->req);
		w->req = -1;
		if (w->state != W_BUSY)
			w->state = W_STOPPING;
	}
	while (live && now_us() < until) {
		live = false;
		for (int k = 0; k < ps->c->nworkers; k++)
			live |= ps->ws[k].state != W_NONE;
		if (live && poll_workers(ps, (int)((until - now_us()) / 1000) + 1, &ignored) < 0)
			break;
	}
	for (int k = 0; k < ps->c->nworkers; k++)
		if (ps->ws[k].state != W_NONE)
			reap_worker(ps, &ps->ws[k], &stopped);
	strbuf_release(&ignored);
}

/* The first reason a worker gave for not starting. */
static void start_failure(const struct pool_state *ps, struct strbuf *err)
{
	for (int k = 0; k < ps->c->nworkers; k++)
		if (ps->ws[k].failure) {
			strbuf_addf(err, "cannot start the workers: %s", ps->ws[k].failure);
			return;
		}
	strbuf_addstr(err, "cannot start the workers");
}

int workers_run(const struct workers_client *client, const int *tasks, int ntasks, struct strbuf *err)
{
	struct pool_state ps;
	int ret = -1;

	memset(&ps, 0, sizeof(ps));
	ps.c = client;
	ps.tasks = tasks;
	ps.ntasks = ntasks;
	ps.parent = getpid();
	if (client->nworkers < 1 || client->nworkers > MAX_WORKERS) {
		strbuf_addf(err, "between 1 and %d workers, not %d", MAX_WORKERS, client->nworkers);
		return -1;
	}
	ps.ws = xcalloc((size_t)client->nworkers, sizeof(*ps.ws));
	for (int k = 0; k < client->nworkers; k++) {
		ps.ws[k].in = (struct strbuf)STRBUF_INIT;
		ps.ws[k].task = -1;
		ps.ws[k].req = ps.ws[k].resp = -1;
	}
	while (ps.done < ntasks && !grader_interrupted) {
		if (staff(&ps, err) < 0 || poll_workers(&ps, next_timeout(&ps), err) < 0)
			break;
		enforce_deadlines(&ps);
		if (ps.start_failures >= WORKERS_MAX_START_FAILURES) {
			start_failure(&ps, err);
			break;
		}
	}
	stop_workers(&ps);
	if (!err->len && !grader_interrupted && ps.done == ntasks)
		ret = 0;
	for (int k = 0; k < client->nworkers; k++) {
		strbuf_release(&ps.ws[k].in);
		free(ps.ws[k].failure);
	}
	free(ps.ws);
	return ret;
}

char *workers_scratch_dir(const char *scratch, int k)
{
	return xasprintf("%s/w%d", scratch, k);
}

char *workers_scratch(const char *what, int nworkers, struct strbuf *err)
{
	const char *tmpenv = getenv("TMPDIR");
	char *tmp = xasprintf("%s/grader-%s.XXXXXX", tmpenv && *tmpenv == '/' ? tmpenv : "/tmp", what);

	if (!mkdtemp(tmp)) {
		strbuf_addf(err, "cannot create a scratch directory '%s': %s", tmp, strerror(errno));
		free(tmp);
		return NULL;
	}
	chmod(tmp, 0711);
	for (int k = 0; k < nworkers; k++) {
		char *dir = workers_scratch_dir(tmp, k);
		int rc = mkdir(dir, 0711);
		if (rc < 0)
			strbuf_addf(err, "cannot create '%s': %s", dir, strerror(errno));
		free(dir);
		if (rc < 0) {
			remove_tree(tmp);
			free(tmp);
			return NULL;
		}
	}
	return tmp;
}

void workers_scratch_others(const char *scratch, int nworkers, int k, char **list, int *n)
{
	for (int j = 0; j < nworkers; j++)
		if (j != k)
			list[(*n)++] = workers_scratch_dir(scratch, j);
}
