/*
 * runner.h - a pool of worker slots that run test cases in runners, and
 * report what happened as facts.  It knows nothing of scoring: which task
 * runs next and what its outcome means are the caller's (the engine's
 * all-or-nothing policy, verdict.h's judgement).
 *
 * Theory of operation
 * -------------------
 *   grader (this process, trusted)
 *     └─ slot k: runner program = "zygote"           (one per slot, kept warm)
 *           started by sandbox_spawn(): own session, PID+net namespaces when
 *           possible, uid nobody when root, rlimits (address space, stack
 *           raised to the memory limit, file size 0), cwd = empty directory
 *           fds: 3 = requests (we write), 4 = reports (we read),
 *                5 = the runner's secret, then the seccomp programs
 *                    (read once, then closed)
 *           └─ case child: one per test case, forked by the zygote - ahead of
 *              its request, once the test before has been reported (a spare,
 *              runtime.c gr_spare_fork); stricter seccomp filter; CPU timer
 *              sends it SIGKILL at the CPU limit; answer on its own pipe,
 *              stdout+stderr on another (capped).
 *
 * Accounting: each slot's runner is a cgroup of its own where the machine
 * allows (cgroup.h: a process limit, a memory limit over the tree, its CPU
 * time) and runs as a uid of its own when the grader is root (sandbox_ids),
 * so that no runner can use up what another student's needs.  Start-up (up
 * to the hello: C constructors, Python's import) has its own CPU limit,
 * checked at every start; a test is charged all the CPU the runner's tree
 * used from its request to its report; and when a test is to start only
 * the runner itself may be alive, and the spare it made for that test -
 * never before the first test, never the same process at two requests in
 * a row - so that a helper process started before (or between) the tests
 * fails the problem (RUN_STRAY_PROCESSES).
 *
 * A slot sends one request at a time and waits for the report, with a wall
 * clock deadline.  The pool has 2 x -j slots but starts tests only while
 * fewer than -j are busy: a test that has run 100 ms and then used almost no
 * CPU, not runnable (asleep, blocked), stops counting until it computes
 * again (docs/performance.md), so tests that wait do not hold a core.  A
 * case child that stops itself is reported at once by its zygote
 * (GR_STOPPED); where the zygote may not kill it, the grader ends the
 * runner.  The deadline is charged only with time the test could run: at
 * the deadline the grader reads how long the case child (the zygote, while it
 * starts) has been runnable but waiting for a CPU (its run delay,
 * /proc/<pid>/schedstat) and puts the deadline off by what it has not given
 * back yet, up to RUN_STARVED_WALL_FACTOR x the limit (past that the test is
 * reported starved, the machine's doing); a runnable one is read again every
 * 20 ms, as the kernel adds a wait only when the process next runs.  At the final deadline (a
 * sleeping, stopped or wedged program) the grader kills the whole zygote - its namespace or process group - and
 * the slot starts a fresh one for its next case.  A zygote that dies or
 * misbehaves costs only the case it was running - except one that fails
 * before its hello (a constructor that loops, crashes or makes a forbidden
 * call): that failure is the program's, and its other cases get the same
 * facts (marked repeated) without starting it again.  The grader never
 * blocks on a runner: every fd is non-blocking and driven from one poll()
 * loop.
 *
 * Around every test the grader reads the zygote's CPU time (its own and its
 * reaped children's) from /proc itself: what a runner reports could be
 * forged by code that runs before main.  The zygote's address-space limit
 * is the largest memory limit of its tests, with a little room for the
 * runtime's buffers (set before execve), and at the hello the grader
 * refuses a zygote that holds more than a test may: whatever code of the
 * submission does in the zygote itself (a constructor that answers the
 * requests, say) has no more memory than a test.  Every record must carry
 * the runner's secret (protocol.h GR_NONCE_LEN), drawn for each runner and
 * passed on GR_FD_FILTER: a Python module's top-level code that speaks the
 * protocol itself cannot make a record the grader takes.  A test past 100 ms also has its
 * stack sampled (VmStk, every 100 ms): a test stopped at its CPU limit while
 * its stack was growing toward the limit is a recursion on its way to the
 * stack's end (verdict.c).
 *
 * Ownership: the pool owns the zygotes; pool_free() kills any left.  The
 * pool keeps a pointer to the hidden paths given to pool_new(): they must
 * outlive it.  Tasks are the caller's; a task's
 * outputs (the strings in its facts) are freed by run_task_release().
 */
