"""Mistake: both players greedily take the larger end card."""


def f(L):
    i, j = 0, len(L) - 1
    mine = 0
    turn = 0
    while i <= j:
        if L[i] >= L[j]:
            card = L[i]
            i += 1
        else:
            card = L[j]
            j -= 1
        if turn % 2 == 0:
            mine += card
        turn += 1
    return mine
