/*
 * Problem 2 -- the multiplication game.
 *
 * A number x starts at k (1 <= k < n).  The two players alternately
 * multiply x by any of 2, 3, ..., 9.  Whoever first makes x >= n wins.
 *
 *   canWin(k, n): true if the first player can force a win.
 *
 * n goes up to about 10^18, so searching every game is out of the question,
 * and careful: x * 9 overflows long long near 10^18 (compare with a
 * division instead, e.g. x >= (n + 8) / 9, or use unsigned __int128).
 */
#include <stdbool.h>

bool canWin(long long k, long long n);

bool canWin(long long k, long long n)
{
    (void)k;
    (void)n;
    return false; /* TODO */
}