#ifndef GRADER_RUNNER_H
#define GRADER_RUNNER_H

#include <stdbool.h>
#include <stdint.h>

#include "runtime/protocol.h"
#include "base/util.h"

/* What became of a test, as the pool saw it. */
enum run_outcome {
	RUN_NONE,             /* not run (yet) */
	RUN_REPORTED,         /* the runner reported on the test: facts.report */
	RUN_MISSING_FUNCTION, /* the runner says the submission does not define the function */
	RUN_WALL_TIMEOUT,     /* no report within the wall-clock limit: the runner was killed */
	RUN_START_TIMEOUT,    /* the runner did not say hello within its start-up time */
	RUN_LOST,             /* the runner ended (EOF) while starting or running the test */
	RUN_PROTOCOL,         /* something wrote on the grader's channel that is not our protocol */
	RUN_FORBIDDEN_RUNNER, /* the zygote itself (a constructor, or what it started) made a forbidden call */
	RUN_UNFILTERED,       /* the runner said hello without the seccomp filter in place */
	RUN_FILTER_CHANGED,   /* code in the runner stacked a seccomp filter of its own on the grader's */
	RUN_STRAY_PROCESSES,  /* processes besides the runner were alive when a test was to start */
	RUN_STARTUP_LIMIT,    /* the runner's start-up used more CPU than its limit (facts.startup_cpu_ms) */
	RUN_STARTUP_MEMORY,   /* at its hello the runner held more address space than a test may use
			       * (facts.startup_vm_kb) */
	RUN_TREE_MEMORY,      /* the processes below the zygote held more memory together than the test's limit,
			       * where nothing else limits them together (facts.tree_memory_kb; runner.c
			       * slot_watch_tree) */
	RUN_LOAD_FAILED,      /* loading the submission before the tests failed (facts.load_kind, detail) */
	RUN_NOT_STARTED,      /* the grader could not start the runner (facts.error) */
	RUN_EXEC_FAILED,      /* execve of the runner failed (facts.exec_errno, image_present, error) */
	RUN_STOPPED,          /* the pool stopped before the test ran (interrupted) */
};

/*
 * The wall-clock limit is charged only with time the test could run: time
 * it waited for a CPU is given back, up to this many times the limit in all.
 */
#define RUN_STARVED_WALL_FACTOR 4u

/*
 * A run stopped by its CPU timer (SIGKILL at cpu_ms, or at cpu_cap_ms) can
 * show up to this much less CPU than the timer's setting: the process's
 * CPU clock and the times read after its death are accounted at different
 * moments.  A kill within it of the timer's setting is the timer's.
 */
#define RUN_CPU_TIMER_SLACK_MS 5u

