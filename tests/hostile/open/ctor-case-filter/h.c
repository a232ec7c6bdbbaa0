/* A constructor (it runs under the zygote's filter, before the tests) finds
 * the case children's seccomp program in the runner's writable memory
 * (runtime.c gr_case.filter, read before the constructors) and makes every
 * instruction "allow", instruction for instruction: the filter count stays
 * the same.  The tests then run under the zygote's filter only: pipe(),
 * which only the zygote may call, succeeds in a test.  What a test may do
 * must not depend on memory that code of the submission can write before
 * it (issue 29, classes 1 and 3: the Python twin is py-bytecode-case-filter). */
#include <string.h>
#include <unistd.h>

extern char __data_start[], _end[];

__attribute__((constructor)) static void early(void)
{
	static const unsigned char start[10] = { 0x20, 0, 0, 0, 4, 0, 0, 0, 0x15, 0 };
	static const unsigned char allow[8] = { 0x06, 0, 0, 0, 0, 0, 0xff, 0x7f };

	for (char *p = __data_start; p + 512 <= _end; p += 8)
		if (!memcmp(p, start, sizeof(start)))
			for (int i = 0; i < 64; i++)
				memcpy(p + 8 * i, allow, sizeof(allow));
}

long long twice(long long x)
{
	int fds[2];

	if (pipe(fds) < 0) /* a forbidden system call in a test, were the case filter there */
		return -1;
	close(fds[0]);
	close(fds[1]);
	return 2 * x;
}
