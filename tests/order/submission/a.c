/*
 * tests/order's submission for problem a: it tells the grader's order.
 *
 * A constructor (run once per runner, before its first test) makes a page
 * shared by every test that runner runs - each test is a child forked from
 * it.  Each call prints the runner's id, how many calls that runner made
 * before it, its argument and the CLOCK_MONOTONIC time it began and ended.  A public test's output is what
 * a student sees: had a hidden test run before it in the same runner, its
 * count would say so; had one run anywhere before it, the clock would.
 *
 * x in [500, 999] (the drawn group): a wrong answer, the time (shrinking
 * searches from there, and what it shows returns the time of its run).
 * x >= 1000 (growth's sizes): x microseconds of CPU, then the answer.
 * x = 105 (a hidden test): a time limit, which has growth measured for the
 * instructor without --growth (after the hidden tests, and not logged).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <time.h>

long long twice(long long x);

struct shared {
	unsigned long long id; /* the runner's: random at each exec */
	long calls;
};
static struct shared *shared;

static long long now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static long long cpu_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

__attribute__((constructor)) static void start(void)
{
	void *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	const void *random = (const void *)getauxval(AT_RANDOM);
	if (m != MAP_FAILED && random) {
		shared = m;
		memcpy(&shared->id, random, sizeof(shared->id));
	}
}

static void trace(long long x, long long t0, long long t1)
{
	if (shared)
		printf("runner %llx call %ld x %lld from %lld to %lld\n", shared->id, shared->calls++, x, t0, t1);
	else
		printf("runner none x %lld from %lld to %lld\n", x, t0, t1);
	fflush(stdout);
}

long long twice(long long x)
{
	long long t0 = now_us();
	long long answer = 2 * x;
	if (x >= 1000) {
		long long until = cpu_us() + x;
		while (cpu_us() < until)
			;
	} else if (x >= 500) {
		answer = t0;
	} else if (x == 105) {
		trace(x, t0, t0);
		for (;;)
			;
	}
	trace(x, t0, now_us());
	return answer;
}
