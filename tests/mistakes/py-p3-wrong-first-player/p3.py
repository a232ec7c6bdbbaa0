"""Mistake: canWin(k, n) is right, but P3_CanWin forgets that after A
selects 1 it is B who moves: it returns canWin(1, n) instead of
not canWin(1, n), the answer for the wrong player."""


def canWin(k, n):
    win = bytearray(n + 1)
    for v in range(n - 1, k - 1, -1):
        win[v] = (not win[v + 1]
                  or (2 * v + 2 <= n and not win[2 * v + 2])
                  or (v * v + 1 <= n and not win[v * v + 1]))
    return bool(win[k])


def P3_CanWin(n):
    return canWin(1, n)
