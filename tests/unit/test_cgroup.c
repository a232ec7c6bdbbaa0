/*
 * test_cgroup.c - cmocka tests for grader/sandbox/cgroup.c against the machine's
 * real cgroups (they need root, or a cgroup v2 subtree delegated to the
 * user; without either every test is reported SKIPPED, never passed, and
 * cgroup_probe() must say why; a test of a limit the units cannot set - a
 * delegated subtree without the pids or memory controller - is SKIPPED
 * too).  tools/run-unprivileged.sh runs it as a normal user in a delegated
 * subtree.
 *
 * Each test makes its units, puts real processes in them and checks what
 * the kernel says: the CPU they burn, the process limit, the memory limit,
 * killing everything, and that no directory is left.
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
#include <ftw.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sandbox/cgroup.h"
#include "unit.h"

#define SKIP_WITHOUT_CGROUPS()                                                     \
	do {                                                                        \
		if (!cgroup_probe()->version) {                                     \
			print_message("    (%s)\n", cgroup_probe()->why_not);       \
			skip();                                                     \
		}                                                                   \
	} while (0)

#define SKIP_WITHOUT(limit)                                                        \
	do {                                                                        \
		SKIP_WITHOUT_CGROUPS();                                             \
		if (!cgroup_probe()->limit) {                                       \
			print_message("    (no " #limit " controller here)\n");     \
			skip();                                                     \
		}                                                                   \
	} while (0)

/* Fork a child that joins cg, then runs body(arg) and exits with its result. */
static pid_t start_in(struct cgroup *cg, int (*body)(long), long arg)
{
	int fds[CGROUP_MAX_FDS], n = cgroup_join_fds(cg, fds);
	pid_t pid;
	assert_true(n > 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		for (int i = 0; i < n; i++)
			if (write(fds[i], "0", 1) != 1)
				_exit(90);
		_exit(body(arg));
	}
	for (int i = 0; i < n; i++)
		close(fds[i]);
	return pid;
}

static int free_unit(void **state)
{
	cgroup_free(*state);
	*state = NULL;
	return 0;
}

static int exit_status(pid_t pid)
{
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

/* Burn `ms` of CPU in a grandchild (the tree counts, not only the child), then end. */
static void burn_and_exit(long ms)
{
	struct timespec t;
	do
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	while (t.tv_sec * 1000 + t.tv_nsec / 1000000 < ms);
	_exit(0);
}

static int burn_in_grandchild(long ms)
{
	pid_t g = fork();
	if (g == 0)
		burn_and_exit(ms);
	return g > 0 && exit_status(g) == 0 ? 0 : 1;
}

static void test_cpu_of_the_whole_tree(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct cgroup *cg;
	long long before, after;
	SKIP_WITHOUT_CGROUPS();
	cg = *state = cgroup_new("test-cpu", 16, 0, &err);
	assert_non_null(cg);
	before = cgroup_cpu_us(cg);
	assert_true(before >= 0 && before < 50000);
	assert_int_equal(exit_status(start_in(cg, burn_in_grandchild, 300)), 0);
	after = cgroup_cpu_us(cg);
	/* 300 ms burnt by a process that is gone: still counted, with little else */
	assert_between(after - before, 290000, 1000000);
	strbuf_release(&err);
}

/*
 * Burn `ms` of CPU in a child with SIGCHLD ignored: the kernel reaps it the
 * moment it ends and adds its CPU to no parent's children's time - what
 * /proc cannot count, and the cgroup must (docs/accounting.md).
 */
static int burn_in_unwaited_child(long ms)
{
	pid_t g, r;
	signal(SIGCHLD, SIG_IGN);
	g = fork();
	if (g == 0)
		burn_and_exit(ms);
	/* with SIGCHLD ignored, waitpid waits for the child to end, then finds nothing to reap */
	while ((r = waitpid(g, NULL, 0)) < 0 && errno == EINTR)
		;
	return g > 0 && r < 0 && errno == ECHILD ? 0 : 3;
}

static void test_cpu_of_a_child_the_kernel_reaps(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct cgroup *cg;
	long long before, after;
	SKIP_WITHOUT_CGROUPS();
	cg = *state = cgroup_new("test-reaped", 16, 0, &err);
	assert_non_null(cg);
	before = cgroup_cpu_us(cg);
	assert_int_equal(exit_status(start_in(cg, burn_in_unwaited_child, 300)), 0);
	after = cgroup_cpu_us(cg);
	assert_between(after - before, 290000, 1000000);
	strbuf_release(&err);
}

/* Fork until it fails; returns how many forks succeeded (children sleep), or 200+ when none failed. */
static int fork_until_refused(long limit)
{
	int n = 0;
	for (; n < limit; n++) {
		pid_t p = fork();
		if (p < 0)
			return errno == EAGAIN ? n : 100;
		if (p == 0) {
			pause();
			_exit(0);
		}
	}
	return 200;
}

static void test_process_limit_and_kill(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct cgroup *cg;
	pid_t pid;
	int status;
	SKIP_WITHOUT(pids);
	cg = *state = cgroup_new("test-pids", 8, 0, &err);
	assert_non_null(cg);
	pid = start_in(cg, fork_until_refused, 50);
	/* the child and 7 sleeping children: the 8th fork is refused (EAGAIN), and the child exits with 7 */
	status = exit_status(pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 7);
	assert_int_equal(cgroup_procs(cg, NULL, 0), 7);
	assert_int_equal(cgroup_kill(cg), 0);
	assert_int_equal(cgroup_procs(cg, NULL, 0), 0);
	strbuf_release(&err);
}

/*
 * The process list says who is there now, read after read: cgroup v1 keeps
 * the list it made for an open cgroup.procs for about a second and gives it
 * again when the file is read from its start, so a list re-read through a
 * file kept open missed a process started in between (runner.c's check for
 * helpers between tests).
 */
static void test_process_list_is_fresh(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct cgroup *cg;
	pid_t first[8], then[8];
	SKIP_WITHOUT_CGROUPS();
	cg = *state = cgroup_new("test-procs", 8, 0, &err);
	assert_non_null(cg);
	/* a child that leaves one sleeping child in the unit (200: none of its 1 forks refused) */
	assert_int_equal(WEXITSTATUS(exit_status(start_in(cg, fork_until_refused, 1))), 200);
	assert_int_equal(cgroup_procs(cg, first, 8), 1);
	/* a kept file, read again: fresh too (runner.c counts by it); unknown without the pids controller */
	assert_int_equal(cgroup_tasks(cg), cgroup_probe()->pids ? 1 : -1);
	assert_int_equal(WEXITSTATUS(exit_status(start_in(cg, fork_until_refused, 1))), 200);
	assert_int_equal(cgroup_procs(cg, then, 8), 2);
	assert_int_equal(cgroup_tasks(cg), cgroup_probe()->pids ? 2 : -1);
	assert_true(then[0] == first[0] || then[1] == first[0]);
	assert_true(then[0] != then[1]);
	assert_int_equal(cgroup_kill(cg), 0);
	assert_int_equal(cgroup_procs(cg, then, 8), 0);
	strbuf_release(&err);
}

/* Touch `mb` MiB, page by page. */
static int touch_memory(long mb)
{
	size_t n = (size_t)mb << 20;
	char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 2;
	for (size_t i = 0; i < n; i += 4096)
		p[i] = 1;
	return 0;
}

static void test_memory_limit_kills(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct cgroup *cg;
	int status;
	SKIP_WITHOUT(memory);
	cg = *state = cgroup_new("test-memory", 8, 32ull << 20, &err);
	assert_non_null(cg);
	assert_int_equal(cgroup_oom_kills(cg), 0);
	/* 16 MiB fits in 32 */
	assert_int_equal(exit_status(start_in(cg, touch_memory, 16)), 0);
	/* 64 MiB does not: the kernel kills it (no swap to escape to) */
	status = exit_status(start_in(cg, touch_memory, 64));
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGKILL);
	assert_int_equal(cgroup_oom_kills(cg), 1);
	strbuf_release(&err);
}

