/*
 * Problem 1 -- a partizan stone game.
 *
 * There are n stones.  Player A may remove 1, 2, 3, 4, 5 or 6 stones;
 * player B may remove 2, 3, 5 or 7 stones.  A player whose allowed amount
 * exceeds what is left may take all that is left.  Whoever takes the last
 * stone wins.
 *
 *   AcanWin(n): A is to move with n stones left; true if A can force a win.
 *   BcanWin(n): B is to move with n stones left; true if B can force a win.
 *
 * With n = 0 the player to move has already lost (the opponent took the
 * last stone), so both return false.  n can be as large as 10^6: a plain
 * recursion is far too slow there, use a table or memoisation.
 */
#include <stdbool.h>

bool AcanWin(int n);
bool BcanWin(int n);

bool AcanWin(int n)
{
    (void)n;
    return false; /* TODO */
}

bool BcanWin(int n)
{
    (void)n;
    return false; /* TODO */
}
