/* compile.c - see compile.h */
#define _GNU_SOURCE
#include "build/compile.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/cgroup.h"
#include "base/interrupt.h"
#include "sandbox/sandbox.h"

/* a compiler is a handful of processes (gcc, cc1, as, collect2, ld) */
#define COMPILE_MAX_PROCS 64
#define COMPILE_MEMORY (4ull << 30)

static char *const compiler_env[] = { "PATH=/usr/local/bin:/usr/bin:/bin", "LC_ALL=C", "TMPDIR=.", NULL };

char *compile_command_path(const char *cc)
{
	static const char *const dirs[] = { "/usr/local/bin", "/usr/bin", "/bin", NULL };
	if (strchr(cc, '/'))
		return xstrdup(cc);
	for (int i = 0; dirs[i]; i++) {
		char *p = xasprintf("%s/%s", dirs[i], cc);
		if (!access(p, X_OK))
			return p;
		free(p);
	}
	return xstrdup(cc);
}

int compile_give_dir(const struct compile_limits *lim, const char *dir)
{
	const struct sandbox_caps *c = sandbox_probe();
	uid_t uid = lim->uid ? lim->uid : c->uid;
	gid_t gid = lim->gid ? lim->gid : c->gid;
	if (c->drop_uid && chown(dir, uid, gid) < 0)
		return -1;
	return 0;
}

/* A cgroup of its own for one command (cgroup.h): a process limit and memory over the whole tree. */
static struct cgroup *command_cgroup(void)
{
	static unsigned serial;
	struct strbuf err = STRBUF_INIT;
	char name[32];
	struct cgroup *cg;
	snprintf(name, sizeof(name), "build-%u", serial++);
	cg = cgroup_new(name, COMPILE_MAX_PROCS, COMPILE_MEMORY, &err);
	strbuf_release(&err); /* without cgroups: rlimits per process only (the probe says so once) */
	return cg;
}

/*
 * sandbox_spawn, tried again while no process can be made (EAGAIN): where
 * a normal user's processes all share one RLIMIT_NPROC, another grader's
 * runner that forks without end can use it up for a moment, until that
 * grader ends it (runner.c slot_watch_tree) - no reason for this grading to
 * fail.  Up to SPAWN_RETRIES more tries, SPAWN_RETRY_MS apart.
 */
#define SPAWN_RETRIES 25
#define SPAWN_RETRY_MS 20
static pid_t spawn_retrying(const struct sandbox_spawn *s, struct strbuf *err)
{
	pid_t pid = sandbox_spawn(s, err);
	for (int tries = 0; pid < 0 && errno == EAGAIN && tries < SPAWN_RETRIES; tries++) {
		poll(NULL, 0, SPAWN_RETRY_MS);
		strbuf_reset(err);
		pid = sandbox_spawn(s, err);
	}
	return pid;
}

int compile_start(struct compile_job *job, const struct compile_limits *lim, const char *dir, char *const *argv,
		  struct strbuf *err)
{
	int pipefd[2];
	struct sandbox_spawn s;
	struct landlock_view view = { LANDLOCK_TOOLCHAIN, lim->readable, NULL, dir, lim->hide_paths };
	struct landlock_plan plan = LANDLOCK_PLAN_INIT;
	char *path = compile_command_path(argv[0]);

	memset(&s, 0, sizeof(s));
	memset(job, 0, sizeof(*job));
	job->output = (struct strbuf)STRBUF_INIT;
	/* the grader's own directories cut out of the toolchain's, wherever they are installed */
	if (sandbox_probe()->landlock && landlock_plan_build(&plan, &view, err) < 0) {
		free(path);
		landlock_plan_release(&plan);
		return -1;
	}
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		free(path);
		landlock_plan_release(&plan);
		strbuf_addf(err, "cannot create a pipe: %s", strerror(errno));
		return -1;
	}
	s.path = path;
	s.argv = argv;
	s.workdir = dir;
	s.uid = lim->uid;
	s.gid = lim->gid;
	job->cg = command_cgroup();
	job->cpu_limit_ms = lim->cpu_s * 1000u;
	if (job->cg && (s.njoin = cgroup_join_fds(job->cg, s.join_fds)) < 0)
		s.njoin = 0;
	s.fds[0] = -1;
	s.fds[1] = pipefd[1];
	s.fds[2] = pipefd[1];
	s.nfds = 3;
	s.limits.address_space = 4ull << 30;
	s.limits.file_size = 256ull << 20;
	s.limits.cpu_seconds = lim->cpu_s;
	s.hide_paths = lim->hide_paths;
	s.view = sandbox_probe()->landlock ? &plan : NULL;
	s.use_namespaces = true;
	s.envp = compiler_env;
	job->pid = spawn_retrying(&s, err);
	free(path);
	landlock_plan_release(&plan);
	close(pipefd[1]);
	for (int i = 0; i < s.njoin; i++)
		close(s.join_fds[i]);
	if (job->pid < 0) {
		close(pipefd[0]);
		cgroup_free(job->cg);
		job->cg = NULL;
		return -1;
	}
	job->out_fd = pipefd[0];
	job->running = true;
	job->started = now_us();
	job->deadline = job->started + (uint64_t)lim->wall_ms * 1000u;
	return 0;
}

