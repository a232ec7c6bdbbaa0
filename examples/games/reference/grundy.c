/*
 * grundy -- Sprague-Grundy values of a subtraction game (reference).
 *
 * One pile of n stones; a move removes m stones for some m in moves[]
 * (m <= the pile); whoever cannot move loses.  grundy returns the
 * Grundy value of the pile n: the mex (least non-negative integer not
 * among) the values of the piles one move away; a pile from which no move
 * is possible has value 0.
 *
 * Reasoning.  g(v) depends only on smaller piles, so a table from 0 up to
 * n fills in O(n k) (k moves).  A position has at most k options, so its
 * value is at most k: a k + 2 byte "seen" array per position is enough.
 * Moves of 0 or less are no moves (they would not shorten the game).
 */
#include <stdbool.h>
#include <stdlib.h>

int grundy(int n, const int *moves, int k);

int grundy(int n, const int *moves, int k)
{
    int *g, result;
    bool *seen;

    if (n < 0)
        return 0;
    g = malloc(((size_t)n + 1) * sizeof(int));
    seen = malloc((size_t)k + 2);
    if (g == NULL || seen == NULL)
        abort();
    for (int v = 0; v <= n; v++) {
        int mex = 0;
        for (int j = 0; j <= k + 1; j++)
            seen[j] = false;
        for (int j = 0; j < k; j++)
            if (moves[j] > 0 && moves[j] <= v && g[v - moves[j]] <= k)
                seen[g[v - moves[j]]] = true;
        while (seen[mex])
            mex++;
        g[v] = mex;
    }
    result = g[n];
    free(g);
    free(seen);
    return result;
}
