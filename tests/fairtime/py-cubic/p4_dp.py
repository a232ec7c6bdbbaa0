"""Mistake: the right recurrence (one row of the table kept, as in the
reference), but every range sum is recomputed with sum(L[i:i + length]):
O(N^3), far too slow for N in the thousands."""


def f(L):
    n = len(L)
    if n == 0:
        return 0
    cur = list(L)
    for length in range(2, n + 1):
        for i in range(n - length + 1):
            total = sum(L[i:i + length])
            cur[i] = total - min(cur[i], cur[i + 1])
    return cur[0]