/* units_named's search: the name it looks for, and how many it found. */
static const char *wanted_unit;
static int units_found;

static int count_unit(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	const char *slash = strrchr(path, '/');
	(void)sb;
	if (type == FTW_D && !strcmp(slash + 1, wanted_unit)) {
		/* its parent is a grader's base, combgrader-<tag> */
		const char *p = slash;
		while (p > path && p[-1] != '/')
			p--;
		if (!strncmp(p, "combgrader-", 11))
			units_found++;
	}
	/* the grader's base sits below its own cgroup: in a delegated subtree, some levels down */
	return ftw->level > 8 ? FTW_SKIP_SUBTREE : FTW_CONTINUE;
}

/* Count the units named name, below a combgrader-* base, anywhere in the cgroup hierarchies. */
static int units_named(const char *name)
{
	wanted_unit = name;
	units_found = 0;
	nftw("/sys/fs/cgroup", count_unit, 32, FTW_PHYS | FTW_ACTIONRETVAL);
	return units_found;
}

static void test_free_leaves_nothing(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct cgroup *cg;
	char name[64];
	SKIP_WITHOUT_CGROUPS();
	/* named after this process, so a unit some killed run left behind is not counted */
	snprintf(name, sizeof(name), "test-gone-%d", (int)getpid());
	cg = *state = cgroup_new(name, 8, 0, &err);
	assert_non_null(cg);
	assert_true(units_named(name) > 0);
	/* three sleepers, and the child exits (200: every fork worked), so all of them are in before the free */
	assert_int_equal(WEXITSTATUS(exit_status(start_in(cg, fork_until_refused, 3))), 200);
	cgroup_free(cg);
	*state = NULL;
	assert_int_equal(units_named(name), 0);
	while (waitpid(-1, NULL, 0) > 0)
		;
	strbuf_release(&err);
}

int main(void)
{
	/* the teardown frees a failed test's unit: its processes killed, its directories gone */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_cpu_of_the_whole_tree, free_unit),
		cmocka_unit_test_teardown(test_cpu_of_a_child_the_kernel_reaps, free_unit),
		cmocka_unit_test_teardown(test_process_limit_and_kill, free_unit),
		cmocka_unit_test_teardown(test_process_list_is_fresh, free_unit),
		cmocka_unit_test_teardown(test_memory_limit_kills, free_unit),
		cmocka_unit_test_teardown(test_free_leaves_nothing, free_unit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
