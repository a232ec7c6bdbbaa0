/*
 * test_landlock.c - cmocka tests for grader/sandbox/landlock.c and the runner's
 * start under the sandbox (grader/sandbox/sandbox.c with the outer seccomp program
 * of grader/sandbox/filter.c), against the kernel.
 *
 * - A plan cuts hidden directories out of the directories it grants: the
 *   rules, and what a child restricted by them can open.  The grader's data
 *   installed below /usr (make install under /usr/local/share) is the case
 *   that matters: a directory below /usr stands in for it.
 * - A program started by sandbox_spawn() with the runner's view and the
 *   outer program, as the runner pool starts runners, runs its main()
 *   under them: whatever it does there is what an IFUNC resolver or an
 *   initialiser of a submission could do before the runtime's own filter.
 *   It must not read the repository, write /tmp, make a socket, run another
 *   program or signal the process that started it.
 * Without Landlock (or seccomp) the tests that need it are SKIPPED.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#undef malloc
#undef calloc
#undef realloc
#undef free

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/filter.h"
#include "sandbox/landlock.h"
#include "sandbox/sandbox.h"
#include "unit.h"

static char tree[] = "/tmp/grader-landlock-XXXXXX";

static void make_file(const char *dir, const char *rel)
{
	char *path = xasprintf("%s/%s", dir, rel);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x\n", 2), 2);
	close(fd);
	free(path);
}

/* tree/{a/f, b/c/f, b/hidden/secret, d/f} */
static int setup_tree(void **state)
{
	(void)state;
	if (!mkdtemp(tree))
		return -1;
	for (const char *const *d = (const char *const[]){ "a", "b", "b/c", "b/hidden", "d", NULL }; *d; d++) {
		char *path = xasprintf("%s/%s", tree, *d);
		if (mkdir(path, 0755) < 0)
			return -1;
		free(path);
	}
	make_file(tree, "a/f");
	make_file(tree, "b/c/f");
	make_file(tree, "b/hidden/secret");
	make_file(tree, "d/f");
	/* a link beside the hidden directory, out of the tree: expanding b must not follow it */
	{
		char *link = xasprintf("%s/b/out", tree);
		if (symlink("/etc", link) < 0)
			return -1;
		free(link);
	}
	return 0;
}

static int teardown_tree(void **state)
{
	(void)state;
	return remove_tree(tree);
}

static bool plan_has(const struct landlock_plan *plan, const char *path)
{
	for (size_t i = 0; i < plan->n; i++)
		if (!strcmp(plan->rules[i].path, path))
			return true;
	return false;
}

/* Can a child restricted by plan open path for reading?  0 yes, else the errno. */
static int open_under(const struct landlock_plan *plan, const char *path, int flags)
{
	int status;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd;
		if (landlock_restrict(plan, landlock_abi()) < 0)
			_exit(200);
		fd = open(path, flags | O_CLOEXEC, 0600);
		_exit(fd >= 0 ? 0 : errno);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_not_equal(WEXITSTATUS(status), 200);
	return WEXITSTATUS(status);
}

static void test_hidden_cut_out(void **state)
{
	char *hidden = xasprintf("%s/b/hidden", tree), *path;
	const char *readable[] = { tree, NULL }, *hide[] = { hidden, NULL };
	struct landlock_view view = { LANDLOCK_RUNNER, readable, NULL, NULL, hide };
	struct landlock_plan plan = LANDLOCK_PLAN_INIT;
	struct strbuf err = STRBUF_INIT;
	(void)state;

	assert_int_equal(landlock_plan_build(&plan, &view, &err), 0);
	/* the tree and b hold the hidden directory: granted entry by entry */
	assert_false(plan_has(&plan, tree));
	path = xasprintf("%s/b", tree);
	assert_false(plan_has(&plan, path));
	free(path);
	assert_false(plan_has(&plan, hidden));
	assert_false(plan_has(&plan, "/etc")); /* b/out, a link next to the hidden directory: not followed */
	for (const char *const *rel = (const char *const[]){ "a", "b/c", "d", NULL }; *rel; rel++) {
		path = xasprintf("%s/%s", tree, *rel);
		if (!plan_has(&plan, path))
			fail_msg("the plan does not grant '%s'", path);
		free(path);
	}
	if (!landlock_abi())
		skip();
	path = xasprintf("%s/b/c/f", tree);
	assert_int_equal(open_under(&plan, path, O_RDONLY), 0);
	free(path);
	path = xasprintf("%s/b/hidden/secret", tree);
	assert_int_equal(open_under(&plan, path, O_RDONLY), EACCES);
	assert_int_equal(open_under(&plan, path, O_RDONLY | O_DIRECTORY) == 0, 0);
	free(path);
	assert_int_equal(open_under(&plan, "/etc/hostname", O_RDONLY), EACCES);
	/* a runner writes nowhere, not even where it reads */
	path = xasprintf("%s/a/new", tree);
	assert_int_equal(open_under(&plan, path, O_WRONLY | O_CREAT), EACCES);
	free(path);
	landlock_plan_release(&plan);
	strbuf_release(&err);
	free(hidden);
}

