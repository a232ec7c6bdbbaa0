/*
 * Mistake: the recursion of the hint, but the best value starts at 0, so
 * a row where every choice loses points comes out as 0.
 */
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
    long long best = 0, left, right;
    if (n <= 0)
        return 0;
    if (n == 1)
        return L[0];
    left = L[0] + sum(L + 1, n - 1) - f(L + 1, n - 1);
    right = L[n - 1] + sum(L, n - 1) - f(L, n - 1);
    if (left > best)
        best = left;
    if (right > best)
        best = right;
    return best;
}
