/*
 * Problem 3 -- the selection game (reference solution).
 *
 * n > 5.  A opens by selecting 1; then the players alternately (B first)
 * select n_{i+1} in {n_i + 1, 2 n_i + 2, n_i^2 + 1}, never above n.
 * Whoever first selects n wins.  canWin(n) is true when A can force a win.
 *
 * Reasoning.  Let win[v] mean "the player who must select after v (v being
 * the last selected number) can force a win".  Selecting n wins, so the
 * player facing v = n has lost: win[n] = false.  For v < n the player wins
 * iff some allowed successor s <= n has win[s] false.  Every successor is
 * larger than v, so we fill win[] from n - 1 down to 1 (backward induction).
 * After A selects 1 it is B's turn, so A wins iff win[1] is false.
 * v^2 + 1 overflows int for v > 46340, hence the long long arithmetic.
 * O(n) time, n bytes of memory.
 */
#include <stdbool.h>
#include <stdlib.h>

bool canWin(int n);

/*
 * Selecting s is allowed (s <= n) and leaves the opponent, facing s, lost.
 * The bound and the index are the same s, so no change to a successor's
 * formula can index past n (grader mutate, docs/test-strength.md).
 */
static bool good_move(const bool *win, long long s, int n)
{
    return s <= n && !win[s];
}

bool canWin(int n)
{
    bool *win;
    bool a_wins;

    if (n < 2) /* outside the contract (n > 5) */
        return false;

    /* calloc zeroes every entry: win[n] = false (facing n, the game is lost) */
    win = calloc((size_t)n + 1, 1);
    if (win == NULL)
        abort();

    for (long long v = n - 1; v >= 1; v--)
        win[v] = good_move(win, v + 1, n) || good_move(win, 2 * v + 2, n)
                 || good_move(win, v * v + 1, n);
    a_wins = !win[1];
    free(win);
    return a_wins;
}