/*
 * The toolchain's view with a hidden directory below /usr, where `make
 * install` puts problems/ and reference/ (PREFIX/share/combgrader): /usr is
 * no longer granted whole, the compiler's headers still are, the hidden
 * directory is not.
 */
static void test_toolchain_without_installed_data(void **state)
{
	char *hidden = realpath("/usr/share/doc", NULL), *inside = NULL;
	const char *hide[] = { hidden, NULL };
	struct landlock_view view = { LANDLOCK_TOOLCHAIN, NULL, NULL, NULL, hide };
	struct landlock_plan plan = LANDLOCK_PLAN_INIT;
	struct strbuf err = STRBUF_INIT;
	(void)state;

	if (!hidden)
		skip(); /* no /usr/share/doc to stand in for an installed share directory */
	assert_int_equal(landlock_plan_build(&plan, &view, &err), 0);
	assert_false(plan_has(&plan, "/usr"));
	assert_false(plan_has(&plan, hidden));
	assert_true(plan_has(&plan, "/usr/include"));
	if (!landlock_abi())
		skip();
	assert_int_equal(open_under(&plan, "/usr/include/stdio.h", O_RDONLY), 0);
	inside = xasprintf("%s", hidden);
	assert_int_equal(open_under(&plan, inside, O_RDONLY | O_DIRECTORY), EACCES);
	landlock_plan_release(&plan);
	strbuf_release(&err);
	free(inside);
	free(hidden);
}

/*
 * The probe program: main() tries what code before the runtime's filter
 * must not manage, and prints one line "name=ok|errno" per attempt.
 */
static const char probe_source[] =
	"#include <errno.h>\n#include <fcntl.h>\n#include <signal.h>\n#include <stdio.h>\n#include <string.h>\n"
	"#include <sys/socket.h>\n#include <unistd.h>\n"
	"static void say(const char *what, int ok) { printf(\"%s=%s\\n\", what, ok ? \"ok\" : strerror(errno)); }\n"
	"int main(int argc, char **argv) {\n"
	"  (void)argc;\n"
	"  say(\"read-repo\", open(argv[1], O_RDONLY) >= 0);\n"
	"  say(\"write-tmp\", open(argv[2], O_WRONLY | O_CREAT, 0600) >= 0);\n"
	"  say(\"socket\", socket(AF_INET, SOCK_STREAM, 0) >= 0);\n"
	"  say(\"signal-parent\", kill(getppid(), 0) == 0);\n"
	"  say(\"read-libc\", open(\"/etc/ld.so.cache\", O_RDONLY) >= 0);\n"
	"  fflush(stdout);\n"
	"  char *const args[] = { \"true\", NULL };\n"
	"  execv(\"/bin/true\", args);\n"
	"  say(\"exec\", 0);\n"
	"  return 0;\n"
	"}\n";

/* Build the probe in the tree (once), start it as the pool starts a runner - with the runner's view and the
 * outer program when sandboxed, with neither otherwise - and collect what it printed. */
