/*
 * Problem 4 -- the card row game (plain recursion).
 *
 * A row of n cards L[0..n-1] carries integer scores (possibly negative,
 * zero or large: anything that fits in an int).  The two players
 * alternately take the leftmost or the rightmost card of the row.
 *
 *   f(L, n): the best total the first player can guarantee.
 *
 * Write the recursion of the hint:
 *
 *   f(L) = max(L[0]   + sum(L[1:])   - f(L[1:]),
 *              L[n-1] + sum(L[:n-1]) - f(L[:n-1]))
 *
 * with f of one card = that card and f of no cards = 0.  Example:
 * f([4, 3, 1, 2]) = 6.  Sums of ints can overflow int: use long long.
 * Only used for small rows (n <= 20).
 */

long long f(const int *L, int n);

long long f(const int *L, int n)
{
    (void)L;
    (void)n;
    return 0; /* TODO */
}
