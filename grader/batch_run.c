/*
 * batch_run.c - the worker processes of `grader batch` and the progress
 * display.  See batch.h for the process tree.
 *
 * Protocol on two pipes per worker, one line per message:
 *   worker -> parent   "ready" (engine up) | "fail <why>" (cannot start) | "done <i>"
 *   parent -> worker   "<i>" (grade student i) | EOF (finish and exit)
 * A worker answers "done" only after the student's state record is on
 * disk, so a result is either complete or absent, whatever gets killed.
 */
#define _GNU_SOURCE
#include "batch.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner.h"

#define WORKER_START_S 120        /* engine_init compiles the runtime */
#define MAX_START_FAILURES 3
#define STOP_GRACE_MS 5000
#define TICK_MS 200

enum worker_state { W_NONE, W_STARTING, W_IDLE, W_BUSY, W_STOPPING };

struct worker {
	enum worker_state state;
	pid_t pid;
	int req, resp;             /* the parent's ends */
	int student;               /* being graded, or -1 */
	uint64_t since, deadline;
	struct strbuf in;          /* a partial line from the worker */
	char *dir;                 /* its scratch parent: tmp/w<k> */
	char *failure;             /* "fail" message of a worker that could not start */
};

struct progress {
	bool tty;
	int total, done, failed;
	uint64_t started, drawn;
};

/* ---- the worker process ---- */

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

static void __attribute__((noreturn)) worker_main(struct batch *b, struct worker *ws, int k, int req, int resp)
{
	struct engine e;
	struct engine_options opts = b->engine.opts;
	struct strbuf err = STRBUF_INIT, line = STRBUF_INIT;
	const char **hidden = xcalloc((size_t)b->nworkers + 4, sizeof(char *));
	int nh = 0;
	bool usage;

	/* die with the parent, even when it is SIGKILLed (the runners die with us in turn) */
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (getppid() != b->parent)
		_exit(GRADER_EXIT_INTERNAL);
	/* a scratch space of its own, where no other worker's compiler can look */
	if (setenv("TMPDIR", ws[k].dir, 1) < 0)
		_exit(GRADER_EXIT_INTERNAL);
	hidden[nh++] = b->outdir;
	hidden[nh++] = b->submissions;
	hidden[nh++] = b->engine.scratch;
	for (int j = 0; j < b->nworkers; j++)
		if (j != k)
			hidden[nh++] = ws[j].dir;
	opts.extra_hidden = hidden;
	opts.jobs = b->worker_jobs;
	opts.quiet = true;
	if (engine_init(&e, &opts, &err, &usage) < 0) {
		gradebook_one_line(err.buf);
		say(resp, "fail %s\n", err.buf);
		engine_release(&e);
		_exit(GRADER_EXIT_INTERNAL);
	}
	/* the parent's reference answers, inherited through fork, become this engine's */
	engine_adopt_reference(&e, &b->engine);
	say(resp, "ready\n");
	while (!grader_interrupted && read_line(req, &line) > 0) {
		char *end;
		long i = strtol(line.buf, &end, 10);
		if (*end || i < 0 || i >= b->nstudents)
			break;
		if (batch_grade_student(b, &e, (int)i) < 0)
			break;
		say(resp, "done %ld\n", i);
	}
	engine_release(&e);
	/* no exit(): the parent's atexit handlers and buffers are not ours */
	_exit(grader_interrupted ? 130 : 0);
}

/* ---- progress ---- */

static void format_duration(char *buf, size_t size, double s)
{
	long t = (long)(s + 0.5);
	if (t >= 3600)
		snprintf(buf, size, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, size, "%ld:%02ld", t / 60, t % 60);
}

