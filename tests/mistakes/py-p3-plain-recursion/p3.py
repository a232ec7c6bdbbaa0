"""Mistake: the game tree searched without remembering positions.

canWin(k, n) tries all three moves from k and recurses: the same positions
are searched again and again, so the time grows exponentially with n."""


def canWin(k, n):
    for m in (k + 1, 2 * k + 2, k * k + 1):
        if m == n:
            return True
        if m < n and not canWin(m, n):
            return True
    return False


def P3_CanWin(n):
    return not canWin(1, n)
