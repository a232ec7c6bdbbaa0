"""grundy -- Sprague-Grundy values of a subtraction game (reference in Python).

One pile of n stones; a move removes m stones for some m in moves (m at
most the pile); whoever cannot move loses.  grundy(n, moves) is the mex of
the values of the piles one move away (0 when no move is possible),
filled in a table from 0 up to n: O(n k) for k moves.  Moves of 0 or less
are no moves.
"""


def grundy(n, moves):
    if n < 0:
        return 0
    ms = [m for m in moves if m > 0]
    g = [0] * (n + 1)
    for v in range(n + 1):
        seen = set()
        for m in ms:
            if m <= v:
                seen.add(g[v - m])
        mex = 0
        while mex in seen:
            mex += 1
        g[v] = mex
    return g[n]
