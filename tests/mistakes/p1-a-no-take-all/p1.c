/*
 * Not a mistake: A ignores the take-all rule (removes only 1..6 stones when
 * at least that many are left).  A can always take exactly what is left
 * when 6 or fewer stones remain, so the answers do not change.
 */
#include <stdbool.h>
#include <stdlib.h>

bool AcanWin(int n);
bool BcanWin(int n);

static bool solve(int n, bool want_a)
{
    static const int am[] = {1, 2, 3, 4, 5, 6}, bm[] = {2, 3, 5, 7};
    bool *a = calloc((size_t)n + 1, 1), *b = calloc((size_t)n + 1, 1), r;
    for (int i = 1; i <= n; i++) {
        for (int j = 0; j < 6; j++)
            if (am[j] <= i && !b[i - am[j]])
                a[i] = true;
        for (int j = 0; j < 4; j++) {
            int left = i - bm[j] > 0 ? i - bm[j] : 0;
            if (!a[left])
                b[i] = true;
        }
    }
    r = want_a ? a[n] : b[n];
    free(a);
    free(b);
    return r;
}

bool AcanWin(int n) { return n > 0 && solve(n, true); }
bool BcanWin(int n) { return n > 0 && solve(n, false); }
