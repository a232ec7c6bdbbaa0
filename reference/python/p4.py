"""Problem 4 -- the card row game, plain recursion (reference solution in Python).

A row of cards with integer scores; the players alternately take the
leftmost or the rightmost card.  f(L) is the best total the first player
can guarantee.

Reasoning (the hint).  If the first player takes L[0], the opponent then
plays first on L[1:] and gets f(L[1:]); the first player gets the rest of
that row.  Symmetrically for L[-1].  So

    f(L) = max(L[0]  + sum(L[1:])  - f(L[1:]),
               L[-1] + sum(L[:-1]) - f(L[:-1])),

with f of one card = that card and f of no cards = 0.  This is the plain
recursion, on purpose without memoisation: about 2^len(L) calls, meant
for short rows only (p4_dp.py is the fast version).  Python integers do
not overflow, so large card values need no care.
"""


def f(L):
    """The best total the first player can guarantee on the row L."""
    if len(L) == 0:
        return 0
    if len(L) == 1:
        return L[0]
    take_left = L[0] + sum(L[1:]) - f(L[1:])
    take_right = L[-1] + sum(L[:-1]) - f(L[:-1])
    return max(take_left, take_right)
