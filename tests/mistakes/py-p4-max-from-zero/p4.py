"""Mistake: the recursion of the hint, but the best value starts at 0, so a
row where every choice loses points comes out as 0."""


def f(L):
    if not L:
        return 0
    if len(L) == 1:
        return L[0]
    best = 0
    for option in (L[0] + sum(L[1:]) - f(L[1:]), L[-1] + sum(L[:-1]) - f(L[:-1])):
        if option > best:
            best = option
    return best
