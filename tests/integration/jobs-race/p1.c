/*
 * For the -j check in tests/integration/run.sh: right everywhere except
 * AcanWin(21), the first test of the all-or-nothing group 'medium', which
 * computes for a while and then answers wrong.  With -j 1 the rest of the
 * group is skipped; with -j 2 the other slot keeps running the group's
 * tests meanwhile.  Verdicts should not depend on -j.
 */
#include <stdbool.h>

bool AcanWin(int n);
bool BcanWin(int n);

static bool solve(int n, bool want_a)
{
    bool a[8] = {false}, b[8] = {false};
    for (int i = 1; i <= n; i++) {
        static const int am[] = {1, 2, 3, 4, 5, 6}, bm[] = {2, 3, 5, 7};
        bool aw = false, bw = false;
        for (int j = 0; j < 6; j++)
            if (!b[(i - am[j] > 0 ? i - am[j] : 0) % 8])
                aw = true;
        for (int j = 0; j < 4; j++)
            if (!a[(i - bm[j] > 0 ? i - bm[j] : 0) % 8])
                bw = true;
        a[i % 8] = aw;
        b[i % 8] = bw;
    }
    return n > 0 && (want_a ? a[n % 8] : b[n % 8]);
}

bool AcanWin(int n)
{
    if (n == 21) {
        volatile unsigned long spin = 0;
        while (spin < 150000000ul)
            spin++;
        return !solve(n, true);
    }
    return solve(n, true);
}

bool BcanWin(int n)
{
    return solve(n, false);
}
