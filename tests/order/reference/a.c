/* Reference for tests/order's problem a. */
long long twice(long long x);

long long twice(long long x)
{
	return 2 * x;
}
