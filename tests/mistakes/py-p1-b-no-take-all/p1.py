"""Mistake: B may only remove 2, 3, 5 or 7 stones when that many are left
(the take-all rule is ignored for B); a player without a move loses.  So
BcanWin(1) comes out False."""


def tables(n):
    a = [False] * (n + 1)
    b = [False] * (n + 1)
    for i in range(1, n + 1):
        a[i] = any(not b[max(i - m, 0)] for m in (1, 2, 3, 4, 5, 6))
        b[i] = any(not a[i - m] for m in (2, 3, 5, 7) if m <= i)
    return a, b


def AcanWin(state):
    return tables(state)[0][state]


def BcanWin(state):
    return tables(state)[1][state]