struct run_facts {
	enum run_outcome outcome;
	bool starting;           /* it happened before the runner's hello */
	bool repeated;           /* an earlier start of this runner failed so; not started again */
	struct gr_report report; /* RUN_REPORTED */
	char *output;            /* captured output (at most GR_OUTPUT_KEEP bytes), or NULL */
	char *detail;            /* RUN_REPORTED: what the call gave besides a value; RUN_LOAD_FAILED: why */
	unsigned load_kind;      /* RUN_LOAD_FAILED: enum gr_load_kind */
	char *startup_output;    /* what the runner printed before its first test (the first task it ran) */
	unsigned long long startup_total;
	long long grader_cpu_ms; /* CPU the runner's whole tree used during the test (its cgroup, else
				  * the zygote and its reaped children by /proc); -1 unknown */
	long long startup_cpu_ms;/* RUN_STARTUP_LIMIT, RUN_START_TIMEOUT: what the start-up used; -1 unknown */
	long long startup_vm_kb; /* RUN_STARTUP_MEMORY: the zygote's address space at its hello (VmSize) */
	bool tree_oom;           /* the kernel killed a process of the runner's tree at the tree's memory limit */
	unsigned long long tree_memory_kb; /* RUN_TREE_MEMORY: what the processes below the zygote held (Pss) */
	bool procs_short;        /* RUN_REPORTED: the zygote could not fork the test where every runner's processes
				  * share the user's one count (sandbox_counts_processes_apart): run it again */
	int strays_seen;         /* RUN_STRAY_PROCESSES seen while it started or ran (runner.c slot_watch_tree): how
				  * many processes were below the zygote; 0: seen when a test was to start */
	unsigned wall_ms;        /* from request to report (or to the kill) */
	unsigned run_delay_ms;   /* of wall_ms, how long the test (RUN_START_TIMEOUT: the runner) was runnable
				  * but waiting for a CPU - given back to it on the wall-clock limit */
	bool starved;            /* RUN_WALL_TIMEOUT, RUN_START_TIMEOUT: it had less than its wall-clock limit
				  * to run, the rest of the time waiting for a CPU (the machine's doing) */
	unsigned stack_kb;       /* the case child's stack when last sampled (tests past 100 ms), 0 unknown */
	bool stack_growing;      /*   and it was deeper than at the sample before */
	bool child_known;        /* RUN_WALL_TIMEOUT: the case child's state was read */
	char child_state;        /*   its /proc state letter (R, S, T...) */
	unsigned child_cpu_ms;   /*   and CPU time */
	int exit_status;         /* RUN_LOST: the zygote's wait status */
	bool sandbox_failed;     /* RUN_LOST: the preinit hook said seccomp refused the filter, and the
				  * grader's own try (sandbox_seccomp_refuses) agrees */
	bool sandbox_refuted;    /* RUN_LOST: the runner said so, but the grader's own try installs it */
	int exec_errno;          /* RUN_EXEC_FAILED: execve's errno */
	bool image_present;      /* RUN_EXEC_FAILED: the runner file is there, a regular file (by the grader's stat) */
	int syscall_nr;          /* RUN_FORBIDDEN_RUNNER */
	char *error;             /* RUN_NOT_STARTED, RUN_EXEC_FAILED: why, for the grader's log */
};

struct run_task {
	/* in */
	const char *runner;     /* runner program path */
	const char *const *runner_argv; /* its argv (NULL: just "runner") */
	const struct strbuf *filters;   /* the seccomp programs for GR_FD_FILTER (filter_programs) */
	const char *runner_dir; /* the directory the runner may read besides the libraries (its build's), or NULL */
	int function;           /* index into the problem's functions */
	struct strbuf args;     /* encoded arguments (value_encode) */
	unsigned cpu_ms, wall_ms, memory_mb, output_kb;
	unsigned cpu_cap_ms;    /* CPU the test may run to before it is stopped, above cpu_ms so that a run far
				 * past its limit needs no second run (remeasure.h); 0: cpu_ms */
	unsigned zygote_memory_mb; /* the largest memory limit of the runner's cases */
	unsigned startup_ms;    /* CPU the runner may use before its hello (its start-up) */
	bool fresh_runner;      /* run it on a runner started for it (a test run again: remeasure.h) */
	/* out */
	bool done;
	struct run_facts facts;
};

void run_task_release(struct run_task *t);

/*
 * Who decides what runs (the caller's policy).  next() returns the index of
 * the next task to start, or -1 when there is none now; finished() is called
 * once for every task next() handed out, when its facts are in.  After -1,
 * next() is asked again only once a task has finished (finished() may make
 * more work: a test run again), and the pool ends when next() has returned -1
 * with no task in flight.  A task handed out again must have been reset
 * (done false, its facts zeroed and released).
 */
struct pool_client {
	int (*next)(void *ctx);
	void (*finished)(void *ctx, int task);
	void *ctx;
};

struct pool;

/*
 * workdir: the empty cwd (copied); hide_paths: NULL-terminated directories
 * hidden from the runners (where mount namespaces work), borrowed for the
 * pool's lifetime; id_block: the block of sandbox uids its slots run as.  Each task names its runner, its argv and its seccomp
 * programs, which must outlive the pool_run that runs it.
 */
struct pool *pool_new(int slots, const char *workdir, const char *const *hide_paths, unsigned id_block);

/*
 * Run the tasks client->next() hands out, on all slots, until it has none
 * left and every one of them has finished.  Returns 0, or -1 when
 * interrupted or the event loop failed (tasks handed out but not finished
 * then have outcome RUN_STOPPED).
 */
int pool_run(struct pool *pool, struct run_task *tasks, const struct pool_client *client);

/*
 * End every runner the pool keeps warm, between two pool_run()s: their
 * slots start fresh ones for the next tasks.  What the pool learnt of
 * runners that failed to start stays (their tests are not started again).
 */
void pool_stop_runners(struct pool *pool);

void pool_free(struct pool *pool);

#endif
