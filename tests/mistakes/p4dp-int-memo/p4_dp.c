/* Mistake: the O(N^2) DP with its table and prefix sums in int. */
#include <stdlib.h>

long long f(const int *L, int n);

long long f(const int *L, int n)
{
    int *best = malloc(sizeof(int) * (size_t)n * (size_t)n);
    int *prefix = malloc(sizeof(int) * ((size_t)n + 1));
    long long r;
    if (!best || !prefix)
        abort();
    prefix[0] = 0;
    for (int i = 0; i < n; i++) {
        prefix[i + 1] = prefix[i] + L[i];
        best[(size_t)i * n + i] = L[i];
    }
    for (int len = 2; len <= n; len++)
        for (int i = 0; i + len <= n; i++) {
            int j = i + len - 1;
            int a = best[(size_t)(i + 1) * n + j], b = best[(size_t)i * n + j - 1];
            best[(size_t)i * n + j] = prefix[j + 1] - prefix[i] - (a < b ? a : b);
        }
    r = best[n - 1];
    free(best);
    free(prefix);
    return r;
}
