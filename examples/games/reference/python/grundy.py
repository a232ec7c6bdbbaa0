"""grundy -- Sprague-Grundy values of a subtraction game (reference in Python).

One pile of n stones; a move removes m stones for some m in moves (m at
most the pile); whoever cannot move loses.  grundy(n, moves) is the mex of
the values of the piles one move away (0 when no move is possible), filled
in a list from 0 up to n: O(n k) for k moves.  0 <= n <= 1 000 000; the
moves are distinct and at least 1.
"""


def grundy(n, moves):
    g = []
    for v in range(n + 1):
        options = {g[v - m] for m in moves if m <= v}
        mex = 0
        while mex in options:
            mex += 1
        g.append(mex)
    return g[-1]
