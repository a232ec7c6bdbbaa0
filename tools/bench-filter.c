/*
 * tools/bench-filter.c - what loading a seccomp filter adds to a fresh
 * process, and whether a shorter program would load faster
 * (docs/performance.md, "Where the per-test time goes").
 *
 *   bench-filter ROUNDS
 *
 * Each round forks three children one after the other, interleaved so that
 * the machine's noise falls on all three alike: one that exits at once, one
 * that first loads a 70-instruction allow-list like the case filter of
 * grader/sandbox/filter.c (the same calls allowed, SIGSYS for the rest), and one
 * that loads a 30-instruction deny-list (what a case child would load on
 * top of a zygote filter that already holds everything else: the zygote's
 * extra calls trap).  Prints the median over the rounds of each child's
 * fork-to-reaped time in microseconds.  Built by hand:
 *   cc -O2 -o build/bench-filter tools/bench-filter.c -lseccomp
 */
#define _GNU_SOURCE
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const int allow_list[] = {
	SCMP_SYS(read), SCMP_SYS(write), SCMP_SYS(writev), SCMP_SYS(close), SCMP_SYS(lseek), SCMP_SYS(fstat),
	SCMP_SYS(brk), SCMP_SYS(mmap), SCMP_SYS(munmap), SCMP_SYS(mremap), SCMP_SYS(mprotect), SCMP_SYS(madvise),
	SCMP_SYS(rt_sigprocmask), SCMP_SYS(rt_sigreturn), SCMP_SYS(sigaltstack), SCMP_SYS(getpid), SCMP_SYS(gettid),
	SCMP_SYS(getppid), SCMP_SYS(getrandom), SCMP_SYS(rseq), SCMP_SYS(futex), SCMP_SYS(set_robust_list),
	SCMP_SYS(clock_gettime), SCMP_SYS(clock_getres), SCMP_SYS(gettimeofday), SCMP_SYS(time),
	SCMP_SYS(clock_nanosleep), SCMP_SYS(nanosleep), SCMP_SYS(pause), SCMP_SYS(sched_yield),
	SCMP_SYS(getrusage), SCMP_SYS(times), SCMP_SYS(exit), SCMP_SYS(exit_group), SCMP_SYS(rt_sigaction),
};

static const int deny_list[] = {
	SCMP_SYS(wait4), SCMP_SYS(waitid), SCMP_SYS(pipe), SCMP_SYS(pipe2), SCMP_SYS(dup), SCMP_SYS(dup2),
	SCMP_SYS(dup3), SCMP_SYS(poll), SCMP_SYS(ppoll), SCMP_SYS(setrlimit), SCMP_SYS(getrlimit),
	SCMP_SYS(timer_create), SCMP_SYS(timer_settime), SCMP_SYS(timer_delete), SCMP_SYS(prctl), SCMP_SYS(seccomp),
	SCMP_SYS(set_tid_address), SCMP_SYS(clone), SCMP_SYS(prlimit64),
};

/* The program of ctx, exported as classic BPF (exits on failure: a tool, not a library). */
static struct sock_fprog export_program(scmp_filter_ctx ctx)
{
	int fd = memfd_create("bench-filter", MFD_CLOEXEC);
	off_t size;
	struct sock_fprog prog;

	if (fd < 0 || seccomp_export_bpf(ctx, fd) < 0 || (size = lseek(fd, 0, SEEK_END)) <= 0) {
		perror("bench-filter: export");
		exit(2);
	}
	prog.len = (unsigned short)(size / sizeof(struct sock_filter));
	prog.filter = malloc((size_t)size);
	if (!prog.filter || pread(fd, prog.filter, (size_t)size, 0) != size) {
		perror("bench-filter: read back");
		exit(2);
	}
	close(fd);
	return prog;
}

static struct sock_fprog build(uint32_t default_action, uint32_t rule_action, const int *calls, size_t n)
{
	scmp_filter_ctx ctx = seccomp_init(default_action);
	struct sock_fprog prog;
	if (!ctx)
		exit(2);
	for (size_t i = 0; i < n; i++)
		if (seccomp_rule_add(ctx, rule_action, calls[i], 0) < 0)
			exit(2);
	prog = export_program(ctx);
	seccomp_release(ctx);
	return prog;
}

/* Fork a child that loads prog (none when its length is 0) and exits; microseconds until it is reaped. */
static double one_child(const struct sock_fprog *prog)
{
	struct timespec t0, t1;
	pid_t pid;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid == 0) {
		if (prog->len && syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, prog) < 0)
			_exit(1);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, NULL, 0) < 0) {
		perror("bench-filter: fork");
		exit(2);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0.tv_sec) * 1e6 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e3;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 2000;
	struct sock_fprog progs[3] = {
		{ 0, NULL },
		build(SCMP_ACT_TRAP, SCMP_ACT_ALLOW, allow_list, sizeof(allow_list) / sizeof(allow_list[0])),
		build(SCMP_ACT_ALLOW, SCMP_ACT_TRAP, deny_list, sizeof(deny_list) / sizeof(deny_list[0])),
	};
	const char *names[3] = { "no filter", "allow-list", "deny-list" };
	double *t[3];

	if (rounds < 1 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return 2;
	for (int w = 0; w < 3; w++)
		if (!(t[w] = malloc((size_t)rounds * sizeof(double))))
			return 2;
	for (int r = 0; r < rounds; r++)
		for (int w = 0; w < 3; w++)
			t[w][r] = one_child(&progs[w]);
	for (int w = 0; w < 3; w++) {
		qsort(t[w], (size_t)rounds, sizeof(double), by_value);
		printf("%-10s %3u instructions: median %.1f us per child\n", names[w], progs[w].len, t[w][rounds / 2]);
	}
	return 0;
}
