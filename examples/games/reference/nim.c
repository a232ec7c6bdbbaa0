/*
 * nim -- normal-play Nim (reference solution).
 *
 * Piles of stones; a move takes any positive number of stones from one
 * pile; whoever cannot move (every pile empty) loses.  nimWin is true when
 * the player to move can force a win.
 *
 * Bouton's theorem (1901): the player to move loses exactly when the XOR
 * of the pile sizes (the nim-sum) is 0.  From a nim-sum of 0 every move
 * changes one pile and so makes it non-zero; from a non-zero nim-sum some
 * pile can be lowered to make it 0.  One pass, O(n).
 */
#include <stdbool.h>

bool nimWin(const int *piles, int n);

bool nimWin(const int *piles, int n)
{
    unsigned nim_sum = 0;

    for (int i = 0; i < n; i++)
        nim_sum ^= (unsigned)piles[i];
    return nim_sum != 0;
}
