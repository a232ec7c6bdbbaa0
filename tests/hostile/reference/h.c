/* Reference for the hostile suite's problem: nothing to it on purpose. */
long long twice(long long x);

long long twice(long long x)
{
	return 2 * x;
}
