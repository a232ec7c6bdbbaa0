"""Problem 2 -- the multiplication game (reference solution in Python).

x starts at k (1 <= k < n).  The players alternately multiply x by one of
2..9; whoever first makes x >= n wins.  canWin(k, n) is True when the
first player can force a win.

Reasoning.  Whether x is a win for the player to move only depends on
which band below n it lies in:

  - if 9x >= n, i.e. x >= t1 = ceil(n / 9), the mover wins at once;
  - if x < t1 but 2x >= t1, i.e. x >= t2 = ceil(t1 / 2), every move lands
    in [t1, n) (9x < n, so nobody reaches n yet): the mover loses;
  - if x < t2 but 9x >= t2, i.e. x >= t3 = ceil(t2 / 9), the mover can
    land in the losing band [t2, t1): the multiples 2x, 3x, ..., 9x go
    past t2 in steps of x, and x <= t2 - 1 <= t1 - t2 (the band's width),
    so one of them falls inside the band: the mover wins;
  - and so on, alternately dividing the threshold by 9 (winning band) and
    by 2 (losing band), until the threshold is <= k; the band that
    contains k decides.

That is O(log n) steps, in exact integer arithmetic: the ceilings are
-(-t // d), never floating point (a float holds integers exactly only up
to 2^53, and n goes up to about 9.2e18).
"""


def _ceil_div(t, d):
    """ceil(t / d) for integers t >= 0, d > 0, exactly."""
    return -(-t // d)


def canWin(k, n):
    """True if the first player, starting from x = k, can force x >= n first."""
    # Outside the contract (k < 1: x never grows; k >= n: the game is over).
    if k < 1 or k >= n:
        return False
    threshold = n
    winning_band = True  # the band just below threshold wins for the mover
    while True:
        threshold = _ceil_div(threshold, 9 if winning_band else 2)
        if k >= threshold:
            return winning_band
        winning_band = not winning_band
