/* Mistake: the recursion of the hint with the sums in int. */
long long f(const int *L, int n);

static int sum(const int *L, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += L[i];
    return s;
}

long long f(const int *L, int n)
{
    int left, right;
    if (n <= 0)
        return 0;
    if (n == 1)
        return L[0];
    left = L[0] + sum(L + 1, n - 1) - (int)f(L + 1, n - 1);
    right = L[n - 1] + sum(L, n - 1) - (int)f(L, n - 1);
    return left > right ? left : right;
}
