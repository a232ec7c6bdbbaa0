"""Problem 3 -- the selection game (reference solution in Python).

n > 5.  A opens by selecting 1; then the players alternately (B first)
select n_{i+1} in {n_i + 1, 2 n_i + 2, n_i^2 + 1}, never above n.
Whoever first selects n wins.

    canWin(k, n): True if the player who must select after k was selected
                  can force a win.
    P3_CanWin(n): True if A can force a win.

Reasoning.  Let win[v] mean "the player who must select after v (v being
the last selected number) can force a win".  Selecting n wins, so the
player facing v = n has lost: win[n] = False.  For v < n the player wins
iff some allowed successor s <= n has win[s] False.  Every successor is
larger than v, so we fill win[] from n - 1 down to k (backward
induction), one byte per value in a bytearray: O(n) time, n bytes of
memory, no recursion.  After A selects 1 it is B's turn, so A wins iff
B, facing 1, loses: P3_CanWin(n) = not canWin(1, n).
"""


def canWin(k, n):
    """True if the player to select after k was selected can force a win."""
    if k >= n:  # n was selected (or passed): the player to move has lost
        return False
    win = bytearray(n + 1)  # win[n] = 0: facing n, the game is lost
    for v in range(n - 1, k - 1, -1):
        win[v] = (not win[v + 1]
                  or (2 * v + 2 <= n and not win[2 * v + 2])
                  or (v * v + 1 <= n and not win[v * v + 1]))
    return bool(win[k])


def P3_CanWin(n):
    """True if A, who opens by selecting 1, can force a win."""
    return not canWin(1, n)
