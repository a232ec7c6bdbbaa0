/*
 * A missing base case on one input: canWin(6) recurses without end, every
 * other n is answered by backward induction.  Its stack (the memory limit,
 * 256 MiB) fills in a few hundred ms of CPU - about the CPU limit - so
 * whichever limit it meets first, the verdict must be the same, idle or
 * busy: run-error, stack overflow (verdict.c).
 */
#include <stdbool.h>
#include <stdlib.h>

bool canWin(int n);

static bool deeper(long long v)
{
    if (v < 0)
        return true;
    return !deeper(v + 1) || !deeper(2 * v + 2);
}

bool canWin(int n)
{
    bool *win, a_wins;

    if (n == 6)
        return !deeper(1);
    win = calloc((size_t)n + 1, 1);
    if (!win)
        abort();
    for (long long v = n - 1; v >= 1; v--) {
        long long s[3] = { v + 1, 2 * v + 2, v * v + 1 };
        for (int k = 0; k < 3; k++)
            if (s[k] <= n && !win[s[k]])
                win[v] = true;
    }
    a_wins = !win[1];
    free(win);
    return a_wins;
}
