/*
 * Mistake: B may only remove 2, 3, 5 or 7 stones when that many are left
 * (the rule "a player may take all that is left when his amount is larger"
 * is ignored); a player without a move loses.  So BcanWin(1) is false.
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
        for (int j = 0; j < 6; j++) {
            int left = i - am[j] > 0 ? i - am[j] : 0;
            if (!b[left])
                a[i] = true;
        }
        for (int j = 0; j < 4; j++)
            if (bm[j] <= i && !a[i - bm[j]])
                b[i] = true;
    }
    r = want_a ? a[n] : b[n];
    free(a);
    free(b);
    return r;
}

bool AcanWin(int n) { return n > 0 && solve(n, true); }
bool BcanWin(int n) { return n > 0 && solve(n, false); }
