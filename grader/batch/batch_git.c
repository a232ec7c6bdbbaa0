/* batch_git.c - see batch_git.h */
#define _GNU_SOURCE
#include "batch/batch_git.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define OUTPUT_CAP (16u << 20) /* bytes of git's output kept (rev-list of 100 000 commits: 5 MB) */
#define GIT_TIMEOUT_S 60       /* one git command's wall clock (rev-list of 100 000 commits: under 1 s) */

/* The wall clock one git command gets: GIT_TIMEOUT_S, or GRADER_GIT_TIMEOUT=SECONDS (the tests' hanging repository). */
static int git_timeout_ms(void)
{
	const char *env = getenv("GRADER_GIT_TIMEOUT");
	char *end;
	long s = env && *env ? strtol(env, &end, 10) : 0;
	if (env && *env && !*end && s > 0 && s <= 3600)
		return (int)s * 1000;
	return GIT_TIMEOUT_S * 1000;
}

bool git_is_repo(const char *dir)
{
	char *git = xasprintf("%s/.git", dir);
	struct stat st;
	bool yes = lstat(git, &st) == 0 && S_ISDIR(st.st_mode);
	free(git);
	return yes;
}

/* In the child: git with a clean environment, reading dir/.git and nothing above it. */
static void exec_git(const char *dir, const char *const *args)
{
	struct strvec argv = STRVEC_INIT, env = STRVEC_INIT;
	const char *path = getenv("PATH");
	strvec_push(&argv, "git");
	strvec_pushf(&argv, "--git-dir=%s/.git", dir);
	strvec_push(&argv, "--no-pager");
	for (int i = 0; args[i]; i++)
		strvec_push(&argv, args[i]);
	strvec_pushf(&env, "PATH=%s", path ? path : "/usr/bin:/bin");
	strvec_push(&env, "GIT_CONFIG_NOSYSTEM=1");
	strvec_push(&env, "GIT_CONFIG_GLOBAL=/dev/null");
	strvec_push(&env, "GIT_OPTIONAL_LOCKS=0");
	strvec_push(&env, "GIT_TERMINAL_PROMPT=0");
	strvec_push(&env, "HOME=/nonexistent");
	strvec_push(&env, "LC_ALL=C");
	execvpe("git", argv.v, env.v);
	_exit(127);
}

/*
 * Read git's stdout (po[0], unless -1) into out and its stderr into msg until both close, or until the clock
 * passes until: true then (the pipes that are still open stay so; the caller closes them).
 */
static bool drain(int po[2], int pe[2], struct strbuf *out, struct strbuf *msg, uint64_t until)
{
	for (;;) {
		struct pollfd fds[2] = { { po[0], POLLIN, 0 }, { pe[0], POLLIN, 0 } };
		char buf[65536];
		int open_fds = 0, n;
		uint64_t now = now_us();
		if (now >= until)
			return true;
		n = poll(fds, 2, (int)((until - now + 999) / 1000));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return true; /* git cannot be watched: given up like one that hangs */
		}
		if (n == 0)
			continue; /* the deadline is checked at the top */
		for (int k = 0; k < 2; k++) {
			ssize_t r;
			if (fds[k].fd < 0)
				continue;
			if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) {
				open_fds++;
				continue;
			}
			r = read(fds[k].fd, buf, sizeof(buf));
			if (r > 0) {
				struct strbuf *to = k ? msg : out;
				size_t cap = k ? 4096 : OUTPUT_CAP;
				if (to->len < cap)
					strbuf_add(to, buf, (size_t)r < cap - to->len ? (size_t)r : cap - to->len);
				open_fds++;
			} else if (r < 0 && errno == EINTR) {
				open_fds++;
			} else {
				close(k ? pe[0] : po[0]);
				if (k)
					pe[0] = -1;
				else
					po[0] = -1;
			}
		}
		if (!open_fds)
			return false;
	}
}

/*
 * Run git on dir with args; its stdout goes to out_fd when >= 0, else into
 * out (at most OUTPUT_CAP bytes).  0 when git exited 0, else -1 with its
 * first line of stderr in err.  A git that runs past git_timeout_ms() (a
 * repository too big, or one whose files block a reader: a FIFO for HEAD)
 * is killed with its process group, and err says so: the batch's parent
 * reads histories before any worker starts, so a hanging git would hang
 * the whole class.
 */
