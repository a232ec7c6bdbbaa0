/* Reference for the starved-test suite's sleeping problem. */
long long nap(long long x);

long long nap(long long x)
{
	return x + 1;
}