static void run_probe(bool sandboxed, const char *tmp_file, struct strbuf *out)
{
	char *src = xasprintf("%s/probe.c", tree), *bin = xasprintf("%s/probe", tree);
	char *repo_file = repo_path("README.md"), *repo_real = realpath(repo_file, NULL);
	char *argv[] = { "probe", repo_real, (char *)tmp_file, NULL };
	const char *executable[] = { bin, NULL }, *hide[] = { NULL };
	struct landlock_view view = { LANDLOCK_RUNNER, NULL, executable, NULL, hide };
	struct landlock_plan plan = LANDLOCK_PLAN_INIT;
	struct strbuf err = STRBUF_INIT, outer = STRBUF_INIT;
	struct sandbox_spawn sp;
	char buf[512];
	uint32_t len;
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	assert_non_null(repo_real);
	if (access(bin, X_OK) < 0) {
		FILE *f = fopen(src, "w");
		char *cmd = xasprintf("cc -O0 -o %s %s", bin, src);
		assert_non_null(f);
		fputs(probe_source, f);
		fclose(f);
		assert_int_equal(system(cmd), 0);
		free(cmd);
	}
	assert_int_equal(landlock_plan_build(&plan, &view, &err), 0);
	assert_int_equal(filter_outer_program(&outer, &err), 0);
	memcpy(&len, outer.buf, sizeof(len));
	assert_int_not_equal(len, 0);
	assert_int_equal(pipe(fds), 0);
	memset(&sp, 0, sizeof(sp));
	sp.path = bin;
	sp.argv = argv;
	sp.fds[0] = -1;
	sp.fds[1] = fds[1];
	sp.fds[2] = -1;
	sp.nfds = 3;
	if (sandboxed) {
		sp.view = &plan;
		sp.seccomp_program = outer.buf + sizeof(len);
		sp.seccomp_len = len;
	}
	sp.use_namespaces = false; /* the level without namespaces: what keeps it in is the view and the program */
	pid = sandbox_spawn(&sp, &err);
	if (pid < 0)
		fail_msg("cannot start the probe: %s", err.buf);
	close(fds[1]);
	while ((n = read(fds[0], buf, sizeof(buf))) > 0)
		strbuf_add(out, buf, (size_t)n);
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	print_message("%s:\n%s", sandboxed ? "sandboxed" : "not sandboxed", out->buf);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	landlock_plan_release(&plan);
	strbuf_release(&err);
	strbuf_release(&outer);
	free(src);
	free(bin);
	free(repo_file);
	free(repo_real);
}

static void test_runner_start_is_sandboxed(void **state)
{
	char *tmp_file = xasprintf("%s/planted", tree);
	struct strbuf out = STRBUF_INIT;
	(void)state;

	if (!landlock_abi() || !sandbox_probe()->seccomp)
		skip();
	/* the runner's uid (nobody, as root) may enter the tree and write in it: only the sandbox stops it */
	assert_int_equal(chmod(tree, 0777), 0);
	/* without the view and the program the same probe manages all of it: the checks below mean something */
	run_probe(false, tmp_file, &out);
	assert_non_null(strstr(out.buf, "read-repo=ok\n"));
	assert_non_null(strstr(out.buf, "write-tmp=ok\n"));
	assert_non_null(strstr(out.buf, "socket=ok\n"));
	if (geteuid() != 0)
		assert_non_null(strstr(out.buf, "signal-parent=ok\n"));
	assert_null(strstr(out.buf, "exec="));
	assert_int_equal(unlink(tmp_file), 0);
	strbuf_reset(&out);
	run_probe(true, tmp_file, &out);
	assert_non_null(strstr(out.buf, "read-libc=ok\n")); /* it did run, and read what the loader reads */
	assert_non_null(strstr(out.buf, "read-repo=Permission denied\n"));
	assert_non_null(strstr(out.buf, "write-tmp=Operation not permitted\n"));
	assert_non_null(strstr(out.buf, "socket=Operation not permitted\n"));
	assert_non_null(strstr(out.buf, "signal-parent=Operation not permitted\n"));
	assert_non_null(strstr(out.buf, "exec=Permission denied\n"));
	assert_int_equal(access(tmp_file, F_OK), -1);
	assert_int_equal(chmod(tree, 0700), 0);
	strbuf_release(&out);
	free(tmp_file);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hidden_cut_out),
		cmocka_unit_test(test_toolchain_without_installed_data),
		cmocka_unit_test(test_runner_start_is_sandboxed),
	};
	return cmocka_run_group_tests(tests, setup_tree, teardown_tree);
}
