/*
 * runner.h - a pool of worker slots that run test cases in runners.
 *
 * Theory of operation
 * -------------------
 *   grader (this process, trusted)
 *     └─ slot k: runner program = "zygote"           (one per slot, kept warm)
 *           started by sandbox_spawn(): own session, PID+net namespaces when
 *           possible, uid nobody when root, rlimits (address space, stack
 *           raised to the memory limit, file size 0), cwd = empty directory
 *           fds: 3 = requests (we write), 4 = reports (we read),
 *                5 = seccomp programs (read once, then closed)
 *           └─ case child: one per test case, forked by the zygote; stricter
 *              seccomp filter; CPU timer sends it SIGKILL at the CPU limit;
 *              answer on its own pipe, stdout+stderr on another (capped).
 *
 * A slot sends one request at a time and waits for the report, with a wall
 * clock deadline.  At the deadline (a sleeping, stopped or wedged program)
 * the grader kills the whole zygote - its namespace or process group - and
 * the slot starts a fresh one for its next case.  A zygote that dies or
 * misbehaves costs only the case it was running - except one that fails
 * before its hello (a constructor that loops, crashes or makes a forbidden
 * call): that failure is the program's, and its other cases take the same
 * verdict without starting it again.  The grader never blocks on a runner:
 * every fd is non-blocking and driven from one poll() loop.
 *
 * Ownership: the pool owns the zygotes; pool_free() kills any left.
 */
#ifndef GRADER_RUNNER_H
#define GRADER_RUNNER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "result.h"

struct run_task {
	/* in */
	const char *runner;     /* runner program path */
	int function;           /* index into the problem's functions */
	const char *function_name;
	struct strbuf args;     /* encoded arguments (value_encode) */
	unsigned cpu_ms, wall_ms, memory_mb, output_kb;
	unsigned zygote_memory_mb; /* the largest memory limit of the runner's cases */
	int group_key;          /* tasks with the same non-negative key form an all-or-nothing group */
	/* out */
	bool done;
	enum verdict verdict;   /* provisional: V_CORRECT means "answered" */
	bool answered;
	long long answer;
	unsigned cpu_used_ms, wall_used_ms;
	unsigned long long peak_kb;
	char *message;          /* owned; NULL when answered normally */
	char *output;           /* owned; captured output (at most GR_OUTPUT_KEEP bytes) */
	unsigned long long output_total;
};

void run_task_release(struct run_task *t);

struct pool;

/*
 * filters: the bytes for GR_FD_FILTER (sandbox_filters); workdir: the empty
 * cwd; hide_paths: NULL-terminated directories hidden from the runners (where
 * mount namespaces work), borrowed for the pool's lifetime.
 */
struct pool *pool_new(int slots, const struct strbuf *filters, const char *workdir,
		      const char *const *hide_paths);

/*
 * Run the tasks to completion, in order, on all slots.  stop_group_on_failure:
 * once a task of an all-or-nothing group (group_key >= 0) does not answer
 * (or fails the judge callback), the rest of that group is skipped.
 * judge(t, ctx) decides right/wrong for answered tasks (returns true when
 * correct); may be NULL.  Returns 0, or -1 when interrupted.
 */
int pool_run(struct pool *pool, struct run_task *tasks, int ntasks, bool stop_group_on_failure,
	     bool (*judge)(const struct run_task *t, void *ctx), void *ctx);

void pool_free(struct pool *pool);

#endif
