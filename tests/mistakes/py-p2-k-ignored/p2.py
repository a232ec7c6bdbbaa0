"""Mistake: the classic game with k = 1 only; k is ignored."""


def canWin(k, n):
    x = 1
    while True:
        if x * 9 >= n:
            return True
        x *= 9
        if x * 2 >= n:
            return False
        x *= 2
