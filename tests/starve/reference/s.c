/* Reference for the starved-test suite's problem. */
long long add_one(long long x);

long long add_one(long long x)
{
	return x + 1;
}
