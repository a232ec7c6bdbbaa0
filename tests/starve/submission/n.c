/* Sleeps past the wall-clock limit without using CPU: its own timelimit, starved or not. */
#include <unistd.h>

long long nap(long long x);

long long nap(long long x)
{
	sleep(30);
	return x + 1;
}
