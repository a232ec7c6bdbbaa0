/*
 * test_elfcheck_run.c - what the runner pool (grader/run/runner.c) and
 * verdict.c make of a runner image that cannot start, and of a runner that
 * claims "the sandbox could not be installed", for real: programs built by
 * gcc here, started by pool_run in the sandbox as the engine starts them,
 * the seccomp programs made by filter_programs().
 *
 *   - an image execve refuses (ENOEXEC) is the student's run-error, with the
 *     reason, and every later test of that runner gets the same at once;
 *   - a runner file that is not there is the grader's (judge-error);
 *   - a runner that writes the sandbox-failed record before any filter
 *     (as an ifunc resolver could, were it not refused at build) is the
 *     student's run-error: the grader installs the same filter itself;
 *   - the same record with a program seccomp really refuses (one that reads
 *     past the seccomp data) is believed: judge-error.
 *
 * As root and as a normal user alike.  Files go to a fresh mkdtemp()
 * directory made once for the group and removed after it.
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
#include <linux/filter.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sandbox/filter.h"
#include "sandbox/sandbox.h"
#include "run/runner.h"
#include "problem/signature.h"
#include "unit.h"
#include "base/util.h"
#include "judge/verdict.h"

static char dir[] = "/tmp/test_elfcheck_run.XXXXXX";
static char *work;

static char *tmp_path(const char *name)
{
	char *p = NULL;
	if (asprintf(&p, "%s/%s", dir, name) < 0)
		fail_msg("asprintf");
	return p;
}

static void write_text(const char *name, const char *text, mode_t mode)
{
	char *p = tmp_path(name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(p, mode), 0);
	free(p);
}

/* Writes the pre-init hook's "sandbox could not be installed" record, then exits as the hook does. */
static const char forge_c[] = "#include <string.h>\n"
			      "#include <unistd.h>\n"
			      "#include \"protocol.h\"\n"
			      "int main(void) {\n"
			      "\tstruct gr_report r;\n"
			      "\tmemset(&r, 0, sizeof(r));\n"
			      "\tr.magic = GR_MAGIC_SANDBOX;\n"
			      "\tif (write(GR_FD_STATUS, &r, sizeof(r)) != (ssize_t)sizeof(r))\n"
			      "\t\treturn 3;\n"
			      "\t_exit(121);\n"
			      "}\n";

static int group_setup(void **state)
{
	char *cmd = NULL, *rel = repo_path("grader/runtime"), *inc = realpath(rel, NULL);
	int rc;
	free(rel);
	if (!inc)
		return -1;
	(void)state;
	if (!mkdtemp(dir) || chmod(dir, 0755) < 0)
		return -1;
	work = tmp_path("work");
	if (mkdir(work, 0777) < 0 || chmod(work, 0777) < 0)
		return -1;
	/* not ELF, not a script: execve says ENOEXEC */
	write_text("garbage", "\x7f" "ELF but not really an image\n", 0755);
	write_text("forge.c", forge_c, 0644);
	if (asprintf(&cmd, "cd '%s' && gcc -O1 -I'%s' -o forge forge.c", dir, inc) < 0)
		return -1;
	rc = system(cmd);
	free(cmd);
	free(inc);
	return rc == 0 ? 0 : -1;
}

static int group_teardown(void **state)
{
	(void)state;
	free(work);
	return remove_tree(dir);
}

/* The client: hand out the tasks in order. */
struct order {
	int next, n, finished;
};

static int next_task(void *ctx)
{
	struct order *o = ctx;
	return o->next < o->n ? o->next++ : -1;
}

static void task_finished(void *ctx, int task)
{
	struct order *o = ctx;
	(void)task;
	o->finished++;
}

/* Run n tasks of the program `runner` (a path) with the given seccomp programs. */
static void run_tasks(const char *runner, const struct strbuf *filters, struct run_task *tasks, int n)
{
	struct order o = { 0, n, 0 };
	struct pool_client client = { next_task, task_finished, &o };
	/* a block of sandbox uids of its own, leased as the engine does (sandbox.h): a grader running beside
	 * this test (make test's other lane) holds block 0, and two users of one uid share its process
	 * limit - its forks failed with EAGAIN, and it reported a correct reference as run-error */
	unsigned block = 0;
	int lease = sandbox_lease_block(0, &block);
	struct pool *pool = pool_new(1, work, NULL, block);
	memset(tasks, 0, sizeof(*tasks) * (size_t)n);
	for (int i = 0; i < n; i++) {
		tasks[i].runner = runner;
		tasks[i].filters = filters;
		tasks[i].args = (struct strbuf)STRBUF_INIT;
		tasks[i].cpu_ms = 1000;
		tasks[i].wall_ms = 3000;
		tasks[i].memory_mb = tasks[i].zygote_memory_mb = 64;
		tasks[i].output_kb = 64;
		tasks[i].startup_ms = 1000;
	}
	assert_int_equal(pool_run(pool, tasks, &client), 0);
	assert_int_equal(o.finished, n);
	pool_free(pool);
	if (lease >= 0)
		close(lease);
}

