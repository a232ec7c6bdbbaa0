/*
 * Mistake: backward induction, right except that n_i * n_i is computed in
 * int, which overflows for n_i above 46340.
 */
#include <stdbool.h>
#include <stdlib.h>

bool canWin(int n);

bool canWin(int n)
{
    bool *win = calloc((size_t)n + 1, 1), a;
    if (!win)
        abort();
    for (int v = n - 1; v >= 1; v--) {
        int next[3] = {v + 1, 2 * v + 2, v * v + 1};
        for (int i = 0; i < 3; i++)
            if (next[i] <= n && !win[next[i]])
                win[v] = true;
    }
    a = !win[1];
    free(win);
    return a;
}
