/*
 * Mistake: the right table, but every range sum is recomputed with a loop:
 * O(N^3), far too slow for N in the thousands.
 */
#include <stdlib.h>

long long f(const int *L, int n);

long long f(const int *L, int n)
{
    if (n <= 0) /* no cards: f = 0 (the examples group tests f([])) */
        return 0;
    long long *best = malloc(sizeof(long long) * (size_t)n * (size_t)n), r;
    if (!best)
        abort();
    for (int i = 0; i < n; i++)
        best[(size_t)i * n + i] = L[i];
    for (int len = 2; len <= n; len++)
        for (int i = 0; i + len <= n; i++) {
            int j = i + len - 1;
            long long total = 0, a, b;
            for (int k = i; k <= j; k++)
                total += L[k];
            a = best[(size_t)(i + 1) * n + j];
            b = best[(size_t)i * n + j - 1];
            best[(size_t)i * n + j] = total - (a < b ? a : b);
        }
    r = best[n - 1];
    free(best);
    return r;
}
