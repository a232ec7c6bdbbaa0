/*
 * test_sandbox.c - cmocka tests for sandbox_lease_block (grader/sandbox/sandbox.c):
 * two graders started at once as root must not share a block of sandbox
 * uids.  The leases are real flock()s on SANDBOX_LEASE_DIR, which other
 * graders on the machine may hold meanwhile, so the tests assert only what
 * holds whatever they hold.  As a normal user there is nothing to lease
 * (every process runs as the caller): that is checked instead.
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

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/sandbox.h"
#include "unit.h"

/* a block no grader prefers (batch workers start at 1, 2, ...): normally free */
#define FAR_BLOCK 700u

static void test_not_root_leases_nothing(void **state)
{
	unsigned block = 12345;
	(void)state;
	if (geteuid() == 0)
		skip();
	assert_int_equal(sandbox_lease_block(3, &block), -1);
	assert_int_equal(block, 3);
}

/* Two leases at once get two blocks; a block given back can be leased again. */
static void test_two_leases_two_blocks(void **state)
{
	unsigned first, second, again;
	int fd1, fd2, fd3;
	(void)state;
	if (geteuid() != 0)
		skip();
	fd1 = sandbox_lease_block(FAR_BLOCK, &first);
	assert_true(fd1 >= 0);
	assert_true(first >= FAR_BLOCK);
	fd2 = sandbox_lease_block(first, &second);
	assert_true(fd2 >= 0);
	assert_int_not_equal(second, first);
	close(fd1);
	fd3 = sandbox_lease_block(first, &again);
	assert_true(fd3 >= 0);
	assert_int_equal(again, first);
	close(fd2);
	close(fd3);
}

/* The lease holds against another process (another grader), and ends with it. */
static void test_lease_excludes_other_process(void **state)
{
	unsigned block, theirs;
	int fd, status, ready[2], done[2];
	pid_t pid;
	char c;
	(void)state;
	if (geteuid() != 0)
		skip();
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(done), 0);
	pid = fork();
	if (pid == 0) {
		unsigned b;
		int lease = sandbox_lease_block(FAR_BLOCK, &b);
		if (write(ready[1], &b, sizeof(b)) != sizeof(b) || lease < 0)
			_exit(1);
		if (read(done[0], &c, 1) < 0) /* hold it until told */
			_exit(1);
		_exit(0);
	}
	assert_true(pid > 0);
	assert_int_equal(read(ready[0], &theirs, sizeof(theirs)), (ssize_t)sizeof(theirs));
	fd = sandbox_lease_block(theirs, &block);
	assert_true(fd >= 0);
	assert_int_not_equal(block, theirs);
	close(fd);
	assert_int_equal(write(done[1], "x", 1), 1);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* gone with its process */
	fd = sandbox_lease_block(theirs, &block);
	assert_true(fd >= 0);
	assert_int_equal(block, theirs);
	close(fd);
	close(ready[0]);
	close(ready[1]);
	close(done[0]);
	close(done[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_not_root_leases_nothing),
		cmocka_unit_test(test_two_leases_two_blocks),
		cmocka_unit_test(test_lease_excludes_other_process),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
