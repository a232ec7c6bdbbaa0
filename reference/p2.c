/*
 * Problem 2 -- the multiplication game (reference solution).
 *
 * x starts at k (1 <= k < n).  The players alternately multiply x by one of
 * 2..9; whoever first makes x >= n wins.  canWin(k, n) is true when the
 * first player can force a win.
 *
 * Reasoning.  Whether x is a win for the player to move only depends on
 * which band below n it lies in:
 *
 *   - if 9x >= n, i.e. x >= t1 = ceil(n / 9), the mover wins at once;
 *   - if x < t1 but 2x >= t1, i.e. x >= t2 = ceil(t1 / 2), every move lands
 *     in [t1, n) (9x < n, so nobody reaches n yet): the mover loses;
 *   - if x < t2 but 9x >= t2, i.e. x >= t3 = ceil(t2 / 9), the mover can
 *     land in the losing band [t2, t1): the multiples 2x, 3x, ..., 9x go
 *     past t2 in steps of x, and x <= t2 - 1 <= t1 - t2 (the band's
 *     width), so one of them falls inside the band: the mover wins;
 *   - and so on, alternately dividing the threshold by 9 (winning band)
 *     and by 2 (losing band), until the threshold is <= k; the band that
 *     contains k decides.
 *
 * That is O(log n) steps.  Ceilings are computed as t / d + (t % d != 0),
 * so nothing ever exceeds n and there is no overflow even near 2^63
 * (a direct x * 9 >= n test would overflow there).
 */
#include <stdbool.h>

bool canWin(long long k, long long n);

static long long ceil_div(long long t, long long d)
{
    return t / d + (t % d != 0);
}

bool canWin(long long k, long long n)
{
    long long threshold = n;
    bool winning_band = true; /* the band just below threshold wins */

    /* Outside the contract (k < 1: x never grows; k >= n: game over). */
    if (k < 1 || k >= n)
        return false;

    for (;;) {
        threshold = ceil_div(threshold, winning_band ? 9 : 2);
        if (k >= threshold)
            return winning_band;
        winning_band = !winning_band;
    }
}