static int run_git(const char *dir, const char *const *args, int out_fd, struct strbuf *out, struct strbuf *err)
{
	int po[2] = { -1, -1 }, pe[2] = { -1, -1 }, status = 0, ret = -1;
	struct strbuf msg = STRBUF_INIT;
	int timeout_ms = git_timeout_ms();
	uint64_t until = now_us() + (uint64_t)timeout_ms * 1000;
	bool timed_out = false;
	pid_t pid;

	if ((out_fd < 0 && pipe2(po, O_CLOEXEC) < 0) || pipe2(pe, O_CLOEXEC) < 0) {
		strbuf_addf(err, "cannot run git: %s", strerror(errno));
		goto cleanup;
	}
	pid = fork();
	if (pid < 0) {
		strbuf_addf(err, "cannot run git: %s", strerror(errno));
		goto cleanup;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		setpgid(0, 0); /* its own group: a timeout kills whatever it started too */
		if (null < 0 || dup2(null, 0) < 0 || dup2(out_fd >= 0 ? out_fd : po[1], 1) < 0 || dup2(pe[1], 2) < 0)
			_exit(127);
		exec_git(dir, args);
	}
	setpgid(pid, pid); /* as the child does: whichever runs first */
	if (po[1] >= 0)
		close(po[1]);
	close(pe[1]);
	po[1] = pe[1] = -1;
	timed_out = drain(po, pe, out, &msg, until);
	if (timed_out) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL); /* in case it had not made its group yet */
	}
	/* otherwise both pipes are closed: git is exiting */
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (timed_out) {
		strbuf_addf(err, "git %s did not finish within %d s (a repository too large, or damaged: a file git "
			    "reads that blocks it)", args[0], timeout_ms / 1000);
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		ret = 0;
	} else {
		size_t l = strcspn(msg.buf, "\n");
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && !msg.len)
			strbuf_addstr(err, "cannot run git (is it installed?)");
		else
			strbuf_addf(err, "git %s: %.*s", args[0], (int)(l ? l : 20), l ? msg.buf : "failed");
	}
cleanup:
	for (int k = 0; k < 2; k++) {
		if (po[k] >= 0)
			close(po[k]);
		if (pe[k] >= 0)
			close(pe[k]);
	}
	strbuf_release(&msg);
	return ret;
}

int git_commits(const char *dir, int max, struct git_commit **out, int *n, struct strbuf *err)
{
	char count[32];
	const char *args[] = { "rev-list", "--first-parent", "--format=%H %ct", "--no-commit-header", count, "HEAD",
			       NULL };
	struct strbuf sb = STRBUF_INIT;
	size_t alloc = 0;
	int ret = -1;

	*out = NULL;
	*n = 0;
	snprintf(count, sizeof(count), "--max-count=%d", max);
	if (run_git(dir, args, -1, &sb, err) < 0)
		goto cleanup;
	for (const char *p = sb.buf; *p;) {
		struct git_commit c;
		long long t;
		size_t l = strcspn(p, "\n");
		if (sscanf(p, "%40s %lld", c.hash, &t) == 2 && strlen(c.hash) == 40) {
			c.committed = t;
			ALLOC_GROW(*out, *n + 1, alloc);
			(*out)[(*n)++] = c;
		}
		p += l + (p[l] == '\n');
	}
	if (!*n) {
		strbuf_addstr(err, "the repository has no commit");
		goto cleanup;
	}
	ret = 0;
cleanup:
	if (ret) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	strbuf_release(&sb);
	return ret;
}

void git_commits_free(struct git_commit *c)
{
	free(c);
}

int git_clone_time(const char *dir, int64_t *when)
{
	char *path = xasprintf("%s/.git/logs/HEAD", dir);
	struct strbuf sb = STRBUF_INIT;
	const char *tab, *gt;
	long long t;
	int ret = -1;

	/* "<old> <new> Name <email> 1732638000 +0000\tclone: from https://..." */
	if (read_file(&sb, path) == 0 && (tab = strchr(sb.buf, '\t')) && !strncmp(tab + 1, "clone: ", 7)) {
		for (gt = tab; gt > sb.buf && *gt != '>'; gt--)
			;
		if (*gt == '>' && sscanf(gt + 1, " %lld", &t) == 1) {
			*when = t;
			ret = 0;
		}
	}
	free(path);
	strbuf_release(&sb);
	return ret;
}