static void progress_draw(struct progress *p, bool force)
{
	uint64_t now = now_us();
	double elapsed = (double)(now - p->started) / 1e6;
	double rate = elapsed > 0 ? p->done / elapsed : 0;
	char eta[32] = "?", bar[31];
	int fill;

	if (!p->tty || (!force && now - p->drawn < TICK_MS * 1000u))
		return;
	p->drawn = now;
	fill = p->total ? (int)(30.0 * p->done / p->total) : 30;
	for (int i = 0; i < 30; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[30] = '\0';
	if (p->done && rate > 0)
		format_duration(eta, sizeof(eta), (p->total - p->done) / rate);
	fprintf(stderr, "\r[%s] %d/%d  %.2f/s  left %s  failed %d\033[K", bar, p->done, p->total, rate, eta,
		p->failed);
	fflush(stderr);
}

/* One student finished: state (or NULL and a reason) tells how. */
static void progress_student(struct progress *p, const struct batch *b, int i, const struct student_state *st)
{
	const char *status = st ? st->status : "error: no result";
	bool failed = !st || !st->graded;

	p->done++;
	p->failed += failed;
	if (p->tty) {
		if (failed)
			fprintf(stderr, "\r\033[Kgrader: %s: %s\n", b->students[i].id, status);
		progress_draw(p, true);
		return;
	}
	fprintf(stderr, "grader: [%d/%d] %s: ", p->done, p->total, b->students[i].id);
	if (st && st->graded) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "%.6g/%.6g", st->score, manifest_max_score(&b->manifest));
		fprintf(stderr, "%s %s (%.1f s)\n", sb.buf, status, st->seconds);
		strbuf_release(&sb);
	} else {
		fprintf(stderr, "%s\n", status);
	}
}

/* ---- the parent's side ---- */

static int spawn_worker(struct batch *b, struct worker *ws, int k)
{
	int req[2], resp[2];
	pid_t pid;

	if (pipe2(req, O_CLOEXEC) < 0)
		return error("cannot create a pipe: %s", strerror(errno));
	if (pipe2(resp, O_CLOEXEC) < 0) {
		close(req[0]);
		close(req[1]);
		return error("cannot create a pipe: %s", strerror(errno));
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(req[0]);
		close(req[1]);
		close(resp[0]);
		close(resp[1]);
		return error("cannot start a worker: %s", strerror(errno));
	}
	if (pid == 0) {
		for (int j = 0; j < b->nworkers; j++)
			if (ws[j].state != W_NONE) {
				close(ws[j].req);
				close(ws[j].resp);
			}
		close(req[1]);
		close(resp[0]);
		worker_main(b, ws, k, req[0], resp[1]);
	}
	close(req[0]);
	close(resp[1]);
	fcntl(resp[0], F_SETFL, fcntl(resp[0], F_GETFL) | O_NONBLOCK);
	ws[k].state = W_STARTING;
	ws[k].pid = pid;
	ws[k].req = req[1];
	ws[k].resp = resp[0];
	ws[k].student = -1;
	ws[k].since = now_us();
	ws[k].deadline = ws[k].since + WORKER_START_S * 1000000ull;
	strbuf_reset(&ws[k].in);
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

/* After a student is done (or failed): read back what is on disk and show it. */
static void student_finished(struct batch *b, struct progress *p, int i)
{
	struct student_state st;
	if (state_read(b->outdir, b->students[i].id, &b->manifest, &st) < 0) {
		batch_write_failure(b, i, "the worker finished without saving a result", true);
		if (state_read(b->outdir, b->students[i].id, &b->manifest, &st) < 0) {
			progress_student(p, b, i, NULL);
			return;
		}
	}
	progress_student(p, b, i, &st);
	student_state_release(&st);
}

/*
 * The worker is gone or must go: kill it (our own child; harmless when it
 * already exited), collect it, and give its student a row.  why: NULL when
 * it ended normally.
 */
static void reap_worker(struct batch *b, struct worker *w, struct progress *p, const char *why, int *start_failures)
{
	int status = 0;
	char how[128];

	kill(w->pid, SIGKILL);
	while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
		;
	close(w->req);
	close(w->resp);
	describe_status(how, sizeof(how), status);
	if (w->state == W_BUSY && !grader_interrupted) {
		char *reason = why ? xstrdup(why)
				   : xasprintf("the grader's worker died while grading this student (%s); "
					       "--resume grades it again", how);
		batch_write_failure(b, w->student, reason, true);
		free(reason);
		student_finished(b, p, w->student);
	} else if (w->state == W_STARTING && !grader_interrupted) {
		(*start_failures)++;
		if (!w->failure)
			w->failure = xasprintf("a worker could not start (%s)", how);
	}
	w->state = W_NONE;
	w->pid = 0;
	w->student = -1;
	strbuf_reset(&w->in);
}

/* Handle the complete lines a worker sent. */
static void worker_lines(struct batch *b, struct worker *w, struct progress *p)
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
		} else if (!strncmp(w->in.buf, "done ", 5) && w->state == W_BUSY &&
			   atoi(w->in.buf + 5) == w->student) {
			int i = w->student;
			w->state = W_IDLE;
			w->student = -1;
			student_finished(b, p, i);
		}
		memmove(w->in.buf, w->in.buf + len, w->in.len - len);
		w->in.len -= len;
		w->in.buf[w->in.len] = '\0';
	}
}

