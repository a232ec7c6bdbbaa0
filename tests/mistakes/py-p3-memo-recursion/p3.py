"""Mistake: the right game tree with memoisation, top-down.  Selecting
v + 1 first makes the recursion about n calls deep, and the recursion limit
is left at Python's default (1000): RecursionError from n of about 1000 on.
"""
from functools import lru_cache


def canWin(k, n):
    @lru_cache(maxsize=None)
    def wins(v):
        for s in (v + 1, 2 * v + 2, v * v + 1):
            if s == n or (s < n and not wins(s)):
                return True
        return False

    return k < n and wins(k)


def P3_CanWin(n):
    return not canWin(1, n)
