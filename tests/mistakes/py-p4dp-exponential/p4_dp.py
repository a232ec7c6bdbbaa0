"""Mistake: p4's exponential recursion handed in as the DP."""


def f(L):
    if not L:
        return 0
    if len(L) == 1:
        return L[0]
    return max(L[0] + sum(L[1:]) - f(L[1:]), L[-1] + sum(L[:-1]) - f(L[:-1]))