/* Is a path from a tree safe to create below dest (relative, no "." or ".." component, no ".git")? */
static bool safe_path(const char *p)
{
	if (!*p || *p == '/')
		return false;
	while (*p) {
		size_t l = strcspn(p, "/");
		if (!l || (l == 1 && p[0] == '.') || (l == 2 && !strncmp(p, "..", 2)) ||
		    (l == 4 && !strncasecmp(p, ".git", 4)))
			return false;
		p += l + (p[l] == '/');
	}
	return true;
}

/* mkdir -p the folders of rel below dest, never through a link. */
static int make_parents(const char *dest, const char *rel)
{
	char *path = xasprintf("%s/%s", dest, rel);
	size_t base = strlen(dest) + 1;
	int ret = 0;
	for (char *s = path + base; (s = strchr(s, '/')); s++) {
		struct stat st;
		*s = '\0';
		if (mkdir(path, 0700) < 0 && (errno != EEXIST || lstat(path, &st) < 0 || !S_ISDIR(st.st_mode)))
			ret = -1;
		*s = '/';
		if (ret)
			break;
	}
	free(path);
	return ret;
}

struct tree_entry {
	unsigned mode;
	char type[8], object[41];
	unsigned long long size;
	const char *path;
};

/* One record of `ls-tree -r -z -l`: "<mode> <type> <object> <size>\t<path>". */
static int parse_entry(const char *rec, struct tree_entry *e)
{
	const char *tab = strchr(rec, '\t');
	char size[32];
	if (!tab || sscanf(rec, "%o %7s %40s %31s", &e->mode, e->type, e->object, size) != 4)
		return -1;
	e->size = strcmp(size, "-") ? strtoull(size, NULL, 10) : 0;
	e->path = tab + 1;
	return 0;
}

static int export_blob(const char *dir, const struct tree_entry *e, const char *dest, struct strbuf *err)
{
	const char *args[] = { "cat-file", "blob", e->object, NULL };
	char *path = xasprintf("%s/%s", dest, e->path);
	int fd = -1, ret = -1;

	if (make_parents(dest, e->path) < 0) {
		strbuf_addf(err, "cannot create the folders of '%s'", e->path);
		goto cleanup;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, e->mode == 0100755 ? 0700 : 0600);
	if (fd < 0) {
		strbuf_addf(err, "cannot create '%s': %s", e->path, strerror(errno));
		goto cleanup;
	}
	ret = run_git(dir, args, fd, NULL, err);
cleanup:
	if (fd >= 0)
		close(fd);
	free(path);
	return ret;
}

int git_export(const char *dir, const char *commit, const char *dest, int max_entries, unsigned long long max_bytes,
	       struct strbuf *err)
{
	const char *args[] = { "ls-tree", "-r", "-z", "-l", "--full-tree", commit, NULL };
	struct strbuf sb = STRBUF_INIT;
	unsigned long long bytes = 0;
	int entries = 0, ret = -1;

	if (run_git(dir, args, -1, &sb, err) < 0)
		goto cleanup;
	if (mkdir(dest, 0700) < 0) {
		strbuf_addf(err, "cannot create '%s': %s", dest, strerror(errno));
		goto cleanup;
	}
	/* check the whole tree first: nothing is written for a tree that is refused */
	for (size_t off = 0; off < sb.len; off += strlen(sb.buf + off) + 1) {
		struct tree_entry e;
		if (parse_entry(sb.buf + off, &e) < 0 || strcmp(e.type, "blob") ||
		    (e.mode != 0100644 && e.mode != 0100755))
			continue;
		if (!safe_path(e.path)) {
			strbuf_addf(err, "commit %.7s has a file named '%s'", commit, e.path);
			goto cleanup;
		}
		bytes += e.size;
		if (++entries > max_entries || bytes > max_bytes) {
			strbuf_addf(err, "commit %.7s holds more than %d files or %llu MiB", commit, max_entries,
				    max_bytes >> 20);
			goto cleanup;
		}
	}
	for (size_t off = 0; off < sb.len; off += strlen(sb.buf + off) + 1) {
		struct tree_entry e;
		if (parse_entry(sb.buf + off, &e) < 0 || strcmp(e.type, "blob") ||
		    (e.mode != 0100644 && e.mode != 0100755))
			continue;
		if (export_blob(dir, &e, dest, err) < 0)
			goto cleanup;
	}
	ret = 0;
cleanup:
	if (ret)
		remove_tree(dest);
	strbuf_release(&sb);
	return ret;
}
