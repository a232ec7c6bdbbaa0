"""Mistake: the game tree searched without memoisation (exponential).

The recursion limit is raised, so for large n this is slow rather than
too deep.
"""
import sys

sys.setrecursionlimit(10**6)


def AcanWin(state):
    if state <= 0:
        return False
    for m in (1, 2, 3, 4, 5, 6):
        if not BcanWin(max(state - m, 0)):
            return True
    return False


def BcanWin(state):
    if state <= 0:
        return False
    for m in (2, 3, 5, 7):
        if not AcanWin(max(state - m, 0)):
            return True
    return False