static void assign(struct batch *b, struct worker *w, int student)
{
	char line[32];
	int n = snprintf(line, sizeof(line), "%d\n", student);
	w->state = W_BUSY;
	w->student = student;
	w->since = now_us();
	w->deadline = w->since + (uint64_t)(b->deadline_s * 1e6);
	/* a dead worker makes this fail (EPIPE); its end of file arrives next */
	write_all(w->req, line, (size_t)n);
}

/* Take in what polled workers said; a worker whose pipe ended is reaped. */
static void read_workers(struct batch *b, struct worker *ws, const struct pollfd *pfd, const int *map, int n,
			 struct progress *p, int *start_failures)
{
	for (int x = 0; x < n; x++) {
		struct worker *w = &ws[map[x]];
		char buf[512];
		ssize_t r;
		if (!pfd[x].revents)
			continue;
		r = read(w->resp, buf, sizeof(buf));
		if (r > 0) {
			strbuf_add(&w->in, buf, (size_t)r);
			worker_lines(b, w, p);
		} else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
			reap_worker(b, w, p, NULL, start_failures);
		}
	}
}

/* Ask every worker to finish, give them a moment, then kill what is left. */
static void stop_workers(struct batch *b, struct worker *ws, struct progress *p, int *start_failures)
{
	uint64_t until = now_us() + STOP_GRACE_MS * 1000ull;
	for (int k = 0; k < b->nworkers; k++) {
		if (ws[k].state == W_NONE)
			continue;
		if (grader_interrupted)
			kill(ws[k].pid, SIGTERM);
		close(ws[k].req);
		ws[k].req = -1;
		if (ws[k].state != W_BUSY)
			ws[k].state = W_STOPPING;
	}
	for (;;) {
		struct pollfd pfd[256];
		int map[256], n = 0;
		uint64_t now = now_us();
		for (int k = 0; k < b->nworkers && n < 256; k++)
			if (ws[k].state != W_NONE) {
				pfd[n] = (struct pollfd){ ws[k].resp, POLLIN, 0 };
				map[n++] = k;
			}
		if (!n || now >= until)
			break;
		if (poll(pfd, (nfds_t)n, (int)((until - now) / 1000) + 1) < 0 && errno != EINTR)
			break;
		read_workers(b, ws, pfd, map, n, p, start_failures);
	}
	for (int k = 0; k < b->nworkers; k++)
		if (ws[k].state != W_NONE)
			reap_worker(b, &ws[k], p, "the batch stopped while grading this student", start_failures);
}

