/*
 * tools/bench-floor.c - the C baselines of make bench (tools/bench.sh),
 * linked with the benchmark's ident() from a separate file (no inlining).
 *
 *   bench-floor loop N    N calls in one process: the in-process call loop
 *   bench-floor fork N    N times: fork; the child calls ident(i), writes the
 *                         answer to a pipe and _exits; the parent reads it and
 *                         reaps the child.  The fork floor: the least a fresh
 *                         process per test costs, with no sandbox, limits or
 *                         protocol.
 *   bench-floor local N   the fork floor with each child started on its
 *                         parent's CPU (the parent restricts itself to the CPU
 *                         it is on around each fork, the child lifts that at
 *                         once): what the scheduler's placement of a new
 *                         process costs on this machine (docs/performance.md)
 *   bench-floor call X    print ident(X) (the per-test shell harness's program)
 *
 * loop and fork print the total wall time in microseconds.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

long long ident(long long x);

static long long now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static cpu_set_t all_cpus; /* the affinity the process started with (local only) */

/* local: keep the next fork's child on the CPU the parent is on (the child inherits the mask) */
static void stay_local(void)
{
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	sched_setaffinity(0, sizeof(one), &one);
}

static int fork_once(long long i, int local)
{
	int fd[2];
	long long v = 0;
	pid_t pid;

	if (pipe(fd) < 0)
		return -1;
	if (local)
		stay_local();
	pid = fork();
	if (local)
		sched_setaffinity(0, sizeof(all_cpus), &all_cpus); /* in both: free to move from here on */
	if (pid == 0) {
		v = ident(i);
		if (write(fd[1], &v, sizeof(v)) != sizeof(v))
			_exit(1);
		_exit(0);
	}
	close(fd[1]);
	if (pid < 0 || read(fd[0], &v, sizeof(v)) != sizeof(v) || v != i) {
		close(fd[0]);
		return -1;
	}
	close(fd[0]);
	return waitpid(pid, NULL, 0) == pid ? 0 : -1;
}

int main(int argc, char **argv)
{
	volatile long long sink = 0;
	long long n, start;

	if (argc != 3)
		return 2;
	n = atoll(argv[2]);
	if (!strcmp(argv[1], "call")) {
		printf("%lld\n", ident(n));
		return 0;
	}
	start = now_us();
	if (!strcmp(argv[1], "loop")) {
		for (long long i = 1; i <= n; i++)
			sink += ident(i);
	} else {
		int local = !strcmp(argv[1], "local");
		if (local && sched_getaffinity(0, sizeof(all_cpus), &all_cpus) < 0)
			return 1;
		for (long long i = 1; i <= n; i++)
			if (fork_once(i, local) < 0)
				return 1;
	}
	printf("%lld\n", now_us() - start);
	return 0;
}
