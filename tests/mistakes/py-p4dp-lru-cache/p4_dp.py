"""Mistake: top-down memoisation with functools.lru_cache over (i, j).
O(N^2) in principle, but N^2 / 2 cache entries (2 million for N = 2000)
and as many Python calls are far too much memory and time; the recursion
limit is raised for the depth of N."""
import sys
from functools import lru_cache

sys.setrecursionlimit(100000)


def f(L):
    prefix = [0]
    for x in L:
        prefix.append(prefix[-1] + x)

    @lru_cache(maxsize=None)
    def best(i, j):
        if i > j:
            return 0
        total = prefix[j + 1] - prefix[i]
        return total - min(best(i + 1, j), best(i, j - 1))

    return best(0, len(L) - 1)
