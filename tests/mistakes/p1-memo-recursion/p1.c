/*
 * Correct: the recursion of the game tree with memoisation.  AcanWin(n)
 * first recurses into BcanWin(n - 1), AcanWin(n - 3), ... so the recursion
 * is about n / 1.5 calls deep - hundreds of thousands for the large tests.
 * Deep legitimate recursion must pass.
 */
#include <stdbool.h>
#include <stdlib.h>

bool AcanWin(int n);
bool BcanWin(int n);

static signed char *memo_a, *memo_b; /* 0 unknown, 1 win, 2 lose */
static int size;

static bool a_wins(int n);

static bool b_wins(int n)
{
    static const int bm[] = {2, 3, 5, 7};
    bool w = false;
    if (n <= 0)
        return false;
    if (memo_b[n])
        return memo_b[n] == 1;
    for (int j = 0; j < 4 && !w; j++)
        w = !a_wins(n - bm[j] > 0 ? n - bm[j] : 0);
    memo_b[n] = w ? 1 : 2;
    return w;
}

static bool a_wins(int n)
{
    bool w = false;
    if (n <= 0)
        return false;
    if (memo_a[n])
        return memo_a[n] == 1;
    for (int m = 1; m <= 6 && !w; m++)
        w = !b_wins(n - m > 0 ? n - m : 0);
    memo_a[n] = w ? 1 : 2;
    return w;
}

static void prepare(int n)
{
    if (n + 1 > size) {
        free(memo_a);
        free(memo_b);
        size = n + 1;
        memo_a = calloc((size_t)size, 1);
        memo_b = calloc((size_t)size, 1);
        if (!memo_a || !memo_b)
            abort();
    }
}

bool AcanWin(int n)
{
    prepare(n);
    return a_wins(n);
}

bool BcanWin(int n)
{
    prepare(n);
    return b_wins(n);
}
