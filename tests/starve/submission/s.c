/* Honest and CPU-bound: 200 ms of CPU (half its limit), then the right answer. */
#include <time.h>

long long add_one(long long x);

long long add_one(long long x)
{
	struct timespec t;

	do
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	while (t.tv_sec == 0 && t.tv_nsec < 200000000L);
	return x + 1;
}
