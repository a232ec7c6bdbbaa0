/*
 * Correct: the textbook O(N^2) DP with a full N x N table of long long
 * (128 MB for N = 4000), as the hint says fits in the memory limit.
 */
#include <stdlib.h>

long long f(const int *L, int n);

long long f(const int *L, int n)
{
    if (n <= 0) /* no cards: f = 0 (the examples group tests f([])) */
        return 0;
    long long (*best)[n] = malloc(sizeof(long long[n][n]));
    long long *prefix = malloc(sizeof(long long) * ((size_t)n + 1));
    long long r;
    if (!best || !prefix)
        abort();
    prefix[0] = 0;
    for (int i = 0; i < n; i++) {
        prefix[i + 1] = prefix[i] + L[i];
        best[i][i] = L[i];
    }
    for (int len = 2; len <= n; len++)
        for (int i = 0; i + len <= n; i++) {
            int j = i + len - 1;
            long long a = best[i + 1][j], b = best[i][j - 1];
            best[i][j] = prefix[j + 1] - prefix[i] - (a < b ? a : b);
        }
    r = best[0][n - 1];
    free(best);
    free(prefix);
    return r;
}
