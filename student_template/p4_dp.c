/*
 * Problem 4 (DP) -- the card row game, fast.
 *
 * The same game as in p4.c: a row of n cards L[0..n-1] with integer scores;
 * the two players alternately take the leftmost or the rightmost card.
 *
 *   f(L, n): the best total the first player can guarantee.
 *
 * This time n can be a few thousand, so the exponential recursion is far
 * too slow: compute it with an O(n^2) dynamic programme (the value of every
 * contiguous part L[i..j] of the row, shorter parts first).  Use long long
 * for sums.
 */

long long f(const int *L, int n);

long long f(const int *L, int n)
{
    (void)L;
    (void)n;
    return 0; /* TODO */
}
