/*
 * A program can make itself wait for a CPU.  Without user namespaces (no
 * cgroup, no RLIMIT_NPROC of the runner's own) a constructor forks 64
 * children that sleep, then 30 that spin, then spins itself: the zygote is
 * runnable but rarely on a CPU, so at its start-up deadline the grader
 * finds it "starved" - the machine's fault - unless the start-up used more
 * than its CPU limit.  It counts that CPU from /proc, reading at most 64
 * processes of the tree (runner.c TREE_WALK_MAX): the 64 sleepers, listed
 * first, use up the walk, and the spinners' CPU is never seen.  A correct
 * grader: timelimit (or forbidden), never judge-error.
 */
#include <unistd.h>

__attribute__((constructor)) static void early(void)
{
	for (int i = 0; i < 64; i++)
		if (fork() == 0)
			for (;;)
				pause();
	for (int i = 0; i < 30; i++)
		if (fork() == 0)
			for (;;)
				;
	for (;;)
		;
}

long long twice(long long x)
{
	return 2 * x;
}