static void judge(const struct run_task *t, struct judgement *j)
{
	struct signature sig;
	memset(&sig, 0, sizeof(sig));
	sig.name = (char *)"twice";
	memset(j, 0, sizeof(*j));
	verdict_of_run(j, t, &sig);
}

static void native_filters(struct strbuf *filters)
{
	struct strbuf err = STRBUF_INIT;
	*filters = (struct strbuf)STRBUF_INIT;
	if (filter_programs(FILTER_NATIVE, filters, &err) < 0)
		fail_msg("filter_programs: %s", err.buf);
	strbuf_release(&err);
}

static void test_unloadable_image_is_students(void **state)
{
	struct run_task tasks[2];
	struct strbuf filters;
	struct judgement j;
	char *runner = tmp_path("garbage");
	(void)state;
	native_filters(&filters);
	run_tasks(runner, &filters, tasks, 2);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(tasks[i].facts.outcome, RUN_EXEC_FAILED);
		assert_int_equal(tasks[i].facts.exec_errno, ENOEXEC);
		assert_true(tasks[i].facts.image_present);
		judge(&tasks[i], &j);
		assert_int_equal(j.verdict, V_RUN_ERROR);
		assert_non_null(strstr(j.message, "could not be started"));
		assert_non_null(strstr(j.message, "ENOEXEC"));
		free(j.message);
	}
	/* the second was not started again: the first's facts */
	assert_true(tasks[1].facts.repeated);
	for (int i = 0; i < 2; i++)
		run_task_release(&tasks[i]);
	strbuf_release(&filters);
	free(runner);
}

static void test_missing_runner_is_graders(void **state)
{
	struct run_task t;
	struct strbuf filters;
	struct judgement j;
	char *runner = tmp_path("no-such-runner");
	(void)state;
	native_filters(&filters);
	run_tasks(runner, &filters, &t, 1);
	assert_int_equal(t.facts.outcome, RUN_EXEC_FAILED);
	assert_int_equal(t.facts.exec_errno, ENOENT);
	assert_false(t.facts.image_present);
	judge(&t, &j);
	assert_int_equal(j.verdict, V_JUDGE_ERROR);
	free(j.message);
	run_task_release(&t);
	strbuf_release(&filters);
	free(runner);
}

static void test_forged_sandbox_failure_is_students(void **state)
{
	struct run_task t;
	struct strbuf filters;
	struct judgement j;
	char *runner = tmp_path("forge");
	(void)state;
	native_filters(&filters);
	run_tasks(runner, &filters, &t, 1);
	assert_int_equal(t.facts.outcome, RUN_LOST);
	assert_true(t.facts.sandbox_refuted);
	assert_false(t.facts.sandbox_failed);
	judge(&t, &j);
	assert_int_equal(j.verdict, V_RUN_ERROR);
	assert_non_null(strstr(j.message, "sandbox could not be installed"));
	free(j.message);
	run_task_release(&t);
	strbuf_release(&filters);
	free(runner);
}

/* A zygote program seccomp refuses (a load past struct seccomp_data): the claim is true, the grader's fault. */
static void test_real_sandbox_failure_is_graders(void **state)
{
	struct sock_filter bad[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 4096),
		BPF_STMT(BPF_RET | BPF_K, 0x7fff0000u),
	};
	struct run_task t;
	struct strbuf filters = STRBUF_INIT;
	struct judgement j;
	char *runner = tmp_path("forge");
	uint32_t len = sizeof(bad);
	(void)state;
	strbuf_add(&filters, &len, sizeof(len));
	strbuf_add(&filters, bad, sizeof(bad));
	strbuf_add(&filters, &len, sizeof(len));
	strbuf_add(&filters, bad, sizeof(bad));
	run_tasks(runner, &filters, &t, 1);
	assert_int_equal(t.facts.outcome, RUN_LOST);
	assert_true(t.facts.sandbox_failed);
	judge(&t, &j);
	assert_int_equal(j.verdict, V_JUDGE_ERROR);
	free(j.message);
	run_task_release(&t);
	strbuf_release(&filters);
	free(runner);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unloadable_image_is_students),
		cmocka_unit_test(test_missing_runner_is_graders),
		cmocka_unit_test(test_forged_sandbox_failure_is_students),
		cmocka_unit_test(test_real_sandbox_failure_is_graders),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