/*
 * Wait for the running jobs: read their output (capped), enforce the wall
 * limit.  interruptible: Ctrl-C kills them (submissions; the runtime's own
 * short compile is let finish, so that the engine starts cleanly and then
 * stops where it cleans up).
 */
void compile_wait(struct compile_job *jobs, int n, bool interruptible)
{
	for (;;) {
		struct pollfd p[64];
		int map[64], np = 0, running = 0, timeout = 50;
		uint64_t now = now_us();

		for (int i = 0; i < n && i < 64; i++) {
			struct compile_job *j = &jobs[i];
			if (!j->running)
				continue;
			running++;
			/* the wall clock, and the CPU of the whole tree (RLIMIT_CPU counts one process) */
			if (!j->timed_out && (now >= j->deadline || cgroup_cpu_us(j->cg) > (long long)j->cpu_limit_ms * 1000)) {
				j->timed_out = true;
				sandbox_kill(j->pid);
				cgroup_kill(j->cg);
			}
			/* Ctrl-C: a compiler bomb must not keep the grader for its whole time limit */
			if (interruptible && grader_interrupted && !j->interrupted) {
				j->interrupted = true;
				sandbox_kill(j->pid);
			}
			if (j->out_fd >= 0) {
				p[np] = (struct pollfd){ j->out_fd, POLLIN, 0 };
				map[np++] = i;
			}
		}
		if (!running)
			return;
		if (np == 0)
			timeout = 2; /* outputs closed: the compiler is exiting */
		if (poll(p, (nfds_t)np, timeout) < 0 && errno != EINTR)
			return;
		for (int k = 0; k < np; k++) {
			struct compile_job *j = &jobs[map[k]];
			char buf[8192];
			ssize_t r;
			if (!p[k].revents)
				continue;
			r = read(j->out_fd, buf, sizeof(buf));
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				close(j->out_fd);
				j->out_fd = -1;
			} else if (j->output.len < COMPILE_OUTPUT_CAP) {
				strbuf_add(&j->output, buf, (size_t)r);
			}
		}
		for (int i = 0; i < n; i++) {
			struct compile_job *j = &jobs[i];
			if (j->running && j->out_fd < 0 && waitpid(j->pid, &j->status, WNOHANG) == j->pid)
				j->running = false;
		}
	}
}

int compile_run(const struct compile_limits *lim, const char *dir, char *const *argv, struct strbuf *err)
{
	struct compile_job job;
	int ret = -1;
	memset(&job, 0, sizeof(job));
	job.output = (struct strbuf)STRBUF_INIT;
	if (compile_start(&job, lim, dir, argv, err) < 0)
		goto cleanup;
	compile_wait(&job, 1, false);
	if (!compile_succeeded(&job)) {
		strbuf_addf(err, "'%s' failed%s:\n%s", argv[0], job.timed_out ? " (time limit)" : "", job.output.buf);
		goto cleanup;
	}
	ret = 0;
cleanup:
	compile_job_release(&job);
	return ret;
}

bool compile_succeeded(const struct compile_job *job)
{
	return !job->timed_out && !job->interrupted && WIFEXITED(job->status) && WEXITSTATUS(job->status) == 0;
}

void compile_job_release(struct compile_job *job)
{
	strbuf_release(&job->output);
	cgroup_free(job->cg);
	job->cg = NULL;
}
