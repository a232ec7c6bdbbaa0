/*
 * Honest but slow: the textbook O(N^2) DP with a full N x N table of long
 * long (128 MB for N = 4000), the table filled twice - a correct solution
 * at about a third to a half of its CPU limit, in column order (cache
 * misses: what a busy machine's shared caches slow down most).
 */
#include <stdlib.h>

long long f(const int *L, int n);

static long long fill(const int *L, int n, long long (*best)[n], const long long *prefix)
{
    for (int i = 0; i < n; i++)
        best[i][i] = L[i];
    for (int len = 2; len <= n; len++)
        for (int i = 0; i + len <= n; i++) {
            int j = i + len - 1;
            long long a = best[i + 1][j], b = best[i][j - 1];
            best[i][j] = prefix[j + 1] - prefix[i] - (a < b ? a : b);
        }
    return best[0][n - 1];
}

long long f(const int *L, int n)
{
    if (n <= 0) /* no cards: f = 0 */
        return 0;
    long long (*best)[n] = malloc(sizeof(long long[n][n]));
    long long *prefix = malloc(sizeof(long long) * ((size_t)n + 1));
    long long r = 0;
    if (!best || !prefix)
        abort();
    prefix[0] = 0;
    for (int i = 0; i < n; i++)
        prefix[i + 1] = prefix[i] + L[i];
    for (int round = 0; round < 2; round++) {
        long long again = fill(L, n, best, prefix);
        if (round > 0 && again != r)
            abort(); /* the same table twice: never */
        r = again;
    }
    free(best);
    free(prefix);
    return r;
}
