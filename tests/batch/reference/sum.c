/* Reference for tests/batch/problems/sum.yaml */
long long total(const int *L, int n);

long long total(const int *L, int n)
{
    long long s = 0;
    for (int i = 0; i < n; i++)
        s += L[i];
    return s;
}
