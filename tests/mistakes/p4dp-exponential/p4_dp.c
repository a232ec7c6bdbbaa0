/* Mistake: p4's exponential recursion handed in as the DP. */
long long f(const int *L, int n);

static long long sum(const int *L, int n)
{
    long long s = 0;
    for (int i = 0; i < n; i++)
        s += L[i];
    return s;
}

long long f(const int *L, int n)
{
    long long left, right;
    if (n <= 0)
        return 0;
    if (n == 1)
        return L[0];
    left = L[0] + sum(L + 1, n - 1) - f(L + 1, n - 1);
    right = L[n - 1] + sum(L, n - 1) - f(L, n - 1);
    return left > right ? left : right;
}
