/*
 * grundy -- Sprague-Grundy values of a subtraction game (reference).
 *
 * One pile of n stones; a move removes m stones for some m in moves[]
 * (m <= the pile); whoever cannot move loses.  grundy returns the Grundy
 * value of the pile n: the mex (least non-negative integer not among) the
 * values of the piles one move away; a pile with no move has value 0.
 * 0 <= n <= 1 000 000; the k moves are distinct and at least 1.
 *
 * Reasoning.  g(v) depends only on smaller piles, so a table from 0 up to
 * n fills in one loop.  The mex of v: start at 0, and whenever some move
 * leads to a pile of that value, take the next value and look at every
 * move again (O(k^2) per pile, small next to a set for the few moves).
 */
#include <stdbool.h>

int grundy(int n, const int *moves, int k);

static int g[1000001];

int grundy(int n, const int *moves, int k)
{
    int v;

    for (v = 0; v <= n; v++) {
        int mex = 0;
        for (int j = 0; j < k; j++)
            if (moves[j] <= v && g[v - moves[j]] == mex) {
                mex++;
                j = -1; /* every move again, for the next value */
            }
        g[v] = mex;
    }
    return g[v - 1];
}
