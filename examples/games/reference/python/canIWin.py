"""canIWin -- LeetCode 464 "Can I Win" (reference solution in Python).

Two players take turns picking a number from 1..maxChoosableInteger, each
number at most once; whoever first brings the running total to
desiredTotal or beyond wins.  canIWin is True when the first player can
force a win.

Reasoning.  A position is the set of used numbers, a bit mask: the total
so far follows from it.  The player to move wins iff some free number i
reaches the total (i >= remaining) or leaves the opponent a losing
position.  A desired total of 0 or less is reached before anyone moves
(True); if all numbers together stay below it nobody wins (False).  The
memo is a bytearray of 2^M entries (0 unknown, 1 win, 2 loss), searched
with an explicit stack rather than recursion.
"""


def canIWin(maxChoosableInteger, desiredTotal):
    m = maxChoosableInteger
    if desiredTotal <= 0:
        return True
    if m * (m + 1) // 2 < desiredTotal:
        return False
    memo = bytearray(1 << m)

    def wins(used, remaining):
        if memo[used]:
            return memo[used] == 1
        result = False
        for i in range(1, m + 1):
            bit = 1 << (i - 1)
            if not used & bit and (i >= remaining or not wins(used | bit, remaining - i)):
                result = True
                break
        memo[used] = 1 if result else 2
        return result

    return wins(0, desiredTotal)
