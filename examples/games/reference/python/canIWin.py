"""canIWin -- LeetCode 464 "Can I Win" (reference solution in Python).

Two players take turns picking a number from 1..maxChoosableInteger, each
number at most once; whoever first brings the running total to
desiredTotal or beyond wins.  canIWin is True when the first player can
force a win.  1 <= M <= 20, 0 <= T <= 300.

Reasoning.  A position is the set of used numbers, a bit mask (bit i for
the number i + 1): what remains to be reached follows from it.  The player to
move wins iff some free number i reaches the total (i >= remaining) or
leaves the opponent a losing position; each mask is searched once and
remembered in a dict.  If all numbers together stay below the total nobody
wins (False): without that check the search would call the player who
makes the last pick the winner.
"""


def canIWin(maxChoosableInteger, desiredTotal):
    m = maxChoosableInteger
    if m * (m + 1) // 2 < desiredTotal:
        return False
    memo = {}

    def wins(used, remaining):
        if used not in memo:
            memo[used] = any(not used >> i & 1 and (i + 1 >= remaining or not wins(used | 1 << i, remaining - i - 1))
                             for i in range(m))
        return memo[used]

    return wins(0, desiredTotal)
