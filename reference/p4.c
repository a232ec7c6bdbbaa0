/*
 * Problem 4 -- the card row game, plain recursion (reference solution).
 *
 * A row of n cards with integer scores; the players alternately take the
 * leftmost or the rightmost card.  f(L, n) is the best total the first
 * player can guarantee.
 *
 * Reasoning (the hint).  If the first player takes L[0], the opponent then
 * plays first on L[1..n-1] and gets f(L[1:]); the first player gets the
 * rest of that row.  Symmetrically for L[n-1].  So
 *
 *     f(L) = max(L[0]   + sum(L[1:])   - f(L[1:]),
 *                L[n-1] + sum(L[:n-1]) - f(L[:n-1])),
 *
 * with f of one card = that card and f of no cards = 0.  This is
 * exponential (about 2^n calls) and meant for small n only.  Sums are kept
 * in long long because card scores may be close to the int limits.
 */

long long f(const int *L, int n);

static long long sum(const int *L, int n)
{
    long long s = 0;
    for (int i = 0; i < n; i++)
        s += L[i];
    return s;
}

long long f(const int *L, int n)
{
    long long take_left, take_right;

    if (n <= 0)
        return 0;
    if (n == 1)
        return L[0];

    take_left = L[0] + sum(L + 1, n - 1) - f(L + 1, n - 1);
    take_right = L[n - 1] + sum(L, n - 1) - f(L, n - 1);
    return take_left > take_right ? take_left : take_right;
}