int batch_run(struct batch *b)
{
	struct worker *ws = xcalloc((size_t)b->nworkers + 1, sizeof(*ws));
	struct progress p;
	int next = 0, start_failures = 0, ret = -1;
	char *fatal = NULL;
	const char *term = getenv("TERM");

	memset(&p, 0, sizeof(p));
	p.tty = isatty(STDERR_FILENO) && !(term && !strcmp(term, "dumb"));
	p.total = b->ntodo;
	p.started = now_us();
	for (int k = 0; k < b->nworkers; k++) {
		ws[k].in = (struct strbuf)STRBUF_INIT;
		ws[k].student = -1;
		ws[k].req = ws[k].resp = -1;
		ws[k].dir = xasprintf("%s/w%d", b->tmp, k);
		if (mkdir(ws[k].dir, 0711) < 0) {
			error("cannot create '%s': %s", ws[k].dir, strerror(errno));
			goto cleanup;
		}
	}
	progress_draw(&p, true);
	while (p.done < b->ntodo && !grader_interrupted) {
		struct pollfd pfd[256];
		int map[256], n = 0, live = 0, busy = 0, want, timeout = TICK_MS;
		uint64_t now;

		for (int k = 0; k < b->nworkers; k++) {
			live += ws[k].state != W_NONE;
			busy += ws[k].state == W_BUSY;
		}
		want = b->ntodo - next + busy;
		if (want > b->nworkers)
			want = b->nworkers;
		for (int k = 0; k < b->nworkers && live < want; k++)
			if (ws[k].state == W_NONE) {
				if (spawn_worker(b, ws, k) < 0)
					goto cleanup;
				live++;
			}
		for (int k = 0; k < b->nworkers; k++) {
			if (ws[k].state != W_IDLE)
				continue;
			if (next < b->ntodo) {
				assign(b, &ws[k], b->todo[next++]);
			} else {
				close(ws[k].req); /* nothing left: the worker exits */
				ws[k].req = -1;
				ws[k].state = W_STOPPING;
			}
		}
		now = now_us();
		for (int k = 0; k < b->nworkers && n < 256; k++) {
			if (ws[k].state == W_NONE)
				continue;
			pfd[n] = (struct pollfd){ ws[k].resp, POLLIN, 0 };
			map[n++] = k;
			if (ws[k].deadline > now && (ws[k].deadline - now) / 1000 < (uint64_t)timeout)
				timeout = (int)((ws[k].deadline - now) / 1000) + 1;
		}
		if (poll(pfd, (nfds_t)n, timeout) < 0 && errno != EINTR) {
			error("poll: %s", strerror(errno));
			goto cleanup;
		}
		read_workers(b, ws, pfd, map, n, &p, &start_failures);
		now = now_us();
		for (int k = 0; k < b->nworkers; k++) {
			struct worker *w = &ws[k];
			char why[160];
			if ((w->state != W_BUSY && w->state != W_STARTING) || now < w->deadline)
				continue;
			if (w->state == W_BUSY)
				snprintf(why, sizeof(why), "grading took longer than the per-student deadline of %.0f s "
					 "(stopped)", b->deadline_s);
			else
				snprintf(why, sizeof(why), "a worker did not start within %d s", WORKER_START_S);
			if (w->state == W_STARTING && !w->failure)
				w->failure = xstrdup(why);
			reap_worker(b, w, &p, why, &start_failures);
		}
		if (start_failures >= MAX_START_FAILURES) {
			for (int k = 0; k < b->nworkers && !fatal; k++)
				if (ws[k].failure)
					fatal = xstrdup(ws[k].failure);
			break;
		}
		progress_draw(&p, false);
	}
	stop_workers(b, ws, &p, &start_failures);
	if (p.tty) {
		progress_draw(&p, true);
		fputc('\n', stderr);
	}
	if (fatal)
		error("cannot start the grading workers: %s", fatal);
	else if (!grader_interrupted && p.done == b->ntodo)
		ret = 0;
cleanup:
	for (int k = 0; k < b->nworkers; k++) {
		if (ws[k].state != W_NONE)
			reap_worker(b, &ws[k], &p, "the batch stopped while grading this student", &start_failures);
		strbuf_release(&ws[k].in);
		free(ws[k].dir);
		free(ws[k].failure);
	}
	free(ws);
	free(fatal);
	return ret;
}
