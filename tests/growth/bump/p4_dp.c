/*
 * p4_dp, O(N^2), but one size is slow: at N = 6144 the table is filled a
 * second time over the first 70% of the row (half the work again).  It
 * stands for what a busy machine does to one size's times - on CI, on
 * 2026-11-26, the reference's least time at 12288 was 25% over the line
 * through 6144 and 24576, and the grader could not name a class.  The
 * growth suite checks that the grader measures more sizes around it,
 * leaves the slowed one out and names O(N^2) - and says so.  The answer
 * is the reference's (reference/p4_dp.c): the extra pass is thrown away.
 * The slow size is one the search always passes (it was 12288 until a CI
 * rehearsal of 2026-11-27, on a machine slowed by other work, stopped the
 * doubling there: a slowed largest size is never set aside, by design,
 * and the sentence was rightly "between O(N^2) and O(N^3)").
 */
#include <stdlib.h>

long long f(const int *L, int n);

static long long best_total(const int *L, int n)
{
    long long *sum, *cur, result;

    if (n <= 0)
        return 0;
    sum = calloc((size_t)n, sizeof *sum);
    cur = calloc((size_t)n + 1, sizeof *cur);
    if (sum == NULL || cur == NULL)
        abort();
    for (int i = 0; i < n; i++) {
        sum[i] = L[i];
        cur[i] = L[i];
    }
    for (int len = 2; len <= n; len++) {
        for (int i = 0; i + len <= n; i++) {
            long long opp_left = cur[i + 1], opp_right = cur[i];
            sum[i] += L[i + len - 1];
            cur[i] = sum[i] - (opp_left < opp_right ? opp_left : opp_right);
        }
    }
    result = cur[0];
    free(sum);
    free(cur);
    return result;
}

long long f(const int *L, int n)
{
    static volatile long long sink;

    if (n == 6144)
        sink = best_total(L, n * 7 / 10);
    return best_total(L, n);
}
