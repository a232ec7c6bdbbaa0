"""Problem 4 (DP) -- the card row game, O(N^2) dynamic programme
(reference solution in Python).

A row of cards with integer scores; the players alternately take the
leftmost or the rightmost card.  f(L) is the best total the first player
can guarantee.

Reasoning.  Let best(i, j) be what the player to move can guarantee on
the cards L[i..j].  Whatever card is taken, the opponent then moves first
on the remaining row, and the mover gets everything the opponent does
not:

    best(i, j) = sum(i..j) - min(best(i+1, j), best(i, j-1)),
    best(i, i) = L[i].

The textbook solution fills an N x N table by increasing row length.
Row length `length` only needs the values for length - 1, so we keep one
list cur[i] = best(i, i+length-1) and update it in place for increasing i
(cur[i] and cur[i+1] still hold the length - 1 values when cur[i] is
overwritten).  Range sums come from prefix sums.  O(N^2) time, O(N)
memory, no recursion.
"""
from itertools import accumulate


def f(L):
    """The best total the first player can guarantee on the row L."""
    n = len(L)
    if n == 0:
        return 0
    prefix = [0] + list(accumulate(L))  # prefix[i] = sum(L[:i])
    cur = list(L)  # rows of length 1
    for length in range(2, n + 1):
        for i in range(n - length + 1):
            total = prefix[i + length] - prefix[i]
            opp_left = cur[i + 1]  # we took L[i]
            opp_right = cur[i]  # we took L[i + length - 1]
            cur[i] = total - (opp_left if opp_left < opp_right else opp_right)
    return cur[0]
