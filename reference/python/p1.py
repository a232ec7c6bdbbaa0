"""Problem 1 -- a partizan stone game (reference solution in Python).

There are n stones.  A may remove 1-6 stones, B may remove 2, 3, 5 or 7.
A player whose allowed amount exceeds what is left may take everything
that is left.  Whoever takes the last stone wins.

    AcanWin(n): A is to move with n stones left; True if A can force a win.
    BcanWin(n): B is to move with n stones left; True if B can force a win.

Reasoning.  Write a(i) = "A, to move with i stones left, can force a win"
and b(i) likewise for B.  With no stones left the player to move has
already lost (the opponent took the last stone), so a(0) = b(0) = False.
Taking m stones from i leaves max(i - m, 0) stones (an amount larger than
what is left takes everything), so

    a(i) = some m in {1..6}      with  b(max(i - m, 0)) False,
    b(i) = some m in {2,3,5,7}   with  a(max(i - m, 0)) False.

Both only look back at most 7 stones, so we fill the two tables for
i = 1, 2, ..., n keeping only the last 8 entries (index i % 8): O(n) time,
O(1) memory.  The window starts all False, the value of 0 stones.  While
i < 8 a move that takes more than is left points at i - m < 0, whose slot
(i - m) % 8 lies above i and has not been written yet, so it still holds
the value of 0 stones: that is the take-everything rule, with no special
case.  The moves are written out in full (not looped over) because this
loop runs a million times for the largest inputs.
"""

WINDOW = 8  # > the largest amount anyone may remove (7)


def _solve(n):
    """The pair (a(n), b(n)) for n >= 0."""
    w = WINDOW  # a local name: looked up faster than the global in the loop
    a = [False] * w
    b = [False] * w
    for i in range(1, n + 1):
        # A wins if one of its moves 1..6 leaves B a losing position.
        a[i % w] = not (b[(i - 1) % w] and b[(i - 2) % w] and b[(i - 3) % w]
                        and b[(i - 4) % w] and b[(i - 5) % w] and b[(i - 6) % w])
        # B wins if one of its moves 2, 3, 5, 7 leaves A a losing position.
        b[i % w] = not (a[(i - 2) % w] and a[(i - 3) % w]
                        and a[(i - 5) % w] and a[(i - 7) % w])
    return a[n % w], b[n % w]


def AcanWin(state):
    """True if A, to move with `state` stones left, can force a win."""
    if state <= 0:
        return False
    return _solve(state)[0]


def BcanWin(state):
    """True if B, to move with `state` stones left, can force a win."""
    if state <= 0:
        return False
    return _solve(state)[1]
